package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/podstatus"
	corev1 "k8s.io/api/core/v1"
)

// Vars are the values a hint or remediation template may use. Every key below
// is always present (empty when unknown), so templates can be checked at load.
type Vars map[string]string

var varNames = []string{
	"Namespace", "Pod", "Container", "ContainerKind", "Node", "Image", "Status",
	"Reason", "Message", "ExitCode", "Signal", "Restarts", "LastReason",
	"LastExitCode", "LastSignal", "LastFinished", "Limit", "Request", "Probe",
	"ProbeSettings", "Cause", "Reasons", "Owner", "Stage", "ExitMeaning",
	"LastExitMeaning", "BackOff", "Overdue", "LogTail", "DecisiveLine", "Decided", "Fix", "Unchecked", "Workload", "Pods",
	"Alert", "Severity", "Since", "Count", "About", "Pool", "HostPorts",
	"State", "First", "Last", "Detail", "NoObject", "OpenShift",
}

// VarNames lists the template variables, for the rule reference.
func VarNames() []string { return slices.Clone(varNames) }

func sampleVars() Vars {
	v := Vars{}
	for _, n := range varNames {
		v[n] = "x"
	}
	return v
}

// hit is one object a matcher selected, with the values and evidence found.
type hit struct {
	Container string
	Vars      Vars
	Evidence  []Evidence
	Missing   []string
	// Gaps says what collects the evidence Missing names, where it can.
	Gaps []model.Gap
	// object and objectKind are the finding's object for a matcher of the
	// cluster as a whole (an Alert, etcd, a MachineConfigPool, a log
	// bundle), which names the object it found; nil for every other subject.
	object     *model.Object
	objectKind string
	// joined holds the results of the rule's joins that decided, by join
	// name (applyJoins), so that a signature decided by the same join does
	// not have its sentence said twice.
	joined map[string]joinResult
}

// about returns h with the object a cluster matcher found, and its kind as
// reports print it ("Alert", "MachineConfigPool").
func (h hit) about(o *model.Object, kind string) hit {
	h.object, h.objectKind = o, kind
	return h
}

// subjectKind is what a matcher judges.
type subjectKind int

const (
	onPod      subjectKind = iota + 1 // each pod (and its containers)
	onNode                            // each node, and each host known only from its journal or runtime pods
	onWorkload                        // each controller (ReplicaSet, Deployment, Job, ...) with events
	onOperator                        // each ClusterOperator
	onCluster                         // the cluster as a whole: its hits name their object (alerts, etcd, pools, install bundles)
)

// String names the subject kind as the rule reference prints it.
func (k subjectKind) String() string {
	switch k {
	case onPod:
		return "pod"
	case onNode:
		return "node"
	case onWorkload:
		return "controller"
	case onOperator:
		return "ClusterOperator"
	case onCluster:
		return "cluster object"
	}
	return "?"
}

// subject is one thing a rule judges: the field of its kind is set, none
// for the cluster as a whole.
type subject struct {
	kind     subjectKind
	Pod      *model.Pod
	Node     *model.Node
	Workload *workloadRef
	Operator *model.Operator
}

// matcher selects, among the subjects of its kind, those that show one
// symptom: each hit is one finding to be (a container of a pod, an alert of
// the cluster). Every matcher has this one signature; on says which
// subjects the engine hands it.
type matcher interface {
	on() subjectKind
	match(c *evalContext, s subject) []hit
}

// subjects lists the subjects of kind in c's gather, in the gather's order:
// pods, then nodes followed by the hosts known only from their journal or
// runtime pods, controllers, ClusterOperators, or the one cluster. The list
// is made once per kind and evaluation; callers must not modify it.
func (c *evalContext) subjects(kind subjectKind) []subject {
	if s, ok := c.subjectLists[kind]; ok {
		return s
	}
	s := c.listSubjects(kind)
	if c.subjectLists == nil {
		c.subjectLists = map[subjectKind][]subject{}
	}
	c.subjectLists[kind] = s
	return s
}

// listSubjects makes the list subjects returns.
func (c *evalContext) listSubjects(kind subjectKind) []subject {
	g := c.gather
	var out []subject
	switch kind {
	case onPod:
		for _, p := range g.Pods {
			out = append(out, subject{kind: kind, Pod: p})
		}
	case onNode:
		for _, n := range append(g.Nodes[:len(g.Nodes):len(g.Nodes)], g.JournalNodes...) {
			out = append(out, subject{kind: kind, Node: n})
		}
	case onWorkload:
		for _, w := range c.workloads() {
			out = append(out, subject{kind: kind, Workload: w})
		}
	case onOperator:
		for i := range g.Operators {
			out = append(out, subject{kind: kind, Operator: &g.Operators[i]})
		}
	case onCluster:
		out = append(out, subject{kind: kind})
	}
	return out
}

// key names the finding's subject for rule groups and de-duplication: the
// pod's ID, "node/<name>", the controller's, "clusteroperator/<name>", or
// the object a cluster hit names.
func (s subject) key(h hit) string {
	switch s.kind {
	case onPod:
		return s.Pod.ID()
	case onNode:
		return "node/" + s.Node.Object.Name
	case onWorkload:
		return s.Workload.Subject()
	case onOperator:
		return "clusteroperator/" + s.Operator.Name
	}
	if h.object == nil {
		return "cluster"
	}
	return strings.ToLower(h.objectKind) + "/" + h.object.Namespace + "/" + h.object.Name
}

// MatcherNames lists the matchers a rule may name.
func MatcherNames() []string {
	var names []string
	for _, m := range matcherRegistry() {
		names = append(names, m.name)
	}
	sort.Strings(names)
	return names
}

func newMatcher(name string, params json.RawMessage) (matcher, error) {
	kind, ok := lookupMatcher(name)
	if !ok {
		return nil, fmt.Errorf("unknown matcher %q (known: %s)", name, strings.Join(MatcherNames(), ", "))
	}
	m := kind.new()
	if len(params) > 0 && string(params) != "null" {
		dec := json.NewDecoder(bytes.NewReader(params))
		dec.DisallowUnknownFields()
		if err := dec.Decode(m); err != nil {
			return nil, fmt.Errorf("params of %s: %v", name, err)
		}
	}
	if v, ok := m.(interface{ validate() error }); ok {
		if err := v.validate(); err != nil {
			return nil, fmt.Errorf("params of %s: %v", name, err)
		}
	}
	return m, nil
}

// containerWaiting fires for each container whose state is waiting with one of
// Reasons. Init selects init containers (true), app containers (false) or both
// (unset). ExcludeLastReasons skips containers whose last termination reason is
// listed (e.g. OOMKilled, left to its own rule).
type containerWaiting struct {
	Reasons            []string `json:"reasons" doc:"waiting reasons that fire (ImagePullBackOff, CrashLoopBackOff, ...)"`
	Init               *bool    `json:"init,omitempty" doc:"true: init containers only; false: app containers only; unset: both"`
	ExcludeLastReasons []string `json:"excludeLastReasons,omitempty" doc:"skip containers whose last termination reason is listed (OOMKilled, left to its own rule)"`
	// Logs adds the tail of the container's previous (else current) log.
	Logs bool `json:"logs,omitempty" doc:"cite the tail of the container's previous (else current) log"`
	// NodeLog notes a missing kubelet journal of the pod's node as missing evidence.
	NodeLog bool `json:"nodeLog,omitempty" doc:"note a missing kubelet journal of the pod's node as missing evidence"`
	// LastExitCodes keeps only containers whose last termination exited with
	// one of these codes.
	LastExitCodes []int32 `json:"lastExitCodes,omitempty" doc:"keep only containers whose last termination exited with one of these codes"`
}

func (m *containerWaiting) validate() error {
	if len(m.Reasons) == 0 {
		return fmt.Errorf("reasons lists no waiting reason")
	}
	return nil
}

func (m *containerWaiting) on() subjectKind { return onPod }

func (m *containerWaiting) match(c *evalContext, s subject) []hit {
	p := s.Pod
	var out []hit
	for _, cs := range containers(p, m.Init) {
		w := cs.Status.State.Waiting
		if w == nil || !slices.Contains(m.Reasons, w.Reason) {
			continue
		}
		t := cs.Status.LastTerminationState.Terminated
		if t != nil && slices.Contains(m.ExcludeLastReasons, t.Reason) {
			continue
		}
		if len(m.LastExitCodes) > 0 && (t == nil || !slices.Contains(m.LastExitCodes, t.ExitCode)) {
			continue
		}
		h := c.containerHit(p, cs)
		h.Vars["Probe"], h.Vars["ProbeSettings"] = probeText(cs.Spec)
		h.Evidence = append(h.Evidence, c.containerEvidence(p, cs, m.NodeLog)...)
		if m.Logs {
			h.Evidence = append(h.Evidence, c.logEvidence(p, cs.Name, &h)...)
		}
		if m.NodeLog {
			c.missingNodeLog(p, &h)
		}
		out = append(out, h)
	}
	return out
}

// containerTerminated fires for each container whose current state (and, with
// LastState, whose last state) is terminated with one of Reasons.
type containerTerminated struct {
	Reasons   []string `json:"reasons" doc:"termination reasons that fire (Error, OOMKilled, ...)"`
	LastState bool     `json:"lastState" doc:"also look at the last termination state, not only the current state"`
	// Init selects init containers (true), app containers (false) or both (unset).
	Init *bool `json:"init,omitempty" doc:"true: init containers only; false: app containers only; unset: both"`
	// SkipPodReasons skips pods whose status.reason is listed (Evicted, ...).
	SkipPodReasons []string `json:"skipPodReasons,omitempty" doc:"skip pods whose status.reason is listed (Evicted, ...)"`
	// SkipDeleted skips pods being deleted (their containers exit on SIGTERM).
	SkipDeleted bool `json:"skipDeleted,omitempty" doc:"skip pods being deleted (their containers exit on SIGTERM)"`
	// Logs adds the tail of the container's previous (else current) log.
	Logs bool `json:"logs,omitempty" doc:"cite the tail of the container's previous (else current) log"`
	// SkipRuntimeView skips pods known only from the container runtime,
	// whose restart policy and owner are unknown.
	SkipRuntimeView bool `json:"skipRuntimeView,omitempty" doc:"skip pods known only from the container runtime (restart policy and owner unknown)"`
}

func (m *containerTerminated) validate() error {
	if len(m.Reasons) == 0 {
		return fmt.Errorf("reasons lists no termination reason")
	}
	return nil
}

func (m *containerTerminated) on() subjectKind { return onPod }

func (m *containerTerminated) match(c *evalContext, s subject) []hit {
	p := s.Pod
	if slices.Contains(m.SkipPodReasons, p.Object.Status.Reason) || (m.SkipDeleted && p.Object.DeletionTimestamp != nil) || (m.SkipRuntimeView && p.Runtime != nil) {
		return nil
	}
	var out []hit
	for _, cs := range containers(p, m.Init) {
		t := cs.Status.State.Terminated
		which := "state"
		if t == nil || !slices.Contains(m.Reasons, t.Reason) {
			t, which = nil, ""
			if lt := cs.Status.LastTerminationState.Terminated; m.LastState && lt != nil && slices.Contains(m.Reasons, lt.Reason) {
				t, which = lt, "lastState"
			}
		}
		if t == nil {
			continue
		}
		h := c.containerHit(p, cs)
		h.Vars["Reason"] = t.Reason
		h.Vars["ExitCode"] = fmt.Sprint(t.ExitCode)
		h.Vars["ExitMeaning"] = podstatus.ExitMeaning(t.ExitCode, t.Signal, t.Reason)
		base := cs.statusPath() + "." + which + ".terminated"
		var text strings.Builder
		fmt.Fprintf(&text, "%s %s %s.terminated: reason=%s exitCode=%d finishedAt=%s; restartCount=%d; resources: %s",
			cs.Kind, cs.Name, which, t.Reason, t.ExitCode, fmtTime(t.FinishedAt.Time), cs.Status.RestartCount, resourcesText(cs.Spec))
		writeTerminationMessage(&text, "; termination message: ", t.Message)
		h.Evidence = append(h.Evidence, c.fieldEvidence(p, text.String(), base+".reason", base+".exitCode", base))
		h.Evidence = append(h.Evidence, c.containerEvidence(p, cs, false)...)
		if m.Logs {
			h.Evidence = append(h.Evidence, c.logEvidence(p, cs.Name, &h)...)
		}
		out = append(out, h)
	}
	return out
}

// initContainerFailed fires for the init container that stops the pod from
// initialising: terminated with a non-zero exit code, or waiting in back-off
// after such a termination.
type initContainerFailed struct{}

func (m *initContainerFailed) on() subjectKind { return onPod }

func (m *initContainerFailed) match(c *evalContext, s subject) []hit {
	p := s.Pod
	init := true
	for _, cs := range containers(p, &init) {
		st := cs.Status
		failedNow := st.State.Terminated != nil && st.State.Terminated.ExitCode != 0
		// Waiting after a failed run (not an image pull or a config error,
		// which their own rules explain).
		backOff := st.State.Waiting != nil && (st.State.Waiting.Reason == "CrashLoopBackOff" || st.State.Waiting.Reason == "RunContainerError") &&
			st.LastTerminationState.Terminated != nil
		if !failedNow && !backOff {
			continue
		}
		h := c.containerHit(p, cs)
		t := st.State.Terminated
		if t == nil {
			t = st.LastTerminationState.Terminated
		}
		if t != nil {
			h.Vars["ExitCode"] = fmt.Sprint(t.ExitCode)
			h.Vars["Reason"] = t.Reason
			h.Vars["Signal"] = signalText(t.Signal, t.ExitCode)
			h.Vars["ExitMeaning"] = podstatus.ExitMeaning(t.ExitCode, t.Signal, t.Reason)
		}
		h.Evidence = append(h.Evidence, c.containerEvidence(p, cs, true)...)
		h.Evidence = append(h.Evidence, c.logEvidence(p, cs.Name, &h)...)
		return []hit{h} // only the first failing init container matters
	}
	return nil
}

// containerNotReady fires for each app container of a Running pod that runs
// but is not ready, citing its probes and the probe failures recorded for it.
// A container on its first start, still within the time its probes allow,
// is left out, or with starting: true is the only one kept.
type containerNotReady struct {
	Starting bool `json:"starting,omitempty" doc:"fire only for a container on its first start that is still within the time its probes allow (it has not had the time to turn ready)"`
}

func (m *containerNotReady) on() subjectKind { return onPod }

func (m *containerNotReady) match(c *evalContext, s subject) []hit {
	p := s.Pod
	if p.Object.Status.Phase != corev1.PodRunning || p.Object.DeletionTimestamp != nil {
		return nil
	}
	app := false
	var out []hit
	for _, cs := range containers(p, &app) {
		if cs.Status.Ready || cs.Status.State.Running == nil {
			continue
		}
		allowance := startupAllowance(cs.Spec)
		starting := cs.Status.RestartCount == 0 && !c.now.IsZero() && !cs.Status.State.Running.StartedAt.IsZero() &&
			c.now.Sub(cs.Status.State.Running.StartedAt.Time) < allowance
		if starting != m.Starting {
			continue // a first start, still within the time its probes allow, is for starting: true alone
		}
		h := c.containerHit(p, cs)
		if starting {
			h.Vars["Since"] = c.now.Sub(cs.Status.State.Running.StartedAt.Time).Round(time.Second).String()
			h.Vars["Detail"] = allowance.String()
		}
		probe, settings := probeText(cs.Spec)
		h.Vars["Probe"], h.Vars["ProbeSettings"] = probe, settings
		h.Evidence = append(h.Evidence, c.fieldEvidence(p, fmt.Sprintf("%s %s running since %s, ready=false, started=%v; %s",
			cs.Kind, cs.Name, fmtTime(cs.Status.State.Running.StartedAt.Time), boolPtr(cs.Status.Started), settings), cs.specPath()+".readinessProbe", cs.statusPath()))
		h.Evidence = append(h.Evidence, c.containerEvidence(p, cs, false)...)
		out = append(out, h)
	}
	return out
}

// startupAllowance is how long a container may run unready before that is a
// finding: the longest budget of its startup and readiness probes, at least a
// minute.
func startupAllowance(spec *corev1.Container) time.Duration {
	d := time.Minute
	budgets := map[string]time.Duration{}
	for _, p := range podstatus.Probes(spec) {
		budgets[p.Kind] = p.Budget()
	}
	if b := budgets["startup"] + budgets["readiness"]; b > d {
		d = b
	}
	return d
}

// podUnschedulable fires for a pod the scheduler could not place: PodScheduled
// False with reason Unschedulable, or Pending with no node and FailedScheduling
// events. Reasons is the scheduler's message split into its parts.
type podUnschedulable struct{}

func (m *podUnschedulable) on() subjectKind { return onPod }

func (m *podUnschedulable) match(c *evalContext, s subject) []hit {
	p := s.Pod
	if p.Object.Spec.NodeName != "" || p.Object.Status.Phase != corev1.PodPending {
		return nil
	}
	var msg string
	found := false
	for _, cond := range p.Object.Status.Conditions {
		if cond.Type == corev1.PodScheduled && cond.Status == corev1.ConditionFalse && cond.Reason == corev1.PodReasonUnschedulable {
			msg, found = cond.Message, true
		}
	}
	events := c.eventEvidence(p, func(e *model.Event) bool { return e.Object.Reason == "FailedScheduling" })
	if !found && len(events) == 0 {
		return nil
	}
	if msg == "" && len(events) > 0 {
		msg = c.lastEventMessage(p, "FailedScheduling")
	}
	h := hit{Vars: c.podVars(p)}
	h.Vars["Message"] = msg
	h.Vars["Reasons"] = strings.Join(ReasonWords(SchedulingReasons(msg)), "; ")
	h.Vars["Request"] = podRequests(&p.Object)
	h.Vars["HostPorts"] = hostPorts(&p.Object.Spec)
	st := c.fieldEvidence(p, "condition PodScheduled=False reason=Unschedulable: "+msg, "status.conditions[PodScheduled].message", "status.conditions[PodScheduled]")
	st.Quote = msg
	h.Evidence = append(h.Evidence, st)
	h.Evidence = append(h.Evidence, events...)
	h.Evidence = append(h.Evidence, c.claimEvidence(p)...)
	return []hit{h}
}

// hostPorts lists the node ports a pod needs free on its node, as
// "80/TCP, 443/TCP": every hostPort of its containers, and with hostNetwork
// every containerPort (the pod binds them on the node itself). "" when none.
func hostPorts(spec *corev1.PodSpec) string {
	seen := map[string]bool{}
	var out []string
	for _, c := range spec.Containers {
		for _, port := range c.Ports {
			n := port.HostPort
			if n == 0 && spec.HostNetwork {
				n = port.ContainerPort
			}
			proto := string(port.Protocol)
			if proto == "" {
				proto = "TCP"
			}
			if s := fmt.Sprintf("%d/%s", n, proto); n > 0 && !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return strings.Join(out, ", ")
}

// podStatus fires for pods whose kubectl STATUS is one of Statuses or whose
// status.reason is one of PodReasons. With DeletedFor, it fires only for pods
// whose deletion deadline (metadata.deletionTimestamp) passed at least that
// long before the gather.
type podStatus struct {
	Statuses []string `json:"statuses,omitempty" doc:"kubectl STATUS values that fire"`
	// StatusPrefixes matches STATUS by prefix ("Init:" for Init:0/2 ...).
	StatusPrefixes []string `json:"statusPrefixes,omitempty" doc:"STATUS prefixes that fire (\"Init:\" for Init:0/2)"`
	PodReasons     []string `json:"podReasons,omitempty" doc:"status.reason values that fire (Evicted, ...)"`
	DeletedFor     string   `json:"deletedFor,omitempty" doc:"fire only for pods whose deletion deadline passed at least this long before the gather (\"10m\")"`
	// NodeLogClasses adds the pod's node-log lines of these classes to the evidence.
	NodeLogClasses []string `json:"nodeLogClasses,omitempty" doc:"cite the pod's node-log lines of these classes"`

	deletedFor time.Duration
}

func (m *podStatus) validate() error {
	if len(m.Statuses) == 0 && len(m.PodReasons) == 0 && len(m.StatusPrefixes) == 0 && m.DeletedFor == "" {
		return fmt.Errorf("statuses, statusPrefixes, podReasons and deletedFor are all empty")
	}
	if len(m.NodeLogClasses) > 0 {
		if err := validClasses(m.NodeLogClasses); err != nil {
			return err
		}
	}
	if m.DeletedFor != "" {
		d, err := time.ParseDuration(m.DeletedFor)
		if err != nil || d < 0 {
			return fmt.Errorf("deletedFor %q is not a duration such as 10m", m.DeletedFor)
		}
		m.deletedFor = d
	}
	return nil
}

func (m *podStatus) selects(p *model.Pod) bool {
	if len(m.Statuses) == 0 && len(m.StatusPrefixes) == 0 && len(m.PodReasons) == 0 {
		return true // deletion alone decides
	}
	if slices.Contains(m.Statuses, p.Columns.Status) || slices.Contains(m.PodReasons, p.Object.Status.Reason) {
		return true
	}
	for _, pre := range m.StatusPrefixes {
		if strings.HasPrefix(p.Columns.Status, pre) {
			return true
		}
	}
	return false
}

func (m *podStatus) on() subjectKind { return onPod }

func (m *podStatus) match(c *evalContext, s subject) []hit {
	p := s.Pod
	if !m.selects(p) {
		return nil
	}
	if m.DeletedFor != "" {
		dt := p.Object.DeletionTimestamp
		if dt == nil || c.now.IsZero() || c.now.Sub(dt.Time) < m.deletedFor {
			return nil
		}
	}
	h := hit{Vars: c.podVars(p)}
	h.Vars["Reason"] = p.Object.Status.Reason
	h.Vars["Message"] = strings.TrimSpace(p.Object.Status.Message)
	text := fmt.Sprintf("phase=%s STATUS=%s", p.Object.Status.Phase, p.Columns.Status)
	if p.Object.Status.Reason != "" {
		text += fmt.Sprintf(" status.reason=%s message=%q", p.Object.Status.Reason, p.Object.Status.Message)
	}
	if dt := p.Object.DeletionTimestamp; dt != nil {
		text += " deletionTimestamp=" + fmtTime(dt.Time)
		if len(p.Object.Finalizers) > 0 {
			text += " finalizers=" + strings.Join(p.Object.Finalizers, ",")
		}
		if !c.now.IsZero() {
			h.Vars["Overdue"] = c.now.Sub(dt.Time).Round(time.Second).String()
		}
	}
	paths := []string{"status.message", "status.reason", "status.phase"}
	if m.DeletedFor != "" {
		paths = append([]string{"metadata.deletionTimestamp"}, paths...)
	}
	st := c.fieldEvidence(p, text, paths...)
	st.Quote = strings.TrimSpace(p.Object.Status.Message)
	h.Evidence = append(h.Evidence, st)
	h.Evidence = append(h.Evidence, c.eventEvidence(p, func(e *model.Event) bool { return e.Object.Type != corev1.EventTypeNormal })...)
	for _, g := range p.NodeLog {
		if slices.Contains(m.NodeLogClasses, string(g.Class)) {
			h.Evidence = append(h.Evidence, logGroupEvidence(g))
		}
	}
	return []hit{h}
}
