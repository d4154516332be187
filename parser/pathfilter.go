package parser

import (
	"regexp"
	"regexp/syntax"
	"strings"
)

// pathLiterals holds, for each of pathRules, the literals that every path its
// pattern matches contains (none when none is known), so that classify rejects
// most paths with strings.Contains before running the pattern. They are
// derived from the patterns themselves, so a rule added to pathRules is never
// blinded by a stale filter.
var pathLiterals = func() [][]string {
	out := make([][]string, len(pathRules))
	for i, r := range pathRules {
		out[i] = requiredLiterals(r.re)
	}
	return out
}()

// containsAll reports whether s contains every one of lits.
func containsAll(s string, lits []string) bool {
	for _, l := range lits {
		if !strings.Contains(s, l) {
			return false
		}
	}
	return true
}

// requiredLiterals returns literals that every match of re contains: the
// case-sensitive literals among the top-level parts of the pattern's
// concatenation (a literal in a capture group counts); nil when there are none.
func requiredLiterals(re *regexp.Regexp) []string {
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	tree = tree.Simplify()
	parts := []*syntax.Regexp{tree}
	if tree.Op == syntax.OpConcat {
		parts = tree.Sub
	}
	var out []string
	for _, p := range parts {
		if p.Op == syntax.OpCapture && len(p.Sub) == 1 {
			p = p.Sub[0]
		}
		if p.Op == syntax.OpLiteral && p.Flags&syntax.FoldCase == 0 && len(p.Rune) > 0 {
			out = append(out, string(p.Rune))
		}
	}
	return out
}
