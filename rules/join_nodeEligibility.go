package rules

import (
	"fmt"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
)

func selectorText(spec *corev1.PodSpec) string {
	var parts []string
	for _, k := range model.SortedKeys(spec.NodeSelector) {
		parts = append(parts, selectorLabel(k, spec.NodeSelector[k]))
	}
	s := ""
	if len(parts) > 0 {
		s = "nodeSelector " + strings.Join(parts, ",")
	}
	if a := spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		if s != "" {
			s += " and "
		}
		s += "required node affinity"
	}
	return s
}

// selectorLabel writes a label requirement as key=value, or as "key with an
// empty value" when the value is empty (node-role labels).
func selectorLabel(k, v string) string {
	if v == "" {
		return k + " with an empty value"
	}
	return k + "=" + v
}

// joinNodeEligibility runs the nodeEligibility join for one pod and hit (doc and reads: joinRegistry).
func joinNodeEligibility(c *evalContext, p *model.Pod, h *hit) joinResult {
	verdicts, cov := c.nodeVerdicts(p)
	if cov == model.NotGathered || len(verdicts) == 0 {
		return lacking(objectsGap(model.Nodes, ""), "Node objects, so taints and labels could not be compared with the pod's tolerations and selectors")
	}
	var res joinResult
	var selected []nodeVerdict
	for _, v := range verdicts {
		if v.selected {
			selected = append(selected, v)
		}
	}
	sel := selectorText(&p.Object.Spec)
	if len(selected) == 0 {
		if sel == "" {
			return res
		}
		res.Decided = true
		res.Cause = fmt.Sprintf("No gathered node matches the pod's %s (%d nodes gathered).", sel, len(verdicts))
		res.Fix = "Correct the pod's node selector or affinity, or label the intended node."
		for i, v := range verdicts {
			if i < 3 {
				res.Evidence = append(res.Evidence, objectEvidence(v.obj, "labels do not satisfy "+v.why))
			}
		}
		return res
	}
	var tainted, cordoned, free []string
	var taintKeys []string
	for _, v := range selected {
		switch {
		case len(v.taints) > 0:
			tainted = append(tainted, fmt.Sprintf("%s (%s)", v.node.Name, taintList(v.taints)))
			for _, t := range v.taints {
				if !contains(taintKeys, model.TaintText(t)) {
					taintKeys = append(taintKeys, model.TaintText(t))
				}
			}
			res.Evidence = append(res.Evidence, c.objectFieldEvidence(v.obj, "taints "+taintList(v.taints)+" not tolerated by the pod", "spec.taints"))
		case v.cordoned:
			cordoned = append(cordoned, v.node.Name)
			res.Evidence = append(res.Evidence, c.objectFieldEvidence(v.obj, "spec.unschedulable: true (cordoned)", "spec.unschedulable"))
		default:
			free = append(free, v.node.Name)
		}
	}
	if len(free) > 0 {
		return joinResult{} // some node could take it as far as taints and selectors go
	}
	// subject names the nodes left after the selector, as a sentence's subject.
	subject := "every gathered node"
	if sel != "" {
		subject = fmt.Sprintf("the pod's %s leaves only %s, and %s", sel, countOf(len(selected), "node", "nodes"), pick(len(selected) == 1, "that node", "each of them"))
	}
	res.Decided = true
	switch {
	case len(tainted) > 0 && len(cordoned) == 0:
		res.Cause = fmt.Sprintf("Taint, not capacity: %s carries a taint the pod does not tolerate: %s.", subject, list(tainted, 6))
		where := "the pod's controller"
		if len(p.Object.OwnerReferences) == 0 {
			where = "the pod (it has no controller: recreate it)"
		}
		res.Fix = fmt.Sprintf("Add a toleration for %s to %s, or target nodes without that taint; do not remove the taint from nodes whose role needs it.", list(taintKeys, 4), where)
	case len(tainted) == 0:
		res.Cause = fmt.Sprintf("Cordoned, not capacity: %s is cordoned (spec.unschedulable): %s.", subject, list(cordoned, 6))
		res.Fix = "Uncordon the node when its maintenance is over (`oc adm uncordon NODE`), or let the pod select other nodes."
	default:
		res.Cause = fmt.Sprintf("No candidate node: %s is either tainted with a taint the pod does not tolerate (%s) or cordoned (%s).", subject, list(tainted, 4), list(cordoned, 4))
		res.Fix = fmt.Sprintf("Add a toleration for %s, or uncordon the cordoned nodes.", list(taintKeys, 4))
	}
	if near := nearTolerations(p.Object.Spec.Tolerations, selected); near != "" {
		res.Cause += " " + near
	}
	if selectorUnmatched := len(verdicts) - len(selected); selectorUnmatched > 0 && sel != "" {
		res.Cause += fmt.Sprintf(" The %d other gathered %s not match the selector, as expected.", selectorUnmatched, pick(selectorUnmatched == 1, "node does", "nodes do"))
	}
	return res
}

// nearTolerations explains tolerations that name a blocking taint's key but
// do not tolerate it (another effect or value), the usual slip.
func nearTolerations(tols []corev1.Toleration, verdicts []nodeVerdict) string {
	var out []string
	seen := map[string]bool{}
	for _, v := range verdicts {
		for _, t := range v.taints {
			for _, tol := range tols {
				if tol.Key != t.Key || seen[t.Key] {
					continue
				}
				seen[t.Key] = true
				switch {
				case tol.Effect != "" && tol.Effect != t.Effect:
					out = append(out, fmt.Sprintf("The pod tolerates %s only with effect %s, but the taint's effect is %s.", t.Key, tol.Effect, t.Effect))
				case tol.Operator != corev1.TolerationOpExists && tol.Value != t.Value:
					out = append(out, fmt.Sprintf("The pod tolerates %s only with value %q, but the taint's value is %q.", t.Key, tol.Value, t.Value))
				}
			}
		}
	}
	return strings.Join(out, " ")
}
