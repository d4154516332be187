package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	rbacv1 "k8s.io/api/rbac/v1"
)

// selfNodeClient is the ClusterRole that lets the controller manager approve
// a kubelet's renewal of its own client certificate when it is bound to the
// group system:nodes (kubelet TLS bootstrapping).
const selfNodeClient = "system:certificates.k8s.io:certificatesigningrequests:selfnodeclient"

// joinKubeletCSR runs the kubeletCSR join for a pod's node, or for a node
// when p is nil (h.Vars["Node"]); doc and reads: joinRegistry.
func joinKubeletCSR(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	node := h.Vars["Node"]
	if p != nil {
		node = p.Object.Spec.NodeName
	}
	if node == "" {
		return res
	}
	// The kubelet's "x509: certificate has expired" is about a certificate a
	// server presented to it (the API server's, a registry's): it stands for
	// the kubelet's own expiry only when the node's renewal waits.
	serverSide := len(h.Evidence) > 0 && strings.Contains(h.Evidence[0].Text, "x509: certificate has expired")
	csrs, cov := c.nodeCSRs(node)
	if cov == model.NotGathered {
		res.RuledOut = serverSide
		res.notGathered(objectsGap(model.CertificateSigningRequests, ""), "CertificateSigningRequests, so whether the node's certificate requests wait for approval could not be checked")
		return res
	}
	var pending, approved []nodeCSR
	for _, r := range csrs {
		if !r.client() {
			continue
		}
		switch r.State {
		case "Pending":
			pending = append(pending, r)
		case "Approved":
			approved = append(approved, r)
		}
	}
	if len(pending) == 0 {
		res.RuledOut = serverSide
		if len(approved) > 0 {
			// The node's client certificate requests were approved: its
			// kubelet got its certificate, the expiry is not what holds it.
			res.RuledOut = true
			for _, r := range approved {
				res.Evidence = append(res.Evidence, r.evidence())
			}
		}
		return res
	}
	var names, requesters []string
	renewal := false
	first := pending[0].csr.CreationTimestamp.Time
	for _, r := range pending {
		names = append(names, r.obj.Name)
		res.Evidence = append(res.Evidence, r.evidence())
		u := r.csr.Spec.Username
		if strings.HasPrefix(u, "system:node:") {
			renewal = true
		} else if i := strings.LastIndexByte(u, ':'); i >= 0 && strings.HasPrefix(u, "system:serviceaccount:") {
			u = u[i+1:] // node-bootstrapper
		}
		if !slices.Contains(requesters, u) {
			requesters = append(requesters, u)
		}
		if t := r.csr.CreationTimestamp.Time; t.Before(first) {
			first = t
		}
	}
	openShift := c.gather.Distribution != model.DistributionKubernetes
	res.Decided = true
	res.Cause = fmt.Sprintf("%s for the kubelet client certificate of node %s %s Pending since %s (%s, requested by %s): nobody approved %s, so the kubelet has no valid client certificate and the API server rejects it.",
		countOf(len(pending), "certificate signing request", "certificate signing requests"), node, pick(len(pending) == 1, "is", "are"), fmtTime(first),
		list(names, 4), strings.Join(requesters, " and "), pick(len(pending) == 1, "it", "them"))
	approve := "`kubectl certificate approve " + strings.Join(names[:min(len(names), 4)], " ") + "`"
	if openShift {
		approve = "`oc adm certificate approve " + strings.Join(names[:min(len(names), 4)], " ") + "`"
	}
	res.Fix = fmt.Sprintf("The pending ones of %s: %s; the kubelet picks up its certificate at once.", node, approve)
	if renewal && !openShift {
		if why, ev := c.selfNodeClientBinding(); why != "" {
			res.Cause += " " + why
			res.Evidence = append(res.Evidence, ev...)
			res.Fix += " Bind ClusterRole " + selfNodeClient + " to group system:nodes (`kubectl create clusterrolebinding auto-approve-renewals-for-nodes --clusterrole=" + selfNodeClient + " --group=system:nodes`), so that renewals are approved automatically from now on."
		}
	}
	return res
}

// selfNodeClientBinding says why the controller manager does not approve a
// kubelet's renewal on its own: no gathered ClusterRoleBinding binds
// selfNodeClient to the group system:nodes. It returns "" when one does or
// when the bindings were not gathered.
func (c *evalContext) selfNodeClientBinding() (string, []Evidence) {
	objs, crbs, cov := model.ListTyped[rbacv1.ClusterRoleBinding](c.store, model.ClusterRoleBindings, "")
	if cov == model.NotGathered || len(objs) == 0 {
		return "", nil
	}
	var others []string
	var ev []Evidence
	for i, b := range crbs {
		if b.RoleRef.Kind != "ClusterRole" || !strings.HasPrefix(b.RoleRef.Name, "system:certificates.k8s.io:certificatesigningrequests:") {
			continue
		}
		if b.RoleRef.Name == selfNodeClient {
			for _, s := range b.Subjects {
				if s.Kind == rbacv1.GroupKind && s.Name == "system:nodes" {
					return "", nil
				}
			}
		}
		others = append(others, fmt.Sprintf("%s (→ %s)", objs[i].Name, strings.TrimPrefix(b.RoleRef.Name, "system:certificates.k8s.io:certificatesigningrequests:")))
		ev = append(ev, objectEvidence(objs[i], "roleRef ClusterRole "+b.RoleRef.Name+", subjects "+subjectList(b.Subjects)))
	}
	why := "No ClusterRoleBinding binds ClusterRole " + selfNodeClient + " to group system:nodes, so the controller manager never auto-approves a kubelet's renewal of its own certificate"
	if len(others) > 0 {
		why += " (the cluster's bindings for CSR approval: " + strings.Join(others, ", ") + ")"
	}
	return why + ".", ev
}
