package rules

import (
	"fmt"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
)

// joinClaimUsers runs the claimUsers join for one pod and hit (doc and reads: joinRegistry).
func joinClaimUsers(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	ns := p.Object.Namespace
	node := p.Object.Spec.NodeName
	for _, v := range p.Object.Spec.Volumes {
		if v.PersistentVolumeClaim == nil {
			continue
		}
		claim := v.PersistentVolumeClaim.ClaimName
		mode := "access mode unknown"
		pvcObj, cov := c.store.Get(model.PersistentVolumeClaims, ns, claim)
		if pvc := model.Typed[corev1.PersistentVolumeClaim](pvcObj); pvc != nil {
			var modes []string
			for _, m := range pvc.Spec.AccessModes {
				modes = append(modes, string(m))
			}
			mode = strings.Join(modes, ",")
			res.Evidence = append(res.Evidence, objectEvidence(pvcObj, fmt.Sprintf("accessModes %s, volume %s", mode, pvc.Spec.VolumeName)))
			if contains(modes, string(corev1.ReadWriteMany)) || contains(modes, string(corev1.ReadOnlyMany)) {
				continue // shared access: other users do not block attach
			}
		} else if cov == model.NotGathered {
			res.notGathered(objectsGap(model.PersistentVolumeClaims, ns), fmt.Sprintf("PersistentVolumeClaim %s/%s, so its access mode could not be read", ns, claim))
		}
		for _, o := range c.store.ClaimUsers(ns, claim) {
			other := model.Typed[corev1.Pod](o)
			if other == nil || other.UID == p.Object.UID && other.Name == p.Object.Name || model.Terminal(other) {
				continue
			}
			if other.Spec.NodeName == "" || other.Spec.NodeName == node {
				continue
			}
			phase := string(other.Status.Phase)
			if other.DeletionTimestamp != nil {
				phase += ", Terminating"
			}
			res.Decided = true
			res.Cause = fmt.Sprintf("Multi-Attach: PersistentVolumeClaim %s (%s) is still used by pod %s on node %s (%s); this pod runs on %s, and a ReadWriteOnce volume attaches to one node at a time.", claim, mode, other.Name, other.Spec.NodeName, phase, nodeOr(node))
			res.Fix = fmt.Sprintf("Stop pod %s (scale down or delete it, or let its node's pods be cleaned up), co-locate the pods on one node, or use a ReadWriteMany volume.", other.Name)
			res.Evidence = append(res.Evidence, objectEvidence(o, fmt.Sprintf("uses claim %s on node %s, phase %s", claim, other.Spec.NodeName, phase)))
			return res
		}
	}
	return res
}

func nodeOr(n string) string {
	if n == "" {
		return "another node"
	}
	return n
}
