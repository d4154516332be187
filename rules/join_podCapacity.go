package rules

import (
	"fmt"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/openshift"
	corev1 "k8s.io/api/core/v1"
)

// defaultMaxPods is the kubelet's maxPods on OpenShift 4 (upstream: 110).
const defaultMaxPods = 250

// joinPodCapacity runs the podCapacity join for one pod and hit (doc and reads: joinRegistry).
func joinPodCapacity(c *evalContext, p *model.Pod, h *hit) joinResult {
	if !strings.Contains(strings.ToLower(h.Vars["Message"]), "too many pods") {
		return joinResult{}
	}
	verdicts, cov := c.nodeVerdicts(p)
	if cov == model.NotGathered || len(verdicts) == 0 {
		return lacking(objectsGap(model.Nodes, ""), "Node objects, so the nodes' pod limits could not be read")
	}
	var res joinResult
	var full []string
	var fullNodes []nodeVerdict
	for _, v := range verdicts {
		if !v.selected || len(v.taints) > 0 || v.cordoned {
			continue
		}
		allocatable, ok := v.node.Status.Allocatable[corev1.ResourcePods]
		if !ok {
			continue
		}
		running := 0
		for _, o := range c.store.PodsOnNode(v.node.Name) {
			if pod := model.Typed[corev1.Pod](o); pod != nil && !model.Terminal(pod) {
				running++
			}
		}
		if allocatable.Value() >= defaultMaxPods && int64(running) < allocatable.Value() {
			continue
		}
		if int64(running) >= allocatable.Value() {
			full = append(full, fmt.Sprintf("%s (%s bound, %d allocatable)", v.node.Name, countOf(running, "pod", "pods"), allocatable.Value()))
		} else {
			// The scheduler counts pods of every namespace; a gather may hold
			// only some of them.
			full = append(full, fmt.Sprintf("%s (%d allocatable; the gather holds %s bound to it)", v.node.Name, allocatable.Value(), countOf(running, "pod", "pods")))
		}
		fullNodes = append(fullNodes, v)
		res.Evidence = append(res.Evidence, c.objectFieldEvidence(v.obj, fmt.Sprintf("status.allocatable.pods: %d, capacity cpu %s; the gather holds %s bound to it", allocatable.Value(), v.node.Status.Capacity.Cpu().String(), countOf(running, "pod", "pods")), "status.allocatable.pods"))
	}
	if len(fullNodes) == 0 {
		return joinResult{}
	}
	limit := fullNodes[0].node.Status.Allocatable[corev1.ResourcePods]
	res.Decided = true
	res.Cause = fmt.Sprintf("the scheduler finds the nodes the pod may use at their pod limit (Too many pods), not short of CPU or memory: %s.", list(full, 6))
	if limit.Value() >= defaultMaxPods {
		res.Fix = "Add nodes or move pods; the pod limit is the default maxPods."
		return res
	}
	// Which KubeletConfig sets the low limit? Only one whose numbers give it.
	var why []string
	usesPerCore := false
	kcSeen := map[string]bool{}
	pools, poolCov := c.store.NodePools(fullNodes[0].node)
	for _, pool := range pools {
		res.Evidence = append(res.Evidence, objectEvidence(pool, "selects node "+fullNodes[0].node.Name+"; rendered configuration "+model.Typed[openshift.MachineConfigPool](pool).Status.Configuration.Name))
		kcs, kcCov := c.store.PoolKubeletConfigs(pool)
		if kcCov == model.NotGathered {
			res.notGathered(objectsGap(model.KubeletConfigs, ""), "KubeletConfigs, so what sets the pod limit could not be named")
		}
		for _, o := range kcs {
			kc := model.Typed[openshift.KubeletConfig](o)
			if kc == nil && !kcSeen[o.Name] {
				kcSeen[o.Name] = true
				res.Missing = append(res.Missing, unreadable(o, "whether it sets the pod limit could not be checked"))
			}
			if kc == nil || kcSeen[o.Name] {
				continue
			}
			kcSeen[o.Name] = true
			set := kc.Spec.KubeletConfig
			cpus := fullNodes[0].node.Status.Capacity.Cpu().Value()
			// The kubelet's pod limit: maxPods (default 250 on OpenShift),
			// lowered to podsPerCore × CPUs when that is set and smaller.
			effective := int64(defaultMaxPods)
			var parts []string
			if set.MaxPods != nil && *set.MaxPods > 0 {
				effective = *set.MaxPods
			}
			if set.PodsPerCore != nil && *set.PodsPerCore > 0 && cpus > 0 && *set.PodsPerCore <= 1<<20 {
				perCore := *set.PodsPerCore * cpus
				parts = append(parts, fmt.Sprintf("podsPerCore: %d (× %d CPUs = %d pods)", *set.PodsPerCore, cpus, perCore))
				effective = min(effective, perCore)
			}
			if set.MaxPods != nil {
				parts = append(parts, fmt.Sprintf("maxPods: %d", *set.MaxPods))
			}
			if len(parts) == 0 {
				continue
			}
			res.Evidence = append(res.Evidence, objectEvidence(o, strings.Join(parts, ", ")+" for pool "+pool.Name))
			if effective != limit.Value() {
				continue // its numbers do not give this limit: not the cause
			}
			why = append(why, fmt.Sprintf("KubeletConfig %s sets %s for MachineConfigPool %s", o.Name, strings.Join(parts, " and "), pool.Name))
			if set.PodsPerCore != nil && *set.PodsPerCore*cpus == effective {
				usesPerCore = true
			}
		}
	}
	if poolCov == model.NotGathered {
		res.notGathered(objectsGap(model.MachineConfigPools, ""), "MachineConfigPools, so the KubeletConfig that sets the pod limit could not be found")
	}
	switch {
	case len(why) > 0 && usesPerCore:
		res.Cause += fmt.Sprintf(" They allow only %d pods because %s: the kubelet takes the lower of podsPerCore × CPUs and maxPods.", limit.Value(), list(why, 3))
		res.Fix = "Raise or remove podsPerCore (or raise maxPods) in that KubeletConfig, or add nodes to the pool."
	case len(why) > 0:
		res.Cause += fmt.Sprintf(" They allow only %d pods because %s.", limit.Value(), list(why, 3))
		res.Fix = "Raise maxPods in that KubeletConfig, or add nodes to the pool."
	default:
		res.Cause += fmt.Sprintf(" Their pod limit (%d) is below the default maxPods of %d; no gathered KubeletConfig explains it.", limit.Value(), defaultMaxPods)
		res.Fix = "Find the kubelet setting that lowers maxPods (KubeletConfig podsPerCore/maxPods) or add nodes."
	}
	return res
}
