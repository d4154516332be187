package report

import (
	"bytes"
	"strings"
	"testing"
)

func TestDamagedInputSaidFirst(t *testing.T) {
	tests := []struct {
		name       string
		incomplete string
		faults     []StreamFault
		term, md   string // how stdout and report.md start the notice
		html       string
	}{
		{"damaged", "", []StreamFault{{Kind: "damaged", Format: "gz", Error: "gzip: invalid checksum"}},
			"INPUT DAMAGED: the input's gzip stream is damaged (gzip: invalid checksum)\nBytes changed",
			"**Input damaged:** the input's gzip stream is damaged (gzip: invalid checksum). Bytes changed after the upload was written",
			"<strong>Input damaged:</strong> the input&#39;s gzip stream is damaged"},
		{"cut and a nested archive damaged", "input ends early, analysed what was read before: unexpected EOF",
			[]StreamFault{{Kind: "damaged", Stream: "upload/must-gather.tar.gz", Format: "gz", Error: "gzip: invalid checksum"},
				{Kind: "truncated", Format: "gz", Error: "unexpected EOF", Stopped: true}},
			"INPUT DAMAGED AND INCOMPLETE: input ends early, analysed what was read before: unexpected EOF; gzip stream upload/must-gather.tar.gz is damaged (gzip: invalid checksum)\nFindings and counts cover only what was read. Bytes changed",
			"**Input damaged and incomplete:** input ends early, analysed what was read before: unexpected EOF; gzip stream upload/must-gather.tar.gz is damaged",
			"<strong>Input damaged and incomplete:</strong>"},
		{"a cut zip", "input ends early, analysed what was read before: the zip was cut short (central directory missing): 3 files read before the cut; the input ends after the last member",
			[]StreamFault{{Kind: "truncated", Format: "zip", Error: "the zip was cut short (central directory missing): …", Stopped: true}},
			"INPUT INCOMPLETE: input ends early, analysed what was read before: the zip was cut short (central directory missing): 3 files read before the cut; the input ends after the last member\nFindings and counts cover only what was read.\n",
			"**Input incomplete:** input ends early, analysed what was read before: the zip was cut short (central directory missing)",
			"<strong>Input incomplete:</strong> input ends early"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := restartFindings(2)
			r.Gather.Incomplete, r.Gather.Faults = tt.incomplete, tt.faults
			var term bytes.Buffer
			if err := WriteTerminal(&term, r, TerminalOptions{}); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(term.String(), tt.term) {
				t.Errorf("stdout does not start with the notice:\n%s", term.String())
			}
			md := markdown(t, r, MarkdownOptions{})
			if at := strings.Index(md, tt.md); at < 0 || at > strings.Index(md, "## Summary") {
				t.Errorf("report.md does not say %q above its summary:\n%s", tt.md, md)
			}
			page := writeHTML(t, r)
			if at := strings.Index(page, tt.html); at < 0 || at > strings.Index(page, "<h2") {
				t.Errorf("report.html does not say %q before its first section", tt.html)
			}
			var js bytes.Buffer
			if err := WriteJSON(&js, r); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(js.String(), `"faults": [`) || !strings.Contains(js.String(), `"kind": "`+tt.faults[0].Kind+`"`) {
				t.Errorf("report.json lacks gather.faults")
			}
		})
	}
}

func TestNoNoticeForAWholeInput(t *testing.T) {
	r := restartFindings(1)
	if label, text, _ := InputNotice(r.Gather); label != "" || text != "" {
		t.Errorf("InputNotice = %q, %q", label, text)
	}
	var term bytes.Buffer
	WriteTerminal(&term, r, TerminalOptions{})
	if strings.Contains(term.String(), "INPUT ") {
		t.Errorf("stdout:\n%s", term.String())
	}
}
