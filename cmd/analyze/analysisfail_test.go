package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/rules"
)

// TestAnalysisPanicExits5: a panic inside rule evaluation (injected through
// the evaluate seam) ends the run with exitAnalysis and one sentence on
// stderr, no stack trace, and the reports an earlier run left in -o as
// they were.
func TestAnalysisPanicExits5(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	old := map[string]string{}
	for _, f := range []string{"report.md", "report.html", "report.json"} {
		old[f] = "the earlier run's " + f
		if err := os.WriteFile(filepath.Join(out, f), []byte(old[f]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	evaluate = func(*rules.Table, *model.Gather) []rules.Finding {
		panic("slice bounds out of range [:-1]") // as a bug would give
	}
	defer func() { evaluate = rules.Evaluate }()
	code, stdout, stderr := run(t, tinyGather(t), "-o", out)
	if code != exitAnalysis {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitAnalysis, stderr)
	}
	if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "analyze: analysis failed: slice bounds out of range [:-1]") ||
		!strings.Contains(stderr, "no report was written") {
		t.Errorf("stderr is not one sentence saying what failed:\n%s", stderr)
	}
	for _, bad := range stackMarkers[:2] {
		if strings.Contains(stderr+stdout, bad) {
			t.Errorf("output holds %q", bad)
		}
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != len(old) {
		t.Errorf("-o holds %d entries, want the %d earlier reports", len(entries), len(old))
	}
	for f, want := range old {
		if got, err := os.ReadFile(filepath.Join(out, f)); err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want the earlier run's, untouched", f, got, err)
		}
	}
}

// TestRenderGuarded: a renderer's panic or own error is an analysisError
// naming the format; an error of the writer is not.
func TestRenderGuarded(t *testing.T) {
	var ae analysisError
	err := renderGuarded("html", io.Discard, func(io.Writer) error { panic("index out of range [3] with length 3") })
	if !errors.As(err, &ae) || err.Error() != "rendering report.html: index out of range [3] with length 3" {
		t.Errorf("panic: %v", err)
	}
	err = renderGuarded("json", io.Discard, func(io.Writer) error { return errors.New("json: unsupported value: NaN") })
	if !errors.As(err, &ae) {
		t.Errorf("renderer's error: %v, want an analysisError", err)
	}
	full := errors.New("no space left on device")
	err = renderGuarded("md", erroringWriter{full}, func(w io.Writer) error { _, err := w.Write([]byte("x")); return err })
	if errors.As(err, &ae) || !errors.Is(err, full) {
		t.Errorf("writer's error: %v, want it as is", err)
	}
}

type erroringWriter struct{ err error }

func (w erroringWriter) Write([]byte) (int, error) { return 0, w.err }

// doublingRule is a rule whose hint doubles {{.Cause}} 22 times over with
// nested templates (issue 34: 200 MB of reports, then out of memory).
func doublingRule() string {
	var b strings.Builder
	b.WriteString(`{{define "d0"}}{{.Cause}}{{end}}`)
	for i := 1; i <= 22; i++ {
		fmt.Fprintf(&b, `{{define "d%d"}}{{template "d%d" .}}{{template "d%d" .}}{{end}}`, i, i-1, i-1)
	}
	b.WriteString(`{{template "d22" .}}`)
	return `schemaVersion: 1
rules:
  - id: doubling
    version: 1
    severity: high
    title: Doubles itself
    category: crash-loop
    match:
      matcher: containerWaiting
      params: {reasons: [CrashLoopBackOff]}
      cause: 'Back-off[^\n]*'
    hint: '` + b.String() + `'
    remediation:
      - "Check it."
`
}

// TestSelfDoublingRule: `rules validate` refuses the self-doubling rule at
// its hint's line, and `analyze --rules` with it stops before reading the
// input with one clear message; nothing is written.
func TestSelfDoublingRule(t *testing.T) {
	p := filepath.Join(t.TempDir(), "doubling.yaml")
	if err := os.WriteFile(p, []byte(doublingRule()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := run(t, "rules", "validate", p)
	if code != exitUsage || !strings.Contains(stdout, "doubling.yaml:12: rule doubling: hint: define and block are not allowed in rule templates") {
		t.Errorf("validate: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr = run(t, tinyGather(t), "--rules", p, "-o", out)
	if code != exitUsage || !strings.Contains(stderr, "doubling.yaml:12: rule doubling: hint: define and block are not allowed") || len(stdout)+len(stderr) > 4<<10 {
		t.Errorf("analyze: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("-o %s was created", out)
	}
}
