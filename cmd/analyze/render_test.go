package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenderDiff: render --from diff.json gives what analyze diff wrote, in
// each format, with the diff writers.
func TestRenderDiff(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := run(t, "diff", changesNew, changesOld, "-o", out); code != exitOK {
		t.Fatalf("diff: exit %d: %s", code, stderr)
	}
	for _, format := range []string{"md", "html", "json"} {
		t.Run(format, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(out, "diff."+format))
			must(t, err)
			code, got, stderr := run(t, "render", "--from", filepath.Join(out, "diff.json"), "--format", format)
			if code != exitOK || got != string(want) {
				t.Errorf("render --format %s of diff.json: exit %d, %d bytes, diff.%s has %d; stderr %s", format, code, len(got), format, len(want), stderr)
			}
		})
	}
	code, _, stderr := run(t, "render", "--from", filepath.Join(out, "diff.json"), "--redact")
	if code != exitUsage || !strings.Contains(stderr, "is a diff.json of 'analyze diff', which render cannot redact") {
		t.Errorf("render --redact of a diff: exit %d, %s", code, stderr)
	}
}

// TestRenderRefusesOtherFiles: a file that is no report of mgtriage, or a
// report with a wrong value, is refused with exit 2 and a sentence that says
// what the file is and what render reads, in words, not Go's type names.
func TestRenderRefusesOtherFiles(t *testing.T) {
	dir := t.TempDir()
	const reads = "render reads the report.json that 'analyze PATH' writes and the diff.json that 'analyze diff OLD NEW' writes"
	tests := []struct {
		name, content, want string
	}{
		{"another JSON object", `{"kind":"PodList","items":[]}`, `is not a report of mgtriage: it is a JSON object with neither a "gather" object (report.json) nor "old", "new" and "sameCluster" (diff.json). ` + reads},
		{"an array", `[1,2]`, "does not start with a JSON object. " + reads},
		{"YAML", "apiVersion: v1\nkind: Pod\n", "does not start with a JSON object. " + reads},
		{"empty", "", "is not a report of mgtriage: it is empty. " + reads},
		{"truncated", `{"schemaVersion":1,"gather":{`, "is not a report of mgtriage: it is not valid JSON"},
		{"report with a string count", `{"schemaVersion":1,"gather":{"files":"many"}}`, "looks like a report.json of analyze but cannot be read: field gather.files holds a string where a whole number belongs"},
		{"report with a bad time", `{"schemaVersion":1,"gather":{"collectedAt":5}}`, "looks like a report.json of analyze but cannot be read: a time is not an RFC 3339 string"},
		{"diff with a findings object", `{"schemaVersion":1,"old":{},"new":{},"sameCluster":"cluster ID","findings":{}}`, "looks like a diff.json of 'analyze diff' but cannot be read: field findings holds an object where an array belongs"},
		{"newer diff", `{"schemaVersion":99,"old":{},"new":{},"sameCluster":"cluster ID"}`, "diff schemaVersion 99 is newer than 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".json")
			must(t, os.WriteFile(p, []byte(tt.content), 0o644))
			code, stdout, stderr := run(t, "render", "--from", p, "--format", "html")
			if code != exitInput || !strings.Contains(stderr, tt.want) || stdout != "" {
				t.Errorf("exit %d, stderr %q, want exit %d and %q", code, stderr, exitInput, tt.want)
			}
			for _, goWords := range []string{"json: ", "Go struct", "unmarshal", "Go value"} {
				if strings.Contains(stderr, goWords) {
					t.Errorf("stderr speaks Go (%q): %s", goWords, stderr)
				}
			}
		})
	}
}
