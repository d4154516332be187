package rules

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"regexp/syntax"
	"sync"
	"unicode/utf8"

	"github.com/mgtriage/mgtriage/parser/model"
)

// The message-shape catalogue: for each matcher, the lines of evidence its
// hits carry (what a rule's cause pattern runs over: each line's quoted
// words and its text), taken from the built-in rules' and signatures' cases
// (testdata/cases, testdata/signatures) and the gathers of fixtures/cases,
// with host names and IPv4 addresses written as one placeholder each
// (normalizeShape), by matcher and kind of line (EvidenceKind). `rules
// validate` runs a user rule's cause over the shapes of the lines its
// matcher reads (shapeWarning). TestShapeCatalogue keeps the file
// in step with the cases; `make shapes` (go generate ./rules) rewrites it.
//
//go:generate go test -run ^TestShapeCatalogue$ -update-shapes .
//go:embed shapes.json
var shapesJSON []byte

// Bounds of the catalogue: shapes per matcher and kind of line, bytes per shape.
const (
	maxShapesPerMatcher = 1000
	maxShapeBytes       = 1 << 10
)

// shapeCatalogue is the embedded catalogue, decoded once: matcher name →
// evidence kind → shapes, sorted.
var shapeCatalogue = sync.OnceValue(func() map[string]map[EvidenceKind][]string {
	m := map[string]map[EvidenceKind][]string{}
	if err := json.Unmarshal(shapesJSON, &m); err != nil {
		panic("rules/shapes.json: " + err.Error())
	}
	return m
})

var (
	shapeIPv4 = regexp.MustCompile(`\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b`)
	// shapeHost is a dotted DNS name whose last label holds a letter
	// (registry.example.com, ledger-db.books.svc); versions (1.2.3) and
	// addresses are not.
	shapeHost = regexp.MustCompile(`(?i)\b[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.[a-z][a-z0-9-]*[a-z0-9]\b`)
)

// Placeholders normalizeShape writes for an IPv4 address and a host name.
const (
	shapeIPText   = "10.0.0.1"
	shapeHostText = "host.example"
)

// normalizeShape writes every IPv4 address of s as 10.0.0.1 and every
// dotted host name as host.example, so that a pattern naming the user's own
// registry or service is run over the catalogue's lines of other hosts.
// Patterns' literals are written the same way (normalizePattern).
func normalizeShape(s string) string {
	s = shapeIPv4.ReplaceAllString(s, shapeIPText)
	return shapeHost.ReplaceAllString(s, shapeHostText)
}

// normalizePattern writes the literals of pattern as normalizeShape writes
// lines; it returns the pattern unchanged when it does not parse.
func normalizePattern(pattern string) string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return pattern
	}
	var walk func(*syntax.Regexp)
	walk = func(re *syntax.Regexp) {
		if re.Op == syntax.OpLiteral {
			re.Rune = []rune(normalizeShape(string(re.Rune)))
		}
		for _, s := range re.Sub {
			walk(s)
		}
	}
	walk(re)
	return re.String()
}

// clipShape cuts a shape at maxShapeBytes on a rune boundary.
func clipShape(s string) string {
	if len(s) <= maxShapeBytes {
		return s
	}
	cut := maxShapeBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// shapeWarning says why rule r's cause pattern cannot match what its
// matcher reads: it matches none of the catalogue's shapes of r's matcher,
// and on one of them the start of the pattern matches and its rest matches
// further on, but the pattern cannot reach from one to the other (a
// `[^"]*` before a quote the message always has). "" when the pattern
// matches a shape, the catalogue has none for the matcher, or no shape
// holds the pattern's pieces (the catalogue cannot know a program's own log
// lines).
func shapeWarning(r *Rule) string {
	if r.Match.Cause == "" {
		return ""
	}
	shapes := shapesRead(r)
	if len(shapes) == 0 {
		return ""
	}
	pattern := normalizePattern(r.Match.Cause)
	re, err := regexp.Compile(pattern)
	if err != nil {
		return ""
	}
	ev := make([]Evidence, 0, len(shapes))
	for i, s := range shapes {
		if re.MatchString(s) {
			return ""
		}
		ev = append(ev, Evidence{Text: s, Source: shapeSource(r.Match.Matcher, i)})
	}
	nm := closestLine(pattern, ev)
	if nm == nil || nm.RestAt == "" {
		return ""
	}
	return fmt.Sprintf("cause can never match: it matches none of the %d message shapes matcher %s reads (host names written %s, addresses %s); on the closest, `%s` matches %q, then `%s` does not match at %q, while the rest of the pattern matches further on at %q; the shape: %s",
		len(shapes), r.Match.Matcher, shapeHostText, shapeIPText, nm.Matched, cutRunes(nm.MatchedText, 60), nm.Next, cutRunes(nm.StoppedAt, 40), cutRunes(nm.RestAt, 40), cutRunes(nm.Message, 300))
}

// shapesRead lists the catalogue's shapes of the lines r's matcher reads:
// every kind of line the catalogue holds for the matcher, but container
// logs when the matcher has a logs param that r leaves off.
func shapesRead(r *Rule) []string {
	byKind := shapeCatalogue()[r.Match.Matcher]
	noLogs := false
	if r.matcher != nil {
		v := reflect.ValueOf(r.matcher)
		if v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Struct {
			if f := v.Elem().FieldByName("Logs"); f.IsValid() && f.Kind() == reflect.Bool && !f.Bool() {
				noLogs = true
			}
		}
	}
	var out []string
	for _, k := range EvidenceKinds() {
		if k == EvidenceContainerLog && noLogs {
			continue
		}
		out = append(out, byKind[k]...)
	}
	return out
}

// shapeSource names shape i of matcher's catalogue in a near miss.
func shapeSource(matcher string, i int) model.Source {
	return model.Source{Path: "shapes/" + matcher, Line: i + 1}
}

// cutRunes is s cut to n runes, "…" marking the cut.
func cutRunes(s string, n int) string {
	if p := runePrefix(s, n); len(p) < len(s) {
		return p + "…"
	}
	return s
}
