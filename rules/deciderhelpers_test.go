package rules

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// deciderCase is one row of a signature decider's table: a named case of
// testdata/signatures/<Signature>.yaml, on whose lines that match the
// signature the join runs as the signature's decider (with the captures in
// its values), for every hit of every built-in rule on a pod or controller.
type deciderCase struct {
	Signature, Case string
	// Decided: the join must decide on some matching line's hit; RuledOut
	// (without Decided): it must rule out on one and decide on none;
	// neither: it must do neither on every one. CauseHas are words its
	// cause must hold when it decides.
	Decided, RuledOut bool
	CauseHas          []string
}

// runDeciderOnCase builds the case's gather and runs join joinName on every
// line of a rule's hit that the signature matches, as readSignatures does.
// It fails when the signature matches no line, so that a row proves the
// decider, not the pattern.
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
	rc := readCases(t, filepath.Join("testdata", "signatures", dc.Signature+".yaml"))
	var gc *gatherCase
	for _, c := range append(rc.Fires, rc.Quiet...) {
		if c.Name == dc.Case {
			gc = &c
		}
	}
	if gc == nil {
		t.Fatalf("testdata/signatures/%s.yaml has no case %q", dc.Signature, dc.Case)
	}
	c := newEvalContext(gc.build(t))
	c.table = table
	var out []joinResult
	for _, r := range table.Rules {
		if r.Disabled {
			continue
		}
		kind := r.matcher.on()
		if kind != onPod && kind != onWorkload {
			continue
		}
		for _, s := range c.subjects(kind) {
			for _, h := range r.matcher.match(c, s) {
				if kind == onWorkload {
					h.object, h.objectKind = s.Workload.Object, s.Workload.Kind
				}
				for _, l := range c.signatureLines(s.Pod, &h) {
					if !sig.reads(l.Kind) || (l.agent != "" && !slices.Contains(sig.AgentLogs, l.agent)) {
						continue
					}
					_, _, caps, ok := sig.match(&lineText{text: clip(l.Quote, MaxEvidenceText)})
					if !ok {
						_, _, caps, ok = sig.match(&lineText{text: clip(l.Text, MaxEvidenceText)})
					}
					if !ok {
						continue
					}
					vars := Vars{}
					for k, v := range h.Vars {
						vars[k] = v
					}
					for k, v := range caps {
						vars[k] = v
					}
					dh := hit{Container: h.Container, Vars: vars, Evidence: append([]Evidence{l.Evidence}, h.Evidence...), object: h.object, objectKind: h.objectKind}
					out = append(out, j.run(c, s.Pod, &dh))
				}
			}
		}
	}
	if j.nodes {
		// A node's signature reads the node's journal lines (its hit's
		// evidence) and its decider gets no pod.
		for _, s := range c.subjects(onNode) {
			h := hit{Vars: c.nodeVars(s.Node)}
			for _, g := range c.gather.NodeLogOf(s.Node.Object.Name) {
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
		t.Fatalf("case %s/%q: signature %s matches no line of a rule's hit", dc.Signature, dc.Case, dc.Signature)
	}
	return out
}

// testDeciderTable runs a signature decider's decided / ruled-out / neither
// table; it needs a row that decides and one that rules out.
func testDeciderTable(t *testing.T, joinName string, cases []deciderCase) {
	t.Helper()
	var decides, rulesOut bool
	for _, dc := range cases {
		decides = decides || dc.Decided
		rulesOut = rulesOut || dc.RuledOut
		t.Run(dc.Signature+"/"+dc.Case, func(t *testing.T) {
			var decided, ruledOut *joinResult
			for _, res := range runDeciderOnCase(t, joinName, dc) {
				if res.Decided && decided == nil {
					decided = &res
				}
				if res.RuledOut && ruledOut == nil {
					ruledOut = &res
				}
			}
			// A row that decides needs one hit that decides (another rule's
			// hit on the same line may rule out, as readSignatures then tries
			// the next); one that rules out needs no hit to decide.
			switch {
			case dc.Decided != (decided != nil):
				t.Fatalf("join %s decided: %v, want %v (%+v)", joinName, decided != nil, dc.Decided, decided)
			case !dc.Decided && dc.RuledOut != (ruledOut != nil):
				t.Fatalf("join %s ruled out: %v, want %v", joinName, ruledOut != nil, dc.RuledOut)
			}
			if decided != nil {
				said := decided.Cause
				if decided.Quote != "" {
					said += ` ("` + decided.Quote + `")` // as the finding quotes the deciding part
				}
				for _, w := range dc.CauseHas {
					if !strings.Contains(said, w) {
						t.Errorf("cause lacks %q: %s", w, said)
					}
				}
			}
		})
	}
	if !decides || !rulesOut {
		t.Errorf("join %s needs a row that decides and one that rules out", joinName)
	}
}
