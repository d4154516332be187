package rules

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"text/template"
	"time"

	"github.com/mgtriage/mgtriage/parser"
)

// MaxEvidence bounds the evidence lines kept per finding; the strongest come first.
const MaxEvidence = 14

// Finding is one rule that fired on one pod (and container), with its hint and
// remediation expanded from the evidence.
type Finding struct {
	Rule        *Rule
	Pod         *parser.Pod
	Container   string
	Hint        string
	Remediation []string
	Evidence    []Evidence
	Missing     []string
}

// Evidence is one line of the gather that supports a finding. Kind is one of
// status, spec, event, node-log, container-log. Count is how often the line
// repeated (events' count, collapsed log groups).
type Evidence struct {
	Source parser.Source
	Kind   string
	Time   time.Time
	Text   string
	Count  int
}

// Evaluate runs every rule of t over every pod of g and returns the findings
// sorted by severity, rule id, namespace, pod and container. It is pure: the
// same gather and table give the same findings.
func Evaluate(t *Table, g *parser.Gather) []Finding {
	c := newEvalContext(g)
	var out []Finding
	taken := map[string]bool{} // group + object already claimed by an earlier rule
	for _, p := range g.Pods {
		for _, r := range t.Rules {
			if r.Disabled || r.matcher == nil {
				continue
			}
			for _, h := range r.matcher.match(c, p) {
				key := r.Group + "\x00" + string(p.Object.UID) + "/" + p.Key() + "\x00" + h.Container
				if r.Group != "" && taken[key] {
					continue
				}
				f, ok := r.fire(p, h)
				if !ok {
					continue
				}
				if r.Group != "" {
					taken[key] = true
				}
				out = append(out, f)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if ra, rb := severityRank(a.Rule.Severity), severityRank(b.Rule.Severity); ra != rb {
			return ra < rb
		}
		if a.Rule.ID != b.Rule.ID {
			return a.Rule.ID < b.Rule.ID
		}
		if a.Pod.Key() != b.Pod.Key() {
			return a.Pod.Key() < b.Pod.Key()
		}
		return a.Container < b.Container
	})
	return out
}

func severityRank(s string) int {
	for i, v := range []string{"critical", "high", "medium", "low", "info"} {
		if v == s {
			return i
		}
	}
	return 5
}

// fire applies the rule's cause pattern to the hit's evidence and expands its
// templates. It returns false when a cause is required and no line shows it.
func (r *Rule) fire(p *parser.Pod, h hit) (Finding, bool) {
	ev := h.Evidence
	if r.cause != nil {
		idx := -1
		for i, e := range ev {
			if m := r.cause.FindString(e.Text); m != "" {
				idx = i
				h.Vars["Cause"] = m
				break
			}
		}
		if idx < 0 {
			return Finding{}, false
		}
		// The proving line goes first, then the rest in their order.
		ev = append([]Evidence{ev[idx]}, append(append([]Evidence(nil), ev[:idx]...), ev[idx+1:]...)...)
	}
	ev = dedupeEvidence(ev)
	if len(ev) > MaxEvidence {
		ev = ev[:MaxEvidence]
	}
	vars := sampleVars()
	for k := range vars {
		vars[k] = ""
	}
	for k, v := range h.Vars {
		vars[k] = v
	}
	f := Finding{Rule: r, Pod: p, Container: h.Container, Evidence: ev, Missing: h.Missing}
	f.Hint = execTemplate(r.hint, vars)
	for _, tpl := range r.remedies {
		f.Remediation = append(f.Remediation, execTemplate(tpl, vars))
	}
	return f, true
}

func dedupeEvidence(ev []Evidence) []Evidence {
	seen := map[parser.Source]bool{}
	out := ev[:0:0]
	for _, e := range ev {
		if e.Source.Line > 0 && seen[e.Source] {
			continue
		}
		seen[e.Source] = true
		out = append(out, e)
	}
	return out
}

func execTemplate(tpl *template.Template, vars Vars) string {
	var b bytes.Buffer
	if err := tpl.Execute(&b, vars); err != nil {
		return fmt.Sprintf("(template error: %v)", err)
	}
	return strings.TrimSpace(b.String())
}
