package rules

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"text/template"
	"unicode"
	"unicode/utf8"

	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
)

// A Signature is one entry of the failure-signature catalogue: a message
// shape that states a cause wherever it appears (a container's log, its
// termination or waiting message, an event, a node's journal line), the
// typed values it carries (named captures: host, port, path, uid, plugin,
// ...) and the cause in the catalogue's own words with those values. When a
// rule fires on a subject whose lines match a signature, the finding states
// the signature's cause first, quotes the deciding line with its path:line
// and leaves out the rule's textbook alternatives (Rule.Alternatives).
//
// A signature may demand a decider: a join (see joinRegistry) that reads the
// spec or store fact confirming it (the container's capabilities, the
// service account's role bindings, the probe's port against the declared
// ports). A decider that rules the cause out drops the signature for that
// subject; one that cannot decide (the fact is not gathered) leaves the cause
// stated with what could not be checked.
//
// Signatures live in the rule table's files under `signatures:`, are checked
// by `rules validate` like rules, and are matched in table order (the more
// specific first) behind literal prefilters: a line is only given to a
// signature's expression when it holds one of the literals every match of
// the expression must contain (requiredLiterals).
type Signature struct {
	ID      string `json:"id"`
	Version int    `json:"version"`
	// Sources are the public addresses the signature was learned from.
	Sources []string `json:"sources"`
	// Pattern is an RE2 expression; its named captures, which must start
	// with an upper-case letter ((?P<Plugin>...)), become template values.
	Pattern string `json:"pattern"`
	// In lists the evidence kinds whose lines the signature reads (status,
	// event, node-log, container-log, log); empty means all of them.
	In []string `json:"in,omitempty"`
	// AgentLogs lists namespaces of node agents (CNI, CSI, ...) whose
	// containers' logs on the subject's node the signature also reads: a
	// sandbox or mount failure is often explained in the agent's own log.
	// The rule table then asks the parser to keep those logs even when
	// their containers never failed (model.Needs.KeepLogsOf).
	AgentLogs []string `json:"agentLogs,omitempty"`
	// Running marks a message that a process logs while it goes on running
	// and ready (a refused API call, a failed TLS handshake): the parser
	// keeps the lines that may match it in every container's log
	// (model.Needs.LogLines), and the matcher logSignature fires on a
	// running, ready container whose log holds it.
	Running bool `json:"running,omitempty"`
	// Decide names the join that decides the signature (see Signature).
	Decide string `json:"decide,omitempty"`
	// Title, when set, replaces the title of the finding that states the
	// signature (plain text: the kind of cause, without values).
	Title string `json:"title,omitempty"`
	// Cause states the cause (template: the subject's values, the captures
	// and {{.OpenShift}}, "true" on an OpenShift gather).
	Cause string `json:"cause"`
	// Fix is the first remediation step the finding gets (template, as Cause).
	Fix string `json:"fix,omitempty"`
	// Severity, when set, is the least severity of a finding that states
	// the signature: a cause that recurs (a limit the workload keeps
	// reaching) is not history even when the container runs again.
	Severity string `json:"severity,omitempty"`
	// General marks a catch-all signature (a termination message that says
	// anything at all): it is matched after every specific one, whatever
	// file it is in.
	General  bool `json:"general,omitempty"`
	Disabled bool `json:"disabled,omitempty"`

	File       string         `json:"-"`
	Line       int            `json:"-"`
	fieldLines map[string]int // as Rule's
	badKeys    map[string]bool
	local      bool
	re         *regexp.Regexp
	lits       []model.Literal // requiredLiterals, for the table's needs and the reference
	// filter is the pattern's prefilter: lits, and the literal sets of every
	// part of a concatenated pattern (requiredAll).
	filter     litFilter
	captures   []string
	in         []EvidenceKind
	decider    *join
	cause, fix *template.Template
}

// SignatureMatch is the signature a finding states, as report.json shows it.
type SignatureMatch struct {
	ID      string
	Version int
	// Decided is true when the signature's decider confirmed it (or it has
	// none: the line alone states the cause).
	Decided bool
	// Line is the deciding line, cited.
	Line model.Source
	// Quote is the deciding line shortened around the part that decides.
	Quote string
	// Cause is the signature's cause as the hint states it (with the
	// decider's sentence), without the deciding line.
	Cause string
}

// signatureMatch is a signature found on one of a subject's lines.
type signatureMatch struct {
	sig      *Signature
	ev       Evidence
	vars     Vars
	decision joinResult
	decided  bool
	start    int // where the match starts in the matched text
	end      int
	text     string
}

// compileSignatures checks and compiles t's signatures, with the problems at
// their lines.
func (t *Table) compileSignatures() Errors {
	var errs Errors
	seen := map[string]string{}
	for _, s := range t.Signatures {
		bad := reporter(&errs, s.File, s.Line, "signature "+s.ID, s.fieldLines, s.badKeys)
		if checkIdentity(bad, "signature", s.ID, s.Version, s.Disabled, fmt.Sprintf("%s:%d", s.File, s.Line), seen) {
			continue
		}
		if len(s.Sources) == 0 {
			bad("sources", "sources lists no public address the signature was learned from")
		}
		for i, src := range s.Sources {
			if !strings.HasPrefix(src, "https://") {
				bad(fmt.Sprintf("sources[%d]", i), "source %q must start with https://", src)
			}
		}
		s.in = s.in[:0]
		for i, k := range s.In {
			if !slices.Contains(EvidenceKinds(), EvidenceKind(k)) {
				bad(fmt.Sprintf("in[%d]", i), "in: %q is not an evidence kind (one of %s)", k, evidenceKindList())
				continue
			}
			s.in = append(s.in, EvidenceKind(k))
		}
		s.captures = nil
		if s.Pattern == "" {
			bad("pattern", "pattern is empty")
		} else if re, err := regexp.Compile(s.Pattern); err != nil {
			bad("pattern", "pattern: %v", err)
		} else {
			s.re = re
			for _, n := range re.SubexpNames()[1:] {
				switch {
				case n == "":
				case !unicode.IsUpper(rune(n[0])):
					bad("pattern", "pattern: capture %q must start with an upper-case letter, as template values do ({{.%s}})", n, strings.ToUpper(n[:1])+n[1:])
				case slices.Contains(varNames, n) || n == "OpenShift":
					bad("pattern", "pattern: capture %q has the name of a subject value; name it after what it holds", n)
				default:
					s.captures = append(s.captures, n)
				}
			}
			s.filter = newLitFilter(s.Pattern)
			s.lits = requiredLiterals(s.Pattern)
			if len(s.lits) == 0 {
				bad("pattern", "pattern has no literal of at least %d characters that every match contains, so it would run over every line; anchor it on the message's own words", minRequired)
			}
		}
		for i, ns := range s.AgentLogs {
			if !nsNameRe.MatchString(ns) {
				bad(fmt.Sprintf("agentLogs[%d]", i), "agentLogs: %q is not a namespace name", ns)
			}
		}
		s.decider = nil
		if s.Decide != "" {
			j, ok := lookupJoin(s.Decide)
			if !ok {
				bad("decide", "decide: unknown join %q (known: %s)", s.Decide, strings.Join(JoinNames(), ", "))
			} else {
				s.decider = &j
			}
		}
		if s.Severity != "" && !severities[s.Severity] {
			bad("severity", "severity %q is not one of critical, high, medium, low, info", s.Severity)
		}
		if strings.TrimSpace(s.Cause) == "" {
			bad("cause", "cause is empty")
		}
		var err error
		if s.cause, err = s.parse("cause", s.Cause); err != nil {
			bad("cause", "cause: %v", err)
		}
		if s.Fix != "" {
			if s.fix, err = s.parse("fix", s.Fix); err != nil {
				bad("fix", "fix: %v", err)
			}
		}
	}
	return errs
}

var nsNameRe = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)

// indexAgents puts the general signatures last and lists, once per table,
// the namespaces of node agents the enabled signatures read
// (Signature.AgentLogs), sorted.
func (t *Table) indexAgents() {
	// The catch-all signatures go after the specific ones, in their order.
	slices.SortStableFunc(t.Signatures, func(a, b *Signature) int {
		switch {
		case a.General == b.General:
			return 0
		case b.General:
			return -1
		}
		return 1
	})
	t.agentNamespaces = nil
	for _, s := range t.Signatures {
		if !s.Disabled {
			t.agentNamespaces = append(t.agentNamespaces, s.AgentLogs...)
		}
	}
	slices.Sort(t.agentNamespaces)
	t.agentNamespaces = slices.Compact(t.agentNamespaces)
}

func evidenceKindList() string {
	var out []string
	for _, k := range EvidenceKinds() {
		out = append(out, string(k))
	}
	return strings.Join(out, ", ")
}

// parse parses one of the signature's templates and checks it against the
// values a signature fills: the subject's, its captures and OpenShift.
func (s *Signature) parse(field, text string) (*template.Template, error) {
	tpl, err := template.New(s.ID + "." + field).Funcs(templateFuncs).Option("missingkey=error").Parse(text)
	if err != nil {
		return nil, err
	}
	vars := s.sampleVars()
	for _, v := range templateValues(tpl) {
		if _, ok := vars[v]; !ok {
			return nil, fmt.Errorf("{{.%s}} is neither a subject value nor a capture of the pattern (captures: %s)", v, strings.Join(s.captures, ", "))
		}
	}
	return checkRender(s.ID+"."+field, text, vars)
}

func (s *Signature) sampleVars() Vars {
	v := sampleVars()
	for _, c := range s.captures {
		v[c] = "x"
	}
	v["OpenShift"] = "true"
	return v
}

// reads reports whether the signature reads lines of evidence kind k.
func (s *Signature) reads(k EvidenceKind) bool {
	return len(s.in) == 0 || slices.Contains(s.in, k)
}

// prefilter reports whether a line holds the literals every match of the
// signature contains (litFilter.admits): t is the line, with its lower-case
// form computed once per line for every signature (see lineText).
func (s *Signature) prefilter(t *lineText) bool { return s.filter.admits(t) }

// lineText is one text a signature may match (a line's quote or whole
// text, clipped), with its case-folded form (foldCanon) made on first need.
type lineText struct {
	text  string
	lower string
	done  bool
}

func (t *lineText) folded() string {
	if !t.done {
		t.lower, t.done = foldCanon(t.text), true
	}
	return t.lower
}

// match runs the signature over one line and returns the match's bounds and
// captured values, or ok false.
func (s *Signature) match(t *lineText) (start, end int, caps map[string]string, ok bool) {
	if s.re == nil || t.text == "" || !s.prefilter(t) {
		return 0, 0, nil, false
	}
	text := t.text
	loc := s.re.FindStringSubmatchIndex(text)
	if loc == nil {
		return 0, 0, nil, false
	}
	caps = map[string]string{}
	start, end = loc[0], loc[1]
	capStart, capEnd := -1, -1
	for i, n := range s.re.SubexpNames() {
		if i == 0 || n == "" || loc[2*i] < 0 {
			continue
		}
		caps[n] = clip(strings.TrimSpace(text[loc[2*i]:loc[2*i+1]]), maxVarText)
		if capStart < 0 || loc[2*i] < capStart {
			capStart = loc[2*i]
		}
		capEnd = max(capEnd, loc[2*i+1])
	}
	// A match longer than a quote is quoted around what it captured (the
	// line of a termination message that says why, not the lines before it).
	if end-start > maxQuote && capStart >= 0 && capEnd > capStart {
		start, end = capStart, capEnd
	}
	return start, end, caps, true
}

// sigLine is a line a signature may read; agent is the namespace of the
// node agent whose log it comes from, "" for the subject's own lines.
type sigLine struct {
	Evidence
	agent string
}

// signatureLines is every line of a subject a signature may read: the hit's
// evidence, and for a pod's container the kept lines of its previous and
// current log and every event of the pod that names it, in that order; then
// the kept log lines of the node agents on the pod's node whose namespaces
// a signature reads (Signature.AgentLogs).
func (c *evalContext) signatureLines(p *model.Pod, h *hit) []sigLine {
	var lines []sigLine
	if p != nil && h.Container != "" {
		// A termination message first, cited at its own field's line (the
		// status summary of the hit cites the container's state).
		lines = append(lines, c.terminationMessageLines(p, h.Container)...)
	}
	for _, e := range h.Evidence {
		lines = append(lines, sigLine{Evidence: e})
	}
	if p == nil {
		return lines
	}
	if h.Container != "" {
		for _, l := range []*model.ContainerLog{p.Log(h.Container, true), p.Log(h.Container, false)} {
			lines = appendLogLines(lines, l, "")
		}
		for _, e := range c.eventEvidence(p, func(e *model.Event) bool {
			fp := e.Object.InvolvedObject.FieldPath
			return fp == "" || strings.Contains(fp, "{"+h.Container+"}")
		}) {
			lines = append(lines, sigLine{Evidence: e})
		}
	}
	if len(c.table.agentNamespaces) > 0 && p.Object.Spec.NodeName != "" {
		for _, agent := range c.agentPods(p.Object.Spec.NodeName) {
			if agent == p {
				continue
			}
			for _, l := range agent.Logs {
				lines = appendLogLines(lines, l, agent.Object.Namespace)
			}
		}
	}
	return lines
}

// agentPods returns the pods of the table's agent namespaces on node, in
// the order of PodsOnNode; each node's list is made once per evaluation,
// not once per pod on it.
func (c *evalContext) agentPods(node string) []*model.Pod {
	if list, ok := c.agents[node]; ok {
		return list
	}
	if c.agents == nil {
		c.agents = map[string][]*model.Pod{}
	}
	var list []*model.Pod
	for _, o := range c.store.PodsOnNode(node) {
		if agent := o.Pod(); agent != nil && slices.Contains(c.table.agentNamespaces, o.Namespace) {
			list = append(list, agent)
		}
	}
	c.agents[node] = list
	return list
}

// terminationMessageLines are the container's termination messages (of its
// terminated state and of its last termination), each as the status
// evidence writes it ("termination message: ...", lines joined with " | ")
// and cited at the message field's line when the pod's file shows it.
func (c *evalContext) terminationMessageLines(p *model.Pod, container string) []sigLine {
	cs, ok := containerNamed(p, container)
	if !ok {
		return nil
	}
	var out []sigLine
	add := func(t *corev1.ContainerStateTerminated, label, state string) {
		if t == nil || strings.TrimSpace(t.Message) == "" {
			return
		}
		var b strings.Builder
		writeTerminationMessage(&b, label, t.Message)
		text := b.String()
		ev := c.fieldEvidence(p, text, cs.statusPath()+"."+state+".terminated.message")
		ev.Quote = strings.TrimPrefix(text, label)
		out = append(out, sigLine{Evidence: ev})
	}
	add(cs.Status.State.Terminated, "termination message: ", "state")
	add(cs.Status.LastTerminationState.Terminated, "last termination message: ", "lastState")
	return out
}

// appendLogLines adds the kept lines of log l (nil: none), error lines
// first, then its matched lines (ContainerLog.Matched) that are not among
// them.
func appendLogLines(lines []sigLine, l *model.ContainerLog, agent string) []sigLine {
	if l == nil || !l.HasKept() && !l.HasMatched() {
		return lines
	}
	tail, errs := l.Kept()
	seen := map[int]bool{}
	for _, ll := range slices.Concat(errs, tail, l.Matched()) {
		if seen[ll.Line] {
			continue
		}
		seen[ll.Line] = true
		lines = append(lines, sigLine{Evidence: logLineEvidence(l, ll), agent: agent})
	}
	return lines
}

// logLineEvidence cites line ll of container log l.
func logLineEvidence(l *model.ContainerLog, ll model.LogLine) Evidence {
	return Evidence{Source: model.Source{Path: l.Path(), Line: ll.Line}, Kind: EvidenceContainerLog, Time: ll.Time, Text: ll.Text, Quote: ll.Text}
}

// readSignatures finds the signature that states the cause of hit h on pod
// p (nil for a node's or a controller's hit, whose h.object is the controller): the first signature in table order that matches
// one of the subject's lines and that its decider does not rule out,
// preferring one its decider confirms. It returns nil when none does.
func (c *evalContext) readSignatures(p *model.Pod, h *hit) *signatureMatch {
	return c.readSignaturesOf(p, h, nil)
}

// readSignaturesOf is readSignatures over the signatures only accepts (nil:
// all of them).
func (c *evalContext) readSignaturesOf(p *model.Pod, h *hit, only func(*Signature) bool) *signatureMatch {
	if c.table == nil || len(c.table.Signatures) == 0 {
		return nil
	}
	lines := c.signatureLines(p, h)
	// Each line's quote and whole text, clipped, lower-cased once for all
	// signatures.
	texts := make([][2]lineText, len(lines))
	for i, l := range lines {
		texts[i][0].text = clip(l.Quote, MaxEvidenceText)
		if l.Text != l.Quote {
			texts[i][1].text = clip(l.Text, MaxEvidenceText)
		}
	}
	var first *signatureMatch
	for _, s := range c.table.Signatures {
		if s.Disabled || s.re == nil || only != nil && !only(s) {
			continue
		}
		for i, l := range lines {
			e := l.Evidence
			if !s.reads(e.Kind) || (l.agent != "" && !slices.Contains(s.AgentLogs, l.agent)) {
				continue
			}
			t := &texts[i][0]
			start, end, caps, ok := s.match(t)
			if !ok {
				t = &texts[i][1]
				start, end, caps, ok = s.match(t)
			}
			if !ok {
				continue
			}
			m := &signatureMatch{sig: s, ev: e, start: start, end: end, text: t.text, vars: Vars{}, decided: s.decider == nil}
			for k, v := range h.Vars {
				m.vars[k] = v
			}
			for k, v := range caps {
				m.vars[k] = v
			}
			if s.decider != nil && (p != nil || s.decider.workloads && h.object != nil || s.decider.nodes && h.object == nil) {
				// The decider reads the deciding line first, then the
				// rest of the hit's evidence, as a rule's join would.
				dh := hit{Container: h.Container, Vars: m.vars, Evidence: append([]Evidence{e}, h.Evidence...), object: h.object, objectKind: h.objectKind}
				m.decision = s.decider.run(c, p, &dh)
				if m.decision.RuledOut {
					break // the fact rules this signature out for the subject
				}
				m.decided = m.decision.Decided
			}
			if m.decided {
				return m
			}
			if first == nil {
				first = m
			}
			break
		}
	}
	return first
}

// decidedBy names the join that decided m, "" when none did (or m is nil).
func (m *signatureMatch) decidedBy() string {
	if m == nil || !m.decision.Decided {
		return ""
	}
	return m.sig.Decide
}

// state renders the matched signature into the finding's words: the cause,
// the decider's sentence (unless the rule's hint states it already, said
// holds what the rule's own joins decided), the deciding line quoted with its
// path:line, what could not be checked; and the first remediation step.
func (m *signatureMatch) state(openShift bool, said string) (statement, cause, fix string) {
	vars := Vars{}
	for _, n := range varNames {
		vars[n] = ""
	}
	for k, v := range m.vars {
		vars[k] = v
	}
	for _, c := range m.sig.captures {
		if _, ok := vars[c]; !ok {
			vars[c] = ""
		}
	}
	vars["OpenShift"] = ""
	if openShift {
		vars["OpenShift"] = "true"
	}
	var b strings.Builder
	b.WriteString(squeezeSpaces(execTemplate(m.sig.cause, vars)))
	if d := m.decision; d.Decided && d.Cause != "" && !strings.Contains(said, d.Cause) {
		b.WriteString(" " + d.Cause)
	}
	cause = b.String()
	fmt.Fprintf(&b, " The deciding line, %s (\"%s\").", citation(m.at()), m.quote())
	if len(m.decision.Missing) > 0 && !m.decision.Decided {
		b.WriteString(" Not confirmed: " + strings.Join(m.decision.Missing, "; ") + ".")
	}
	if m.sig.fix != nil {
		fix = squeezeSpaces(execTemplate(m.sig.fix, vars))
	}
	if m.decision.Decided && m.decision.Fix != "" && !strings.Contains(said, m.decision.Cause) {
		fix = strings.TrimSpace(fix + " " + m.decision.Fix)
	}
	return b.String(), cause, fix
}

// citation writes a source as reports cite it: path:line, or the path alone.
func citation(s model.Source) string {
	if s.Line > 0 {
		return fmt.Sprintf("%s:%d", s.Path, s.Line)
	}
	return s.Path
}

// at is where the deciding line is cited: where the decider's quote
// stands (joinResult.QuoteAt) when it knows, else the line that matched.
func (m *signatureMatch) at() model.Source {
	if m.decision.Decided && m.decision.Quote != "" && m.decision.QuoteAt.Line > 0 && m.decision.QuoteAt.Path == m.ev.Source.Path {
		return m.decision.QuoteAt
	}
	return m.ev.Source
}

// quote is the deciding line as a finding quotes it: the part its decider
// narrowed it to (joinResult.Quote), else the line shortened around the
// match.
func (m *signatureMatch) quote() string {
	if m.decision.Decided && m.decision.Quote != "" {
		return m.decision.Quote
	}
	return quoteAround(m.text, m.start, m.end, maxQuote)
}

// maxQuote bounds a quoted deciding line (bytes).
const maxQuote = 200

// quoteAround shortens text to about max bytes around [start, end), the part
// that decides, cutting only at spaces (never mid-word) and marking each cut
// with "…". When the deciding part alone is longer than max, it is kept from
// the start of its first word up to the first space after max bytes.
func quoteAround(text string, start, end, max int) string {
	text = strings.TrimRight(strings.ToValidUTF8(text, ""), " ")
	if start < 0 || end > len(text) || start > end {
		start, end = 0, min(len(text), max)
	}
	if len(text) <= max {
		return strings.TrimSpace(text)
	}
	lo, hi := start, end
	if end-start >= max {
		hi = start + max
	} else {
		room := max - (end - start)
		lo, hi = start-room/2, end+(room-room/2)
		if lo < 0 {
			hi, lo = hi-lo, 0
		}
		if hi > len(text) {
			lo, hi = max0(lo-(hi-len(text))), len(text)
		}
	}
	// Cut at spaces only: move lo forward to a word start unless it is the
	// deciding part's own start (then back to its word's start), and hi back
	// to a word end, or forward when that would cut into the deciding part.
	if lo > 0 && text[lo-1] != ' ' {
		if i := strings.IndexByte(text[lo:start], ' '); i >= 0 {
			lo += i + 1
		} else {
			lo = wordIndex(text, start)
		}
	}
	if hi < len(text) && text[hi] != ' ' {
		if i := strings.LastIndexByte(text[max0(min(end, hi)):hi], ' '); i >= 0 && end < hi {
			hi = end + i
		} else if i := strings.IndexByte(text[hi:], ' '); i >= 0 {
			hi += i
		} else {
			hi = len(text)
		}
	}
	// A "word" longer than the quote itself (a line with no spaces: a JSON
	// blob, a long URL) is cut at a character, and the cut marked.
	for lo < hi && text[lo] == ' ' {
		lo++
	}
	if hi-lo > 2*max {
		if i := strings.LastIndexByte(text[lo:lo+2*max], ' '); i > 0 {
			hi = lo + i // at the last space within the bound
		} else {
			hi = lo + 2*max
			for hi > lo && !utf8.RuneStart(text[hi]) {
				hi--
			}
		}
	}
	return ellipsis(text[lo:hi], lo > 0, hi < len(text))
}

func max0(n int) int {
	if n < 0 {
		return 0
	}
	return n
}

// wordIndex moves i back to the start of the word it is in.
func wordIndex(text string, i int) int {
	for i > 0 && text[i-1] != ' ' {
		i--
	}
	return i
}

func ellipsis(s string, before, after bool) string {
	s = strings.TrimSpace(s)
	if before {
		s = "…" + s
	}
	if after {
		s += "…"
	}
	return s
}

// addSignatures decodes the signatures list of one rule file (raw, the
// value of its signatures: key), strictly, with every problem at its line.
func (t *Table) addSignatures(name string, data []byte, text []string, top map[string]int, raw json.RawMessage, builtin bool) Errors {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return Errors{{File: name, Line: top["signatures"], Msg: fmt.Sprintf("signatures holds %s where a list of signatures belongs (each item starts with `- id:`)", yamlKindOf(raw))}}
	}
	lines := listLines(data, "signatures:")
	if len(lines) != len(items) {
		lines = nil
	}
	var errs Errors
	for i, r := range items {
		s := &Signature{File: name, local: !builtin, badKeys: map[string]bool{}}
		fields := map[string]int{}
		if i < len(lines) {
			s.Line = lines[i]
			end := len(text) + 1
			if i+1 < len(lines) {
				end = lines[i+1]
			}
			fields = fieldLines(text, s.Line, end)
		}
		s.fieldLines = fields
		probs := decodeKeys(r, s, "", "a signature")
		where := s.ID
		if where == "" {
			where = fmt.Sprintf("#%d (no id)", i+1)
		}
		for _, p := range probs {
			s.badKeys[p.Key] = true
			if p.Meant != "" {
				s.badKeys[p.Meant] = true
			}
			errs = append(errs, ValidationError{File: name, Line: lineOf(fields, p.Key, s.Line), Rule: "signature " + where, Msg: p.Msg})
		}
		t.Signatures = append(t.Signatures, s)
	}
	return errs
}

// overrideSignatures applies a user file's signatures to t: one with the id
// of an existing signature replaces it (or removes it, disabled: true); new
// ones go before the built-in catalogue, so a site's signature wins over the
// general one for the lines it matches.
func (t *Table) overrideSignatures(user []*Signature) {
	var front []*Signature
	index := make(map[string]int, len(t.Signatures))
	for i, b := range t.Signatures {
		if _, dup := index[b.ID]; !dup {
			index[b.ID] = i
		}
	}
	for _, s := range user {
		if i, ok := index[s.ID]; ok {
			t.Signatures[i] = s
			continue
		}
		front = append(front, s)
	}
	t.Signatures = append(front, t.Signatures...)
	t.Signatures = slices.DeleteFunc(t.Signatures, func(s *Signature) bool { return s.Disabled })
	t.indexAgents()
}
