package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestTerminalNamesWrittenReports: the line under a cut findings table names
// the reports that were written, and only those (with --format json, no
// "Markdown and HTML reports").
func TestTerminalNamesWrittenReports(t *testing.T) {
	for _, c := range []struct {
		reports []string
		want    string
	}{
		{[]string{"report.json"}, "… and 2 more findings in report.json.\n"},
		{[]string{"report.md", "report.html", "report.json"}, "… and 2 more findings in report.md, report.html and report.json.\n"},
		{nil, "… and 2 more findings not listed.\n"},
	} {
		var buf bytes.Buffer
		if err := WriteTerminal(&buf, loadReport(t), TerminalOptions{MaxFindings: 1, Reports: c.reports}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if !strings.HasSuffix(out, c.want) || strings.Contains(out, "Markdown and HTML") {
			t.Errorf("reports %v: want the output to end in %q:\n%s", c.reports, c.want, out)
		}
	}
}
