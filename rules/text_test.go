package rules

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mgtriage/mgtriage/parser"
)

type quote struct {
	text string
	bad  bool
}

// splitQuotes finds the passages a hint quotes from the gather, written
// ("..."): each runs from `("` to the farthest `")` that makes it a verbatim
// substring of an evidence line (quoted text holds quotes and parentheses of
// its own); when none does, to the nearest, and it is bad. It returns the hint
// with the passages replaced by (QUOTE).
func splitQuotes(hint string, sources []string) (string, []quote) {
	var b strings.Builder
	var out []quote
	for {
		i := strings.Index(hint, `("`)
		if i < 0 {
			b.WriteString(hint)
			return b.String(), out
		}
		b.WriteString(hint[:i])
		rest := hint[i+2:]
		var ends []int
		for j := 0; ; {
			k := strings.Index(rest[j:], `")`)
			if k < 0 {
				break
			}
			ends = append(ends, j+k)
			j += k + 1
		}
		if len(ends) == 0 {
			b.WriteString(hint[i:])
			return b.String(), out
		}
		end, bad := ends[0], true
		for n := len(ends) - 1; n >= 0; n-- {
			text := strings.TrimPrefix(strings.TrimSuffix(rest[:ends[n]], "…"), "…")
			if inAny(text, sources) {
				end, bad = ends[n], false
				break
			}
		}
		out = append(out, quote{text: rest[:end], bad: bad})
		b.WriteString("(QUOTE)")
		hint = rest[end+2:]
	}
}

func inAny(s string, sources []string) bool {
	for _, src := range sources {
		if src != "" && strings.Contains(src, s) {
			return true
		}
	}
	return false
}

var (
	goMapRe     = regexp.MustCompile(`map\[|\{[^{}\s]+: \}`)
	wordRe      = regexp.MustCompile(`^[A-Za-z]{2,}$`)
	emptyRe     = regexp.MustCompile(`(?:^|[^=!<>\s])=(?:[,;)\s]|$)|\(\)|""|\( |: [,;.)]`)
	pluralOneRe = regexp.MustCompile(`\b1 (pods|findings|restarts|nodes|containers|times|problems|lines|events)\b`)
	fieldEqRe   = regexp.MustCompile(`\b(\w+)=(\w+)=`)
)

// textProblems lists what is wrong with the words of one finding: in the text
// the tool writes (its hint with the quoted passages taken out), unbalanced
// quotes and brackets, doubled words, Go syntax, empty values, "<no value>",
// a plural after 1; and every passage quoted as ("...") must be a verbatim
// substring of one of the finding's evidence lines.
func textProblems(f Finding) []string {
	var out []string
	hint := f.Hint
	if f.Signature != nil && f.Signature.Quote != "" {
		// The deciding line a signature quotes is verbatim by
		// construction (signatureMatch.state); its own parentheses and
		// quotes are the gather's.
		hint = strings.Replace(hint, `"`+f.Signature.Quote+`"`, `“QUOTE”`, 1)
	}
	var sources []string
	for _, e := range f.Evidence {
		sources = append(sources, e.Quote, e.Text)
	}
	own, quotes := splitQuotes(hint, sources)
	for _, q := range quotes {
		if q.bad {
			out = append(out, fmt.Sprintf("quoted passage %q is not in any evidence line", q.text))
		}
	}
	for _, s := range append([]string{own}, f.Remediation...) {
		if strings.Contains(s, "<no value>") {
			out = append(out, "<no value> in "+s)
		}
		if goMapRe.MatchString(s) {
			out = append(out, "Go syntax in "+s)
		}
	}
	if strings.Count(own, `"`)%2 != 0 {
		out = append(out, "unbalanced quotes")
	}
	for _, pair := range []string{"()", "[]", "{}"} {
		if strings.Count(own, pair[:1]) != strings.Count(own, pair[1:]) {
			out = append(out, "unbalanced "+pair)
		}
	}
	words := strings.Fields(own)
	for i := 1; i < len(words); i++ {
		if strings.EqualFold(words[i-1], words[i]) && wordRe.MatchString(words[i]) {
			out = append(out, "doubled word "+words[i-1]+" "+words[i])
		}
	}
	if m := fieldEqRe.FindString(own); m != "" {
		out = append(out, "doubled field "+m)
	}
	if m := emptyRe.FindString(own); m != "" {
		out = append(out, fmt.Sprintf("empty value %q", m))
	}
	if m := pluralOneRe.FindString(own); m != "" {
		out = append(out, "plural after one: "+m)
	}
	return out
}

func checkText(t *testing.T, where string, fs []Finding) {
	t.Helper()
	for _, f := range fs {
		for _, p := range textProblems(f) {
			t.Errorf("%s: %s on %s: %s\nhint: %s", where, f.Rule.ID, f.Subject(), p, f.Hint)
		}
	}
}

// TestFindingText runs textProblems over every finding of the rule cases,
// fixtures/causes, the other fixture gathers (sample, sosreports, journals,
// bundles, upload pieces, diff pairs), the corpus gathers and ../shared/cases
// (the last two skipped when absent or with -short).
func TestFindingText(t *testing.T) {
	table := Builtin()
	needs := table.Needs()
	files, _ := filepath.Glob(filepath.Join("testdata", "cases", "*.yaml"))
	t.Run("rule cases", func(t *testing.T) {
		for _, f := range files {
			rc := readCases(t, f)
			for _, c := range append(rc.Fires, rc.Quiet...) {
				checkText(t, filepath.Base(f)+" "+c.Name, Evaluate(table, c.build(t)))
			}
		}
	})
	load := func(t *testing.T, dir string) {
		t.Helper()
		g, err := parser.LoadWith(context.Background(), dir, parser.Options{Needs: &needs})
		if err != nil {
			t.Fatal(err)
		}
		checkText(t, dir, Evaluate(table, g))
	}
	t.Run("fixtures/causes", func(t *testing.T) {
		dirs, _ := filepath.Glob(filepath.Join("..", "fixtures", "causes", "*", "input"))
		if len(dirs) == 0 {
			t.Fatal("no fixtures under fixtures/causes")
		}
		for _, d := range dirs {
			load(t, d)
		}
	})
	t.Run("other fixtures", func(t *testing.T) {
		var dirs []string
		for _, pattern := range []string{"sample", "sos/*", "journals/*", "bundles/*", "upload/*", "diff/*/*"} {
			m, _ := filepath.Glob(filepath.Join("..", "fixtures", pattern))
			dirs = append(dirs, m...)
		}
		if len(dirs) < 12 {
			t.Fatalf("only %d fixture gathers found: %v", len(dirs), dirs)
		}
		for _, d := range dirs {
			load(t, d)
		}
	})
	shared := func(t *testing.T, pattern string) {
		if testing.Short() {
			t.Skip("real gathers skipped with -short")
		}
		dirs, _ := filepath.Glob(filepath.Join("..", "..", "shared", pattern))
		if len(dirs) == 0 {
			t.Skip("../shared not present")
		}
		for _, d := range dirs {
			if st, err := os.Stat(d); err != nil || !st.IsDir() {
				continue
			}
			if _, err := parser.LoadWith(context.Background(), d, parser.Options{Needs: &needs}); err != nil {
				continue // not a gather (k8s-failing-pods holds other tools' bundles)
			}
			load(t, d)
		}
	}
	t.Run("corpus", func(t *testing.T) { shared(t, filepath.Join("corpus", "*")) })
	t.Run("shared cases", func(t *testing.T) { shared(t, filepath.Join("cases", "*", "input")) })
}
