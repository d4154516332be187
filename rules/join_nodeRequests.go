package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// insufficientRe reads the resources of the scheduler's "N Insufficient
// <resource>" parts; a resource name may hold dots (nvidia.com/gpu), but one
// that ends the message's sentence ("2 Insufficient memory. preemption: …")
// does not end the name (see insufficientResource).
var insufficientRe = mustLitRegexp(`Insufficient ([a-z0-9./_-]{1,63})`)

// insufficientResource is the resource a match of insufficientRe names, without the
// full stop of the sentence it may end.
func insufficientResource(m []string) corev1.ResourceName {
	return corev1.ResourceName(strings.TrimRight(m[1], "."))
}

// joinNodeRequests runs the nodeRequests join for one pod and hit (doc and reads: joinRegistry).
func joinNodeRequests(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	var resources []corev1.ResourceName
	for _, m := range insufficientRe.FindAllStringSubmatch(h.Vars["Message"], 4) {
		if r := insufficientResource(m); !slices.Contains(resources, r) {
			resources = append(resources, r)
		}
	}
	if len(resources) == 0 {
		return res
	}
	verdicts, cov := c.nodeVerdicts(p)
	if cov == model.NotGathered || len(verdicts) == 0 {
		res.notGathered(objectsGap(model.Nodes, ""), "Node objects, so the room left on each node could not be computed")
		return res
	}
	var parts []string
	decided := true
	for _, r := range resources {
		want, _ := model.PodResources(&p.Object.Spec, r, false)
		if want.IsZero() {
			decided = false
			continue
		}
		bestFree := resource.Quantity{}
		bestNode := ""
		candidates := 0
		for _, v := range verdicts {
			if !v.selected || len(v.taints) > 0 || v.cordoned {
				continue
			}
			alloc, ok := v.node.Status.Allocatable[r]
			if !ok {
				continue
			}
			candidates++
			used := resource.Quantity{}
			for _, o := range c.store.PodsOnNode(v.node.Name) {
				if pod := model.Typed[corev1.Pod](o); pod != nil && !model.Terminal(pod) {
					q, _ := model.PodResources(&pod.Spec, r, false)
					used.Add(q)
				}
			}
			free := alloc.DeepCopy()
			free.Sub(used)
			if free.Cmp(want) >= 0 {
				decided = false // the gathered pods leave room: the gather lacks some pods, or it changed
			}
			if bestNode == "" || free.Cmp(bestFree) > 0 {
				bestFree, bestNode = free, v.node.Name
			}
			res.Evidence = append(res.Evidence, c.objectFieldEvidence(v.obj, fmt.Sprintf("allocatable %s %s, requested by its gathered pods %s", r, alloc.String(), used.String()), fmt.Sprintf("status.allocatable.%s", r)))
		}
		if candidates == 0 {
			decided = false
			continue
		}
		parts = append(parts, fmt.Sprintf("it requests %s %s, and the most %s left on any of the %d nodes it may use is %s on %s", want.String(), r, r, candidates, roomText(bestFree), bestNode))
	}
	if !decided || len(parts) == 0 {
		res.Evidence = nil
		return res
	}
	res.Decided = true
	res.Cause = "Requests, not use, decide: " + strings.Join(parts, "; ") + " (requests of the pods bound to each node, against its allocatable)."
	res.Fix = "Lower the pod's requests to what it uses, free requests on the nodes (scale down or right-size other workloads), or add nodes to the pool."
	return res
}

// roomText writes a computed amount of a resource the way the requests it is
// compared with are written: a byte amount of 1Mi or more in the largest
// binary unit (Ti, Gi, Mi) it fills, with one decimal when not whole
// ("29.4Gi", not the canonical "30863320Ki"); anything else (CPU, counts,
// small or negative amounts) in its canonical form.
func roomText(q resource.Quantity) string {
	if q.Format != resource.BinarySI || q.Sign() <= 0 {
		return q.String()
	}
	v := q.Value()
	for _, u := range []struct {
		name  string
		bytes int64
	}{{"Ti", 1 << 40}, {"Gi", 1 << 30}, {"Mi", 1 << 20}} {
		if v < u.bytes {
			continue
		}
		if v%u.bytes == 0 {
			return strconv.FormatInt(v/u.bytes, 10) + u.name
		}
		return strconv.FormatFloat(float64(v)/float64(u.bytes), 'f', 1, 64) + u.name
	}
	return q.String()
}
