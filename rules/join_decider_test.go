package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// deciderCase is one row of a signature decider's table: a named case of
// testdata/signatures/<Signature>.yaml, on whose containers the join runs as
// the signature's decider (the subject's values and the captures of the
// first line the signature matches).
type deciderCase struct {
	Signature, Case string
	// Want is "decided", "ruled out" or "undecided" (neither: not gathered).
	Want     string
	CauseHas []string
}

// runDeciderOnCase builds the case's gather and runs join joinName over the
// first line of each container that signature matches, as readSignatures
// does; it fails when the signature matches no line of the case.
func runDeciderOnCase(t *testing.T, joinName string, dc deciderCase) []joinResult {
	t.Helper()
	j, ok := lookupJoin(joinName)
	if !ok {
		t.Fatalf("no join %q", joinName)
	}
	table := Builtin()
	var sig *Signature
	for _, s := range table.Signatures {
		if s.ID == dc.Signature {
			sig = s
		}
	}
	if sig == nil {
		t.Fatalf("no built-in signature %s", dc.Signature)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "signatures", dc.Signature+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var rc ruleCases
	if err := yaml.UnmarshalStrict(data, &rc); err != nil {
		t.Fatal(err)
	}
	var gc *gatherCase
	for _, c := range append(rc.Fires, rc.Quiet...) {
		if c.Name == dc.Case {
			gc = &c
		}
	}
	if gc == nil {
		t.Fatalf("testdata/signatures/%s.yaml has no case %q", dc.Signature, dc.Case)
	}
	g := gc.build(t)
	c := newEvalContext(g)
	c.table = table
	var out []joinResult
	for _, p := range g.Pods {
		for _, cs := range containers(p, nil) {
			h := c.containerHit(p, cs)
			h.Evidence = c.containerEvidence(p, cs, false)
			for _, l := range c.signatureLines(p, &h) {
				e := l.Evidence
				_, _, caps, ok := sig.match(&lineText{text: e.Quote})
				if !ok {
					_, _, caps, ok = sig.match(&lineText{text: e.Text})
				}
				if !ok || !sig.reads(e.Kind) || l.agent != "" {
					continue
				}
				vars := Vars{}
				for k, v := range h.Vars {
					vars[k] = v
				}
				for k, v := range caps {
					vars[k] = v
				}
				dh := hit{Container: h.Container, Vars: vars, Evidence: append([]Evidence{e}, h.Evidence...)}
				out = append(out, j.run(c, p, &dh))
				break
			}
		}
	}
	if j.nodes {
		// A node's signature reads the node's journal lines (its hit's
		// evidence) and its decider gets no pod.
		for _, s := range c.subjects(onNode) {
			h := hit{Vars: c.nodeVars(s.Node)}
			for _, g := range g.NodeLogOf(s.Node.Object.Name) {
				h.Evidence = append(h.Evidence, logGroupEvidence(g))
			}
			for _, e := range h.Evidence {
				_, _, caps, ok := sig.match(&lineText{text: e.Text})
				if !ok || !sig.reads(e.Kind) {
					continue
				}
				vars := Vars{}
				for k, v := range h.Vars {
					vars[k] = v
				}
				for k, v := range caps {
					vars[k] = v
				}
				dh := hit{Vars: vars, Evidence: append([]Evidence{e}, h.Evidence...)}
				out = append(out, j.run(c, nil, &dh))
				break
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("signature %s matches no line of case %q", dc.Signature, dc.Case)
	}
	return out
}

// testDeciderTable runs a decider's table: each row's first result must be
// what the row wants, with the row's words in its cause when decided.
func testDeciderTable(t *testing.T, joinName string, cases []deciderCase) {
	t.Helper()
	seen := map[string]bool{}
	for _, dc := range cases {
		seen[dc.Want] = true
		t.Run(dc.Signature+"/"+dc.Case, func(t *testing.T) {
			res := runDeciderOnCase(t, joinName, dc)[0]
			got := "undecided"
			switch {
			case res.Decided && res.RuledOut:
				t.Fatalf("join %s both decided and ruled out", joinName)
			case res.Decided:
				got = "decided"
			case res.RuledOut:
				got = "ruled out"
			}
			if got != dc.Want {
				t.Fatalf("join %s: %s, want %s (cause %q, missing %q)", joinName, got, dc.Want, res.Cause, res.Missing)
			}
			said := res.Cause
			if res.Quote != "" {
				said += ` ("` + res.Quote + `")` // as the finding quotes the deciding part
			}
			for _, w := range dc.CauseHas {
				if !strings.Contains(said, w) {
					t.Errorf("cause lacks %q: %s", w, said)
				}
			}
		})
	}
	if !seen["decided"] || !seen["ruled out"] {
		t.Errorf("join %s needs a row that decides and one that rules the signature out", joinName)
	}
}
