package rules

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/podstatus"
	corev1 "k8s.io/api/core/v1"
)

// evalContext holds what the matchers need beyond one pod.
type evalContext struct {
	now time.Time
	// cel holds what the rules' where: and let: expressions share in one
	// evaluation (see passesWhere); untouched by rules without them.
	cel celState
	// gather is the gather, whose edges (node log, node events, kubelet
	// journals by host; events by object) matchers and joins read.
	gather *model.Gather
	// events are all events of the gather, for objects other than pods.
	events []*model.Event
	// store is the gather's object store, which joins read.
	store *model.Store
	// joinCache keeps each join's result per pod and container.
	joinCache map[string]joinResult
	// alerts and etcd are the gather's cluster-level signals.
	alerts []model.Alert
	etcd   *model.EtcdHealth
	// installs are the install log bundles of the input.
	installs []*model.InstallBundle
	// pulled is the repositories the gather's containers pulled, built on
	// first use (pulledRepos).
	pulled *pulledIndex
	// pvcEvents are the events about PersistentVolumeClaims that are not
	// Normal, by namespace in the order of events, built on first use
	// (claimEvidence).
	pvcEvents map[string][]*model.Event
	// siblingLogs and replicasReady hold, per controller and container, the
	// first replica with a log of it (logsOf) and the running replicas
	// (ready, all) (joinReadiness5xx), each found once per evaluation.
	siblingLogs   map[replicaKey]*model.Pod
	replicasReady map[replicaKey]*replicaCount
	// agents are the pods of the signatures' agent namespaces on each node,
	// by node name, listed on first need (agentPods).
	agents map[string][]*model.Pod
	// workloadList is built on first use (workloads.go).
	workloadList []*workloadRef
	// subjectLists are the subjects of each kind, listed on first use
	// (subjects).
	subjectLists map[subjectKind][]subject
	// vocab holds the gather's platform words (see vocabulary).
	vocab vocabulary
	// table is the rule table being evaluated, whose signatures findings
	// are read against (readSignatures).
	table *Table
	// trace records why one rule fired or not on each subject (Explain);
	// nil when evaluating for a report.
	trace *tracer
}

func newEvalContext(g *model.Gather) *evalContext {
	c := &evalContext{now: g.CollectedAt, gather: g, events: g.Events,
		alerts: g.Alerts, etcd: g.Etcd, installs: g.Installs,
		store: g.Objects, joinCache: map[string]joinResult{}}
	c.vocab = newVocabulary(g)
	if c.store == nil {
		c.store = model.New()
		c.store.Freeze()
	}
	return c
}

// containerRef is one container of a pod with its spec and status.
type containerRef struct {
	Name   string
	Kind   string // "container" or "init container"
	Spec   *corev1.Container
	Status *corev1.ContainerStatus
	// list is the spec's list that names the container: "spec.containers"
	// or "spec.initContainers".
	list string
}

// isFieldPath reports whether fp is the container's field path as events'
// involvedObject.fieldPath names it ("spec.containers{app}"), without making
// that string: containers runs for every pod and rule, and made it for each.
func (r containerRef) isFieldPath(fp string) bool {
	return len(fp) == len(r.list)+len(r.Name)+2 && strings.HasPrefix(fp, r.list) && fp[len(r.list)] == '{' &&
		fp[len(r.list)+1:len(fp)-1] == r.Name && fp[len(fp)-1] == '}'
}

// containers lists the pod's containers that have a status: init containers
// (init=true), app containers (init=false) or both (nil), in spec order.
func containers(p *model.Pod, init *bool) []containerRef {
	out := make([]containerRef, 0, len(p.Object.Status.InitContainerStatuses)+len(p.Object.Status.ContainerStatuses))
	// keep selects init containers (sidecar=false) or app-like ones.
	add := func(specs []corev1.Container, statuses []corev1.ContainerStatus, kind, field string, keep func(sidecar bool) bool) {
		for i := range statuses {
			st := &statuses[i]
			ref := containerRef{Name: st.Name, Kind: kind, Status: st, list: field}
			for j := range specs {
				if specs[j].Name == st.Name {
					ref.Spec = &specs[j]
				}
			}
			sidecar := podstatus.IsSidecar(ref.Spec) && field == "spec.initContainers"
			if sidecar {
				ref.Kind = "sidecar container"
			}
			if keep(sidecar) {
				out = append(out, ref)
			}
		}
	}
	// Restartable (sidecar) init containers run beside the app containers, so
	// they count as app containers, not init containers.
	wantInit := init == nil || *init
	wantApp := init == nil || !*init
	add(p.Object.Spec.InitContainers, p.Object.Status.InitContainerStatuses, "init container", "spec.initContainers",
		func(sidecar bool) bool { return (sidecar && wantApp) || (!sidecar && wantInit) })
	if wantApp {
		add(p.Object.Spec.Containers, p.Object.Status.ContainerStatuses, "container", "spec.containers", func(bool) bool { return true })
	}
	return out
}

func (c *evalContext) podVars(p *model.Pod) Vars {
	v := Vars{
		"Namespace": p.Object.Namespace,
		"Pod":       p.Object.Name,
		"Node":      p.Object.Spec.NodeName,
		"Status":    p.Columns.Status,
		"Restarts":  p.Columns.Restarts,
		"Stage":     p.Stage.Condition,
	}
	if ref := c.store.PodOwner(&p.Object); ref != "" {
		v["Owner"] = ref
	}
	return v
}

// containerHit starts a hit for one container with its values filled in.
func (c *evalContext) containerHit(p *model.Pod, cs containerRef) hit {
	v := c.podVars(p)
	st := cs.Status
	v["Container"] = cs.Name
	v["ContainerKind"] = cs.Kind
	v["Image"] = st.Image
	if cs.Spec != nil && cs.Spec.Image != "" {
		v["Image"] = cs.Spec.Image
	}
	v["Restarts"] = fmt.Sprint(st.RestartCount)
	if w := st.State.Waiting; w != nil {
		v["Reason"], v["Message"] = w.Reason, strings.TrimSpace(w.Message)
	}
	if t := st.State.Terminated; t != nil {
		v["Reason"], v["Message"] = t.Reason, t.Message
		v["ExitCode"] = fmt.Sprint(t.ExitCode)
		v["Signal"] = signalText(t.Signal, t.ExitCode)
	}
	if t := st.State.Terminated; t != nil {
		v["ExitMeaning"] = podstatus.ExitMeaning(t.ExitCode, t.Signal, t.Reason)
	}
	if t := st.LastTerminationState.Terminated; t != nil {
		v["LastReason"] = t.Reason
		v["LastExitCode"] = fmt.Sprint(t.ExitCode)
		v["LastSignal"] = signalText(t.Signal, t.ExitCode)
		v["LastFinished"] = fmtTime(t.FinishedAt.Time)
		v["LastExitMeaning"] = podstatus.ExitMeaning(t.ExitCode, t.Signal, t.Reason)
		if w := st.State.Waiting; w != nil && w.Reason == "CrashLoopBackOff" {
			v["BackOff"] = c.backOffText(st, t)
		}
	}
	if cs.Spec != nil {
		if q, ok := cs.Spec.Resources.Limits[corev1.ResourceMemory]; ok {
			v["Limit"] = q.String()
		}
		if q, ok := cs.Spec.Resources.Requests[corev1.ResourceMemory]; ok {
			v["Request"] = q.String()
		}
	}
	if v["Limit"] == "" {
		v["Limit"] = "no memory limit"
		if p.Runtime != nil {
			v["Limit"] = "limit unknown: only the runtime's view of the pod was gathered"
		}
	}
	return hit{Container: cs.Name, Vars: v}
}

// containerEvidence cites the container's status, its non-Normal events and the
// kubelet lines that name it; it notes a missing kubelet journal.
func (c *evalContext) containerEvidence(p *model.Pod, cs containerRef, _ bool) []Evidence {
	st := c.fieldEvidence(p, containerStateText(cs), containerFieldPaths(cs)...)
	st.Quote = containerMessage(cs)
	ev := []Evidence{st}
	ev = append(ev, c.eventEvidence(p, func(e *model.Event) bool {
		fp := e.Object.InvolvedObject.FieldPath
		if fp != "" && !cs.isFieldPath(fp) {
			return false
		}
		return e.Object.Type != corev1.EventTypeNormal || e.Object.Reason == "Killing"
	})...)
	for _, g := range p.NodeLog {
		if g.Container == cs.Name || (g.Container == "" && mentionsContainer(g.Text, cs.Name)) {
			ev = append(ev, logGroupEvidence(g))
		}
	}
	return ev
}

// backOffText says how long the kubelet waits before the next restart and when
// that restart falls, measured from the gather time.
func (c *evalContext) backOffText(st *corev1.ContainerStatus, last *corev1.ContainerStateTerminated) string {
	delay, ok := podstatus.ParseBackOffMessage(st.State.Waiting.Message)
	if !ok {
		delay = podstatus.BackOffDelay(int(st.RestartCount))
	}
	if last.FinishedAt.IsZero() || c.now.IsZero() {
		return fmt.Sprintf("back-off %s", delay)
	}
	next := last.FinishedAt.Time.Add(delay)
	if next.After(c.now) {
		return fmt.Sprintf("back-off %s; next restart %s after the gather", delay, next.Sub(c.now).Round(time.Second))
	}
	return fmt.Sprintf("back-off %s; the restart was due %s before the gather", delay, c.now.Sub(next).Round(time.Second))
}

// mentionsContainer reports whether a kubelet message names container c:
// `"c"`, `container=c` or `containerName="c"`.
func mentionsContainer(text, c string) bool {
	return strings.Contains(text, `"`+c+`"`) || strings.Contains(text, "container="+c+" ") || strings.Contains(text, "container "+c+" ")
}

func (c *evalContext) missingNodeLog(p *model.Pod, h *hit) {
	node := p.Object.Spec.NodeName
	if node != "" && !c.gather.HasKubeletLog(node) {
		h.Missing = append(h.Missing, "kubelet journal of node "+node+" (not in the gather)")
		h.Gaps = append(h.Gaps, model.Gap{What: model.GapNodeJournal, Node: node, Unit: "kubelet"})
	}
}

func logGroupEvidence(g *model.LogGroup) Evidence {
	text := g.Text
	if g.Node != "" {
		text = g.Node + " " + string(g.Unit) + ": " + text
	}
	return Evidence{Source: g.Source, Kind: EvidenceNodeLog, Time: g.First, Text: text, Count: g.Count}
}

// containerMessage is the message of the container's waiting or terminated
// state as the status holds it, else that of its last termination; "" when
// there is none.
func containerMessage(cs containerRef) string {
	st := cs.Status
	switch {
	case st.State.Waiting != nil && st.State.Waiting.Message != "":
		return st.State.Waiting.Message
	case st.State.Terminated != nil && st.State.Terminated.Message != "":
		return st.State.Terminated.Message
	case st.LastTerminationState.Terminated != nil:
		return st.LastTerminationState.Terminated.Message
	}
	return ""
}

func containerStateText(cs containerRef) string {
	st := cs.Status
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: ", cs.Kind, cs.Name)
	switch {
	case st.State.Waiting != nil:
		fmt.Fprintf(&b, "waiting reason=%s", st.State.Waiting.Reason)
		if st.State.Waiting.Message != "" {
			fmt.Fprintf(&b, " message: %s", st.State.Waiting.Message)
		}
	case st.State.Terminated != nil:
		t := st.State.Terminated
		fmt.Fprintf(&b, "terminated reason=%s exitCode=%d", t.Reason, t.ExitCode)
		if t.Signal != 0 {
			fmt.Fprintf(&b, " signal=%d", t.Signal)
		}
	case st.State.Running != nil:
		fmt.Fprintf(&b, "running since %s", fmtTime(st.State.Running.StartedAt.Time))
	default:
		b.WriteString("no state")
	}
	if t := st.LastTerminationState.Terminated; t != nil {
		fmt.Fprintf(&b, "; lastState terminated reason=%s exitCode=%d finishedAt=%s", t.Reason, t.ExitCode, fmtTime(t.FinishedAt.Time))
	}
	fmt.Fprintf(&b, "; ready=%v restartCount=%d image=%s", st.Ready, st.RestartCount, st.Image)
	// Termination messages come last: a rule's cause pattern that runs to
	// the end of the line then takes the message alone.
	if t := st.State.Terminated; t != nil {
		writeTerminationMessage(&b, "; termination message: ", t.Message)
	}
	if t := st.LastTerminationState.Terminated; t != nil {
		writeTerminationMessage(&b, "; last termination message: ", t.Message)
	}
	return b.String()
}

// maxTerminationMessage bounds the termination message quoted in evidence.
const maxTerminationMessage = 600

// writeTerminationMessage adds a terminated state's message: the file the
// container wrote to its terminationMessagePath, or with
// terminationMessagePolicy FallbackToLogsOnError the last lines of its log
// (the only log lines a gather without container logs holds). Lines are
// joined with " | " and the text is cut to maxTerminationMessage bytes.
func writeTerminationMessage(b *strings.Builder, label, msg string) {
	msg = strings.TrimSpace(msg)
	if msg == "" {
		return
	}
	// Only the start is written: a hostile message of megabytes is not
	// collapsed whole at every rule that reads it.
	if len(msg) > 8*maxTerminationMessage {
		msg = msg[:8*maxTerminationMessage]
	}
	msg = strings.Join(strings.Fields(strings.ReplaceAll(msg, "\n", " | ")), " ")
	if len(msg) > maxTerminationMessage {
		msg = strings.ToValidUTF8(msg[:maxTerminationMessage], "") + "…"
	}
	b.WriteString(label)
	b.WriteString(msg)
}

func (c *evalContext) statusEvidence(p *model.Pod, text string) Evidence {
	return Evidence{Source: p.Source, Kind: EvidenceStatus, Text: text, Summary: true}
}

// fieldEvidence is statusEvidence cited at the line of the first of paths
// the pod's file shows (see parser.FieldLines), else at the pod's first line.
func (c *evalContext) fieldEvidence(p *model.Pod, text string, paths ...string) Evidence {
	ev := c.statusEvidence(p, text)
	if n := p.Fields.Line(paths...); n > 0 {
		ev.Source.Line = n
	}
	return ev
}

// containerFieldPaths lists the status fields that decide a container's
// state, most telling first: the waiting message or reason, the terminated
// reason, the restart count of a container that restarted.
func containerFieldPaths(cs containerRef) []string {
	base := cs.statusPath()
	st := cs.Status
	var out []string
	switch {
	case st.State.Waiting != nil:
		if st.State.Waiting.Message != "" {
			out = append(out, base+".state.waiting.message")
		}
		out = append(out, base+".state.waiting.reason")
	case st.State.Terminated != nil:
		out = append(out, base+".state.terminated.reason", base+".state.terminated.exitCode")
	case st.RestartCount > 0:
		out = append(out, base+".restartCount")
	case !st.Ready:
		out = append(out, base+".ready")
	}
	return append(out, base+".state", base)
}

// maxEventsPerFinding keeps the newest events of a pod when it has many.
const maxEventsPerFinding = 6

func (c *evalContext) eventEvidence(p *model.Pod, keep func(*model.Event) bool) []Evidence {
	var ev []Evidence
	for _, e := range p.Events {
		if !keep(e) {
			continue
		}
		typ := e.Object.Type
		if typ == "" {
			typ = "(no type)"
		}
		text := fmt.Sprintf("%s %s: %s", typ, e.Object.Reason, strings.TrimSpace(e.Object.Message))
		ev = append(ev, Evidence{Source: eventSource(e), Kind: EvidenceEvent, Quote: strings.TrimSpace(e.Object.Message), Time: e.When(), Text: text, Count: e.Count()})
	}
	if len(ev) > maxEventsPerFinding {
		ev = ev[len(ev)-maxEventsPerFinding:]
	}
	return ev
}

// claimEvidence cites the non-Normal events of the PersistentVolumeClaims the
// pod mounts (ProvisioningFailed, a StorageClass that does not exist, ...).
func (c *evalContext) claimEvidence(p *model.Pod) []Evidence {
	claims := map[string]bool{}
	for _, v := range p.Object.Spec.Volumes {
		if v.PersistentVolumeClaim != nil {
			claims[v.PersistentVolumeClaim.ClaimName] = true
		}
	}
	if len(claims) == 0 {
		return nil
	}
	if c.pvcEvents == nil {
		c.pvcEvents = map[string][]*model.Event{}
		for _, e := range c.events {
			if io := e.Object.InvolvedObject; io.Kind == "PersistentVolumeClaim" && e.Object.Type != corev1.EventTypeNormal {
				c.pvcEvents[io.Namespace] = append(c.pvcEvents[io.Namespace], e)
			}
		}
	}
	var ev []Evidence
	for _, e := range c.pvcEvents[p.Object.Namespace] {
		io := e.Object.InvolvedObject
		if !claims[io.Name] {
			continue
		}
		ev = append(ev, Evidence{Source: eventSource(e), Kind: EvidenceEvent, Quote: strings.TrimSpace(e.Object.Message), Time: e.When(), Count: e.Count(),
			Text: fmt.Sprintf("%s %s on PersistentVolumeClaim %s: %s", eventType(e), e.Object.Reason, io.Name, strings.TrimSpace(e.Object.Message))})
	}
	if len(ev) > maxEventsPerFinding {
		ev = ev[len(ev)-maxEventsPerFinding:]
	}
	return ev
}

// eventSource cites an event at the line of its message when the file shows
// it, else at the event's first line.
func eventSource(e *model.Event) model.Source {
	if line := e.MessageLine(); line > 0 {
		return model.Source{Path: e.Source.Path, Line: line}
	}
	return e.Source
}

func eventType(e *model.Event) string {
	if e.Object.Type == "" {
		return "(no type)"
	}
	return e.Object.Type
}

func (c *evalContext) lastEventMessage(p *model.Pod, reason string) string {
	msg := ""
	for _, e := range p.Events {
		if e.Object.Reason == reason {
			msg = e.Object.Message
		}
	}
	return msg
}

// logTailLines is how many trailing log lines a finding cites; logTailAfter
// how many when decisive lines are cited as well.
const (
	logTailLines = 8
	logTailAfter = 3
)

// logEvidence cites the container's previous.log, else its current.log: the
// lines that decide why the process ended (see decisiveLines), marked decisive
// so that they rank right after the finding's first line, then the tail. It
// sets LogTail (the file's name) and DecisiveLine (the number of the last
// decisive line of the highest weight, the nearest to the exit) and notes
// when neither log is in the gather.
func (c *evalContext) logEvidence(p *model.Pod, container string, h *hit) []Evidence {
	for _, previous := range []bool{true, false} {
		l := p.Log(container, previous)
		if l == nil || !l.HasKept() {
			continue
		}
		tail, errs := l.Kept()
		cite := func(line model.LogLine, decisive bool) Evidence {
			return Evidence{Source: model.Source{Path: l.Path(), Line: line.Line}, Kind: EvidenceContainerLog, Time: line.Time, Text: line.Text, Quote: line.Text, decisive: decisive}
		}
		var ev []Evidence
		cited := map[int]bool{}
		for _, ll := range decisiveLines(tail, errs) {
			ev = append(ev, cite(ll, true))
			cited[ll.Line] = true
		}
		n := logTailLines
		if len(ev) > 0 {
			n = logTailAfter
			// The last line of the highest weight is the nearest to the exit.
			key, best := ev[0], weightOther
			for _, e := range ev {
				if w := lineWeight(e.Text); w >= best {
					key, best = e, w
				}
			}
			h.Vars["DecisiveLine"] = fmt.Sprint(key.Source.Line)
		}
		if len(tail) > n {
			tail = tail[len(tail)-n:]
		}
		for _, ll := range tail {
			if !cited[ll.Line] {
				ev = append(ev, cite(ll, false))
			}
		}
		h.Vars["LogTail"] = map[bool]string{true: "previous.log", false: "current.log"}[previous]
		return ev
	}
	h.Missing = append(h.Missing, "previous.log and current.log of "+container+" (absent or empty in the gather)")
	gap := model.Gap{What: model.GapContainerLog, Namespace: p.Object.Namespace, Pod: p.Object.Name, Container: container}
	for _, st := range p.Containers {
		if st.Name == container && (st.Last != nil || st.RestartCount > 0) {
			gap.Previous = true // the run that ended is the one that tells why
		}
	}
	h.Gaps = append(h.Gaps, gap)
	return nil
}

// probeText lists the container's probes (kinds) and describes each the way
// kubectl describe does, with the time budget it allows.
func probeText(spec *corev1.Container) (kinds, settings string) {
	if spec == nil {
		return "", "no container spec"
	}
	var names, parts []string
	for _, p := range podstatus.Probes(spec) {
		names = append(names, p.Kind)
		parts = append(parts, fmt.Sprintf("%s probe (budget %s)", p, p.Budget()))
	}
	if len(parts) == 0 {
		return "", "no probes defined"
	}
	return strings.Join(names, ", "), strings.Join(parts, "; ")
}

func resourcesText(spec *corev1.Container) string {
	if spec == nil {
		return "unknown"
	}
	var parts []string
	for _, side := range []struct {
		name string
		list corev1.ResourceList
	}{{"limits", spec.Resources.Limits}, {"requests", spec.Resources.Requests}} {
		var kv []string
		for name, q := range side.list {
			kv = append(kv, string(name)+"="+q.String())
		}
		sort.Strings(kv)
		if len(kv) > 0 {
			parts = append(parts, side.name+" "+strings.Join(kv, ","))
		}
	}
	if len(parts) == 0 {
		return "no requests or limits"
	}
	return strings.Join(parts, "; ")
}

func podRequests(pod *corev1.Pod) string {
	var parts []string
	for _, c := range pod.Spec.Containers {
		var kv []string
		for name, q := range c.Resources.Requests {
			kv = append(kv, string(name)+"="+q.String())
		}
		sort.Strings(kv)
		if len(kv) > 0 {
			parts = append(parts, c.Name+": "+strings.Join(kv, ","))
		}
	}
	if len(parts) == 0 {
		return "no requests"
	}
	return strings.Join(parts, "; ")
}

// signalText names the signal of a termination: the signal field when set,
// else the one implied by an exit code above 128 (137 → SIGKILL).
func signalText(signal, exitCode int32) string {
	n := signal
	if n == 0 && exitCode > 128 && exitCode < 160 {
		n = exitCode - 128
	}
	if n == 0 {
		return ""
	}
	if name, ok := signalNames[n]; ok {
		return fmt.Sprintf("%s (%d)", name, n)
	}
	return fmt.Sprintf("signal %d", n)
}

var signalNames = map[int32]string{1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 6: "SIGABRT", 9: "SIGKILL", 11: "SIGSEGV", 13: "SIGPIPE", 15: "SIGTERM"}

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return "unknown"
	}
	return t.UTC().Format(time.RFC3339)
}

func boolPtr(b *bool) string {
	if b == nil {
		return "unknown"
	}
	return fmt.Sprint(*b)
}

var schedHeadRe = regexp.MustCompile(`^\d+/\d+ nodes are available:\s*`)

// SchedulingReasons splits a scheduler message ("0/6 nodes are available: 3
// Insufficient cpu, 3 node(s) had untolerated taint {...}. preemption: ...")
// into its reasons, without the preemption part. A message in another form is
// returned whole.
func SchedulingReasons(msg string) []string {
	msg = strings.TrimSpace(msg)
	if i := strings.Index(msg, " preemption:"); i >= 0 {
		msg = msg[:i]
	}
	msg = strings.TrimSuffix(strings.TrimSpace(msg), ".")
	body := schedHeadRe.ReplaceAllString(msg, "")
	if body == "" {
		return nil
	}
	var out []string
	depth := 0
	start := 0
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '{', '[', '(':
			depth++
		case '}', ']', ')':
			if depth > 0 {
				depth--
			}
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(body[start:i]))
				start = i + 1
			}
		}
	}
	out = append(out, strings.TrimSpace(body[start:]))
	// Before Kubernetes 1.21 the scheduler wrote "had taint {k: v}, that the
	// pod didn't tolerate": the comma does not end a reason there.
	merged := out[:0]
	for _, r := range out {
		if strings.HasPrefix(r, "that the pod didn't tolerate") && len(merged) > 0 {
			merged[len(merged)-1] += ", " + r
			continue
		}
		merged = append(merged, r)
	}
	return merged
}

var taintBracesRe = regexp.MustCompile(`\{([^{}:]+): ([^{}]*)\}`)

// ReasonWords rewrites the scheduler's taints, which it prints as Go maps
// ("{node-role.kubernetes.io/master: }"), in words: the taint's key, and its
// value when there is one ("node-role.kubernetes.io/infra=reserved").
func ReasonWords(reasons []string) []string {
	out := make([]string, len(reasons))
	for i, r := range reasons {
		out[i] = taintBracesRe.ReplaceAllStringFunc(r, func(m string) string {
			sm := taintBracesRe.FindStringSubmatch(m)
			if v := strings.TrimSpace(sm[2]); v != "" {
				return sm[1] + "=" + v
			}
			return sm[1]
		})
	}
	return out
}
