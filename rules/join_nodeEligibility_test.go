package rules

import "testing"

// TestNodeEligibilityJoin: the nodeEligibility join decides on the rows marked Decided (with the
// deciding words in its cause) and stays undecided on the others, where
// the rule's matcher still hits.
func TestNodeEligibilityJoin(t *testing.T) {
	testJoinTable(t, "nodeEligibility", []joinCase{
		{Rule: "unschedulable-untolerated-taint", Case: "nodeSelector infra, both infra nodes tainted NoSchedule and the pod tolerates the key only with NoExecute", Decided: true, CauseHas: []string{"Taint, not capacity", "only with effect"}},
		{Rule: "unschedulable-untolerated-taint", Case: "nodeSelector disktype=nvme that no gathered node carries", Decided: true, CauseHas: []string{"disktype=nvme"}},
		{Rule: "unschedulable-untolerated-taint", Case: "no selector, the workers are cordoned for an upgrade and the masters are tainted (FailedScheduling event only)", Decided: true, CauseHas: []string{"cordoned"}},
		{Rule: "unschedulable-untolerated-taint", Case: "near miss, the pod tolerates the infra taint (NoSchedule), so an infra node is free as far as taints go", Decided: false},
		{Rule: "unschedulable-untolerated-taint", Case: "the scheduler names an untolerated taint, but no Node objects are in the gather", Decided: false},
	})
}
