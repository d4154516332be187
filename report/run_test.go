package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestRunIDInEveryFormat: a report with a run ID carries it in each format
// (JSON run.id, the Markdown's first line, the HTML's <meta>); an ID that is
// not of the tool's shape (a hostile report.json read back) is left out of
// the Markdown and the HTML.
func TestRunIDInEveryFormat(t *testing.T) {
	tests := []struct {
		name, id string
		shown    bool
	}{
		{"tool's id", "20261120T091233Z-3f9a1c02", true},
		{"comment breaker", "x --><script>alert(1)</script>", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Report{SchemaVersion: SchemaVersion, SchemaMinor: SchemaMinor, Tool: Tool{Name: "mgtriage", Version: "dev"}, Run: &Run{ID: tt.id}}
			var md, html, js bytes.Buffer
			if err := WriteMarkdown(&md, r, MarkdownOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := WriteHTML(&html, r); err != nil {
				t.Fatal(err)
			}
			if err := WriteJSON(&js, r); err != nil {
				t.Fatal(err)
			}
			firstLine, _, _ := strings.Cut(md.String(), "\n")
			if got := firstLine == "<!-- mgtriage run "+tt.id+" -->"; got != tt.shown {
				t.Errorf("Markdown's first line %q, want the id shown: %v", firstLine, tt.shown)
			}
			if got := strings.Contains(html.String(), `<meta name="mgtriage-run" content="`+tt.id+`">`); got != tt.shown {
				t.Errorf("HTML meta shown %v, want %v", got, tt.shown)
			}
			if strings.Contains(md.String(), "<script>") || strings.Contains(html.String(), "<script>alert") {
				t.Errorf("a hostile run id reached the Markdown or the HTML")
			}
			back, err := ReadJSON(&js)
			if err != nil {
				t.Fatal(err)
			}
			if back.Run == nil || back.Run.ID != tt.id {
				t.Errorf("run.id read back %+v, want %q", back.Run, tt.id)
			}
		})
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, &Report{SchemaVersion: SchemaVersion}, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(md.String(), "<!--") {
		t.Errorf("a report without a run has a run comment: %q", md.String()[:40])
	}
}
