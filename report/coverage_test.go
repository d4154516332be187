package report

import (
	"bytes"
	"strings"
	"testing"
)

// A report whose input held no pods must say so wherever it would otherwise
// say that no rule fired.
func TestNoRuleFiredIsNotACleanBillWithoutPods(t *testing.T) {
	onlyJournals := &Report{SchemaVersion: SchemaVersion, SchemaMinor: SchemaMinor, Gather: Gather{
		Layouts: []Layout{{Root: "sosreport-w0/", Kind: "sosreport", Node: "w0"}},
		Coverage: Coverage{
			Used:         []FileCount{{"node journals (service logs)", 1}},
			JournalLines: 1200,
			Kinds: []KindCoverage{
				{Kind: "events", State: "not gathered", Used: true},
				{Kind: "nodes", State: "not gathered", Used: true},
				{Kind: "pods", State: "not gathered", Used: true},
			},
		},
	}}
	withPods := &Report{SchemaVersion: SchemaVersion, SchemaMinor: SchemaMinor, Gather: Gather{
		Coverage: Coverage{Kinds: []KindCoverage{
			{Kind: "events", State: "gathered", Objects: 3, Namespaces: 1, Used: true},
			{Kind: "nodes", State: "gathered", Objects: 1, Cluster: true, Used: true},
			{Kind: "pods", State: "gathered", Objects: 2, Namespaces: 1, Used: true},
		}},
	}}
	writers := map[string]func(*bytes.Buffer, *Report) error{
		"md":       func(b *bytes.Buffer, r *Report) error { return WriteMarkdown(b, r, MarkdownOptions{}) },
		"html":     func(b *bytes.Buffer, r *Report) error { return WriteHTML(b, r) },
		"terminal": func(b *bytes.Buffer, r *Report) error { return WriteTerminal(b, r, TerminalOptions{}) },
	}
	for name, write := range writers {
		t.Run(name, func(t *testing.T) {
			for _, tt := range []struct {
				r          *Report
				want, not  []string
				hasSection bool
			}{
				{onlyJournals, []string{"it has no events, nodes or pods, so this is not a clean bill of health", "sosreport at sosreport-w0/"}, []string{"No rule fired."}, true},
				{withPods, []string{"No rule fired."}, []string{"not a clean bill of health"}, true},
			} {
				r := *tt.r
				r.Normalize()
				var b bytes.Buffer
				if err := write(&b, &r); err != nil {
					t.Fatal(err)
				}
				out := b.String()
				for _, w := range tt.want {
					if !strings.Contains(out, w) {
						t.Errorf("lacks %q:\n%s", w, out)
					}
				}
				for _, n := range tt.not {
					if strings.Contains(out, n) {
						t.Errorf("says %q:\n%s", n, out)
					}
				}
				if !strings.Contains(strings.ToLower(out), "coverage") {
					t.Errorf("no coverage section:\n%s", out)
				}
			}
		})
	}
}

func TestCoverageLinesOfAnOlderReport(t *testing.T) {
	r := &Report{SchemaVersion: 1}
	r.Normalize()
	lines := coverageLines(r)
	if len(lines) != 1 || !strings.Contains(lines[0].Text, "not recorded") {
		t.Errorf("an older report's coverage: %+v", lines)
	}
	if got := kindState(KindCoverage{Kind: "pods", State: "gathered", Objects: 1204, Namespaces: 52}); got != "gathered in 52 namespaces (1204)" {
		t.Errorf("kindState = %q", got)
	}
}

// A sosreport whose host name could not be read still lists its layout,
// saying the host is unknown; other layouts do not name a host they lack.
func TestCoverageLayoutsHost(t *testing.T) {
	for _, c := range []struct {
		l    Layout
		want string
	}{
		{Layout{Root: "sosreport-w0/", Kind: "sosreport", Node: "w0"}, "sosreport at sosreport-w0/ (host w0)"},
		{Layout{Root: "sosreport-w0/", Kind: "sosreport"}, "sosreport at sosreport-w0/ (host unknown)"},
		{Layout{Root: "mg/", Kind: "must-gather"}, "must-gather at mg/"},
	} {
		r := &Report{SchemaVersion: 1, SchemaMinor: 1}
		r.Gather.Layouts = []Layout{c.l}
		lines := coverageLines(r)
		if len(lines) == 0 || lines[0].Label != "Layouts" || lines[0].Text != c.want {
			t.Errorf("%+v: %+v, want Layouts %q", c.l, lines, c.want)
		}
	}
}
