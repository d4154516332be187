package rules

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mgtriage/mgtriage/parser/model"
)

// MaxEvidence bounds the evidence lines kept per finding; the strongest come first.
const MaxEvidence = 14

// MaxEvidenceText bounds one evidence line (bytes), and maxVarText one value
// in a hint; a gather's megabyte-long event message is cut before any pattern
// runs over it.
const (
	MaxEvidenceText = 8 << 10
	maxVarText      = 2 << 10
)

// clip cuts s to at most max bytes on a UTF-8 boundary, marking the cut.
func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + " …[cut]"
}

// Finding is one rule that fired, with its hint and remediation expanded from
// the evidence. Its subject is a pod (and container) or, for node rules, a
// node. After correlation, Also lists the other pods the same finding covers
// and GroupedBy says what they share; Explains lists the pod findings a
// node-level finding accounts for.
type Finding struct {
	Rule     *Rule
	Pod      *model.Pod
	Node     *model.Node
	Operator *model.Operator
	// Object is the subject of a finding on any other object: a controller
	// that cannot create its pods, a firing alert, etcd, a MachineConfigPool.
	// ObjectKind names its kind as reports print it (ReplicaSet, Alert, ...).
	Object     *model.Object
	ObjectKind string
	Container  string
	// Title is the rule's title, or the stated signature's when it has one.
	Title       string
	Hint        string
	Remediation []string
	// Docs are the rule's docs links that fit the gather's platform.
	Docs     []string
	Evidence []Evidence
	Missing  []string
	// Gaps names what would collect the evidence Missing names (the
	// objects, journals and logs not gathered), for the report's "What to
	// ask the customer for"; several entries may be equal.
	Gaps []model.Gap
	// Signature is the catalogue signature whose cause the hint states
	// first, nil when no line of the subject matched one.
	Signature *SignatureMatch
	// AlsoMatched lists the ids of the other rules that explained the same
	// container with the same evidence and were folded into this finding
	// (see foldSameCause).
	AlsoMatched []string
	// Severity is the rule's severity, raised for a node finding to the most
	// severe pod finding it explains.
	Severity  string
	Also      []Member
	GroupedBy string
	Explains  []Member
	// groupKey is what correlation groups by (see Rule.GroupBy).
	groupKey string
	// specificity ranks findings of one container for foldSameCause: a
	// stated signature (4), a decided join (2), a matched cause pattern (1),
	// a rule not marked general (1), summed.
	specificity int
}

// Member is one more pod (and container) a correlated finding covers, with
// the rule that fired on it.
type Member struct {
	RuleID    string
	Pod       *model.Pod
	Container string
}

// Subject names the finding's object: "namespace/pod" or "node/<name>".
func (f *Finding) Subject() string {
	if f.Pod != nil {
		return f.Pod.Key()
	}
	if f.Node != nil {
		return "node/" + f.Node.Object.Name
	}
	if f.Operator != nil {
		return "clusteroperator/" + f.Operator.Name
	}
	if f.Object != nil {
		if f.Object.Namespace == "" {
			return strings.ToLower(f.ObjectKind) + "/" + f.Object.Name
		}
		return strings.ToLower(f.ObjectKind) + "/" + f.Object.Namespace + "/" + f.Object.Name
	}
	return ""
}

// Evidence is one line of the gather that supports a finding. Kind says what
// it cites (see EvidenceKinds). Count is how often the line
// repeated (events' count, collapsed log groups).
type Evidence struct {
	Source model.Source
	Kind   EvidenceKind
	Time   time.Time
	// Text is what a report prints: the line as the file has it, or, when
	// Summary is set, the tool's own summary of the cited object or field.
	Text string
	// Quote is the part of Text copied verbatim from the cited line (an event's
	// or a status field's message, a log line without its CRI timestamp);
	// empty when the line holds nothing worth quoting. Cause patterns run over
	// it, so that {{.Cause}} is always the file's own words.
	Quote string
	// Summary is true when Text is the tool's wording rather than the line.
	Summary bool
	Count   int
	// decisive marks a container-log line that says why the process ended;
	// such lines rank right after a finding's first evidence line.
	decisive bool
}

// Evaluate runs every rule of t over every pod and node of g, correlates the
// findings (see Correlate) and returns them sorted by severity, rule id and
// subject. It is pure: the same gather and table give the same findings.
func Evaluate(t *Table, g *model.Gather) []Finding { return evaluateTraced(t, g, nil) }

// evaluateTraced is Evaluate, recording with tr, when not nil, what each step
// decided for tr's rule (Explain): the one code path both take.
func evaluateTraced(t *Table, g *model.Gather, tr *tracer) []Finding {
	c := newEvalContext(g)
	c.table = t
	c.trace = tr
	var out []Finding
	taken := map[string]bool{} // group + object already claimed by an earlier rule
	var fallbacks []*Rule
	for _, r := range t.Rules {
		if r.Disabled || r.matcher == nil || !r.appliesTo(g.ClusterVersion) {
			continue
		}
		if _, ok := r.matcher.(*podFallback); ok {
			fallbacks = append(fallbacks, r)
			continue
		}
		tracing := tr.on(r)
		fire := func(subject string, h hit, mk func(hit) (Finding, bool)) {
			key := r.Group + "\x00" + subject + "\x00" + h.Container
			if r.Group != "" && taken[key] {
				if tracing {
					tr.groupTaken(r, subject, h.Container, out)
				}
				return
			}
			f, ok := mk(h)
			if !ok {
				return
			}
			c.vocab.apply(&f)
			if r.Group != "" {
				taken[key] = true
			}
			out = append(out, f)
		}
		for _, s := range c.subjects(r.matcher.on()) {
			hits := r.matcher.match(c, s)
			if tracing {
				tr.matched(r, s, hits)
			}
			for _, h := range hits {
				if tracing {
					tr.begin(s, h)
				}
				fire(s.key(h), h, func(h hit) (Finding, bool) { return c.fireOn(r, s, h) })
			}
		}
	}
	out = append(out, fallbackFindings(c, g, fallbacks, out)...)
	addProblems(g, c.cel.problems())
	out = Correlate(foldSameCause(oncePerObject(out)))
	speak(out, vocabularyFor(g))
	sortFindings(out)
	return out
}

// addProblems adds to g's gather problems the ones it does not hold yet (a
// second evaluation of the same gather adds nothing).
func addProblems(g *model.Gather, ps []model.Problem) {
	for _, p := range ps {
		if !slices.Contains(g.Problems, p) {
			g.Problems = append(g.Problems, p)
		}
	}
}

// fireOn makes rule r's finding of hit h on subject s: a pod's when its
// joins allow (see applyJoins), a node's, or one about the controller,
// ClusterOperator or cluster object the hit names.
func (c *evalContext) fireOn(r *Rule, s subject, h hit) (Finding, bool) {
	f, ok := c.fireOnSubject(r, s, h)
	if c.trace.on(r) {
		c.trace.fired(r, f, ok)
	}
	return f, ok
}

func (c *evalContext) fireOnSubject(r *Rule, s subject, h hit) (Finding, bool) {
	switch s.kind {
	case onPod:
		if !c.applyJoins(r, s.Pod, &h) || !c.passesWhere(r, s, &h) {
			return Finding{}, false
		}
		return c.fireTraced(r, s.Pod, nil, h, c.readSignatures(s.Pod, &h))
	case onNode:
		if !c.passesWhere(r, s, &h) {
			return Finding{}, false
		}
		return c.fireTraced(r, nil, s.Node, h, c.readSignatures(nil, &h))
	}
	var sig *signatureMatch
	if s.kind == onWorkload {
		// A controller's hit: its joins and signatures read the
		// controller (h.object) and the refusals it reports.
		h.object, h.objectKind = s.Workload.Object, s.Workload.Kind
		if !c.applyJoins(r, nil, &h) {
			return Finding{}, false
		}
		sig = c.readSignatures(nil, &h)
	}
	if !c.passesWhere(r, s, &h) {
		return Finding{}, false
	}
	f, ok := c.fireTraced(r, nil, nil, h, sig)
	switch s.kind {
	case onWorkload:
		f.Object, f.ObjectKind = s.Workload.Object, s.Workload.Kind
	case onOperator:
		f.Operator = s.Operator
	case onCluster:
		f.Object, f.ObjectKind = h.object, h.objectKind
	}
	return f, ok
}

// fireTraced is r.fire, recording for Explain the evidence lines the
// rule's cause pattern found nothing in when it does not fire.
func (c *evalContext) fireTraced(r *Rule, p *model.Pod, n *model.Node, h hit, sig *signatureMatch) (Finding, bool) {
	f, ok := r.fire(p, n, h, sig, c.vocab)
	if !ok && c.trace.on(r) {
		c.trace.causeMissed(r, h.Evidence)
	}
	return f, ok
}

// fallbackFindings runs the podFallback rules over the pods that are not
// healthy and that no finding of out names.
func fallbackFindings(c *evalContext, g *model.Gather, rules []*Rule, out []Finding) []Finding {
	if len(rules) == 0 {
		return nil
	}
	covered := map[*model.Pod]bool{}
	for _, f := range out {
		if f.Pod != nil {
			covered[f.Pod] = true
		}
	}
	var fs []Finding
	for _, r := range rules {
		tracing := c.trace.on(r)
		for _, p := range g.Pods {
			s := subject{kind: onPod, Pod: p}
			if covered[p] {
				if tracing {
					c.trace.covered(s, out)
				}
				continue
			}
			hits := r.matcher.match(c, s)
			if tracing {
				c.trace.matched(r, s, hits)
			}
			for _, h := range hits {
				if tracing {
					c.trace.begin(s, h)
				}
				if !c.passesWhere(r, s, &h) {
					continue
				}
				f, ok := c.fireTraced(r, p, nil, h, c.readSignatures(p, &h))
				if tracing {
					c.trace.fired(r, f, ok)
				}
				if ok {
					c.vocab.apply(&f)
					fs = append(fs, f)
					covered[p] = true
				}
			}
		}
	}
	return fs
}

// oncePerObject keeps one finding per rule and object: a pod listed twice in
// a gather (pods.yaml and its own file under another gather root, or a
// recreated pod of the same name) gets the rule's finding once.
func oncePerObject(in []Finding) []Finding {
	seen := map[string]bool{}
	out := in[:0]
	for _, f := range in {
		k := f.Rule.ID + "\x00" + f.Subject() + "\x00" + f.Container
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, f)
	}
	return out
}

// foldSameCause keeps one finding per container and cause: when several
// rules explain the same pod's container with the same evidence (the line
// one of them is proved by is cited by the other), the most specific one
// (a stated signature, then a decided join, then a matched cause pattern,
// then severity, then table order) stays and the others' rule ids go to its
// AlsoMatched.
func foldSameCause(in []Finding) []Finding {
	type key struct {
		pod       *model.Pod
		container string
	}
	byContainer := map[key][]int{}
	for i, f := range in {
		if f.Pod != nil && f.Container != "" {
			k := key{f.Pod, f.Container}
			byContainer[k] = append(byContainer[k], i)
		}
	}
	folded := make([]bool, len(in))
	for _, idx := range byContainer {
		if len(idx) < 2 {
			continue
		}
		// Most specific first; in is in table order, which breaks ties.
		sort.SliceStable(idx, func(a, b int) bool {
			fa, fb := &in[idx[a]], &in[idx[b]]
			if fa.specificity != fb.specificity {
				return fa.specificity > fb.specificity
			}
			return severityRank(fa.Severity) < severityRank(fb.Severity)
		})
		for a, i := range idx {
			if folded[i] {
				continue
			}
			for _, j := range idx[a+1:] {
				if !folded[j] && sameEvidence(&in[i], &in[j]) {
					folded[j] = true
					in[i].AlsoMatched = append(in[i].AlsoMatched, in[j].Rule.ID)
				}
			}
		}
	}
	out := in[:0]
	for i, f := range in {
		if !folded[i] {
			out = append(out, f)
		}
	}
	return out
}

// sameEvidence reports whether the line that proves one finding (its first
// evidence line) is cited by the other.
func sameEvidence(a, b *Finding) bool {
	if len(a.Evidence) == 0 || len(b.Evidence) == 0 {
		return false
	}
	cites := func(f *Finding, s model.Source) bool {
		for _, e := range f.Evidence {
			if e.Source == s {
				return true
			}
		}
		return false
	}
	return cites(b, a.Evidence[0].Source) || cites(a, b.Evidence[0].Source)
}

func sortFindings(out []Finding) {
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if ra, rb := severityRank(a.Severity), severityRank(b.Severity); ra != rb {
			return ra < rb
		}
		if (a.Node != nil) != (b.Node != nil) {
			return a.Node != nil // node causes before the pod symptoms
		}
		if a.Rule.ID != b.Rule.ID {
			return a.Rule.ID < b.Rule.ID
		}
		if a.Subject() != b.Subject() {
			return a.Subject() < b.Subject()
		}
		return a.Container < b.Container
	})
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
// A signature sig (nil: none matched) states its cause first and cites its
// deciding line first; the rule's alternatives are then left out.
func (r *Rule) fire(p *model.Pod, n *model.Node, h hit, sig *signatureMatch, v vocabulary) (Finding, bool) {
	ev := h.Evidence
	for i := range ev {
		ev[i].Text = clip(ev[i].Text, MaxEvidenceText)
		if ev[i].Kind.Summary() {
			ev[i].Summary = true
		}
	}
	for k, v := range h.Vars {
		h.Vars[k] = clip(v, maxVarText)
	}
	if r.cause != nil {
		idx := -1
		for i, e := range ev {
			if m := causeMatch(r.cause, e); m != "" {
				idx = i
				h.Vars["Cause"] = strings.TrimSpace(m)
				break
			}
		}
		if idx < 0 {
			return Finding{}, false
		}
		// The proving line goes first, then the rest in their order.
		ev = append([]Evidence{ev[idx]}, append(append([]Evidence(nil), ev[:idx]...), ev[idx+1:]...)...)
	}
	if sig != nil {
		// The deciding line goes first, before the line the rule's own
		// cause pattern proved, then the objects its decider confirmed it by
		// (kept, as decisive lines are, when the evidence is cut).
		front := []Evidence{sig.ev}
		if sig.decision.Decided {
			for _, e := range sig.decision.Evidence {
				e.decisive = true
				front = append(front, e)
			}
		}
		ev = append(front, ev...)
	}
	ev = promoteDecisive(dedupeEvidence(ev))
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
	if !v.kubernetes {
		vars["OpenShift"] = "true"
	}
	f := Finding{Rule: r, Title: r.Title, Pod: p, Node: n, Container: h.Container, Evidence: ev, Missing: h.Missing, Gaps: h.Gaps, Severity: r.Severity, Docs: r.Docs}
	f.groupKey = r.groupKey(p, vars)
	if !r.General {
		f.specificity++
	}
	if r.cause != nil {
		f.specificity++
	}
	if vars["Decided"] != "" {
		f.specificity += 2
	}
	if jr, ok := h.joined[sig.decidedBy()]; ok {
		// The signature states its decider's sentence and fix; the rule's
		// own run of the same join does not repeat them.
		vars["Decided"] = squeezeSpaces(strings.Replace(vars["Decided"], jr.Cause, "", 1))
		if jr.Fix != "" {
			vars["Fix"] = squeezeSpaces(strings.Replace(vars["Fix"], jr.Fix, "", 1))
		}
	}
	f.Hint = squeezeSpaces(execTemplate(r.hint, vars))
	if sig != nil {
		statement, cause, fix := sig.state(!v.kubernetes, vars["Decided"])
		f.Hint = statement + " " + f.Hint
		if fix != "" {
			f.Remediation = append(f.Remediation, fix)
		}
		if sig.sig.Title != "" {
			f.Title = sig.sig.Title
		}
		if sig.sig.Severity != "" && severityRank(sig.sig.Severity) < severityRank(f.Severity) {
			f.Severity = sig.sig.Severity
		}
		f.Signature = &SignatureMatch{ID: sig.sig.ID, Version: sig.sig.Version, Decided: sig.decided, Line: sig.at(), Quote: sig.quote(), Cause: cause}
		if !sig.decision.Decided {
			// The hint says what left the signature unconfirmed
			// (signatureMatch.state): what collects it is a gap too.
			f.Gaps = append(f.Gaps, sig.decision.Gaps...)
		}
		f.specificity += 4
	} else if r.alts != nil && vars["Decided"] == "" {
		if alt := squeezeSpaces(execTemplate(r.alts, vars)); alt != "" {
			f.Hint += " " + alt
		}
	}
	for _, tpl := range r.remedies {
		if step := squeezeSpaces(execTemplate(tpl, vars)); step != "" {
			f.Remediation = append(f.Remediation, step)
		}
	}
	return f, true
}

var spacesRe = regexp.MustCompile(` {2,}`)

// squeezeSpaces collapses the runs of spaces that empty template values
// leave ("{{.Decided}} {{.Unchecked}}" with nothing decided).
func squeezeSpaces(s string) string {
	return strings.TrimSpace(spacesRe.ReplaceAllString(s, " "))
}

// causeMatch runs a cause pattern over the words the evidence quotes from the
// file (Quote) first, so that {{.Cause}} does not carry the tool's own
// summary when the file's words prove the cause, then over the whole text
// (a status summary names reasons and fields the quote lacks).
func causeMatch(re *litRegexp, e Evidence) string {
	if e.Quote != "" {
		if m := re.FindString(clip(e.Quote, MaxEvidenceText)); m != "" {
			return m
		}
	}
	return re.FindString(e.Text)
}

// promoteDecisive moves the decisive container-log lines right after the
// first evidence line (the status, or the line that proves the cause), so that
// the MaxEvidence cut never drops them; the others keep their order.
func promoteDecisive(ev []Evidence) []Evidence {
	if len(ev) < 2 {
		return ev
	}
	out := make([]Evidence, 0, len(ev))
	out = append(out, ev[0])
	for _, e := range ev[1:] {
		if e.decisive {
			out = append(out, e)
		}
	}
	for _, e := range ev[1:] {
		if !e.decisive {
			out = append(out, e)
		}
	}
	return out
}

func dedupeEvidence(ev []Evidence) []Evidence {
	seen := map[model.Source]bool{}
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

// CitedHint is f's hint with paths as the reports cite them (cite is
// model.CitedPath of the gather's roots): the deciding line of a signature
// is written into the hint by the gather's own path.
func (f *Finding) CitedHint(cite func(string) string) string {
	if f.Signature == nil || cite == nil {
		return f.Hint
	}
	if p := cite(f.Signature.Line.Path); p != f.Signature.Line.Path {
		return strings.ReplaceAll(f.Hint, f.Signature.Line.Path+":", p+":")
	}
	return f.Hint
}
