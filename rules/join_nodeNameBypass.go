package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// templateOf returns the pod template of a gathered controller (the slim one
// the store keeps of a ReplicaSet, StatefulSet or Job; a DaemonSet's whole),
// or nil.
func templateOf(o *model.Object) *corev1.PodTemplateSpec {
	if o == nil {
		return nil
	}
	switch t := o.Typed.(type) {
	case *appsv1.ReplicaSet:
		return &t.Spec.Template
	case *appsv1.StatefulSet:
		return &t.Spec.Template
	case *appsv1.DaemonSet:
		return &t.Spec.Template
	case *batchv1.Job:
		return &t.Spec.Template
	}
	return nil
}

// admissionAmount writes an amount of the kubelet's admission message in the
// resource's units: millicores for cpu, bytes for memory and storage.
func admissionAmount(res, n string) string {
	v, err := strconv.ParseInt(n, 10, 64)
	if err != nil {
		return n
	}
	switch res {
	case "cpu":
		return resource.NewMilliQuantity(v, resource.DecimalSI).String()
	case "memory", "ephemeral-storage":
		return roomText(*resource.NewQuantity(v, resource.BinarySI))
	}
	return n
}

// admissionResource is the resource of a kubelet admission reason
// ("OutOfcpu" → cpu), or "".
func admissionResource(reason string) string {
	r, ok := strings.CutPrefix(reason, "OutOf")
	if !ok {
		return ""
	}
	return r
}

// joinNodeNameBypass runs the nodeNameBypass join for one pod and hit (doc
// and reads: joinRegistry). As a signature's decider it reads the message's
// Resource, Requested, Used and Capacity.
func joinNodeNameBypass(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	node := p.Object.Spec.NodeName
	if node == "" {
		res.RuledOut = true
		return res
	}
	ns := p.Object.Namespace
	// A scheduler's binding: the scheduler checked the node, so the
	// refusal is a disagreement between its count and the kubelet's.
	admission := ""
	for _, e := range p.Events {
		switch {
		case e.Object.Reason == "Scheduled":
			res.RuledOut = true
			res.Evidence = append(res.Evidence, Evidence{Source: eventSource(e), Kind: EvidenceEvent, Time: e.When(), Quote: e.Object.Message,
				Text: fmt.Sprintf("%s Scheduled: %s", eventType(e), e.Object.Message)})
			return res
		case strings.HasPrefix(e.Object.Reason, "OutOf") || e.Object.Reason == h.Vars["Reason"] && e.Object.Reason != "":
			if admission == "" {
				admission = e.Object.Reason
				res.Evidence = append(res.Evidence, Evidence{Source: eventSource(e), Kind: EvidenceEvent, Time: e.When(), Quote: e.Object.Message,
					Text: fmt.Sprintf("%s %s: %s (no Scheduled event of the pod)", eventType(e), e.Object.Reason, e.Object.Message)})
			}
		}
	}
	// Who set spec.nodeName: the owner's pod template, or the pod's own
	// manifest (a pod without a controller).
	var setBy string
	fromTemplate := false
	if ref, ok := model.ControllerOf(model.PodOwners(&p.Object)); ok {
		ck, known := model.ControllerKindNamed(ref.Kind)
		var o *model.Object
		if known {
			o, _ = c.store.Get(ck.Kind, ns, ref.Name)
		}
		tpl := templateOf(o)
		switch {
		case tpl != nil && tpl.Spec.NodeName != "":
			setBy = fmt.Sprintf("the pod template of %s %s sets spec.nodeName: %s, so every pod it creates is bound to that node directly", ref.Kind, ref.Name, tpl.Spec.NodeName)
			res.Evidence = append(res.Evidence, objectEvidence(o, "template.spec.nodeName: "+tpl.Spec.NodeName))
			fromTemplate = true
		case tpl != nil && ref.Kind != "DaemonSet":
			// The template leaves nodeName empty: a binding wrote it.
			res.RuledOut = true
			res.Evidence = append(res.Evidence, objectEvidence(o, "pod template without nodeName"))
			return res
		case o == nil:
			res.notGathered(objectsGap(ck.Kind, ns), fmt.Sprintf("%s %s, so whether its pod template sets nodeName could not be checked", ref.Kind, ref.Name))
		}
	} else if admission != "" {
		setBy = "the pod has no controller and its own manifest sets spec.nodeName: " + node
	}
	if setBy == "" && admission != "" {
		// The owner's template could not be read: the kubelet's refusal
		// without a scheduler's Scheduled event before it says the same.
		setBy = "the gather holds the kubelet's refusal but no Scheduled event of a scheduler, so spec.nodeName: " + node + " came with the pod (from its controller's template)"
	}
	if setBy == "" {
		if admission == "" {
			res.notGathered(objectsGap(model.Events, p.Object.Namespace), "the pod's events (a scheduler's Scheduled, the kubelet's refusal), so whether a scheduler bound it could not be checked")
		}
		res.Evidence = nil
		return res
	}
	res.Evidence = append(res.Evidence, c.fieldEvidence(p, "spec.nodeName: "+node+" with no Scheduled event from a scheduler", "spec.nodeName"))
	// The kubelet's count against the node's allocatable.
	resName := h.Vars["Resource"]
	if resName == "" {
		resName = admissionResource(h.Vars["Reason"])
	}
	count := ""
	if h.Vars["Requested"] != "" {
		count = fmt.Sprintf(" (the pod requests %s %s, the pods it already runs %s, of %s allocatable)", admissionAmount(resName, h.Vars["Requested"]), resName, admissionAmount(resName, h.Vars["Used"]), admissionAmount(resName, h.Vars["Capacity"]))
	}
	hostname := node
	nodeObj, cov := c.store.Get(model.Nodes, "", node)
	if n := model.Typed[corev1.Node](nodeObj); n != nil && n.Labels[corev1.LabelHostname] != "" {
		hostname = n.Labels[corev1.LabelHostname]
	}
	if n := model.Typed[corev1.Node](nodeObj); n != nil && resName != "" {
		if q, ok := n.Status.Allocatable[corev1.ResourceName(resName)]; ok {
			res.Evidence = append(res.Evidence, c.objectFieldEvidence(nodeObj, fmt.Sprintf("allocatable %s %s", resName, q.String()), "status.allocatable."+resName))
		}
	} else if cov == model.NotGathered {
		res.notGathered(objectsGap(model.Nodes, ""), "Node "+node+", so its allocatable could not be read")
	}
	res.Decided = true
	checked := "checked the node's free room before the pod landed; the kubelet's own admission check then found too little" + count + " and refused it"
	if resName != "" {
		checked = "checked the node's free " + resName + " before the pod landed; the kubelet's own admission check then found too little" + count + " and refused it"
	}
	if h.Vars["Reason"] == "NodeAffinity" {
		checked = "checked the node's labels against the pod's node selector and required node affinity; the kubelet's own admission check found they do not match and refused it"
	}
	res.Cause = fmt.Sprintf("No scheduler ever placed this pod: %s. The scheduler, which keeps a pod Pending until a node fits it, only handles pods without a nodeName, so nothing %s. A refused pod is Failed for good and is not retried on another node%s.",
		setBy, checked, pick(fromTemplate, ", so its controller keeps creating pods that are refused the same way", ""))
	where := "the pod's manifest"
	if o := h.Vars["Owner"]; o != "" {
		where = o
	}
	res.Fix = fmt.Sprintf("Replace spec.nodeName in %s with a nodeSelector (`kubernetes.io/hostname: %s`) or node affinity, so that the scheduler places the pod and leaves it Pending while no node fits; then delete the Failed pods (`oc -n %s delete pod --field-selector=status.phase=Failed`).", where, hostname, ns)
	return res
}
