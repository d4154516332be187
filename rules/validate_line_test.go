package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestValidateReportsTheOffendingLine: every error of a rule file points at
// the line of the key that is wrong, not at the rule's "- id:" line.
func TestValidateReportsTheOffendingLine(t *testing.T) {
	const text = `schemaVersion: 1
rules:
  - id: bad-rule
    version: 1
    severity: urgent
    title: T
    hint: "{{.Nope"
    remediation:
      - step one
      - "{{.Broken"
    docs:
      - https://ok.example
      - http://not-https.example
    match:
      matcher: podStatus
      params:
        statuss: [x]
      cause: "([a-z"
    groupBy: everything
  - id: second
    version: 1
    severity: low
    title: T
    hint: H
    remediation: [x]
    frobnicate: yes
    match:
      matcher: noSuchMatcher
`
	p := filepath.Join(t.TempDir(), "r.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, e := range Validate(p) {
		for _, key := range []string{"severity", "hint:", "remediation[1]", "docs link", "statuss", "match.cause", "groupBy", "frobnicate", "unknown matcher"} {
			if strings.Contains(e.Msg, key) {
				got[key] = e.Line
			}
		}
	}
	want := map[string]int{"severity": 5, "hint:": 7, "remediation[1]": 10, "docs link": 13, "statuss": 17, "match.cause": 18, "groupBy": 19, "frobnicate": 26}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("error lines (-want +got):\n%s", diff)
	}
}

func TestFieldLines(t *testing.T) {
	text := strings.Split(`  - id: x
    severity: high
    match:
      matcher: podStatus
      params:
        reasons: [A]
      cause: "b"
    remediation:
      - one
      - two
    docs: [https://a]
  - id: y`, "\n")
	got := fieldLines(text, 1, 12)
	want := map[string]int{"id": 1, "severity": 2, "match": 3, "match.matcher": 4, "match.params": 5, "match.params.reasons": 6,
		"match.cause": 7, "remediation": 8, "remediation[0]": 9, "remediation[1]": 10, "docs": 11}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fieldLines (-want +got):\n%s", diff)
	}
}

// FuzzFieldLines: any rule file text gives lines inside the rule's range and
// never panics.
func FuzzFieldLines(f *testing.F) {
	f.Add("  - id: x\n    severity: high\n    match:\n      params:\n        a: [b]\n    remediation:\n      - one\n")
	f.Add("- id: y\n-\n  - :\n\t- a: b\n    c")
	f.Add("  - id: z\n    match: {matcher: m, params: {a: 1}}\n    docs: [https://x]\n")
	f.Fuzz(func(t *testing.T, s string) {
		text := strings.Split(s, "\n")
		end := len(text) + 1
		for k, n := range fieldLines(text, 1, end) {
			if n < 1 || n >= end {
				t.Fatalf("key %q at line %d, outside [1, %d)", k, n, end)
			}
		}
	})
}
