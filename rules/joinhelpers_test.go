package rules

import (
	"path/filepath"
	"strings"
	"testing"
)

// joinCase is one row of a join's fire / no-fire table: the gather of a
// named case of testdata/cases/<Rule>.yaml, on whose matcher hits the join
// runs directly (not through the rule's cause or require).
type joinCase struct {
	// Rule is the case file (a rule that names the join), Case the name of
	// one of its fires or quiet cases.
	Rule, Case string
	// Decided is whether the join must decide on some hit; CauseHas are
	// words its cause must then hold.
	Decided  bool
	CauseHas []string
}

// loadCase returns the case named name of testdata/cases/<rule>.yaml.
func loadCase(t *testing.T, rule, name string) gatherCase {
	t.Helper()
	rc := readCases(t, filepath.Join("testdata", "cases", rule+".yaml"))
	for _, c := range append(rc.Fires, rc.Quiet...) {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("testdata/cases/%s.yaml has no case %q", rule, name)
	return gatherCase{}
}

// runJoinOnCase builds the case's gather, runs the rule's matcher over its
// pods and the join on every hit, and returns the join's results. It fails
// when the matcher hits nothing, so that a no-fire row proves the join, not
// the matcher, stays silent.
func runJoinOnCase(t *testing.T, joinName string, jc joinCase) []joinResult {
	t.Helper()
	j, ok := lookupJoin(joinName)
	if !ok {
		t.Fatalf("no join %q", joinName)
	}
	var rule *Rule
	for _, r := range Builtin().Rules {
		if r.ID == jc.Rule {
			rule = r
		}
	}
	if rule == nil {
		t.Fatalf("no built-in rule %s", jc.Rule)
	}
	m := rule.matcher
	if m.on() != onPod {
		t.Fatalf("rule %s has no pod matcher", jc.Rule)
	}
	g := loadCase(t, jc.Rule, jc.Case).build(t)
	c := newEvalContext(g)
	var out []joinResult
	for _, s := range c.subjects(onPod) {
		for _, h := range m.match(c, s) {
			out = append(out, j.run(c, s.Pod, &h))
		}
	}
	if len(out) == 0 {
		t.Fatalf("case %s/%q: matcher %s hits no pod", jc.Rule, jc.Case, rule.Match.Matcher)
	}
	return out
}

// testJoinTable runs a join's fire / no-fire table.
func testJoinTable(t *testing.T, joinName string, cases []joinCase) {
	t.Helper()
	var fires, quiet bool
	for _, jc := range cases {
		fires = fires || jc.Decided
		quiet = quiet || !jc.Decided
		t.Run(jc.Rule+"/"+jc.Case, func(t *testing.T) {
			var decided *joinResult
			for _, res := range runJoinOnCase(t, joinName, jc) {
				if res.Decided {
					decided = &res
					break
				}
			}
			switch {
			case jc.Decided && decided == nil:
				t.Fatalf("join %s did not decide", joinName)
			case !jc.Decided && decided != nil:
				t.Fatalf("join %s decided: %s", joinName, decided.Cause)
			case decided != nil:
				for _, w := range jc.CauseHas {
					if !strings.Contains(decided.Cause, w) {
						t.Errorf("cause lacks %q: %s", w, decided.Cause)
					}
				}
			}
		})
	}
	if !fires || !quiet {
		t.Errorf("join %s needs a row that decides and one that does not", joinName)
	}
}
