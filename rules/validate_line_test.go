package rules

import (
	"os"
	"path/filepath"
	"slices"
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
		msg, _, _ := strings.Cut(e.Msg, "; its keys are") // the list of known keys names them all
		for _, key := range []string{"severity", "hint:", "remediation[1]", "docs link", "statuss", "match.cause", "groupBy", "frobnicate", "unknown matcher"} {
			if strings.Contains(msg, key) {
				got[key] = e.Line
			}
		}
	}
	// The second rule's unknown key does not hide its unknown matcher.
	want := map[string]int{"severity": 5, "hint:": 7, "remediation[1]": 10, "docs link": 13, "statuss": 17, "match.cause": 18, "groupBy": 19, "frobnicate": 26, "unknown matcher": 28}
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

// TestValidateEveryProblemInYAMLWords: one run lists every problem of a rule
// file, not the first: unknown keys of the file, of each rule, of its match
// and of the matcher's params, values of the wrong kind, and the checks of the
// keys that did decode, each at its line with the rule's id, worded in YAML
// and rule-table terms (key, mapping, list, whole number), never Go's JSON
// decoder's ("json: unknown field", "Go struct field").
func TestValidateEveryProblemInYAMLWords(t *testing.T) {
	const text = `schemaVersion: 1
rulez: []
rules:
  - id: first-rule
    version: two
    severty: high
    title: T
    hint: H
    remediation: [x]
    match:
      matcher: containerWaiting
      parms: {}
      params:
        reasons: [A]
        colour: red
        logs: "yes"
  - title: no id first
    id: second-rule
    version: 1
    severity: urgent
    hint: H
    remediation: one step
    docs: [https://ok.example]
    matcher: podStatus
`
	p := filepath.Join(t.TempDir(), "r.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range Validate(p) {
		got = append(got, strings.TrimPrefix(e.Error(), p))
	}
	want := []string{
		`:2: unknown key "rulez" in a rule file (its keys: schemaVersion, version, released, rules, signatures) (did you mean "rules"?); its keys are released, rules, schemaVersion, signatures, version`,
		`:6: rule first-rule: unknown key "severty" in a rule (did you mean "severity"?); its keys are alternatives, category, disabled, docs, explains, general, group, groupBy, hint, id, joins, let, match, openshift, remediation, require, severity, title, version, where`,
		`:5: rule first-rule: version holds a string where a whole number belongs`,
		`:12: rule first-rule: unknown key "parms" in the match mapping (did you mean "params"?); its keys are cause, matcher, params`,
		`:15: rule first-rule: unknown key "colour" in the params of matcher containerWaiting; its keys are excludeLastReasons, init, lastExitCodes, logs, nodeLog, reasons`,
		`:16: rule first-rule: match.params.logs holds a string where true or false belongs`,
		`:24: rule second-rule: unknown key "matcher" in a rule (did you mean "match"?); its keys are alternatives, category, disabled, docs, explains, general, group, groupBy, hint, id, joins, let, match, openshift, remediation, require, severity, title, version, where`,
		`:22: rule second-rule: remediation holds a string where a list of strings belongs`,
		`:20: rule second-rule: severity "urgent" is not one of critical, high, medium, low, info`,
	}
	sortLines := func(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }
	if diff := cmp.Diff(sortLines(want), sortLines(got)); diff != "" {
		t.Errorf("validation errors (-want +got):\n%s", diff)
	}
	for _, e := range got {
		for _, goWords := range []string{"json:", "Go struct", "Go value", "unmarshal"} {
			if strings.Contains(e, goWords) {
				t.Errorf("%q speaks Go's JSON decoder (%q)", e, goWords)
			}
		}
	}
}

// TestValidateFileShapes: whole-file problems in YAML words, each once.
func TestValidateFileShapes(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"list at the top", "- id: x\n", ":1: a rule file is a mapping: `schemaVersion: 1` and `rules:` holding the list of rules"},
		{"rules is a mapping", "schemaVersion: 1\nrules:\n  id: x\n", ":2: rules holds a mapping where a list of rules belongs"},
		{"no schemaVersion", "rules: []\n", ":1: schemaVersion is missing; add `schemaVersion: 1` at the top"},
		{"schemaVersion a string", "schemaVersion: one\nrules: []\n", ":1: schemaVersion holds a string where a whole number belongs"},
		{"bad YAML", "schemaVersion: 1\nrules:\n  - id: x\n   bad: [\n", "not valid YAML: line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "r.yaml")
			if err := os.WriteFile(p, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			errs := Validate(p)
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.want) {
				t.Errorf("errors %q, want one with %q", errs.Error(), tt.want)
			}
		})
	}
}

// FuzzValidateRuleFile: any rule file gives errors with lines inside the file
// (or 0) and never panics, whatever its YAML.
func FuzzValidateRuleFile(f *testing.F) {
	f.Add("schemaVersion: 1\nrules:\n  - id: x\n    severty: high\n    match: {matcher: podStatus, params: {colour: 1}}\n")
	f.Add("- id: y\n")
	f.Add("schemaVersion: one\nrules: {a: b}\n")
	f.Add("schemaVersion: 1\nrules:\n- version: 1\n  id: z\n  remediation: x\n  docs: {a: 1}\n")
	f.Fuzz(func(t *testing.T, s string) {
		lines := strings.Count(s, "\n") + 1
		tbl := &Table{}
		errs := tbl.add("r.yaml", []byte(s), false)
		errs = append(errs, tbl.compile()...)
		for _, e := range errs {
			if e.Line < 0 || e.Line > lines {
				t.Fatalf("error at line %d of a %d-line file: %v", e.Line, lines, e)
			}
			if strings.Contains(e.Msg, "json: ") || strings.Contains(e.Msg, "Go struct") {
				t.Fatalf("error in Go's words: %v", e)
			}
		}
	})
}
