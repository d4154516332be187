package rules

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/nodelog"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// oomWindow is how far apart a kill and a node OOM may be and still be one event.
const oomWindow = 2 * time.Minute

// joinNodeOOM runs the nodeOOM join for one pod and hit (doc and reads: joinRegistry).
func joinNodeOOM(c *evalContext, p *model.Pod, h *hit) joinResult {
	node := p.Object.Spec.NodeName
	var last *corev1.ContainerStateTerminated
	var spec *corev1.Container
	for _, cs := range containers(p, nil) {
		if cs.Name == h.Container {
			last = cs.Status.LastTerminationState.Terminated
			if t := cs.Status.State.Terminated; t != nil && t.ExitCode == 137 {
				last = t
			}
			spec = cs.Spec
		}
	}
	if node == "" || last == nil || last.ExitCode != 137 || last.Reason == "OOMKilled" {
		return joinResult{}
	}
	killed := last.FinishedAt.Time
	var res joinResult
	coincide := 0
	count := 0
	for _, e := range c.gather.NodeEvents(node) {
		if e.Object.Reason != "SystemOOM" {
			continue
		}
		first := e.Object.FirstTimestamp.Time()
		if first.IsZero() {
			first = e.When()
		}
		count += e.Count()
		if !killed.IsZero() && !killed.Before(first.Add(-oomWindow)) && !killed.After(e.When().Add(oomWindow)) {
			coincide++
			res.Evidence = append(res.Evidence, Evidence{Source: eventSource(e), Kind: EvidenceEvent, Quote: strings.TrimSpace(e.Object.Message), Time: e.When(), Count: e.Count(),
				Text: fmt.Sprintf("%s SystemOOM on node %s: %s", eventType(e), node, strings.TrimSpace(e.Object.Message))})
		}
	}
	for _, g := range c.gather.NodeLogOf(node) {
		global := g.Class == nodelog.ClassOOMKill && strings.Contains(g.Text, "Out of memory") && !strings.Contains(g.Text, "Memory cgroup")
		if !global && !strings.Contains(g.Text, "ys oom") && !strings.Contains(g.Text, "System OOM") {
			continue
		}
		if !killed.IsZero() && !killed.Before(g.First.Add(-oomWindow)) && !killed.After(g.Last.Add(oomWindow)) {
			coincide++
			res.Evidence = append(res.Evidence, logGroupEvidence(g))
		}
	}
	for _, g := range p.NodeLog {
		if strings.Contains(g.Text, "ys oom") && !killed.IsZero() && !killed.Before(g.First.Add(-oomWindow)) && !killed.After(g.Last.Add(oomWindow)) {
			coincide++
			res.Evidence = append(res.Evidence, logGroupEvidence(g))
		}
	}
	if coincide == 0 {
		return joinResult{}
	}
	res.Decided = true
	res.Cause = fmt.Sprintf("The kernel's global (node-level) OOM killer on node %s killed it, not its own memory limit: the node logged System OOM (%s) at the time of the last kill (%s), and the termination reason is %s, not OOMKilled.",
		node, countOf(max(count, coincide), "node OOM report", "node OOM reports"), fmtTime(killed), orDash(last.Reason))
	res.Fix = "Set memory requests close to real use (or requests = limits) so the scheduler does not overcommit the node, spread the replicas, and reserve system memory; raising the limit makes it worse."
	// Overcommit: limits of the node's pods against allocatable memory.
	nodeObj, _ := c.store.Get(model.Nodes, "", node)
	if n := model.Typed[corev1.Node](nodeObj); n != nil {
		alloc := n.Status.Allocatable[corev1.ResourceMemory]
		var limits, requests resource.Quantity
		unbounded := 0
		for _, o := range c.store.PodsOnNode(node) {
			pod := model.Typed[corev1.Pod](o)
			if pod == nil || model.Terminal(pod) {
				continue
			}
			l, unset := model.PodResources(&pod.Spec, corev1.ResourceMemory, true)
			r, _ := model.PodResources(&pod.Spec, corev1.ResourceMemory, false)
			limits.Add(l)
			requests.Add(r)
			if unset {
				unbounded++
			}
		}
		over := ""
		if limits.Cmp(alloc) > 0 {
			over = fmt.Sprintf(" Node %s is overcommitted: the memory limits of its pods sum to %s against %s allocatable (requests %s)", node, humanBytes(limits), humanBytes(alloc), humanBytes(requests))
			if unbounded > 0 {
				over += fmt.Sprintf(", and %s set no limit", countOf(unbounded, "pod", "pods"))
			}
			over += "."
		}
		if spec != nil {
			req, hasReq := spec.Resources.Requests[corev1.ResourceMemory]
			lim, hasLim := spec.Resources.Limits[corev1.ResourceMemory]
			if hasReq && hasLim && lim.Cmp(req) > 0 {
				over += fmt.Sprintf(" This container requests %s but may grow to its %s limit (burstable), so the scheduler placed it where its limit does not fit.", req.String(), lim.String())
			}
		}
		res.Cause += over
		res.Evidence = append(res.Evidence, c.objectFieldEvidence(nodeObj, fmt.Sprintf("allocatable memory %s, capacity %s, MemoryPressure %s", humanBytes(alloc), humanBytes(n.Status.Capacity[corev1.ResourceMemory]), nodeConditionStatus(n, corev1.NodeMemoryPressure)), "status.allocatable.memory"))
	}
	return res
}

func nodeConditionStatus(n *corev1.Node, t corev1.NodeConditionType) string {
	for _, cond := range n.Status.Conditions {
		if cond.Type == t {
			return string(cond.Status)
		}
	}
	return "unknown"
}

func humanBytes(q resource.Quantity) string {
	v := float64(q.Value())
	switch {
	case v >= 1<<30:
		return strconv.FormatFloat(v/(1<<30), 'f', 1, 64) + "Gi"
	case v >= 1<<20:
		return strconv.FormatFloat(v/(1<<20), 'f', 0, 64) + "Mi"
	}
	return q.String()
}
