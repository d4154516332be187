package main

import (
	"strings"
	"testing"
)

// TestStdoutNamesWrittenReports: the line under the findings table on stdout
// names the reports this run wrote (with --format json, report.json, not "the
// Markdown and HTML reports"); --top 0 lists every finding, with no such line.
func TestStdoutNamesWrittenReports(t *testing.T) {
	code, stdout, stderr := run(t, "--format", "json", "--top", "2", "-o", t.TempDir(), sampleGather)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "more findings in report.json.\n") || strings.Contains(stdout, "Markdown") || strings.Contains(stdout, "report.md") {
		t.Errorf("--format json: stdout names reports that were not written:\n%s", stdout)
	}
	code, all, stderr := run(t, "--format", "md,json", "--top", "0", "-o", t.TempDir(), sampleGather)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(all, "more finding") || strings.Count(all, "\n") <= strings.Count(stdout, "\n") {
		t.Errorf("--top 0 does not list every finding:\n%s", all)
	}
}
