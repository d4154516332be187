package rules

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mgtriage/mgtriage/parser/model"
)

// Needs is what a load must give the table's enabled rules: the kinds their
// matchers and joins read typed (decodeKinds), the literals of
// lineLiterals, and the namespaces of the node agents whose logs the
// signatures read (Signature.AgentLogs). A run that evaluates the table loads its gather with it
// (merged with what else the run reads, model.Needs.Merge).
func (t *Table) Needs() model.Needs {
	return model.Needs{Decode: t.decodeKinds(), KeepLines: t.lineLiterals(), KeepLogsOf: t.agentNamespaces, LogLines: t.runningLiterals()}
}

// runningLiterals returns the literals of the enabled signatures marked
// running (Signature.Running): the parser keeps the container-log lines that
// hold one whatever the container's state (model.Needs.LogLines).
func (t *Table) runningLiterals() []model.Literal {
	var out []model.Literal
	seen := map[model.Literal]bool{}
	for _, s := range t.Signatures {
		if s.Disabled || !s.Running {
			continue
		}
		for _, l := range s.lits {
			if !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
	}
	return out
}

// lineLiterals returns, for every enabled user rule (read with Override),
// literals that any line its cause pattern (and a nodeLogClass pattern) can
// match must contain: the parser keeps the node-log lines that hold one of
// them even where its fixed selection would drop them
// (model.Needs.KeepLines), so that a user rule sees the lines it asks
// for. The built-in rules' patterns are written for the lines the fixed
// selection keeps and add nothing (widening by them costs about a fifth more
// CPU on a full must-gather for no finding). A pattern with no literal of at
// least three characters that every match must contain (`.*error`, `[0-9]+`)
// adds none; docs/rules.md says so next to `cause`.
func (t *Table) lineLiterals() []model.Literal {
	var out []model.Literal
	seen := map[model.Literal]bool{}
	add := func(pattern string) {
		for _, l := range requiredLiterals(pattern) {
			if !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
	}
	for _, r := range t.Rules {
		if r.Disabled || !r.local {
			continue
		}
		if r.cause != nil {
			add(r.cause.String())
		}
		if m, ok := r.matcher.(*nodeLogClass); ok && m.pattern != nil {
			add(m.pattern.String())
		}
	}
	return out
}

// requiredLiterals returns literals of which every match of pattern contains
// at least one, or nil when there is no such set of literals of at least
// minRequired bytes each.
func requiredLiterals(pattern string) []model.Literal {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	lits, ok := required(re.Simplify())
	if !ok {
		return nil
	}
	return lits
}

// requiredAll returns, for a pattern that is a concatenation, the literal
// set of each of its parts that has one: every match holds a literal of
// every set (requiredLiterals keeps only the best one). A signature's
// prefilter checks them all before its expression runs, which rules out most
// lines that hold one common literal ("system:serviceaccount:") and not the
// others. nil when the pattern is not a concatenation.
func requiredAll(pattern string) [][]model.Literal {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	re = re.Simplify()
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	if re.Op != syntax.OpConcat {
		return nil
	}
	var out [][]model.Literal
	for _, sub := range re.Sub {
		if lits, ok := required(sub); ok {
			out = append(out, lits)
		}
	}
	return out
}

// minRequired is the shortest literal worth filtering on.
const minRequired = 3

// required computes the literal set of one regexp node: for a literal, itself;
// for a concatenation, the best set among its parts (the one whose shortest
// literal is longest); for an alternation, the union of its branches' sets
// (every branch needs one). ok is false when no set exists.
func required(re *syntax.Regexp) ([]model.Literal, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if len(string(re.Rune)) < minRequired {
			return nil, false
		}
		fold := re.Flags&syntax.FoldCase != 0
		text := string(re.Rune)
		if fold {
			text = strings.ToLower(text)
		}
		return []model.Literal{{Text: text, Fold: fold}}, true
	case syntax.OpCapture:
		return required(re.Sub[0])
	case syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
		return nil, false
	case syntax.OpConcat:
		var best []model.Literal
		bestLen := 0
		for _, sub := range re.Sub {
			lits, ok := required(sub)
			if !ok {
				continue
			}
			if m := shortest(lits); m > bestLen {
				best, bestLen = lits, m
			}
		}
		return best, best != nil
	case syntax.OpAlternate:
		var all []model.Literal
		for _, sub := range re.Sub {
			lits, ok := required(sub)
			if !ok {
				return nil, false
			}
			all = append(all, lits...)
		}
		return all, len(all) > 0
	}
	return nil, false
}

func shortest(lits []model.Literal) int {
	m := -1
	for _, l := range lits {
		if m < 0 || len(l.Text) < m {
			m = len(l.Text)
		}
	}
	return m
}

// litFilter is the literal prefilter of one regular expression, built once
// when the expression is compiled (a rule's cause, a signature's pattern, a
// join's pattern): a text that lacks every literal of any, or every literal
// of one set of all, cannot match, and the expression is not run over it.
// The zero litFilter admits every text (a pattern with no required literal).
type litFilter struct {
	any []model.Literal   // requiredLiterals: every match holds one
	all [][]model.Literal // requiredAll: every match holds one of each set
}

// newLitFilter returns pattern's prefilter, its Fold literals in foldCanon
// form.
func newLitFilter(pattern string) litFilter {
	var f litFilter
	f.any = canonLits(requiredLiterals(pattern))
	if len(f.any) > 0 {
		for _, set := range requiredAll(pattern) {
			f.all = append(f.all, canonLits(set))
		}
	}
	return f
}

// canonLits returns lits with each Fold literal's text in foldCanon form.
func canonLits(lits []model.Literal) []model.Literal {
	out := make([]model.Literal, len(lits))
	for i, l := range lits {
		if l.Fold {
			l.Text = foldCanon(l.Text)
		}
		out[i] = l
	}
	return out
}

// foldCanon maps each rune of s to the smallest rune of its simple case
// folding orbit (unicode.SimpleFold), the comparison regexp's (?i) makes: a
// text holds a literal case-insensitively exactly when the foldCanon form of
// the text holds that of the literal (ſ, s and S all become S). ASCII text
// takes strings.ToUpper's fast path, which gives the same.
func foldCanon(s string) string {
	if isASCII(s) {
		return strings.ToUpper(s)
	}
	return strings.Map(func(r rune) rune {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			m = min(m, f)
		}
		return m
	}, s)
}

// admits reports whether t may match: it holds one of f.any and one of each
// set of f.all (Fold literals compared in foldCanon form).
func (f litFilter) admits(t *lineText) bool {
	if len(f.any) == 0 {
		return true
	}
	return holdsOne(t, f.any) && f.holdsAll(t)
}

func (f litFilter) holdsAll(t *lineText) bool {
	for _, set := range f.all {
		if !holdsOne(t, set) {
			return false
		}
	}
	return true
}

// holdsOne reports whether t holds one of lits (Fold ones in foldCanon
// form).
func holdsOne(t *lineText, lits []model.Literal) bool {
	for _, l := range lits {
		if l.Fold && strings.Contains(t.folded(), l.Text) || !l.Fold && strings.Contains(t.text, l.Text) {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// litRegexp is a regular expression behind its literal prefilter, for the
// joins' patterns that run over container-log lines and event messages:
// the methods below return no match, without running the expression, for
// a text the prefilter rules out.
type litRegexp struct {
	re     *regexp.Regexp
	filter litFilter
}

// mustLitRegexp compiles pattern (a constant of the program) and its
// prefilter; it panics on a bad pattern, as regexp.MustCompile does.
func mustLitRegexp(pattern string) *litRegexp {
	return &litRegexp{re: regexp.MustCompile(pattern), filter: newLitFilter(pattern)}
}

func (r *litRegexp) admits(s string) bool { return r.filter.admits(&lineText{text: s}) }

// MatchString is regexp's MatchString behind the prefilter.
func (r *litRegexp) MatchString(s string) bool { return r.admits(s) && r.re.MatchString(s) }

// FindString is regexp's FindString behind the prefilter.
func (r *litRegexp) FindString(s string) string {
	if !r.admits(s) {
		return ""
	}
	return r.re.FindString(s)
}

// FindStringSubmatch is regexp's FindStringSubmatch behind the prefilter.
func (r *litRegexp) FindStringSubmatch(s string) []string {
	if !r.admits(s) {
		return nil
	}
	return r.re.FindStringSubmatch(s)
}

// FindAllStringSubmatch is regexp's FindAllStringSubmatch behind the prefilter.
func (r *litRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	if !r.admits(s) {
		return nil
	}
	return r.re.FindAllStringSubmatch(s, n)
}

// FindAllStringSubmatchIndex is regexp's FindAllStringSubmatchIndex behind the prefilter.
func (r *litRegexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	if !r.admits(s) {
		return nil
	}
	return r.re.FindAllStringSubmatchIndex(s, n)
}

// FindStringSubmatchIndex is regexp's FindStringSubmatchIndex behind the prefilter.
func (r *litRegexp) FindStringSubmatchIndex(s string) []int {
	if !r.admits(s) {
		return nil
	}
	return r.re.FindStringSubmatchIndex(s)
}

// String is the pattern.
func (r *litRegexp) String() string { return r.re.String() }
