package rules

import (
	"fmt"
	"k8s.io/apimachinery/pkg/api/resource"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/nodelog"
	"github.com/mgtriage/mgtriage/parser/podstatus"
	corev1 "k8s.io/api/core/v1"
)

// eventReason fires for each pod with events of one of Reasons (and, when
// Types is set, of one of those types), citing them.
type eventReason struct {
	Reasons []string `json:"reasons" doc:"event reasons that fire"`
	Types   []string `json:"types,omitempty" doc:"event types that fire (Warning, Normal); any when empty"`
}

func (m *eventReason) validate() error {
	if len(m.Reasons) == 0 {
		return fmt.Errorf("reasons lists no event reason")
	}
	return nil
}

func (m *eventReason) keep(e *model.Event) bool {
	return slices.Contains(m.Reasons, e.Object.Reason) && (len(m.Types) == 0 || slices.Contains(m.Types, e.Object.Type))
}

func (m *eventReason) on() subjectKind { return onPod }

func (m *eventReason) match(c *evalContext, s subject) []hit {
	p := s.Pod
	ev := c.eventEvidence(p, m.keep)
	if len(ev) == 0 {
		return nil
	}
	h := hit{Vars: c.podVars(p)}
	for _, e := range p.Events {
		if m.keep(e) {
			h.Vars["Reason"], h.Vars["Message"] = e.Object.Reason, strings.TrimSpace(e.Object.Message)
		}
	}
	h.Evidence = append([]Evidence{c.fieldEvidence(p, fmt.Sprintf("phase=%s STATUS=%s stage=%s", p.Object.Status.Phase, p.Columns.Status, p.Stage.Name), "status.phase")}, ev...)
	return []hit{h}
}

// podNodeLog fires for each pod with node-log lines of one of Classes.
type podNodeLog struct {
	Classes []string `json:"classes" doc:"node-log classes that fire (probe, sandbox, volume, ...)"`
}

func (m *podNodeLog) validate() error { return validClasses(m.Classes) }

func validClasses(classes []string) error {
	if len(classes) == 0 {
		return fmt.Errorf("classes lists no node-log class")
	}
	for _, c := range classes {
		if !slices.Contains(nodelog.Classes, nodelog.Class(c)) {
			return fmt.Errorf("unknown node-log class %q", c)
		}
	}
	return nil
}

func (m *podNodeLog) on() subjectKind { return onPod }

func (m *podNodeLog) match(c *evalContext, s subject) []hit {
	p := s.Pod
	var ev []Evidence
	for _, g := range p.NodeLog {
		if slices.Contains(m.Classes, string(g.Class)) {
			ev = append(ev, logGroupEvidence(g))
		}
	}
	if len(ev) == 0 {
		return nil
	}
	h := hit{Vars: c.podVars(p)}
	h.Evidence = append([]Evidence{c.fieldEvidence(p, fmt.Sprintf("phase=%s STATUS=%s stage=%s", p.Object.Status.Phase, p.Columns.Status, p.Stage.Name), "status.phase")}, ev...)
	return []hit{h}
}

// podCondition fires for pods whose condition Type has one of Statuses and,
// when Reasons is set, one of those reasons.
type podCondition struct {
	Type     string   `json:"type" doc:"the pod condition type (PodScheduled, Ready, ...)"`
	Statuses []string `json:"statuses" doc:"condition statuses that fire (True, False, Unknown)"`
	Reasons  []string `json:"reasons,omitempty" doc:"condition reasons that fire; any when empty"`
}

func (m *podCondition) validate() error {
	if m.Type == "" || len(m.Statuses) == 0 {
		return fmt.Errorf("type and statuses are required")
	}
	return nil
}

func (m *podCondition) on() subjectKind { return onPod }

func (m *podCondition) match(c *evalContext, s subject) []hit {
	p := s.Pod
	for _, cond := range p.Object.Status.Conditions {
		if string(cond.Type) != m.Type || !slices.Contains(m.Statuses, string(cond.Status)) {
			continue
		}
		if len(m.Reasons) > 0 && !slices.Contains(m.Reasons, cond.Reason) {
			continue
		}
		h := hit{Vars: c.podVars(p)}
		h.Vars["Reason"], h.Vars["Message"] = cond.Reason, cond.Message
		cp := "status.conditions[" + string(cond.Type) + "]"
		st := c.fieldEvidence(p, fmt.Sprintf("condition %s=%s reason=%s since %s: %s", cond.Type, cond.Status, cond.Reason, fmtTime(cond.LastTransitionTime.Time), cond.Message), cp+".message", cp+".reason", cp)
		st.Quote = cond.Message
		h.Evidence = append(h.Evidence, st)
		if len(p.Object.Spec.SchedulingGates) > 0 {
			var gates []string
			for _, g := range p.Object.Spec.SchedulingGates {
				gates = append(gates, g.Name)
			}
			h.Vars["Reasons"] = strings.Join(gates, ", ")
			h.Evidence = append(h.Evidence, Evidence{Source: p.Source, Kind: EvidenceSpec, Text: "spec.schedulingGates: " + strings.Join(gates, ", ")})
		}
		if len(p.Object.Spec.ReadinessGates) > 0 {
			var gates []string
			for _, g := range p.Object.Spec.ReadinessGates {
				gates = append(gates, string(g.ConditionType))
			}
			h.Vars["Reasons"] = strings.Join(gates, ", ")
			h.Evidence = append(h.Evidence, Evidence{Source: p.Source, Kind: EvidenceSpec, Text: "spec.readinessGates: " + strings.Join(gates, ", ")})
		}
		h.Evidence = append(h.Evidence, c.eventEvidence(p, func(e *model.Event) bool { return e.Object.Type != corev1.EventTypeNormal })...)
		return []hit{h}
	}
	return nil
}

// initContainerRunning fires for an init container that has been running for
// at least RunningFor at the gather time while the pod waits (Init:N/M).
// With MaxMemoryLimit (a quantity such as 64Mi) it fires only when the init
// container's memory limit is at most that: a templating or copy step that
// should take seconds stalls under a limit too small for its binary.
type initContainerRunning struct {
	RunningFor     string `json:"runningFor" doc:"how long the init container has run at the gather time (\"10m\")"`
	MaxMemoryLimit string `json:"maxMemoryLimit,omitempty" doc:"fire only when the init container's memory limit is at most this quantity (64Mi)"`

	runningFor time.Duration
	maxLimit   *resource.Quantity
}

func (m *initContainerRunning) validate() error {
	d, err := time.ParseDuration(m.RunningFor)
	if err != nil || d <= 0 {
		return fmt.Errorf("runningFor %q is not a duration such as 15m", m.RunningFor)
	}
	m.runningFor = d
	if m.MaxMemoryLimit != "" {
		q, err := resource.ParseQuantity(m.MaxMemoryLimit)
		if err != nil {
			return fmt.Errorf("maxMemoryLimit %q is not a quantity such as 64Mi", m.MaxMemoryLimit)
		}
		m.maxLimit = &q
	}
	return nil
}

func (m *initContainerRunning) on() subjectKind { return onPod }

func (m *initContainerRunning) match(c *evalContext, s subject) []hit {
	p := s.Pod
	if c.now.IsZero() || !strings.HasPrefix(p.Columns.Status, "Init:") {
		return nil
	}
	init := true
	for _, cs := range containers(p, &init) {
		r := cs.Status.State.Running
		if r == nil || podstatus.IsSidecar(cs.Spec) || r.StartedAt.IsZero() {
			continue
		}
		running := c.now.Sub(r.StartedAt.Time)
		if running < m.runningFor {
			continue
		}
		if m.maxLimit != nil {
			if cs.Spec == nil {
				continue
			}
			lim, ok := cs.Spec.Resources.Limits[corev1.ResourceMemory]
			if !ok || lim.Cmp(*m.maxLimit) > 0 {
				continue
			}
		}
		h := c.containerHit(p, cs)
		h.Vars["Overdue"] = running.Round(time.Second).String()
		h.Evidence = append(h.Evidence, c.containerEvidence(p, cs, false)...)
		h.Evidence = append(h.Evidence, c.logEvidence(p, cs.Name, &h)...)
		return []hit{h}
	}
	return nil
}

// containerRestarts fires for app containers that are running again after
// at least MinRestarts restarts whose last exit code is one of LastExitCodes
// (any when empty): a container that keeps being killed while it seems to
// work, such as by a liveness probe.
type containerRestarts struct {
	MinRestarts   int32   `json:"minRestarts" doc:"fewest restarts that fire"`
	LastExitCodes []int32 `json:"lastExitCodes,omitempty" doc:"last exit codes that fire; any when empty"`
}

func (m *containerRestarts) validate() error {
	if m.MinRestarts < 1 {
		return fmt.Errorf("minRestarts must be 1 or more")
	}
	return nil
}

func (m *containerRestarts) on() subjectKind { return onPod }

func (m *containerRestarts) match(c *evalContext, s subject) []hit {
	p := s.Pod
	app := false
	var out []hit
	for _, cs := range containers(p, &app) {
		st := cs.Status
		last := st.LastTerminationState.Terminated
		if st.State.Running == nil || st.RestartCount < m.MinRestarts || last == nil {
			continue
		}
		if len(m.LastExitCodes) > 0 && !slices.Contains(m.LastExitCodes, last.ExitCode) {
			continue
		}
		h := c.containerHit(p, cs)
		h.Vars["Probe"], h.Vars["ProbeSettings"] = probeText(cs.Spec)
		h.Evidence = append(h.Evidence, c.containerEvidence(p, cs, false)...)
		h.Evidence = append(h.Evidence, c.logEvidence(p, cs.Name, &h)...)
		out = append(out, h)
	}
	return out
}

// nodeCondition fires for nodes whose condition Type has one of Statuses.
type nodeCondition struct {
	Type     string   `json:"type" doc:"the node condition type (Ready, MemoryPressure, ...)"`
	Statuses []string `json:"statuses" doc:"condition statuses that fire (True, False, Unknown)"`
}

func (m *nodeCondition) validate() error {
	if m.Type == "" || len(m.Statuses) == 0 {
		return fmt.Errorf("type and statuses are required")
	}
	return nil
}

func (m *nodeCondition) on() subjectKind { return onNode }

func (m *nodeCondition) match(c *evalContext, s subject) []hit {
	n := s.Node
	for _, cond := range n.Object.Status.Conditions {
		if string(cond.Type) != m.Type || !slices.Contains(m.Statuses, string(cond.Status)) {
			continue
		}
		h := hit{Vars: c.nodeVars(n)}
		h.Vars["Reason"], h.Vars["Message"] = cond.Reason, cond.Message
		h.Vars["Stage"] = fmtTime(cond.LastTransitionTime.Time)
		src := n.Source
		if line := conditionLine(n.Fields, string(cond.Type)); line > 0 {
			src.Line = line
		}
		h.Evidence = append(h.Evidence, Evidence{Source: src, Kind: EvidenceStatus, Quote: cond.Message,
			Text: fmt.Sprintf("node %s condition %s=%s reason=%s since %s: %s", n.Object.Name, cond.Type, cond.Status, cond.Reason, fmtTime(cond.LastTransitionTime.Time), cond.Message)})
		for _, g := range c.gather.NodeLogOf(n.Object.Name) {
			if g.Class != nodelog.ClassAPI && g.Class != nodelog.ClassCertificate && g.Class != nodelog.ClassPLEG && g.Class != nodelog.ClassNetworkNotReady && g.Class != nodelog.ClassEviction && g.Class != nodelog.ClassNodeNotReady {
				continue
			}
			h.Evidence = append(h.Evidence, logGroupEvidence(g))
		}
		if !c.gather.HasKubeletLog(n.Object.Name) {
			h.Missing = append(h.Missing, "kubelet journal of node "+n.Object.Name+" (not in the gather)")
			h.Gaps = append(h.Gaps, model.Gap{What: model.GapNodeJournal, Node: n.Object.Name, Unit: "kubelet"})
		}
		return []hit{h}
	}
	return nil
}

// nodeLogClass fires for nodes whose node-level log groups of one of Classes
// add up to at least MinCount lines.
type nodeLogClass struct {
	Classes  []string `json:"classes" doc:"node-level log classes that fire (pleg, certificate, ...)"`
	MinCount int      `json:"minCount,omitempty" doc:"fewest lines, over the groups, that fire"`
	// Within keeps only groups whose last line is at most this long before
	// the gather time ("10m"): a problem still present when gathered.
	Within string `json:"within,omitempty" doc:"keep only groups whose last line is at most this long before the gather (\"10m\")"`
	// Pattern keeps only groups whose text matches this regular expression.
	Pattern string `json:"pattern,omitempty" doc:"keep only groups whose text matches this regular expression (RE2)"`
	// UnlessConditions skips nodes whose Node object has one of these
	// conditions True (MemoryPressure, ...): a condition rule reports them.
	UnlessConditions []string `json:"unlessConditions,omitempty" doc:"skip nodes whose Node has one of these conditions True (MemoryPressure, ...)"`

	within  time.Duration
	pattern *regexp.Regexp
}

func (m *nodeLogClass) validate() error {
	if m.Pattern != "" {
		re, err := regexp.Compile(m.Pattern)
		if err != nil {
			return fmt.Errorf("pattern: %v", err)
		}
		m.pattern = re
	}
	if m.Within != "" {
		d, err := time.ParseDuration(m.Within)
		if err != nil || d <= 0 {
			return fmt.Errorf("within %q is not a duration such as 10m", m.Within)
		}
		m.within = d
	}
	return validClasses(m.Classes)
}

func (m *nodeLogClass) on() subjectKind { return onNode }

func (m *nodeLogClass) match(c *evalContext, s subject) []hit {
	n := s.Node
	for _, cond := range n.Object.Status.Conditions {
		if cond.Status == corev1.ConditionTrue && slices.Contains(m.UnlessConditions, string(cond.Type)) {
			return nil
		}
	}
	var ev []Evidence
	count := 0
	var first, last time.Time
	detail := ""
	for _, g := range c.gather.NodeLogOf(n.Object.Name) {
		if !slices.Contains(m.Classes, string(g.Class)) {
			continue
		}
		if m.within > 0 && !c.now.IsZero() && c.now.Sub(g.Last) > m.within {
			continue
		}
		if m.pattern != nil && !m.pattern.MatchString(g.Text) {
			continue
		}
		ev = append(ev, logGroupEvidence(g))
		count += g.Count
		if first.IsZero() || g.First.Before(first) {
			first, detail = g.First, g.Detail
		}
		if g.Last.After(last) {
			last = g.Last
		}
	}
	if count == 0 || count < m.MinCount {
		return nil
	}
	h := hit{Vars: c.nodeVars(n), Evidence: ev}
	h.Vars["Restarts"] = fmt.Sprint(count)
	h.Vars["First"], h.Vars["Last"] = fmtTime(first), fmtTime(last)
	h.Vars["Detail"] = detail
	if n.JournalOnly {
		h.Vars["NoObject"] = "true"
	}
	return []hit{h}
}

func (c *evalContext) nodeVars(n *model.Node) Vars {
	v := Vars{"Node": n.Object.Name}
	for _, cond := range n.Object.Status.Conditions {
		if cond.Type == corev1.NodeReady {
			v["Status"] = "Ready=" + string(cond.Status)
		}
	}
	return v
}

// operatorCondition fires for ClusterOperators whose condition Type
// (Available, Degraded, Progressing) has one of Statuses.
type operatorCondition struct {
	Type     string   `json:"type" doc:"the ClusterOperator condition: Available, Degraded or Progressing"`
	Statuses []string `json:"statuses" doc:"condition statuses that fire (True, False, Unknown)"`
}

func (m *operatorCondition) validate() error {
	switch m.Type {
	case "Available", "Degraded", "Progressing":
	default:
		return fmt.Errorf("type %q is not Available, Degraded or Progressing", m.Type)
	}
	if len(m.Statuses) == 0 {
		return fmt.Errorf("statuses lists no status")
	}
	return nil
}

func (m *operatorCondition) on() subjectKind { return onOperator }

func (m *operatorCondition) match(c *evalContext, s subject) []hit {
	op := s.Operator
	status := map[string]string{"Available": op.Available, "Degraded": op.Degraded, "Progressing": op.Progressing}[m.Type]
	if !slices.Contains(m.Statuses, status) {
		return nil
	}
	h := hit{Vars: Vars{"Owner": op.Name, "Status": m.Type + "=" + status, "Message": op.Message}}
	// Cited at the condition whose message is quoted (operatorSummary's
	// choice: Degraded when True, else Available), else the one matched.
	src, cited := op.Source, m.Type
	switch {
	case op.Degraded == "True":
		cited = "Degraded"
	case op.Available != "True" && op.Message != "":
		cited = "Available"
	}
	if line := conditionLine(op.Fields, cited); line > 0 {
		src.Line = line
	}
	h.Evidence = append(h.Evidence, Evidence{Source: src, Kind: EvidenceStatus, Quote: op.Message,
		Text: fmt.Sprintf("clusteroperator %s: Available=%s Degraded=%s Progressing=%s: %s", op.Name, op.Available, op.Degraded, op.Progressing, op.Message)})
	return []hit{h}
}

// conditionLine returns the line of the status condition of type typ in
// fields (its message, else its reason, else the condition itself), 0 when
// the file's lines are not known.
func conditionLine(fields model.FieldLines, typ string) int {
	c := "status.conditions[" + typ + "]"
	return fields.Line(c+".message", c+".reason", c)
}
