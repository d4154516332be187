package rules

import (
	"fmt"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/nodelog"
	corev1 "k8s.io/api/core/v1"
)

// joinNodeDown runs the nodeDown join for one pod and hit (doc and reads: joinRegistry).
func joinNodeDown(c *evalContext, p *model.Pod, h *hit) joinResult {
	node := p.Object.Spec.NodeName
	if node == "" {
		return joinResult{}
	}
	var res joinResult
	var facts []string
	down := false
	nodeObj, cov := c.store.Get(model.Nodes, "", node)
	if n := model.Typed[corev1.Node](nodeObj); n != nil {
		for _, cond := range n.Status.Conditions {
			if cond.Type != corev1.NodeReady || cond.Status == corev1.ConditionTrue {
				continue
			}
			down = true
			facts = append(facts, fmt.Sprintf("node %s is Ready=%s since %s (%s: %s)", node, cond.Status, fmtTime(cond.LastTransitionTime.Time), cond.Reason, strings.TrimSpace(cond.Message)))
			res.Evidence = append(res.Evidence, c.objectFieldEvidence(nodeObj, fmt.Sprintf("condition Ready=%s reason=%s since %s", cond.Status, cond.Reason, fmtTime(cond.LastTransitionTime.Time)), "status.conditions[Ready].reason", "status.conditions[Ready]"))
		}
	} else if cov == model.NotGathered {
		res.notGathered(objectsGap(model.Nodes, ""), "Node "+node+", so its Ready condition could not be read")
	}
	// The kubelet's own account, by host, whether or not a Node was gathered.
	certs, api := 0, 0
	for _, g := range c.gather.NodeLogOf(node) {
		switch g.Class {
		case nodelog.ClassCertificate:
			certs += g.Count
			if certs == g.Count {
				res.Evidence = append(res.Evidence, logGroupEvidence(g))
			}
		case nodelog.ClassAPI, nodelog.ClassNodeNotReady:
			api += g.Count
			if api == g.Count {
				res.Evidence = append(res.Evidence, logGroupEvidence(g))
			}
		}
	}
	if certs > 0 {
		down = true
		facts = append(facts, fmt.Sprintf("its kubelet logged %s (an expired or unsigned kubelet client certificate)", countOf(certs, "certificate error", "certificate errors")))
	} else if api > 0 && !c.gather.HasKubeletLog(node) {
		api = 0
	}
	if api > 0 && len(facts) == 0 {
		down = true
		facts = append(facts, fmt.Sprintf("its kubelet logged %s reaching the API server", countOf(api, "failure", "failures")))
	}
	// Pending CSRs of the node.
	csrs, csrCov := c.nodeCSRs(node)
	var pending []string
	for _, r := range csrs {
		if r.State == "Pending" {
			pending = append(pending, r.obj.Name)
			res.Evidence = append(res.Evidence, r.evidence())
		}
	}
	if len(pending) > 0 {
		facts = append(facts, fmt.Sprintf("%s of the node %s Pending (%s), so its kubelet has no valid certificate", countOf(len(pending), "CSR", "CSRs"), pick(len(pending) == 1, "is", "are"), list(pending, 4)))
	} else if down && csrCov == model.NotGathered && certs > 0 {
		res.notGathered(objectsGap(model.CertificateSigningRequests, ""), "CertificateSigningRequests, so whether the node's certificate requests wait for approval could not be checked")
	}
	if !down {
		return res
	}
	res.Decided = true
	res.Cause = "The node, not the pod, holds the deletion: " + strings.Join(facts, "; ") + ". Only the kubelet confirms that a pod's containers stopped, so the pod stays Terminating until the node reports again; a finalizer is not the cause here."
	if len(p.Object.Finalizers) > 0 {
		res.Cause = "The node holds the deletion: " + strings.Join(facts, "; ") + ". Only the kubelet confirms that a pod's containers stopped, so the pod stays Terminating until the node reports again; then its finalizers (" + strings.Join(p.Object.Finalizers, ", ") + ") must still be removed by their controllers."
	}
	res.Fix = fmt.Sprintf("Bring node %s back: approve its pending CSRs after checking them (`oc get csr`, `oc adm certificate approve <name>`), restart the kubelet, or, once the node is confirmed down, force-delete the pod (`oc -n %s delete pod %s --grace-period=0 --force`).", node, p.Object.Namespace, p.Object.Name)
	if len(pending) == 0 && certs == 0 {
		res.Fix = fmt.Sprintf("Bring node %s back (kubelet, network, machine), or, once it is confirmed down, force-delete the pod (`oc -n %s delete pod %s --grace-period=0 --force`).", node, p.Object.Namespace, p.Object.Name)
	}
	return res
}
