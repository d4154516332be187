package rules

import "testing"

// TestClaimUsersJoin: the claimUsers join decides on the rows marked Decided (with the
// deciding words in its cause) and stays undecided on the others, where
// the rule's matcher still hits.
func TestClaimUsersJoin(t *testing.T) {
	testJoinTable(t, "claimUsers", []joinCase{
		{Rule: "volume-multi-attach-claim-in-use", Case: "the replaced pod still runs on worker-2 with the RWO claim pgdata, the new one waits on worker-1", Decided: true, CauseHas: []string{"pgdata", "worker-2"}},
		{Rule: "volume-multi-attach-claim-in-use", Case: "near miss, the other user of the claim runs on the same node (worker-1)", Decided: false},
		{Rule: "volume-multi-attach-claim-in-use", Case: "the claim is ReadWriteMany, another pod on worker-2 uses it", Decided: false},
		{Rule: "volume-multi-attach-claim-in-use", Case: "near miss, the other user on worker-2 is a backup Job pod that Succeeded", Decided: false},
	})
}
