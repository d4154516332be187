package rules

import "testing"

// TestNodeOOMJoin: the nodeOOM join decides on the rows marked Decided (with the
// deciding words in its cause) and stays undecided on the others, where
// the rule's matcher still hits.
func TestNodeOOMJoin(t *testing.T) {
	testJoinTable(t, "nodeOOM", []joinCase{
		{Rule: "crashloop-node-oom", Case: "SystemOOM event on the pod's node at the time of the kill, node overcommitted by burstable pods", Decided: true, CauseHas: []string{"node-level", "worker-2"}},
		{Rule: "crashloop-node-oom", Case: "SystemOOM on the short node name, no Node object gathered (kill reported with an empty reason)", Decided: true, CauseHas: []string{"worker-1"}},
		{Rule: "crashloop-node-oom", Case: "SystemOOM on the pod's node, but its reports start 24 minutes after the kill", Decided: false},
		{Rule: "crashloop-node-oom", Case: "near miss, the SystemOOM events are of another node (worker-0), the pod runs on worker-2", Decided: false},
	})
}
