package rules

import "testing"

// TestPodCapacityJoin: the podCapacity join decides on the rows marked Decided (with the
// deciding words in its cause) and stays undecided on the others, where
// the rule's matcher still hits.
func TestPodCapacityJoin(t *testing.T) {
	testJoinTable(t, "podCapacity", []joinCase{
		{Rule: "unschedulable-pod-limit", Case: "KubeletConfig podsPerCore 10 on 4-CPU workers gives 40 pods per node", Decided: true, CauseHas: []string{"Too many pods", "podsPerCore"}},
		{Rule: "unschedulable-pod-limit", Case: "workers allow only 60 pods, no MachineConfigPools or KubeletConfigs in the gather (FailedScheduling event only)", Decided: true, CauseHas: []string{"no gathered KubeletConfig explains it"}},
		{Rule: "unschedulable-pod-limit", Case: "near miss, the KubeletConfig selects another pool (infra) and the workers allow 250 pods with room left", Decided: false},
		{Rule: "unschedulable-pod-limit", Case: "nodes at a 40-pod limit, but the scheduler reports Insufficient cpu", Decided: false},
	})
}
