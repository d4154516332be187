package rules

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/nodelog"
	corev1 "k8s.io/api/core/v1"
)

// cniAgentNamespaces are the namespaces of the node agents that set up pod
// networks: a restart of one of their containers on a node fails the
// sandboxes created on that node while it is down.
var cniAgentNamespaces = []string{"openshift-ovn-kubernetes", "openshift-sdn", "openshift-multus", "kube-system", "calico-system", "cilium", "kube-flannel", "kube-ovn", "tigera-operator"}

// cniAgentNameRe tells a network agent among the pods of a namespace that
// holds other node agents too (kube-system): its name or its DaemonSet's
// names a network plugin.
var cniAgentNameRe = mustLitRegexp(`(?i)calico|cilium|flannel|canal|weave|ovn|ovs|multus|antrea|kube-router|cni|sdn|aws-node|kindnet|whereabouts|romana|contiv|nsx`)

// cniAgentPod reports whether o, a pod on the failing pod's node, is one of
// the network plugin's node agents.
func cniAgentPod(o *model.Object) bool {
	if !slices.Contains(cniAgentNamespaces, o.Namespace) {
		return false
	}
	if o.Namespace != "kube-system" {
		return true
	}
	if cniAgentNameRe.MatchString(o.Name) {
		return true
	}
	for _, ow := range o.Owners {
		if cniAgentNameRe.MatchString(ow.Name) {
			return true
		}
	}
	return false
}

// cniAgentWindow is how long before the first sandbox failure an agent's
// restart counts as its cause.
const cniAgentWindow = 10 * time.Minute

// joinCNIAgent runs the cniAgent join for one pod and hit (doc and reads: joinRegistry).
func joinCNIAgent(c *evalContext, p *model.Pod, h *hit) joinResult {
	node := p.Object.Spec.NodeName
	if node == "" {
		return joinResult{}
	}
	// When the sandbox failures began and when they were last seen: the
	// oldest and newest sandbox event or kubelet line.
	var first, last time.Time
	var firstEv *Evidence
	for _, e := range p.Events {
		if e.Object.Reason != "FailedCreatePodSandBox" {
			continue
		}
		t := e.Object.FirstTimestamp.Time()
		if t.IsZero() {
			t = e.When()
		}
		if w := e.When(); w.After(last) {
			last = w
		}
		if first.IsZero() || t.Before(first) {
			first = t
			ev := Evidence{Source: eventSource(e), Kind: EvidenceEvent, Quote: strings.TrimSpace(e.Object.Message), Time: e.When(), Count: e.Count(), Text: fmt.Sprintf("%s %s: %s", eventType(e), e.Object.Reason, strings.TrimSpace(e.Object.Message))}
			firstEv = &ev
		}
	}
	for _, g := range p.NodeLog {
		if g.Class == nodelog.ClassSandbox && !g.First.IsZero() && (first.IsZero() || g.First.Before(first)) {
			first = g.First
		}
		if g.Class == nodelog.ClassSandbox && g.Last.After(last) {
			last = g.Last
		}
	}
	if first.IsZero() {
		return joinResult{}
	}
	var res joinResult
	if firstEv != nil {
		res.Evidence = append(res.Evidence, *firstEv)
	}
	if last.Before(first) {
		last = first
	}
	var down []downAgent
	for _, o := range c.store.PodsOnNode(node) {
		if !cniAgentPod(o) {
			continue
		}
		agent := o.Pod()
		if agent == nil || agent == p {
			continue
		}
		for _, cs := range containers(agent, nil) {
			st := cs.Status
			t := st.LastTerminationState.Terminated
			if t == nil {
				continue
			}
			if agentDownNow(st, last) {
				down = append(down, downAgent{o: o, name: cs.Name, st: st})
				continue
			}
			// The agent's container was down from its last termination
			// until it ran again; sandboxes failing then are its doing.
			down := t.FinishedAt.Time
			up := down
			if r := st.State.Running; r != nil {
				up = r.StartedAt.Time
			}
			if down.IsZero() || down.After(first.Add(time.Minute)) || up.Before(first.Add(-cniAgentWindow)) && down.Before(first.Add(-cniAgentWindow)) {
				continue
			}
			res.Decided = true
			res.Cause = fmt.Sprintf("The network plugin's node agent on %s was down when the sandbox failures began (%s): container %s of %s/%s terminated at %s (%s, exit code %d) and ran again at %s, %d restart%s in all. CNI calls on the node fail while it restarts; the pod's own configuration is not the cause.",
				node, fmtTime(first), cs.Name, o.Namespace, o.Name, fmtTime(down), orDash(t.Reason), t.ExitCode, fmtTime(up), st.RestartCount, plural(int(st.RestartCount)))
			res.Fix = fmt.Sprintf("Find why %s restarted (`oc -n %s logs %s -c %s --previous`); once it runs, delete the stuck pod so it gets a new sandbox.", o.Name, o.Namespace, o.Name, cs.Name)
			res.Evidence = append(res.Evidence, c.objectFieldEvidence(o, fmt.Sprintf("container %s lastState terminated %s exitCode %d at %s; restartCount %d", cs.Name, orDash(t.Reason), t.ExitCode, fmtTime(down), st.RestartCount), containerStatusPaths(cs.Name, ".lastState.terminated.reason", "")...))
			return res
		}
	}
	if len(down) > 0 {
		// No restart window fits, but an agent is down at the time of
		// the gather and has been crashing while the sandboxes failed.
		d := down[0]
		t := d.st.LastTerminationState.Terminated
		state := "not ready"
		if w := d.st.State.Waiting; w != nil && w.Reason != "" {
			state = "in " + w.Reason + ", not ready"
		}
		res.Decided = true
		res.Cause = fmt.Sprintf("The network plugin's node agent on %s is down: container %s of %s/%s is %s after %d restart%s (its last run, %s to %s, ended %s with exit code %d) while the sandboxes fail there (%s to %s). CNI calls on the node fail until the agent runs again; the pod's own configuration is not the cause.",
			node, d.name, d.o.Namespace, d.o.Name, state, d.st.RestartCount, plural(int(d.st.RestartCount)), fmtTime(t.StartedAt.Time), fmtTime(t.FinishedAt.Time), orDash(t.Reason), t.ExitCode, fmtTime(first), fmtTime(last))
		res.Fix = fmt.Sprintf("Find why %s keeps failing (`oc -n %s logs %s -c %s --previous`, `oc -n %s describe pod %s`); once it runs, delete the stuck pod so it gets a new sandbox.", d.o.Name, d.o.Namespace, d.o.Name, d.name, d.o.Namespace, d.o.Name)
		res.Evidence = append(res.Evidence, c.objectFieldEvidence(d.o, fmt.Sprintf("container %s %s; lastState terminated %s exitCode %d at %s; restartCount %d", d.name, state, orDash(t.Reason), t.ExitCode, fmtTime(t.FinishedAt.Time), d.st.RestartCount), containerStatusPaths(d.name, ".state.waiting.reason", ".lastState.terminated.reason", "")...))
	}
	return res
}

// downAgent is a network agent's container that is down at the time of the
// gather.
type downAgent struct {
	o    *model.Object
	name string
	st   *corev1.ContainerStatus
}

// agentDownNow reports whether an agent's container, which has terminated
// before, is down at the time of the gather (waiting to restart, or running
// but not ready after a restart) and went down before the last sandbox
// failure: then the failures go on while it is down.
func agentDownNow(st *corev1.ContainerStatus, last time.Time) bool {
	t := st.LastTerminationState.Terminated
	if t == nil || st.Ready || st.RestartCount == 0 {
		return false
	}
	if st.State.Waiting == nil && st.State.Running == nil {
		return false
	}
	down := t.FinishedAt.Time
	return !down.IsZero() && !down.After(last)
}
