package rules

import "testing"

// TestKubeletCSRJoin: the kubeletCSR decider, run for a node, decides when
// the node's kubelet client requests are Pending (a bootstrap request named
// by its subject, a renewal by its requester; on plain Kubernetes the
// missing selfnodeclient binding too), and rules the signature out when they
// were approved, or when the only line is an x509 expiry no pending request
// backs.
func TestKubeletCSRJoin(t *testing.T) {
	testDeciderTable(t, "kubeletCSR", []deciderCase{
		{Signature: "kubelet-client-cert-expired", Case: "after a long power-off the kubelet's client certificate expired and its bootstrap CSRs wait for approval", Decided: true,
			CauseHas: []string{"csr-b7k2q", "node-bootstrapper", "worker-1"}},
		{Signature: "kubelet-client-cert-expired", Case: "a year-old node's renewal CSRs never approved on plain Kubernetes (no selfnodeclient binding)", Decided: true,
			CauseHas: []string{"csr-r4n8w", "system:node:worker-2", "No ClusterRoleBinding binds ClusterRole system:certificates.k8s.io:certificatesigningrequests:selfnodeclient", "kubelet-bootstrap-approve"}},
		{Signature: "kubelet-client-cert-expired", Case: "near miss, the kubelet logged an expired certificate but its requests were approved and none waits", RuledOut: true},
		{Signature: "kubelet-client-cert-expired", Case: "near miss, the kubelet's x509 expiry of a server's certificate (a registry's) while no request of the node waits", RuledOut: true},
	})
}
