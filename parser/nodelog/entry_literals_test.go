package nodelog

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
)

// TestPodFindLiteralsRequired: findPod skips an expression when its literal
// is missing, so each literal must be part of every match: a literal run in
// the expression's top-level concatenation.
func TestPodFindLiteralsRequired(t *testing.T) {
	for i, re := range []*regexp.Regexp{podNameUIDRe, forPodRe, podQuotedRe} {
		lit := podFindLiterals[i]
		tree, err := syntax.Parse(re.String(), syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		tree = tree.Simplify()
		if tree.Op != syntax.OpConcat {
			t.Fatalf("%s: not a concatenation", re)
		}
		found := false
		for _, sub := range tree.Sub {
			if sub.Op == syntax.OpLiteral && sub.Flags&syntax.FoldCase == 0 && strings.Contains(string(sub.Rune), lit) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: %q is not a required literal of it", re, lit)
		}
	}
}
