package rules

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/mgtriage/mgtriage/parser"
	"github.com/mgtriage/mgtriage/parser/model"
)

var updateShapes = flag.Bool("update-shapes", false, "rewrite shapes.json from the rules' cases")

// TestShapeCatalogue builds the message-shape catalogue from the built-in
// rules' and signatures' cases and the gathers of fixtures/cases — for each
// built-in rule, the evidence its matcher and joins give each subject, which
// is what a cause pattern runs over — and compares it with the embedded
// shapes.json (-update-shapes, or make shapes, rewrites it).
func TestShapeCatalogue(t *testing.T) {
	table := Builtin()
	cat := map[string]map[EvidenceKind]map[string]string{}
	collect := func(g *model.Gather) {
		c := newEvalContext(g)
		c.table = table
		for _, r := range table.Rules {
			if r.matcher == nil {
				continue
			}
			for _, s := range c.subjects(r.matcher.on()) {
				for _, h := range r.matcher.match(c, s) {
					if s.kind == onPod {
						c.applyJoins(r, s.Pod, &h)
					}
					addShapes(cat, r.Match.Matcher, h.Evidence)
				}
			}
		}
	}
	for _, dir := range []string{"cases", "signatures"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.yaml"))
		for _, f := range files {
			rc := readCases(t, f)
			for _, c := range append(rc.Fires, rc.Quiet...) {
				collect(c.build(t))
			}
		}
	}
	inputs, _ := filepath.Glob(filepath.Join("..", "fixtures", "cases", "*", "input"))
	if len(inputs) == 0 {
		t.Fatal("no fixtures/cases/*/input")
	}
	for _, in := range inputs {
		g, err := parser.LoadWith(context.Background(), in, parser.Options{Needs: ptr(table.Needs())})
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		collect(g)
	}
	data, err := json.MarshalIndent(sortedShapes(cat), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, '\n')
	if *updateShapes {
		if err := os.WriteFile("shapes.json", data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(data, shapesJSON) {
		t.Errorf("shapes.json is out of date with the rules' cases: run 'make shapes' (go test ./rules -run TestShapeCatalogue -update-shapes)")
	}
}

func ptr[T any](v T) *T { return &v }

// addShapes adds the lines of evidence ev to the catalogue being built
// (TestShapeCatalogue): quoted words and text, normalized, clipped.
var digitsRe = regexp.MustCompile(`[0-9]+`)

func addShapes(cat map[string]map[EvidenceKind]map[string]string, matcher string, ev []Evidence) {
	if cat[matcher] == nil {
		cat[matcher] = map[EvidenceKind]map[string]string{}
	}
	for _, e := range ev {
		if cat[matcher][e.Kind] == nil {
			cat[matcher][e.Kind] = map[string]string{}
		}
		for _, t := range []string{e.Quote, e.Text} {
			if strings.TrimSpace(t) == "" {
				continue
			}
			// Lines that differ only in their numbers (times, counts,
			// ports) are one shape: the first in byte order stays.
			s := clipShape(normalizeShape(t))
			k := digitsRe.ReplaceAllString(s, "0")
			if old, ok := cat[matcher][e.Kind][k]; !ok || s < old {
				cat[matcher][e.Kind][k] = s
			}
		}
	}
}

// sortedShapes is the catalogue being built as the embedded file holds it:
// each matcher's and kind's shapes sorted, the shortest kept when past the
// bound.
func sortedShapes(cat map[string]map[EvidenceKind]map[string]string) map[string]map[EvidenceKind][]string {
	out := map[string]map[EvidenceKind][]string{}
	for m, kinds := range cat {
		for kind, set := range kinds {
			var l []string
			for _, s := range set {
				l = append(l, s)
			}
			sort.Slice(l, func(i, j int) bool {
				if len(l[i]) != len(l[j]) {
					return len(l[i]) < len(l[j])
				}
				return l[i] < l[j]
			})
			if len(l) > maxShapesPerMatcher {
				l = l[:maxShapesPerMatcher]
			}
			sort.Strings(l)
			if len(l) == 0 {
				continue
			}
			if out[m] == nil {
				out[m] = map[EvidenceKind][]string{}
			}
			out[m][kind] = l
		}
	}
	return out
}

// TestShapeWarnings: `rules validate` warns, at the cause's line, about a
// user pattern that cannot match any shape of the lines its matcher reads
// (the README's old example and the issue's, both stopped by a quote) and
// says nothing of the README's pattern, which matches.
func TestShapeWarnings(t *testing.T) {
	path := filepath.Join("testdata", "explain", "rules.yaml")
	got := map[string]string{}
	for _, w := range Warnings(path) {
		if strings.Contains(w.Msg, "cause can never match") {
			got[w.Rule] = fmt.Sprintf("%d %s", w.Line, w.Msg)
		}
	}
	for rule, want := range map[string][]string{
		"site-mirror-quoted": {"13 cause can never match", "`host\\.example[^\"]*` matches", "then `(?:i/o timeout|connection refused)` does not match"},
		"site-x509-quoted":   {"66 cause can never match", "`host\\.example[^\"]*` matches", "then `x509` does not match at \"\\\"", "further on at \"x509: certificate"},
	} {
		for _, w := range want {
			if !strings.Contains(got[rule], w) {
				t.Errorf("%s: warning lacks %q:\n%s", rule, w, got[rule])
			}
		}
	}
	for _, rule := range []string{"site-mirror-down", "site-pull-config", "site-pull-any"} {
		if got[rule] != "" {
			t.Errorf("%s: warned about a cause that matches: %s", rule, got[rule])
		}
	}
}
