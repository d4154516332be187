package rules

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
)

var csiDriverRe = mustLitRegexp(`driver name (\S{1,253}) not found in the list of registered CSI drivers`)

// joinCSINodePlugin runs the csiNodePlugin join for one pod and hit (doc and reads: joinRegistry).
func joinCSINodePlugin(c *evalContext, p *model.Pod, h *hit) joinResult {
	driver := ""
	var res joinResult
	for _, e := range p.Events {
		if m := csiDriverRe.FindStringSubmatch(e.Object.Message); m != nil {
			driver = m[1]
			res.Evidence = append(res.Evidence, Evidence{Source: eventSource(e), Kind: EvidenceEvent, Quote: strings.TrimSpace(e.Object.Message), Time: e.When(), Count: e.Count(),
				Text: fmt.Sprintf("%s %s: %s", eventType(e), e.Object.Reason, strings.TrimSpace(e.Object.Message))})
			break
		}
	}
	for _, g := range p.NodeLog {
		if m := csiDriverRe.FindStringSubmatch(g.Text); m != nil {
			if driver == "" {
				driver = m[1]
			}
			res.Evidence = append(res.Evidence, logGroupEvidence(g))
			break
		}
	}
	node := p.Object.Spec.NodeName
	if driver == "" || node == "" {
		return joinResult{}
	}
	// Where is the driver registered?
	csinodes, typedCSINodes, csiCov := model.ListTyped[storagev1.CSINode](c.store, model.CSINodes, "")
	var registeredOn []string
	for i, o := range csinodes {
		cn := typedCSINodes[i]
		has := false
		for _, d := range cn.Spec.Drivers {
			if d.Name == driver {
				has = true
			}
		}
		if has {
			registeredOn = append(registeredOn, cn.Name)
		}
		if cn.Name == node {
			var names []string
			for _, d := range cn.Spec.Drivers {
				names = append(names, d.Name)
			}
			res.Evidence = append(res.Evidence, objectEvidence(o, fmt.Sprintf("drivers registered on %s: %s", node, orNone(names))))
		}
	}
	if csiCov == model.NotGathered {
		res.notGathered(objectsGap(model.CSINodes, ""), "CSINode objects, so where the driver is registered could not be checked")
	}
	nodeObj, _ := c.store.Get(model.Nodes, "", node)
	n := model.Typed[corev1.Node](nodeObj)
	if n == nil {
		res.notGathered(objectsGap(model.Nodes, ""), "Node "+node+", so its taints could not be checked")
		return res
	}
	// The driver's node plugin: a DaemonSet whose pod template names the
	// driver, else one whose pods run on the nodes that register it.
	dss, dsCov := c.store.List(model.DaemonSets, "*")
	if dsCov == model.NotGathered {
		res.notGathered(objectsGap(model.DaemonSets, ""), "DaemonSets, so the driver's node plugin could not be checked")
		return res
	}
	// The driver's node plugin is the DaemonSet whose pod template names
	// the driver (args, env, the registrar's kubelet-registration-path);
	// else, every CSI node plugin runs the node-driver-registrar sidecar:
	// such DaemonSets with pods on the nodes that register the driver.
	var plugins []*model.Object
	for _, o := range dss {
		ds := model.Typed[appsv1.DaemonSet](o)
		if ds == nil {
			res.Missing = append(res.Missing, unreadable(o, "whether it is the driver's node plugin could not be checked"))
			continue
		}
		if templateMentions(&ds.Spec.Template.Spec, driver) {
			plugins = append(plugins, o)
		}
	}
	if len(plugins) == 0 {
		var registrars []*model.Object
		for _, o := range dss {
			ds := model.Typed[appsv1.DaemonSet](o)
			if ds == nil || !hasRegistrar(&ds.Spec.Template.Spec) {
				continue
			}
			registrars = append(registrars, o)
			for _, po := range c.store.PodsOwnedBy(o.Namespace, "DaemonSet", o.Name) {
				if pod := model.Typed[corev1.Pod](po); pod != nil && contains(registeredOn, pod.Spec.NodeName) {
					plugins = append(plugins, o)
					break
				}
			}
		}
		if len(plugins) == 0 && len(registrars) == 1 {
			plugins = registrars // the cluster's only CSI node plugin
		}
	}
	for _, o := range plugins {
		ds := model.Typed[appsv1.DaemonSet](o)
		taints := model.UntoleratedTaints(ds.Spec.Template.Spec.Tolerations, n)
		selOK, why := model.SelectorMatch(&ds.Spec.Template.Spec, n)
		var onNode []string
		for _, po := range c.store.PodsOwnedBy(o.Namespace, "DaemonSet", o.Name) {
			if pod := model.Typed[corev1.Pod](po); pod != nil {
				onNode = append(onNode, pod.Spec.NodeName)
			}
		}
		sort.Strings(onNode)
		where := fmt.Sprintf("its pods run on %s", orNone(onNode))
		for _, po := range c.store.PodsOwnedBy(o.Namespace, "DaemonSet", o.Name) {
			pod := model.Typed[corev1.Pod](po)
			if pod == nil || pod.Spec.NodeName != node || podReady(pod) {
				continue
			}
			status := c.podStatusText(pod)
			res.Decided = true
			res.Cause = fmt.Sprintf("The CSI driver %s is not registered on node %s because its node plugin pod %s/%s (DaemonSet %s) on that node is not ready (%s): the driver registers only once the plugin runs.", driver, node, pod.Namespace, pod.Name, o.Name, status)
			res.Fix = fmt.Sprintf("Fix the node plugin pod %s first (`oc -n %s logs %s --all-containers`); the mounts on %s succeed once it is Running and ready.", pod.Name, pod.Namespace, pod.Name, node)
			res.Evidence = append(res.Evidence, objectEvidence(po, "on node "+node+", "+status))
			return res
		}
		switch {
		case len(taints) > 0:
			res.Decided = true
			res.Cause = fmt.Sprintf("The CSI driver %s is not registered on node %s because its node plugin DaemonSet %s/%s does not tolerate the node's taint %s, so it runs no pod there (%s; desiredNumberScheduled %d). Attach works (controller side), but every mount on %s fails.", driver, node, o.Namespace, o.Name, taintList(taints), where, ds.Status.DesiredNumberScheduled, node)
			res.Fix = fmt.Sprintf("Add a toleration for %s to DaemonSet %s (for operator-managed plugins, in the operator's plugin toleration setting, e.g. CSI_PLUGIN_TOLERATIONS of ODF/Rook), or do not schedule pods that use %s on %s.", taintList(taints), o.Name, driver, node)
			res.Evidence = append(res.Evidence, objectEvidence(o, "tolerations "+tolerationList(ds.Spec.Template.Spec.Tolerations)+"; "+where), c.objectFieldEvidence(nodeObj, "taints "+taintList(n.Spec.Taints), "spec.taints"))
			return res
		case !selOK:
			res.Decided = true
			res.Cause = fmt.Sprintf("The CSI driver %s is not registered on node %s because its node plugin DaemonSet %s/%s does not select that node (%s), so it runs no pod there (%s).", driver, node, o.Namespace, o.Name, why, where)
			res.Fix = fmt.Sprintf("Extend DaemonSet %s's node selector to %s, or keep pods that use %s off it.", o.Name, node, driver)
			res.Evidence = append(res.Evidence, objectEvidence(o, "node selector "+why+"; "+where))
			return res
		default:
			res.Evidence = append(res.Evidence, objectEvidence(o, "tolerates node "+node+" and selects it; "+where))
		}
	}
	return res
}

func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// hasRegistrar reports whether a pod template runs the CSI
// node-driver-registrar sidecar, which every CSI node plugin runs to
// register its driver with the kubelet.
func hasRegistrar(spec *corev1.PodSpec) bool {
	for _, ct := range spec.Containers {
		if strings.Contains(ct.Name, "registrar") || strings.Contains(ct.Image, "node-driver-registrar") {
			return true
		}
		for _, a := range ct.Args {
			if strings.Contains(a, "kubelet-registration-path") {
				return true
			}
		}
	}
	return false
}

func templateMentions(spec *corev1.PodSpec, s string) bool {
	for _, list := range [][]corev1.Container{spec.Containers, spec.InitContainers} {
		for _, ct := range list {
			for _, a := range append(append([]string{}, ct.Args...), ct.Command...) {
				if strings.Contains(a, s) {
					return true
				}
			}
			for _, e := range ct.Env {
				if strings.Contains(e.Value, s) {
					return true
				}
			}
		}
	}
	return false
}

func tolerationList(ts []corev1.Toleration) string {
	var out []string
	for _, t := range ts {
		s := t.Key
		if t.Operator == corev1.TolerationOpExists && t.Key == "" {
			s = "everything"
		} else if t.Value != "" {
			s += "=" + t.Value
		}
		if t.Effect != "" {
			s += ":" + string(t.Effect)
		}
		out = append(out, s)
	}
	return orNone(out)
}
