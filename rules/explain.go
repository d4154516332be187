package rules

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"regexp/syntax"
	"sort"
	"strings"
	"unicode"

	"github.com/mgtriage/mgtriage/parser/model"
)

// MaxExplained bounds the subjects an Explanation lists; Total says how many
// the rule considered.
const MaxExplained = 50

// The steps of a rule's evaluation that decide, as Explanation names them,
// in the order the engine takes them.
const (
	StepRule     = "rule"     // the rule does not run: disabled, or outside its OpenShift range
	StepMatcher  = "matcher"  // the matcher selected nothing of the subject
	StepFallback = "fallback" // a fallback rule: another finding already names the pod
	StepGroup    = "group"    // an earlier rule of the group fired on the subject first
	StepJoin     = "join"     // the required join did not decide
	StepWhere    = "where"    // the rule's where: expression gave false (or stopped with an error)
	StepCause    = "cause"    // no evidence line matches the rule's cause pattern
	StepFolded   = "folded"   // fired, then folded into a more specific finding of another rule
	StepFired    = "fired"    // the rule's finding is in the report
)

// Explanation says, for one rule and one gather, which subjects the rule
// considered and, for each, the step that decided whether it fired and on
// what value. It is what `analyze rules explain` prints and what a client of
// `analyze serve` receives; every list is in a fixed order and bounded.
type Explanation struct {
	// Rule, Title, Matcher, SubjectKind ("pod", "node", "controller",
	// "ClusterOperator", "cluster object"), the cause pattern and the
	// required join, as the table holds them.
	Rule        string `json:"rule"`
	Title       string `json:"title"`
	Matcher     string `json:"matcher"`
	Params      string `json:"params,omitempty"`
	SubjectKind string `json:"subjectKind"`
	Cause       string `json:"cause,omitempty"`
	Require     string `json:"require,omitempty"`
	// Skipped says why the rule ran on nothing (StepRule); empty when it ran.
	Skipped string `json:"skipped,omitempty"`
	// Subject is the subject asked about ("" for all).
	Subject string `json:"subject,omitempty"`
	// Total counts the subjects the rule considered (or, with Subject, the
	// entries about it); Fired those it fired on; Steps how many entries
	// each step decided. Subjects lists at most MaxExplained entries:
	// fired first, then the near misses (the matcher selected the subject,
	// a later step stopped the rule), then the matcher's misses, each by
	// subject and container; Listed is false when some were left out.
	Total    int                  `json:"total"`
	Fired    int                  `json:"fired"`
	Steps    []StepCount          `json:"steps"`
	Subjects []SubjectExplanation `json:"subjects"`
	Listed   bool                 `json:"allListed"`
}

// StepCount is how many entries of an Explanation one step decided.
type StepCount struct {
	Step  string `json:"step"`
	Count int    `json:"count"`
}

// SubjectExplanation is what decided one rule on one subject (and container).
type SubjectExplanation struct {
	// Subject is "namespace/pod" for a pod, "node/<name>" for a node, or
	// the controller's, ClusterOperator's or cluster object's name.
	Subject   string `json:"subject"`
	Container string `json:"container,omitempty"`
	Fired     bool   `json:"fired"`
	// Step is the step that decided (StepMatcher, StepJoin, StepCause, ...).
	Step string `json:"step"`
	// Why says it in one sentence.
	Why string `json:"why"`
	// Value is what the step compared: the subject's state for the matcher,
	// the join's conclusion, the rule that took the subject first, the
	// closest evidence line for the cause pattern. Pattern is what it was
	// compared with: the matcher and its params, "require: <join>", the
	// cause pattern.
	Value   string `json:"value,omitempty"`
	Pattern string `json:"pattern,omitempty"`
	// Closest is, when the cause pattern matched no evidence line, the line
	// that came closest (a near miss); nil when no line holds even the start
	// of the pattern.
	Closest *NearMiss `json:"closest,omitempty"`
	// Hint is the finding's hint when the rule fired; Source the path:line
	// of its first evidence line.
	Hint   string `json:"hint,omitempty"`
	Source string `json:"source,omitempty"`
}

// NearMiss is the evidence line a cause pattern came closest to matching:
// the longest leading part of the pattern (of one of its alternatives) that
// matches in the line, the text it matched, and the part of the pattern that
// does not match where that text ends.
type NearMiss struct {
	// Source is the line's path:line; Message its text as the pattern saw
	// it (the quoted words, else the whole line), cut at 1 KiB.
	Source  string `json:"source"`
	Message string `json:"message"`
	// Lines counts the evidence lines the pattern was run over.
	Lines int `json:"lines"`
	// Matched is the leading part of the pattern that matches, MatchedText
	// the text it matched; Next the part that fails after it, and StoppedAt
	// the text that follows MatchedText (up to 60 characters).
	Matched     string `json:"matched"`
	MatchedText string `json:"matchedText"`
	Next        string `json:"next"`
	StoppedAt   string `json:"stoppedAt"`
	// RestAt is, when the rest of the pattern (Next and what follows it)
	// matches further on in the line, the text where it does (up to 60
	// characters): what lies between MatchedText and RestAt is what the
	// pattern does not allow.
	RestAt string `json:"restAt,omitempty"`
}

// Explain evaluates table t over gather g exactly as Evaluate does, recording
// for rule ruleID why it fired or not on each subject it considered; subject,
// when not "", keeps only the entries about one pod ("namespace/name") or
// node ("name" or "node/<name>"). An unknown rule id is an error naming the
// closest ids; so is a subject the rule never considered.
func Explain(t *Table, g *model.Gather, ruleID, subject string) (*Explanation, error) {
	r := t.rule(ruleID)
	if r == nil {
		return nil, fmt.Errorf("no rule %q%s", ruleID, closeIDs(t, ruleID))
	}
	e := &Explanation{Rule: r.ID, Title: r.Title, Matcher: r.Match.Matcher, Params: compactJSON(r.Match.Params),
		Cause: r.Match.Cause, Require: r.Require, Subject: subject, Steps: []StepCount{}, Subjects: []SubjectExplanation{}, Listed: true}
	if r.matcher != nil {
		e.SubjectKind = r.matcher.on().String()
	}
	switch {
	case r.Disabled:
		e.Skipped = "the rule is disabled"
	case r.matcher == nil:
		e.Skipped = "the rule has no matcher"
	case !r.appliesTo(g.ClusterVersion):
		e.Skipped = fmt.Sprintf("the gather's OpenShift %s is outside the rule's range %q", g.ClusterVersion, r.OpenShift)
	}
	if e.Skipped != "" {
		e.Steps = append(e.Steps, StepCount{Step: StepRule, Count: 1})
		return e, nil
	}
	tr := &tracer{rule: r, only: subject, cite: model.CitedPath(g.Roots)}
	findings := evaluateTraced(t, g, tr)
	if subject != "" && len(tr.entries) == 0 {
		return nil, fmt.Errorf("rule %s considered no %s %q among its %d subjects%s", r.ID, e.SubjectKind, subject, tr.considered, tr.examples())
	}
	tr.settle(findings)
	e.Total = tr.considered
	if subject != "" {
		e.Total = len(tr.entries)
	}
	counts := map[string]int{}
	for _, s := range tr.entries {
		counts[s.Step]++
		if s.Fired {
			e.Fired++
		}
	}
	for _, st := range []string{StepFired, StepFolded, StepCause, StepWhere, StepJoin, StepGroup, StepFallback, StepMatcher} {
		if counts[st] > 0 {
			e.Steps = append(e.Steps, StepCount{Step: st, Count: counts[st]})
		}
	}
	sort.SliceStable(tr.entries, func(i, j int) bool {
		a, b := tr.entries[i], tr.entries[j]
		if ra, rb := stepRank(a.Step), stepRank(b.Step); ra != rb {
			return ra < rb
		}
		if a.Subject != b.Subject {
			return a.Subject < b.Subject
		}
		return a.Container < b.Container
	})
	for i, s := range tr.entries {
		if i == MaxExplained {
			e.Listed = false
			break
		}
		if subj, ok := tr.unread[s]; ok {
			s.Value = describeSubject(subj)
		}
		e.Subjects = append(e.Subjects, *s)
	}
	return e, nil
}

// stepRank orders entries: fired, then near misses, then the matcher's misses.
func stepRank(step string) int {
	switch step {
	case StepFired:
		return 0
	case StepFolded:
		return 1
	case StepMatcher:
		return 3
	}
	return 2
}

// rule returns the rule of t with id, or nil.
func (t *Table) rule(id string) *Rule {
	for _, r := range t.Rules {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// closeIDs names up to five rule ids of t close to id (edit distance, or
// holding it), as "; close ids: a, b", or "" when none is.
func closeIDs(t *Table, id string) string {
	type cand struct {
		id string
		d  int
	}
	var cs []cand
	low := strings.ToLower(id)
	for _, r := range t.Rules {
		d := model.EditDistance(low, r.ID, 64)
		if low != "" && (strings.Contains(r.ID, low) || strings.Contains(low, r.ID)) {
			d = min(d, 1)
		}
		if d <= max(2, len(low)/3) {
			cs = append(cs, cand{r.ID, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].id < cs[j].id
	})
	if len(cs) == 0 {
		return "; see 'analyze rules list'"
	}
	var ids []string
	for i, c := range cs {
		if i == 5 {
			break
		}
		ids = append(ids, c.id)
	}
	return "; close ids: " + strings.Join(ids, ", ")
}

// tracer records, during one evaluation, what decided each subject of one
// rule (see evaluateTraced). Its methods are called only when on(r) is true, so
// that Evaluate pays one nil check per rule and hit.
type tracer struct {
	rule *Rule
	// only keeps the entries of one subject (Explain's subject).
	only string
	// considered counts the subjects the rule's matcher was run on, and
	// names the first few for an error about a subject not found.
	considered int
	names      []string
	entries    []*SubjectExplanation
	// unread holds the subject of each matcher-miss entry, whose state
	// (describeSubject) is written only for the entries listed.
	unread map[*SubjectExplanation]subject
	// near is the rule's cause cut for closestLine, made on first need.
	near *nearPattern
	// cur is the entry of the hit being fired; nil when it is filtered out.
	cur *SubjectExplanation
	// cite is the path the reports cite for a path of the gather
	// (model.CitedPath).
	cite func(string) string
}

// at is src as the reports cite it: path:line.
func (t *tracer) at(src model.Source) string {
	p := src.Path
	if t.cite != nil {
		p = t.cite(p)
	}
	return p + ":" + fmt.Sprint(src.Line)
}

// on reports whether t records rule r.
func (t *tracer) on(r *Rule) bool { return t != nil && t.rule == r }

// keeps reports whether the subject named name is asked about.
func (t *tracer) keeps(name string) bool {
	return t.only == "" || name == t.only || name == "node/"+t.only
}

func (t *tracer) examples() string {
	if len(t.names) == 0 {
		return ""
	}
	return " (such as " + strings.Join(t.names, ", ") + ")"
}

// subjectName names subject s (and the object a cluster hit names) as
// SubjectExplanation.Subject does.
func subjectName(s subject, h *hit) string {
	switch s.kind {
	case onPod:
		return s.Pod.Key()
	case onNode:
		return "node/" + s.Node.Object.Name
	case onWorkload:
		return strings.ToLower(s.Workload.Kind) + "/" + s.Workload.Object.Namespace + "/" + s.Workload.Object.Name
	case onOperator:
		return "clusteroperator/" + s.Operator.Name
	}
	if h == nil || h.object == nil {
		return "cluster"
	}
	return strings.ToLower(h.objectKind) + "/" + strings.TrimPrefix(h.object.Namespace+"/", "/") + h.object.Name
}

// matched records that the matcher was run on s; with no hit, the matcher
// decided.
func (t *tracer) matched(r *Rule, s subject, hits []hit) {
	t.considered++
	name := subjectName(s, nil)
	if len(t.names) < 3 {
		t.names = append(t.names, name)
	}
	if len(hits) > 0 || !t.keeps(name) {
		return
	}
	e := &SubjectExplanation{Subject: name, Step: StepMatcher,
		Why:     fmt.Sprintf("matcher %s selected nothing of this %s", r.Match.Matcher, s.kind),
		Pattern: matcherPattern(r)}
	if t.unread == nil {
		t.unread = map[*SubjectExplanation]subject{}
	}
	t.unread[e] = s
	t.entries = append(t.entries, e)
}

// covered records a pod a fallback rule skips because findings name it.
func (t *tracer) covered(s subject, out []Finding) {
	t.considered++
	name := subjectName(s, nil)
	if !t.keeps(name) {
		return
	}
	var by []string
	for _, f := range out {
		if f.Pod == s.Pod && !containsString(by, f.Rule.ID) {
			by = append(by, f.Rule.ID)
		}
	}
	t.entries = append(t.entries, &SubjectExplanation{Subject: name, Step: StepFallback,
		Why:   "a fallback rule runs only on pods no other finding names; rules " + strings.Join(by, ", ") + " name this one",
		Value: strings.Join(by, ", ")})
}

// begin opens the entry of hit h on s.
func (t *tracer) begin(s subject, h hit) {
	t.cur = nil
	name := subjectName(s, &h)
	if !t.keeps(name) {
		return
	}
	t.cur = &SubjectExplanation{Subject: name, Container: h.Container}
	t.entries = append(t.entries, t.cur)
}

// groupTaken records that an earlier rule of r's group fired on the subject.
func (t *tracer) groupTaken(r *Rule, key, container string, out []Finding) {
	if t.cur == nil {
		return
	}
	by := "an earlier rule"
	for i := len(out) - 1; i >= 0; i-- {
		f := &out[i]
		if f.Rule.Group == r.Group && f.Container == container && (f.Subject() == key || f.Pod != nil && f.Pod.ID() == key) {
			by = "rule " + f.Rule.ID
			t.cur.Value = f.Rule.ID
			break
		}
	}
	t.cur.Step = StepGroup
	t.cur.Pattern = "group: " + r.Group
	t.cur.Why = fmt.Sprintf("%s of group %s fired on this subject first; the first rule of a group in table order takes the object", by, r.Group)
}

// joinFailed records that the rule's required join did not decide.
func (t *tracer) joinFailed(name string, res joinResult, note string) {
	if t.cur == nil {
		return
	}
	t.cur.Step = StepJoin
	t.cur.Pattern = "require: " + name
	why := fmt.Sprintf("the required join %s did not decide", name)
	switch {
	case note != "":
		why += ": " + note
	case res.RuledOut:
		why += ": the objects it read rule the cause out"
	case len(res.Missing) > 0:
		why += "; the gather lacks " + list(res.Missing, 4)
	default:
		why += ": the objects it read do not prove its cause"
	}
	t.cur.Why = why
	var ev []string
	for _, e := range res.Evidence {
		if len(ev) == 4 {
			break
		}
		ev = append(ev, t.at(e.Source))
	}
	t.cur.Value = "not decided"
	if len(ev) > 0 {
		t.cur.Value += "; read " + strings.Join(ev, ", ")
	}
}

// whereFalse records that r's where: expression gave false on the current
// subject, or stopped with err.
func (t *tracer) whereFalse(r *Rule, err error) {
	if t.cur == nil {
		return
	}
	t.cur.Step = StepWhere
	t.cur.Pattern = "where: " + clip(r.Where, 200)
	if err != nil {
		t.cur.Why = "the where: expression stopped: " + clip(err.Error(), 300)
		return
	}
	t.cur.Why = "the where: expression gave false"
}

// causeMissed records that r's cause pattern matched none of ev.
func (t *tracer) causeMissed(r *Rule, ev []Evidence) {
	if t.cur == nil {
		return
	}
	t.cur.Step = StepCause
	t.cur.Pattern = r.Match.Cause
	if t.near == nil {
		t.near = newNearPattern(r.Match.Cause)
	}
	nm := t.near.closest(ev)
	if nm != nil && t.cite != nil {
		if i := strings.LastIndexByte(nm.Source, ':'); i > 0 {
			nm.Source = t.cite(nm.Source[:i]) + nm.Source[i:]
		}
	}
	switch {
	case len(ev) == 0:
		t.cur.Why = "the cause pattern had no evidence line to run over"
	case nm == nil:
		t.cur.Why = fmt.Sprintf("the cause pattern matched none of the %d evidence lines, and none holds the start of any of its alternatives", len(ev))
	default:
		t.cur.Closest = nm
		t.cur.Value = nm.Message
		t.cur.Why = fmt.Sprintf("the cause pattern matched none of the %d evidence lines; closest, at %s: `%s` matches %q, then `%s` does not match at %q",
			len(ev), nm.Source, nm.Matched, nm.MatchedText, nm.Next, nm.StoppedAt)
		if nm.RestAt != "" {
			t.cur.Why += fmt.Sprintf(", though the rest of the pattern matches further on, at %q: the text between is what `%s` does not allow", nm.RestAt, nm.Matched)
		}
	}
}

// fired records the end of the current hit: the finding made, or not.
func (t *tracer) fired(r *Rule, f Finding, ok bool) {
	if t.cur == nil {
		return
	}
	if ok {
		t.cur.Step, t.cur.Fired, t.cur.Hint = StepFired, true, f.CitedHint(t.cite)
		if len(f.Evidence) > 0 {
			t.cur.Source = t.at(f.Evidence[0].Source)
		}
		t.cur.Why = "the rule fired"
	} else if t.cur.Step == "" {
		t.cur.Step, t.cur.Why = StepCause, "the rule did not fire"
	}
	t.cur = nil
}

// settle marks the entries that fired and whose finding a more specific one
// absorbed (foldSameCause), and takes each fired entry's hint from the
// finding the report holds (its words after correlation).
func (t *tracer) settle(findings []Finding) {
	id := t.rule.ID
	for _, s := range t.entries {
		if !s.Fired {
			continue
		}
		found := false
		for i := range findings {
			f := &findings[i]
			if f.Rule.ID == id && (f.Subject() == s.Subject || f.Subject() == "node/"+s.Subject) && f.Container == s.Container {
				s.Hint, found = f.CitedHint(t.cite), true
				break
			}
			if f.Rule.ID == id && memberOf(f.Also, id, s.Subject, s.Container) {
				s.Hint, found = f.CitedHint(t.cite), true
				s.Why = "the rule fired; its finding is correlated with " + f.Subject() + "'s"
				break
			}
		}
		if found {
			continue
		}
		for i := range findings {
			f := &findings[i]
			if f.Pod != nil && f.Pod.Key() == s.Subject && f.Container == s.Container && containsString(f.AlsoMatched, id) {
				s.Fired, s.Step, s.Value = false, StepFolded, f.Rule.ID
				s.Why = fmt.Sprintf("the rule fired, and its finding was folded into rule %s's, which explains the same container with the same evidence more specifically (listed under alsoMatched)", f.Rule.ID)
				break
			}
		}
	}
}

func memberOf(ms []Member, rule, subject, container string) bool {
	for _, m := range ms {
		if m.RuleID == rule && m.Pod != nil && m.Pod.Key() == subject && m.Container == container {
			return true
		}
	}
	return false
}

func containsString(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// matcherPattern is a rule's matcher and its params as the rule file gives
// them: `containerWaiting {"reasons":["ErrImagePull"]}`.
func matcherPattern(r *Rule) string {
	if p := compactJSON(r.Match.Params); p != "" {
		return r.Match.Matcher + " " + p
	}
	return r.Match.Matcher
}

func compactJSON(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var b strings.Builder
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return string(raw)
	}
	return strings.TrimSpace(b.String())
}

// describeSubject is the state of s a matcher reads, on one line, cut at
// 1 KiB: a pod's STATUS and phase and each container's state; a node's
// Ready condition.
func describeSubject(s subject) string {
	var b strings.Builder
	switch s.kind {
	case onPod:
		p := s.Pod
		fmt.Fprintf(&b, "STATUS=%s phase=%s", p.Columns.Status, p.Object.Status.Phase)
		if p.Object.Status.Reason != "" {
			fmt.Fprintf(&b, " status.reason=%s", p.Object.Status.Reason)
		}
		if p.Object.DeletionTimestamp != nil {
			b.WriteString(" deleted at " + fmtTime(p.Object.DeletionTimestamp.Time))
		}
		for _, cs := range containers(p, nil) {
			b.WriteString("; " + clip(containerStateText(cs), 300))
		}
	case onNode:
		ready := "unknown"
		for _, cond := range s.Node.Object.Status.Conditions {
			if cond.Type == "Ready" {
				ready = string(cond.Status)
				if cond.Reason != "" {
					ready += " (" + cond.Reason + ")"
				}
			}
		}
		fmt.Fprintf(&b, "Ready=%s", ready)
		if s.Node.JournalOnly {
			b.WriteString("; known only from its journal")
		}
		if s.Node.Object.Spec.Unschedulable {
			b.WriteString("; cordoned")
		}
	case onWorkload:
		b.WriteString(s.Workload.Subject())
	case onOperator:
		o := s.Operator
		fmt.Fprintf(&b, "Available=%s Degraded=%s Progressing=%s", o.Available, o.Degraded, o.Progressing)
	default:
		b.WriteString("the cluster's alerts, etcd, pools and install bundles")
	}
	return clip(strings.Join(strings.Fields(b.String()), " "), 1<<10)
}

// closestLine is the evidence line pattern comes closest to matching: for
// each alternative of the pattern's top level, the longest leading run of
// its parts that matches in the line's quoted words or its text; the line
// with the largest share of an alternative matched wins, then the longer
// matched text, then the earlier line. nil when no line holds the first part
// of any alternative, or the pattern does not parse.
func closestLine(pattern string, ev []Evidence) *NearMiss {
	return newNearPattern(pattern).closest(ev)
}

// nearPattern is a pattern cut into its top-level alternatives, each into
// its parts, with a regexp for each leading run of parts and for each
// trailing run: compiled once, run over many lines (closest).
type nearPattern struct {
	branches []nearBranch
}

type nearBranch struct {
	parts []*syntax.Regexp
	res   []*regexp.Regexp // res[k] matches parts[:k+1]
	rest  []*regexp.Regexp // rest[k] matches parts[k:]
}

// newNearPattern cuts pattern; one that does not parse has no alternative.
func newNearPattern(pattern string) *nearPattern {
	np := &nearPattern{}
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return np
	}
	// A group around the whole pattern or an alternative is looked into.
	unwrap := func(re *syntax.Regexp) *syntax.Regexp {
		for re.Op == syntax.OpCapture && len(re.Sub) == 1 {
			re = re.Sub[0]
		}
		return re
	}
	re = unwrap(re)
	branches := []*syntax.Regexp{re}
	if re.Op == syntax.OpAlternate {
		branches = re.Sub
	}
	for _, b := range branches {
		b = unwrap(b)
		parts := []*syntax.Regexp{b}
		if b.Op == syntax.OpConcat {
			parts = b.Sub
		}
		p := nearBranch{parts: parts}
		for k := range parts {
			cat := &syntax.Regexp{Op: syntax.OpConcat, Sub: parts[:k+1]}
			r, err := regexp.Compile(cat.String())
			if err != nil {
				break
			}
			rest, err := regexp.Compile((&syntax.Regexp{Op: syntax.OpConcat, Sub: parts[k:]}).String())
			if err != nil {
				break
			}
			p.res = append(p.res, r)
			p.rest = append(p.rest, rest)
		}
		np.branches = append(np.branches, p)
	}
	return np
}

// closest is closestLine for the cut pattern.
func (np *nearPattern) closest(ev []Evidence) *NearMiss {
	pres := np.branches
	var best *NearMiss
	bestShare, bestRest, bestLen := 0.0, false, -1
	for _, e := range ev {
		for _, text := range []string{e.Quote, e.Text} {
			if text == "" {
				continue
			}
			text = clip(text, MaxEvidenceText)
			for _, p := range pres {
				k, loc := 0, []int(nil)
				for k < len(p.res) {
					l := p.res[k].FindStringIndex(text)
					if l == nil {
						break
					}
					loc = l
					k++
				}
				if k == 0 || k >= len(p.rest) {
					continue
				}
				// A line that holds the rest of the pattern further on
				// is nearer than one that does not.
				share := float64(k) / float64(len(p.parts))
				restAt := p.rest[k].FindStringIndex(text)
				rest := restAt != nil
				switch {
				case share < bestShare,
					share == bestShare && !rest && bestRest,
					share == bestShare && rest == bestRest && loc[1]-loc[0] <= bestLen:
					continue
				}
				bestShare, bestRest, bestLen = share, rest, loc[1]-loc[0]
				best = &NearMiss{
					Source:      e.Source.Path + ":" + fmt.Sprint(e.Source.Line),
					Message:     clip(text, 1<<10),
					Matched:     (&syntax.Regexp{Op: syntax.OpConcat, Sub: p.parts[:k]}).String(),
					MatchedText: clip(text[loc[0]:loc[1]], 200),
					Next:        partString(p.parts[k]),
					StoppedAt:   runePrefix(text[loc[1]:], 60),
				}
				if rest {
					best.RestAt = runePrefix(text[restAt[0]:], 60)
				}
			}
		}
	}
	if best != nil {
		best.Lines = len(ev)
	}
	return best
}

// partString is one part of a pattern as it would be written alone: an
// alternation in a non-capturing group.
func partString(re *syntax.Regexp) string {
	if re.Op == syntax.OpAlternate {
		return "(?:" + re.String() + ")"
	}
	return re.String()
}

// runePrefix is the first n runes of s.
func runePrefix(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// WriteText writes e for a terminal: a header with the rule and its counts,
// then one paragraph per subject. Values from the gather are cleaned of
// control characters.
func (e *Explanation) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "rule %s: %s\n", e.Rule, e.Title)
	fmt.Fprintf(&b, "  matcher: %s (on each %s)\n", noneIfEmpty(matcherText(e)), e.SubjectKind)
	if e.Cause != "" {
		fmt.Fprintf(&b, "  cause:   %s\n", e.Cause)
	}
	if e.Require != "" {
		fmt.Fprintf(&b, "  require: %s\n", e.Require)
	}
	if e.Skipped != "" {
		fmt.Fprintf(&b, "not run: %s\n", e.Skipped)
		_, err := io.WriteString(w, b.String())
		return err
	}
	var steps []string
	for _, s := range e.Steps {
		steps = append(steps, fmt.Sprintf("%d at %s", s.Count, s.Step))
	}
	what := "subjects considered"
	if e.Subject != "" {
		what = "entries about " + e.Subject
	}
	if e.Total == 1 {
		what = strings.Replace(what, "subjects", "subject", 1)
		what = strings.Replace(what, "entries", "entry", 1)
	}
	fmt.Fprintf(&b, "%d %s, fired on %d (%s)\n", e.Total, what, e.Fired, strings.Join(steps, ", "))
	for _, s := range e.Subjects {
		who := s.Subject
		if s.Container != "" {
			who += " container " + s.Container
		}
		verdict := "not fired, at " + s.Step
		if s.Fired {
			verdict = "fired"
		}
		fmt.Fprintf(&b, "\n%s: %s\n", oneLine(who), verdict)
		fmt.Fprintf(&b, "  why:     %s\n", oneLine(s.Why))
		if s.Pattern != "" {
			fmt.Fprintf(&b, "  pattern: %s\n", oneLine(s.Pattern))
		}
		if nm := s.Closest; nm != nil {
			fmt.Fprintf(&b, "  closest: %s (of %d lines)\n", oneLine(nm.Source), nm.Lines)
			fmt.Fprintf(&b, "    message:    %s\n", oneLine(nm.Message))
			fmt.Fprintf(&b, "    matched:    `%s` = %q\n", oneLine(nm.Matched), oneLine(nm.MatchedText))
			fmt.Fprintf(&b, "    stopped at: %q, where `%s` does not match\n", oneLine(nm.StoppedAt), oneLine(nm.Next))
			if nm.RestAt != "" {
				fmt.Fprintf(&b, "    rest found: %q, further on\n", oneLine(nm.RestAt))
			}
		} else if s.Value != "" {
			fmt.Fprintf(&b, "  value:   %s\n", runePrefix(oneLine(s.Value), 300))
		}
		if s.Hint != "" {
			fmt.Fprintf(&b, "  hint:    %s\n", oneLine(s.Hint))
		}
		if s.Source != "" {
			fmt.Fprintf(&b, "  source:  %s\n", oneLine(s.Source))
		}
	}
	if !e.Listed {
		fmt.Fprintf(&b, "\n(%d of %d entries listed)\n", len(e.Subjects), e.Total)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func matcherText(e *Explanation) string {
	if e.Params == "" {
		return e.Matcher
	}
	return e.Matcher + " " + e.Params
}

func noneIfEmpty(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// oneLine is s for one line of a terminal: control characters (escape
// sequences' ESC included), line breaks and bidirectional controls become
// spaces or are dropped.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t' || r == '\r':
			return ' '
		case unicode.IsControl(r), unicode.Is(unicode.Bidi_Control, r), r == '\ufeff':
			return -1
		}
		return r
	}, s)
}
