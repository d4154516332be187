package rules

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// TestUnfilledTemplateValueFailsWithLine: a pod rule whose hint uses a value
// only a node matcher fills ({{.First}}, nodeLogClass), and whose
// remediation uses {{.Decided}} without joins, fails to load, each problem at
// its own line of the file.
func TestUnfilledTemplateValueFailsWithLine(t *testing.T) {
	const text = `schemaVersion: 1
rules:
  - id: site-pod-first
    version: 1
    severity: low
    title: T
    match:
      matcher: podStatus
      params: {podReasons: [Evicted]}
    hint: "{{.Namespace}}/{{.Pod}} since {{.First}}"
    remediation:
      - "oc -n {{.Namespace}} delete pod {{.Pod}}"
      - "{{.Decided}}"
`
	p := filepath.Join(t.TempDir(), "site.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	errs := Validate(p)
	if len(errs) != 2 {
		t.Fatalf("want 2 errors, got %d:\n%v", len(errs), errs)
	}
	for i, want := range []struct {
		line  int
		words []string
	}{
		{10, []string{p + ":10: rule site-pod-first: hint uses {{.First}}, which nothing fills", "{{.First}} is filled by nodeLogClass"}},
		{13, []string{p + ":13: rule site-pod-first: remediation[1] uses {{.Decided}}", "needs joins"}},
	} {
		if errs[i].Line != want.line {
			t.Errorf("error %d at line %d, want %d: %v", i, errs[i].Line, want.line, errs[i])
		}
		for _, w := range want.words {
			if !strings.Contains(errs[i].Error(), w) {
				t.Errorf("error %d lacks %q:\n%v", i, w, errs[i])
			}
		}
	}
}

// TestMatchersFillWhatTheyDeclare: every value a matcher's hits carry, over
// the gathers of every rule case, is declared (its subject's base values or
// its own fills), so the load-time check trusts true declarations; and every
// declared value is a template variable.
func TestMatchersFillWhatTheyDeclare(t *testing.T) {
	for _, k := range matcherRegistry() {
		for _, v := range values(k.fills, podBaseValues(), nodeBaseValues(), causeValues(), joinValues()) {
			if !slices.Contains(VarNames(), v) {
				t.Errorf("matcher %s declares %q, which is not a template variable", k.name, v)
			}
		}
	}
	for _, r := range Builtin().Rules {
		data, err := os.ReadFile(filepath.Join("testdata", "cases", r.ID+".yaml"))
		if err != nil {
			continue // TestRuleCases reports it
		}
		var rc ruleCases
		if err := yaml.UnmarshalStrict(data, &rc); err != nil {
			t.Fatal(err)
		}
		kind, _ := lookupMatcher(r.Match.Matcher)
		declared := values(subjectValues(r.matcher), kind.fills)
		for _, gc := range append(rc.Fires, rc.Quiet...) {
			g := gc.build(t)
			c := newEvalContext(g)
			var hits []hit
			for _, s := range c.subjects(r.matcher.on()) {
				hits = append(hits, r.matcher.match(c, s)...)
			}
			for _, h := range hits {
				for v := range h.Vars {
					if !slices.Contains(declared, v) {
						t.Errorf("matcher %s (rule %s, case %q) fills %q, which it does not declare", r.Match.Matcher, r.ID, gc.Name, v)
					}
				}
			}
		}
	}
}

func TestTemplateValues(t *testing.T) {
	tpl, err := parseTemplate("t", "{{.Pod}} {{if .Decided}}{{cap .Fix}}{{else}}{{.Unchecked}}{{end}} {{with .Node}}{{.}}{{end}} {{.Pod}}")
	if err != nil {
		t.Fatal(err)
	}
	got := templateValues(tpl)
	want := []string{"Pod", "Decided", "Fix", "Unchecked", "Node"}
	if !slices.Equal(got, want) {
		t.Errorf("templateValues = %v, want %v", got, want)
	}
}

// TestMatcherParamsDocumented: every parameter of every matcher carries a
// doc tag, which the rule reference prints.
func TestMatcherParamsDocumented(t *testing.T) {
	for _, k := range matcherRegistry() {
		if k.doc == "" {
			t.Errorf("matcher %s has no doc", k.name)
		}
		if paramsText(k.new()) != "none" {
			for _, p := range strings.Split(paramsText(k.new()), "<br>") {
				if strings.HasSuffix(p, ": ") {
					t.Errorf("matcher %s: parameter %s has no doc tag", k.name, p)
				}
			}
		}
	}
}
