package rules

import (
	"slices"
	"sort"
)

// matcherKind is one matcher a rule may name: how to make it (its params
// decode strictly into the struct new returns) and the template values its
// hits fill beyond the base values of its subject (see subjectValues).
type matcherKind struct {
	name string
	new  func() matcher
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
func matcherRegistry() []matcherKind {
	return []matcherKind{
		{name: "containerWaiting", new: func() matcher { return &containerWaiting{} }, fills: values(containerValues(), probeValues(), logValues())},
		{name: "containerTerminated", new: func() matcher { return &containerTerminated{} }, fills: values(containerValues(), logValues())},
		{name: "initContainerFailed", new: func() matcher { return &initContainerFailed{} }, fills: values(containerValues(), logValues())},
		{name: "containerNotReady", new: func() matcher { return &containerNotReady{} }, fills: values(containerValues(), probeValues())},
		{name: "podUnschedulable", new: func() matcher { return &podUnschedulable{} }, fills: values([]string{"Message", "Reasons", "Request", "HostPorts"})},
		{name: "podStatus", new: func() matcher { return &podStatus{} }, fills: values([]string{"Reason", "Message", "Overdue"})},
		{name: "eventReason", new: func() matcher { return &eventReason{} }, fills: values([]string{"Reason", "Message"})},
		{name: "podNodeLog", new: func() matcher { return &podNodeLog{} }, fills: nil},
		{name: "podCondition", new: func() matcher { return &podCondition{} }, fills: values([]string{"Reason", "Message", "Reasons"})},
		{name: "initContainerRunning", new: func() matcher { return &initContainerRunning{} }, fills: values(containerValues(), logValues(), []string{"Overdue"})},
		{name: "containerRestarts", new: func() matcher { return &containerRestarts{} }, fills: values(containerValues(), probeValues(), logValues())},
		{name: "nodeCondition", new: func() matcher { return &nodeCondition{} }, fills: values([]string{"Reason", "Message", "Stage"})},
		{name: "nodeLogClass", new: func() matcher { return &nodeLogClass{} }, fills: values([]string{"Restarts", "First", "Last", "Detail", "NoObject"})},
		{name: "runtimeRestarts", new: func() matcher { return &runtimeRestarts{} }, fills: values(containerValues(), []string{"State"})},
		{name: "operatorCondition", new: func() matcher { return &operatorCondition{} }, fills: values([]string{"Owner", "Status", "Message"})},
		{name: "workloadEvent", new: func() matcher { return &workloadEvent{} }, fills: values([]string{"Namespace", "Workload", "Message", "Owner", "Pods"})},
		{name: "alertFiring", new: func() matcher { return &alertFiring{} }, fills: values([]string{"Alert", "Message", "Severity", "Since", "Count", "About", "Namespace", "Pod", "Node"})},
		{name: "etcdUnhealthy", new: func() matcher { return &etcdUnhealthy{} }, fills: values([]string{"About", "Count", "Message"})},
		{name: "poolDegraded", new: func() matcher { return &poolDegraded{} }, fills: values([]string{"About", "Count", "Pool", "Message"})},
		{name: "installStage", new: func() matcher { return &installStage{} }, fills: values([]string{"About", "Node", "Since", "Count"})},
		{name: "podFallback", new: func() matcher { return &podFallback{} }, fills: values([]string{"Count", "Since", "Stage", "Reason", "Message", "About"})},
	}
}

// lookupMatcher returns the matcher named name.
func lookupMatcher(name string) (matcherKind, bool) {
	for _, m := range matcherRegistry() {
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
	switch m.(type) {
	case podMatcher:
		return podBaseValues()
	case nodeMatcher:
		return nodeBaseValues()
	}
	return nil
}
