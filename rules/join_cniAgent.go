package rules

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/nodelog"
)

// cniAgentNamespaces are the namespaces of the node agents that set up pod
// networks: a restart of one of their containers on a node fails the
// sandboxes created on that node while it is down.
var cniAgentNamespaces = []string{"openshift-ovn-kubernetes", "openshift-sdn", "openshift-multus", "kube-system", "calico-system", "cilium"}

// cniAgentWindow is how long before the first sandbox failure an agent's
// restart counts as its cause.
const cniAgentWindow = 10 * time.Minute

// joinCNIAgent runs the cniAgent join for one pod and hit (doc and reads: joinRegistry).
func joinCNIAgent(c *evalContext, p *model.Pod, h *hit) joinResult {
	node := p.Object.Spec.NodeName
	if node == "" {
		return joinResult{}
	}
	// When the sandbox failures began: the oldest sandbox event or kubelet line.
	var first time.Time
	var firstEv *Evidence
	for _, e := range p.Events {
		if e.Object.Reason != "FailedCreatePodSandBox" {
			continue
		}
		t := e.Object.FirstTimestamp.Time()
		if t.IsZero() {
			t = e.When()
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
	}
	if first.IsZero() {
		return joinResult{}
	}
	var res joinResult
	if firstEv != nil {
		res.Evidence = append(res.Evidence, *firstEv)
	}
	for _, o := range c.store.PodsOnNode(node) {
		if !slices.Contains(cniAgentNamespaces, o.Namespace) {
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
			res.Evidence = append(res.Evidence, objectEvidence(o, fmt.Sprintf("container %s lastState terminated %s exitCode %d at %s; restartCount %d", cs.Name, orDash(t.Reason), t.ExitCode, fmtTime(down), st.RestartCount)))
			return res
		}
	}
	return res
}
