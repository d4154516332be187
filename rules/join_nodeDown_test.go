package rules

import "testing"

// TestNodeDownJoin: the nodeDown join decides on the rows marked Decided (with the
// deciding words in its cause) and stays undecided on the others, where
// the rule's matcher still hits.
func TestNodeDownJoin(t *testing.T) {
	testJoinTable(t, "nodeDown", []joinCase{
		{Rule: "pod-stuck-terminating-node-down", Case: "node went NotReady, pod deleted 47 minutes ago still Terminating", Decided: true, CauseHas: []string{"worker-3", "Ready=Unknown"}},
		{Rule: "pod-stuck-terminating-node-down", Case: "kubelet client certificate expired, CSRs Pending, Node object not gathered", Decided: true, CauseHas: []string{"certificate", "Pending"}},
		{Rule: "pod-stuck-terminating-node-down", Case: "near miss, the node is Ready and its kubelet healthy (a finalizer or the runtime is the cause)", Decided: false},
		{Rule: "pod-stuck-terminating-node-down", Case: "Node not gathered and no journal of the host", Decided: false},
	})
}
