package rules

import (
	"slices"
	"sort"
	"sync"
)

// matcherKind is one matcher a rule may name: how to make it (its params
// decode strictly into the struct new returns) and the template values its
// hits fill beyond the base values of its subject (see subjectValues).
type matcherKind struct {
	name string
	// doc says what the matcher fires for, for the rule reference.
	doc string
	new func() matcher
	// fills are the template values the matcher sets on its hits (possibly
	// empty for one hit, never unset for every hit).
	fills []string
}

// The template values that groups of matchers fill, as functions so that
// no caller can change a shared list.

// podBaseValues are filled for every hit of a pod matcher (podVars).
func podBaseValues() []string {
	return []string{"Namespace", "Pod", "Node", "Status", "Restarts", "Stage", "Owner"}
}

// nodeBaseValues are filled for every hit of a node matcher (nodeVars).
func nodeBaseValues() []string { return []string{"Node", "Status"} }

// containerValues are filled for a hit on one container (containerHit).
func containerValues() []string {
	return []string{"Container", "ContainerKind", "Image", "Restarts", "Reason", "Message", "ExitCode", "Signal", "ExitMeaning",
		"LastReason", "LastExitCode", "LastSignal", "LastFinished", "LastExitMeaning", "BackOff", "Limit", "Request"}
}

// logValues are filled by logEvidence, for matchers that cite a container's log.
func logValues() []string { return []string{"LogTail", "DecisiveLine"} }

// probeValues are filled by matchers that name the failing probe.
func probeValues() []string { return []string{"Probe", "ProbeSettings"} }

// causeValues are filled by the engine when the rule has a match.cause.
func causeValues() []string { return []string{"Cause"} }

// platformValues are filled by the engine for every hit: OpenShift is
// "true" on an OpenShift gather and empty on any other, so that a hint or
// step can give advice for the gather's own platform
// ({{if .OpenShift}}scale the MachineSet{{else}}add nodes{{end}}).
func platformValues() []string { return []string{"OpenShift"} }

// joinValues are filled by the engine (applyJoins) when a pod rule names joins.
func joinValues() []string { return []string{"Decided", "Fix", "Unchecked"} }

// values joins groups of template values into one sorted set.
func values(groups ...[]string) []string {
	var out []string
	for _, g := range groups {
		for _, v := range g {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	sort.Strings(out)
	return out
}

// matcherRegistry lists every matcher a rule may name, with the template
// values it fills. It is the one place a matcher is registered.
// matchersOnce is matcherRegistry made once: a table load looks up every
// rule's matcher.
var matchersOnce = sync.OnceValue(matcherRegistry)

func matcherRegistry() []matcherKind {
	return []matcherKind{
		{name: "containerWaiting", doc: "a container waiting with one of reasons", new: func() matcher { return &containerWaiting{} }, fills: values(containerValues(), probeValues(), logValues())},
		{name: "containerTerminated", doc: "a container terminated (now, or with lastState last time) with one of reasons", new: func() matcher { return &containerTerminated{} }, fills: values(containerValues(), logValues())},
		{name: "initContainerFailed", doc: "an init container that failed", new: func() matcher { return &initContainerFailed{} }, fills: values(containerValues(), logValues())},
		{name: "containerNotReady", doc: "a running container that is not ready", new: func() matcher { return &containerNotReady{} }, fills: values(containerValues(), probeValues(), []string{"Since", "Detail"})},
		{name: "podUnschedulable", doc: "a pending pod the scheduler cannot place", new: func() matcher { return &podUnschedulable{} }, fills: values([]string{"Message", "Reasons", "Request", "HostPorts"})},
		{name: "podStatus", doc: "a pod whose kubectl STATUS or status.reason is listed, or whose deletion is overdue", new: func() matcher { return &podStatus{} }, fills: values([]string{"Reason", "Message", "Overdue"})},
		{name: "eventReason", doc: "a pod with events of one of reasons", new: func() matcher { return &eventReason{} }, fills: values([]string{"Reason", "Message"})},
		{name: "podNodeLog", doc: "a pod with node-log lines of one of classes", new: func() matcher { return &podNodeLog{} }, fills: nil},
		{name: "podCondition", doc: "a pod whose condition type has one of statuses", new: func() matcher { return &podCondition{} }, fills: values([]string{"Reason", "Message", "Reasons"})},
		{name: "initContainerRunning", doc: "an init container still running after runningFor while the pod waits", new: func() matcher { return &initContainerRunning{} }, fills: values(containerValues(), logValues(), []string{"Overdue"})},
		{name: "containerRestarts", doc: "an app container running again after at least minRestarts restarts", new: func() matcher { return &containerRestarts{} }, fills: values(containerValues(), probeValues(), logValues())},
		{name: "nodeCondition", doc: "a node whose condition type has one of statuses", new: func() matcher { return &nodeCondition{} }, fills: values([]string{"Reason", "Message", "Stage"})},
		{name: "nodeLogClass", doc: "a node whose node-level log groups of one of classes add up to minCount lines", new: func() matcher { return &nodeLogClass{} }, fills: values([]string{"Restarts", "First", "Last", "Detail", "NoObject"})},
		{name: "runtimeRestarts", doc: "a container of a pod known only from the container runtime that keeps failing", new: func() matcher { return &runtimeRestarts{} }, fills: values(containerValues(), []string{"State"})},
		{name: "operatorCondition", doc: "a ClusterOperator whose condition type has one of statuses", new: func() matcher { return &operatorCondition{} }, fills: values([]string{"Owner", "Status", "Message"})},
		{name: "workloadEvent", doc: "a controller with current non-Normal events of one of reasons (FailedCreate)", new: func() matcher { return &workloadEvent{} }, fills: values([]string{"Namespace", "Workload", "Message", "Owner", "Pods"})},
		{name: "alertFiring", doc: "an alert firing for at least for with one of severities", new: func() matcher { return &alertFiring{} }, fills: values([]string{"Alert", "Message", "Severity", "Since", "Count", "About", "Namespace", "Pod", "Node"})},
		{name: "etcdUnhealthy", doc: "etcd reporting unhealthy endpoints or active alarms", new: func() matcher { return &etcdUnhealthy{} }, fills: values([]string{"About", "Count", "Message"})},
		{name: "poolDegraded", doc: "a MachineConfigPool that is degraded or has degraded machines", new: func() matcher { return &poolDegraded{} }, fills: values([]string{"About", "Count", "Pool", "Message"})},
		{name: "installStage", doc: "an install log bundle that stopped at stage", new: func() matcher { return &installStage{} }, fills: values([]string{"About", "Node", "Since", "Count"})},
		{name: "logSignature", doc: "a running, ready container whose log holds a line of a running signature (signatures: running: true) that its decider does not rule out", new: func() matcher { return &logSignature{} }, fills: values(containerValues())},
		{name: "podFallback", doc: "an unhealthy pod no other rule explains (run after every other rule)", new: func() matcher { return &podFallback{} }, fills: values([]string{"Count", "Since", "Stage", "Reason", "Message", "About"})},
	}
}

// lookupMatcher returns the matcher named name.
func lookupMatcher(name string) (matcherKind, bool) {
	for _, m := range matchersOnce() {
		if m.name == name {
			return m, true
		}
	}
	return matcherKind{}, false
}

// subjectValues are the template values filled for every hit of a matcher
// whatever it is: the base values of its subject (a pod's, a node's), none
// for the other subjects.
func subjectValues(m matcher) []string {
	switch m.on() {
	case onPod:
		return podBaseValues()
	case onNode:
		return nodeBaseValues()
	}
	return nil
}
