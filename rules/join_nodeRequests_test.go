package rules

import "testing"

// TestNodeRequestsJoin: the nodeRequests join decides on the rows marked Decided (with the
// deciding words in its cause) and stays undecided on the others, where
// the rule's matcher still hits.
func TestNodeRequestsJoin(t *testing.T) {
	testJoinTable(t, "nodeRequests", []joinCase{
		{Rule: "unschedulable-insufficient-resources", Case: "the gathered pods' memory requests leave neither worker room for 24Gi (nodeRequests decides)", Decided: true, CauseHas: []string{"24Gi", "16Gi on worker-1"}},
		{Rule: "unschedulable-insufficient-resources", Case: "only workers, the scheduler's message ends the resource with a full stop (nodeRequests decides)", Decided: true, CauseHas: []string{"24Gi", "16Gi on worker-1"}},
		{Rule: "unschedulable-insufficient-resources", Case: "workers out of memory requests, masters tainted (condition)", Decided: false},
		{Rule: "unschedulable-insufficient-resources", Case: "no node offers a GPU, FailedScheduling events only", Decided: false},
		{Rule: "unschedulable-insufficient-resources", Case: "pod does not tolerate the taints and matches no node selector (no resource shortage)", Decided: false},
	})
}
