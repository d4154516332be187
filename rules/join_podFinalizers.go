package rules

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
)

// finalizerOwner names who removes a finalizer: the built-in ones by their
// controller, any other by the prefix that names the controller that added it.
func finalizerOwner(f string) string {
	switch f {
	case "batch.kubernetes.io/job-tracking":
		return "the Job controller (kube-controller-manager), which removes it once it has counted the pod in its Job's status"
	case "foregroundDeletion", "orphan":
		return "the garbage collector (kube-controller-manager), which removes it once the pod's dependents are handled"
	}
	if prefix, _, ok := strings.Cut(f, "/"); ok && prefix != "" {
		return "the controller that added it (the " + prefix + " prefix names its owner)"
	}
	return "the controller that added it"
}

// containersExited reports whether every container of the pod has
// terminated (or never ran), or its phase says they are done.
func containersExited(p *corev1.Pod) bool {
	if p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
		return true
	}
	if len(p.Status.ContainerStatuses) == 0 {
		return false
	}
	for _, list := range [][]corev1.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses} {
		for _, st := range list {
			if st.State.Running != nil {
				return false
			}
		}
	}
	return true
}

// joinPodFinalizers runs the podFinalizers join for one pod and hit (doc and
// reads: joinRegistry).
func joinPodFinalizers(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	pod := &p.Object
	if pod.DeletionTimestamp == nil || len(pod.Finalizers) == 0 {
		return res
	}
	// The kubelet's part is done when it confirmed the deletion (its final
	// delete sets the grace period to 0) or the containers have exited; a
	// Ready node with nothing running does not hold the pod either.
	confirmed := pod.DeletionGracePeriodSeconds != nil && *pod.DeletionGracePeriodSeconds == 0
	exited := containersExited(pod)
	node := pod.Spec.NodeName
	ready := ""
	var nodeEv []Evidence
	if node != "" {
		nodeObj, _ := c.store.Get(model.Nodes, "", node)
		if n := model.Typed[corev1.Node](nodeObj); n != nil {
			for _, cond := range n.Status.Conditions {
				if cond.Type == corev1.NodeReady {
					ready = string(cond.Status)
					nodeEv = append(nodeEv, c.objectFieldEvidence(nodeObj, fmt.Sprintf("condition Ready=%s since %s", cond.Status, fmtTime(cond.LastTransitionTime.Time)), "status.conditions[Ready].status", "status.conditions[Ready]"))
				}
			}
		}
	}
	if !confirmed && !exited {
		return res // containers still run: the kubelet, not only the finalizers, holds the pod
	}
	res.Decided = true
	res.Evidence = append(res.Evidence, c.fieldEvidence(p, fmt.Sprintf("metadata.finalizers %s, deletionTimestamp %s", strings.Join(pod.Finalizers, ", "), fmtTime(pod.DeletionTimestamp.Time)),
		"metadata.finalizers", "metadata.deletionTimestamp"))
	res.Evidence = append(res.Evidence, nodeEv...)
	var done []string
	if exited {
		done = append(done, "its containers have exited")
	}
	if confirmed {
		done = append(done, "the kubelet confirmed the deletion (deletionGracePeriodSeconds 0)")
	}
	on := ""
	if node != "" && ready == string(corev1.ConditionTrue) {
		on = " on Ready node " + node
	}
	var owners []string
	for _, f := range pod.Finalizers {
		owners = append(owners, fmt.Sprintf("finalizer %s is removed by %s", f, finalizerOwner(f)))
	}
	// The Job a job-tracking finalizer waits for may be gone.
	gone := ""
	if ref, ok := model.ControllerOf(model.PodOwners(pod)); ok && ref.Kind == "Job" {
		if _, cov := c.store.Get(model.Jobs, pod.Namespace, ref.Name); cov == model.Absent {
			gone = fmt.Sprintf(" The Job %s that owned the pod no longer exists (the gathered Jobs of %s lack it), so no Job controller sync will account the pod and remove its finalizer.", ref.Name, pod.Namespace)
		}
	}
	res.Cause = fmt.Sprintf("Only %s %s keeps the pod: it was deleted at %s, and %s%s, but the API server keeps an object until every finalizer is removed. %s.%s",
		pick(len(pod.Finalizers) == 1, "its finalizer", "its finalizers"), strings.Join(pod.Finalizers, ", "), fmtTime(pod.DeletionTimestamp.Time), strings.Join(done, " and "), on, "The "+strings.Join(owners, "; the "), gone)
	patch := `[{"op":"remove","path":"/metadata/finalizers"}]`
	if len(pod.Finalizers) > 1 {
		b, _ := json.Marshal([]map[string]string{{"op": "remove", "path": "/metadata/finalizers/0"}})
		patch = string(b)
	}
	res.Fix = fmt.Sprintf("Find why the owner of %s does not remove it (is that controller running; its log for this pod). Once what the finalizer guards is done or no longer needed, remove it by hand, knowing that this skips the controller's clean-up: `oc -n %s patch pod %s --type=json -p '%s'`.",
		pod.Finalizers[0], pod.Namespace, pod.Name, patch)
	return res
}
