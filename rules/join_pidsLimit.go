package rules

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/openshift"
	corev1 "k8s.io/api/core/v1"
)

// pidsSetting is one gathered setting that limits the processes and threads
// of the pod's containers on its node.
type pidsSetting struct {
	value int64
	// what says which object sets it, for which pool.
	what string
	// kubelet is true for the kubelet's podPidsLimit (per pod), false for
	// CRI-O's pids_limit (per container).
	kubelet bool
	obj     *model.Object
	pool    string
}

// joinPidsLimit runs the pidsLimit join for one pod and hit (doc and reads:
// joinRegistry): the pids limit that applies on the pod's node, through the
// node's MachineConfigPools (as podCapacity walks them) to the
// KubeletConfigs setting podPidsLimit, the ContainerRuntimeConfigs setting
// pidsLimit and the MachineConfigs whose CRI-O configuration sets
// pids_limit. A container that was OOMKilled ran out of memory, not of
// pids: that rules the cause out.
func joinPidsLimit(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	cs, ok := containerNamed(p, h.Container)
	if !ok {
		return res
	}
	for _, t := range []*corev1.ContainerStateTerminated{cs.Status.State.Terminated, cs.Status.LastTerminationState.Terminated} {
		if t != nil && t.Reason == "OOMKilled" {
			res.RuledOut = true
			res.Evidence = append(res.Evidence, c.fieldEvidence(p, containerStateText(cs), containerFieldPaths(cs)...))
			return res
		}
	}
	nodeName := p.Object.Spec.NodeName
	nodeObj, nodeCov := c.store.Get(model.Nodes, "", nodeName)
	node := model.Typed[corev1.Node](nodeObj)
	if node == nil {
		if nodeName != "" && nodeCov == model.NotGathered {
			res.notGathered(objectsGap(model.Nodes, ""), fmt.Sprintf("Node %s, so the pids limit that applies on it could not be read", nodeName))
		}
		return res
	}
	if c.vocab.kubernetes {
		res.Missing = append(res.Missing, fmt.Sprintf("the kubelet's podPidsLimit and the runtime's pids limit on node %s: not in the gather", nodeName))
		return res
	}
	pools, poolCov := c.store.NodePools(node)
	if poolCov == model.NotGathered {
		res.notGathered(objectsGap(model.MachineConfigPools, ""), "MachineConfigPools, so the pids limit of node "+nodeName+" could not be traced")
		return res
	}
	var settings []pidsSetting
	var kcCov, ccCov, mcCov model.Coverage = model.Found, model.Found, model.Found
	for _, pool := range pools {
		mcp := model.Typed[openshift.MachineConfigPool](pool)
		if mcp == nil {
			continue
		}
		res.Evidence = append(res.Evidence, objectEvidence(pool, "selects node "+nodeName+"; rendered configuration "+mcp.Status.Configuration.Name))
		var kcs, ccs []*model.Object
		kcs, kcCov = c.store.PoolKubeletConfigs(pool)
		for _, o := range kcs {
			if kc := model.Typed[openshift.KubeletConfig](o); kc != nil && kc.Spec.KubeletConfig.PodPidsLimit != nil {
				v := *kc.Spec.KubeletConfig.PodPidsLimit
				settings = append(settings, pidsSetting{value: v, kubelet: true, obj: o, pool: pool.Name,
					what: fmt.Sprintf("KubeletConfig %s sets podPidsLimit: %d for MachineConfigPool %s", o.Name, v, pool.Name)})
			}
		}
		ccs, ccCov = c.store.PoolContainerRuntimeConfigs(pool)
		for _, o := range ccs {
			if cc := model.Typed[openshift.ContainerRuntimeConfig](o); cc != nil && cc.Spec.ContainerRuntimeConfig.PidsLimit != nil {
				v := *cc.Spec.ContainerRuntimeConfig.PidsLimit
				settings = append(settings, pidsSetting{value: v, obj: o, pool: pool.Name,
					what: fmt.Sprintf("ContainerRuntimeConfig %s sets pidsLimit: %d (CRI-O's pids_limit) for MachineConfigPool %s", o.Name, v, pool.Name)})
			}
		}
		var crio *pidsSetting
		crio, mcCov = c.crioPidsLimit(mcp, pool)
		if crio != nil {
			settings = append(settings, *crio)
		}
	}
	for _, s := range settings {
		res.Evidence = append(res.Evidence, objectEvidence(s.obj, s.what))
	}
	if len(settings) == 0 {
		var unread []string
		var gaps []model.Gap
		for _, k := range []struct {
			name string
			kind model.Kind
			cov  model.Coverage
		}{{"ContainerRuntimeConfigs", model.ContainerRuntimeConfigs, ccCov}, {"KubeletConfigs", model.KubeletConfigs, kcCov}, {"MachineConfigs", model.MachineConfigs, mcCov}} {
			if k.cov == model.NotGathered {
				unread = append(unread, k.name)
				gaps = append(gaps, objectsGap(k.kind, ""))
			}
		}
		switch {
		case len(pools) == 0:
			res.Missing = append(res.Missing, "no gathered MachineConfigPool selects node "+nodeName+", so its pids limit could not be traced")
		case len(unread) > 0:
			res.Missing = append(res.Missing, notGathered(strings.Join(unread, ", ")+", so the pids limit that applies on node "+nodeName+" could not be named"))
			res.Gaps = append(res.Gaps, gaps...)
		default:
			res.Missing = append(res.Missing, fmt.Sprintf("no gathered KubeletConfig, ContainerRuntimeConfig or MachineConfig of node %s's pool sets a pids limit, so the platform default applies (OpenShift 4.11 and later: podPidsLimit 4096; before: CRI-O's pids_limit 1024)", nodeName))
		}
		return res
	}
	sort.SliceStable(settings, func(i, j int) bool { return settings[i].value < settings[j].value })
	low := settings[0]
	var also []string
	for _, s := range settings[1:] {
		also = append(also, s.what)
	}
	res.Decided = true
	res.Cause = fmt.Sprintf("On node %s the limit is %d %s: %s.", nodeName, low.value, pick(low.kubelet, "processes and threads per pod", "processes and threads per container"), low.what)
	if len(also) > 0 {
		res.Cause += " Also set: " + list(also, 3) + "."
	}
	if low.kubelet {
		res.Fix = fmt.Sprintf("To raise the limit, raise podPidsLimit in KubeletConfig %s (MachineConfigPool %s).", low.obj.Name, low.pool)
	} else {
		res.Fix = fmt.Sprintf("To raise the limit, set pidsLimit in a ContainerRuntimeConfig for MachineConfigPool %s.", low.pool)
	}
	return res
}

// crioPidsLimit is the pids_limit the CRI-O configuration of pool sets: the
// last of the MachineConfigs rendered into it (in name order, as the Machine
// Config Operator merges them) whose files set one, else that of its
// rendered configuration; nil when none does. It returns the coverage of
// the MachineConfigs.
func (c *evalContext) crioPidsLimit(mcp *openshift.MachineConfigPool, pool *model.Object) (*pidsSetting, model.Coverage) {
	var names []string
	for _, s := range mcp.Spec.Configuration.Source {
		names = append(names, s.Name)
	}
	sort.Strings(names)
	var found *pidsSetting
	cov := model.Absent
	read := func(name string) {
		o, cv := c.store.Get(model.MachineConfigs, "", name)
		if cv == model.NotGathered {
			cov = model.NotGathered
		}
		mc := model.Typed[openshift.MachineConfig](o)
		if mc == nil || mc.CrioPidsLimit == nil {
			return
		}
		found = &pidsSetting{value: *mc.CrioPidsLimit, obj: o, pool: pool.Name,
			what: fmt.Sprintf("MachineConfig %s, rendered into MachineConfigPool %s, sets pids_limit = %d in %s (CRI-O's limit per container)", o.Name, pool.Name, *mc.CrioPidsLimit, mc.CrioFile)}
	}
	for _, n := range names {
		read(n)
	}
	if found == nil && mcp.Status.Configuration.Name != "" {
		read(mcp.Status.Configuration.Name)
	}
	if found != nil {
		cov = model.Found
	}
	return found, cov
}
