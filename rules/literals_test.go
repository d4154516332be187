package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/model"
)

func TestRequiredLiterals(t *testing.T) {
	tests := []struct {
		pattern string
		want    []model.Literal
	}{
		{`Waiting for volume`, []model.Literal{{Text: "Waiting for volume"}}},
		{`(?i)x509: [^"\\]*`, []model.Literal{{Text: "x509: ", Fold: true}}},
		{`lookup \S+ on \S+: timeout|EAI_AGAIN`, []model.Literal{{Text: ": timeout"}, {Text: "EAI_AGAIN"}}},
		{`(?:configmap|secret) "[^"]+" not found`, []model.Literal{{Text: `" not found`}}},
		{`[0-9]+`, nil},
		{`.*|error`, nil},
		{`ab`, nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, requiredLiterals(tt.pattern)); diff != "" {
			t.Errorf("requiredLiterals(%q) (-want +got):\n%s", tt.pattern, diff)
		}
	}
}

// TestRequiredAll: every part of a concatenated pattern that needs a literal
// gives its set; a pattern that is not a concatenation gives none.
func TestRequiredAll(t *testing.T) {
	got := requiredAll(`User "(?P<SA>system:serviceaccount:[a-z-]+:[a-z-]+)" cannot (?P<Verb>[a-z]+) resource "(?:pods|secrets)"`)
	want := [][]model.Literal{{{Text: `User "`}}, {{Text: "system:serviceaccount:"}}, {{Text: `" cannot `}}, {{Text: ` resource "`}}, {{Text: "pods"}, {Text: "secrets"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requiredAll (-want +got):\n%s", diff)
	}
	if got := requiredAll(`failed|refused`); got != nil {
		t.Errorf("an alternation gave %v, want nil", got)
	}
}

// TestLitFilter: the prefilter rules out only texts the expression cannot
// match, case folding included.
func TestLitFilter(t *testing.T) {
	for _, tc := range []struct {
		pattern, text string
	}{
		{`connection refused[^\n]*`, "dial tcp: connection refused now"},
		{`(?i)liveness probe failed`, "Liveness Probe FAILED: 503"},
		{`(?i)permission denied|read-only file system`, "open /data: Read-Only File System"},
		{`(?i)mask`, "MAſK"},      // ſ folds to s
		{`(?i)ſtop`, "STOP here"}, // a Fold literal beyond ASCII: no filter
		{`lookup (\S+) on ([0-9.]+):53: .*timeout`, "lookup db on 10.0.0.1:53: read udp: i/o timeout"},
		{`[0-9]+`, "42"},
	} {
		re := mustLitRegexp(tc.pattern)
		if !re.re.MatchString(tc.text) {
			t.Fatalf("%q does not match %q: a bad case", tc.pattern, tc.text)
		}
		if !re.MatchString(tc.text) || re.FindString(tc.text) == "" {
			t.Errorf("%q: the prefilter rules out %q, which matches", tc.pattern, tc.text)
		}
	}
	re := mustLitRegexp(`lookup (\S+) on ([0-9.]+):53: .*timeout`)
	for _, text := range []string{"lookup db on 10.0.0.1:53: refused", "timeout while reading"} {
		if re.admits(text) {
			t.Errorf("%q admitted: it holds not every literal the pattern needs", text)
		}
	}
	if re := mustLitRegexp(`(?i)liveness probe failed`); re.admits("Readiness probe failed: 503") || re.admits("lıveness probe failed") {
		t.Error("(?i)liveness probe failed admits a line without its words")
	}
}
