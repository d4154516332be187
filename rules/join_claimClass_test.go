package rules

import "testing"

// TestClaimClassJoin: the claimClass join decides on the rows marked Decided
// (a failing provisioner, a claim without a class and no default
// StorageClass) and stays undecided where a default class exists and nothing
// failed, or the claim's class cannot be read.
func TestClaimClassJoin(t *testing.T) {
	testJoinTable(t, "claimClass", []joinCase{
		{Rule: "unschedulable-unbound-pvc", Case: "claim without a class, StorageClasses exist but none is marked default", Decided: true, CauseHas: []string{"ws-ana-scratch-home", "no default StorageClass", "ebs-sc and gp2"}},
		{Rule: "unschedulable-unbound-pvc", Case: "claim without a class on a cluster with no StorageClass at all (claim not gathered, its event says so)", Decided: true, CauseHas: []string{"no StorageClass at all"}},
		{Rule: "unschedulable-unbound-pvc", Case: "default class ebs-sc, its provisioner refused by the cloud (PreBind VolumeBinding)", Decided: true, CauseHas: []string{"ebs.csi.aws.com", "UnauthorizedOperation"}},
		{Rule: "unschedulable-unbound-pvc", Case: "claim pending, CSI provisioner failing (immediate binding)", Decided: true, CauseHas: []string{"thin-csi"}},
		{Rule: "unschedulable-missing-storageclass", Case: "claim names StorageClass fast-ssd that does not exist (condition + ProvisioningFailed on the claim)", Decided: true, CauseHas: []string{"fast-ssd", "does not exist"}},
		{Rule: "unschedulable-unbound-pvc", Case: "claim with storageClassName \"\" (explicitly no class) while a default class exists, no matching PersistentVolume", Decided: true, CauseHas: []string{"legacy-data", "explicitly no class"}},
		{Rule: "unschedulable-unbound-pvc", Case: "claim without a class while a default class exists, no claim event (nothing decides)", Decided: false},
		{Rule: "unschedulable-unbound-pvc", Case: "OCP 4.8 scheduler wording, FailedScheduling events only", Decided: false},
	})
}
