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

// rootPrefix is how the patterns of pathRules begin: an optional folder
// path (the gather's root) before the part that names the file.
const rootPrefix = `^(.*/)?`

// pathTail is a pattern of pathRules split at its root: lead is a literal
// every match of the rest begins with, re the rest anchored at the start.
type pathTail struct {
	lead string
	re   *regexp.Regexp
}

// pathTails holds, for each of pathRules whose pattern begins with
// rootPrefix followed by a literal, its tail; nil for the others. Matching a
// tail at each folder boundary that starts with lead, from the right, gives
// what the whole pattern gives (its greedy root prefers the longest root)
// without the engine trying every split of the path: most of classify's time.
var pathTails = func() []*pathTail {
	out := make([]*pathTail, len(pathRules))
	for i, r := range pathRules {
		src := r.re.String()
		if !strings.HasPrefix(src, rootPrefix) {
			continue
		}
		rest := src[len(rootPrefix):]
		tree, err := syntax.Parse(rest, syntax.Perl)
		if err != nil {
			continue
		}
		first := tree
		if tree.Op == syntax.OpConcat {
			first = tree.Sub[0]
		}
		if first.Op != syntax.OpLiteral || first.Flags&syntax.FoldCase != 0 || len(first.Rune) == 0 {
			continue
		}
		out[i] = &pathTail{lead: string(first.Rune), re: regexp.MustCompile("^" + rest)}
	}
	return out
}()

// matchRule is pathRules[i].re.FindStringSubmatch(p), through the rule's
// tail where it has one.
func matchRule(i int, p string) []string {
	t := pathTails[i]
	if t == nil {
		return pathRules[i].re.FindStringSubmatch(p)
	}
	// Each folder boundary from the right, then the start: the root is
	// p[:start].
	for s := len(p); ; {
		j := strings.LastIndexByte(p[:s], '/')
		start := j + 1
		if strings.HasPrefix(p[start:], t.lead) {
			if m := t.re.FindStringSubmatch(p[start:]); m != nil {
				out := make([]string, len(m)+1)
				out[0], out[1] = p, p[:start]
				copy(out[2:], m[1:])
				return out
			}
		}
		if j < 0 {
			return nil
		}
		s = j
	}
}
