// Package pathmatch matches member paths against an ordered list of path
// patterns fast: each pattern's required literals reject most paths with
// strings.Contains, and a pattern that begins with an optional root folder
// followed by a literal is matched from each folder boundary rightwards
// (through fixed segment shapes where known) rather than by the engine
// trying every split of the path. A Set gives what the patterns' own
// FindStringSubmatch gives.
package pathmatch

import (
	"regexp"
	"regexp/syntax"
	"strings"
)

// Set is an ordered list of path patterns, read-only after New and safe for
// concurrent use.
type Set struct {
	res []*regexp.Regexp
	// lits holds, for each pattern, the literals that every path it
	// matches contains (none when none is known), so that Match rejects
	// most paths with strings.Contains before running the pattern. They
	// are derived from the patterns themselves, so a pattern added is
	// never blinded by a stale filter.
	lits [][]string
	// tails holds, for each pattern that begins with rootPrefix followed
	// by a literal, its tail; nil for the others.
	tails []*pathTail
}

// New builds the Set of patterns res, in order.
func New(res ...*regexp.Regexp) *Set {
	s := &Set{res: res, lits: make([][]string, len(res)), tails: make([]*pathTail, len(res))}
	for i, re := range res {
		s.lits[i] = RequiredLiterals(re)
		s.tails[i] = tailOf(re)
	}
	return s
}

// Len is the number of patterns.
func (s *Set) Len() int { return len(s.res) }

// Pattern is the i-th pattern.
func (s *Set) Pattern(i int) *regexp.Regexp { return s.res[i] }

// Literals are the literals every match of the i-th pattern contains.
func (s *Set) Literals(i int) []string { return s.lits[i] }

// HasTail reports whether the i-th pattern is matched from the folder
// boundaries, and whether through segment shapes.
func (s *Set) HasTail(i int) (tail, segments bool) {
	t := s.tails[i]
	return t != nil, t != nil && t.segs != nil
}

// Match is s.Pattern(i).FindStringSubmatch(p): nil when p lacks one of the
// pattern's literals or does not match.
func (s *Set) Match(i int, p string) []string {
	if !containsAll(p, s.lits[i]) {
		return nil
	}
	return s.matchTail(i, p)
}

// containsAll reports whether s contains every one of lits.
func containsAll(s string, lits []string) bool {
	for _, l := range lits {
		if !strings.Contains(s, l) {
			return false
		}
	}
	return true
}

// RequiredLiterals returns literals that every match of re contains: the
// case-sensitive literals among the top-level parts of the pattern's
// concatenation (a literal in a capture group counts); nil when there are none.
func RequiredLiterals(re *regexp.Regexp) []string {
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

// rootPrefix is how the patterns of a gather's path rules begin: an optional folder
// path (the gather's root) before the part that names the file.
const rootPrefix = `^(.*/)?`

// pathTail is a pattern of a Set split at its root: lead is a literal
// every match of the rest begins with, re the rest anchored at the start.
type pathTail struct {
	lead string
	re   *regexp.Regexp
	// segs, when set, matches what re matches, folder by folder, without
	// the regexp engine (segmentTails).
	segs []segment
}

// find is re.FindStringSubmatch(s), through segs when the tail has them.
func (t *pathTail) find(s string) []string {
	if t.segs != nil {
		return matchSegments(t.segs, s)
	}
	return t.re.FindStringSubmatch(s)
}

// A segment is what one folder (or the file name) of a tail must be.
type segment struct {
	what    segmentKind
	lit     string // segLiteral
	capture bool   // segAny, segYAML: the text (the name without its extension) is a submatch
}

type segmentKind byte

const (
	segLiteral segmentKind = iota // exactly lit
	segAny                        // [^/]+
	segYAML                       // [^/]+\.(?:yaml|json)
	segLog                        // (current|previous)(?:\.insecure)?\.log(?:\.gz)?, "current" or "previous" captured
	segRotated                    // [0-9]+\.log\.[^/]+: a kubelet's rotated container log file
)

// segmentTails are the tails of the rules that every member of a gather is
// tried against (container logs, per-pod files, object files), written as
// segments: the engine's time on them was a tenth of the pass over a gather.
// The key is the tail's pattern, so a rule whose pattern changes falls back
// to the engine; TestMatchRuleSameAsPattern, TestMatchRuleCorpus and
// FuzzMatchRule check each against its pattern.
var segmentTails = func() map[string][]segment {
	folder := func(s string) segment { return segment{what: segLiteral, lit: s} }
	anyCap := segment{what: segAny, capture: true}
	yamlCap := segment{what: segYAML, capture: true}
	return map[string][]segment{
		`namespaces/([^/]+)/pods/([^/]+)/([^/]+)\.(?:yaml|json)$`: {folder("namespaces"), anyCap, folder("pods"), anyCap, yamlCap},
		`namespaces/([^/]+)/pods/([^/]+)/([^/]+)/[^/]+/logs/(current|previous)(?:\.insecure)?\.log(?:\.gz)?$`: {
			folder("namespaces"), anyCap, folder("pods"), anyCap, anyCap, {what: segAny}, folder("logs"), {what: segLog, capture: true}},
		`namespaces/([^/]+)/pods/([^/]+)/([^/]+)/[^/]+/logs/rotated/([0-9]+\.log\.[^/]+)$`: {
			folder("namespaces"), anyCap, folder("pods"), anyCap, anyCap, {what: segAny}, folder("logs"), folder("rotated"), {what: segRotated, capture: true}},
		`namespaces/([^/]+)/([^/]+)\.(?:yaml|json)$`:                       {folder("namespaces"), anyCap, yamlCap},
		`namespaces/([^/]+)/([^/]+)/([^/]+)\.(?:yaml|json)$`:               {folder("namespaces"), anyCap, anyCap, yamlCap},
		`namespaces/([^/]+)/([^/]+)/([^/]+)/([^/]+)\.(?:yaml|json)$`:       {folder("namespaces"), anyCap, anyCap, anyCap, yamlCap},
		`cluster-scoped-resources/([^/]+)/([^/]+)\.(?:yaml|json)$`:         {folder("cluster-scoped-resources"), anyCap, yamlCap},
		`cluster-scoped-resources/([^/]+)/([^/]+)/([^/]+)\.(?:yaml|json)$`: {folder("cluster-scoped-resources"), anyCap, anyCap, yamlCap},
	}
}()

// matchSegments returns what FindStringSubmatch of the segments' pattern
// (anchored at both ends) returns for s: s and the captures, or nil.
func matchSegments(segs []segment, s string) []string {
	m := make([]string, 1, 6)
	m[0] = s
	rest := s
	for i, sg := range segs {
		part := rest
		if i < len(segs)-1 {
			j := strings.IndexByte(rest, '/')
			if j < 0 {
				return nil
			}
			part, rest = rest[:j], rest[j+1:]
		} else if strings.IndexByte(part, '/') >= 0 {
			return nil
		}
		switch sg.what {
		case segLiteral:
			if part != sg.lit {
				return nil
			}
			continue
		case segAny:
			if part == "" {
				return nil
			}
		case segYAML:
			if len(part) <= len(".yaml") || !strings.HasSuffix(part, ".yaml") && !strings.HasSuffix(part, ".json") {
				return nil
			}
			part = part[:len(part)-len(".yaml")]
		case segLog:
			switch strings.TrimSuffix(part, ".gz") {
			case "current.log", "current.insecure.log":
				part = "current"
			case "previous.log", "previous.insecure.log":
				part = "previous"
			default:
				return nil
			}
		case segRotated:
			if !rotatedLogName(part) {
				return nil
			}
		}
		if sg.capture {
			m = append(m, part)
		}
	}
	return m
}

// rotatedLogName reports whether name is [0-9]+\.log\.[^/]+ (the caller
// has split it at the slashes): a restart count, ".log." and a suffix.
func rotatedLogName(name string) bool {
	digits := 0
	for digits < len(name) && name[digits] >= '0' && name[digits] <= '9' {
		digits++
	}
	return digits > 0 && len(name) > digits+len(".log.") && name[digits:digits+len(".log.")] == ".log."
}

// tailOf returns the tail of re when it begins with rootPrefix followed by
// a literal, else nil. Matching a tail at each folder boundary that starts
// with lead, from the right, gives what the whole pattern gives (its greedy
// root prefers the longest root) without the engine trying every split of
// the path: most of a classification's time.
func tailOf(re *regexp.Regexp) *pathTail {
	src := re.String()
	if !strings.HasPrefix(src, rootPrefix) {
		return nil
	}
	rest := src[len(rootPrefix):]
	tree, err := syntax.Parse(rest, syntax.Perl)
	if err != nil {
		return nil
	}
	first := tree
	if tree.Op == syntax.OpConcat {
		first = tree.Sub[0]
	}
	if first.Op != syntax.OpLiteral || first.Flags&syntax.FoldCase != 0 || len(first.Rune) == 0 {
		return nil
	}
	return &pathTail{lead: string(first.Rune), re: regexp.MustCompile("^" + rest), segs: segmentTails[rest]}
}

// matchTail is s.Pattern(i).FindStringSubmatch(p), through the pattern's
// tail where it has one.
func (s *Set) matchTail(i int, p string) []string {
	t := s.tails[i]
	if t == nil {
		return s.res[i].FindStringSubmatch(p)
	}
	// Each folder boundary from the right, then the start: the root is
	// p[:start]. rootPrefix's `.` does not match a line break, so a root
	// holding one is not a root (only the empty root is left).
	firstBreak := strings.IndexByte(p, '\n')
	for s := len(p); ; {
		j := strings.LastIndexByte(p[:s], '/')
		start := j + 1
		rootOK := start == 0 || firstBreak < 0 || firstBreak >= start
		if rootOK && strings.HasPrefix(p[start:], t.lead) {
			if m := t.find(p[start:]); m != nil {
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
