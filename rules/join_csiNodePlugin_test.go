package rules

import "testing"

// TestCsiNodePluginJoin: the csiNodePlugin join decides on the rows marked Decided (with the
// deciding words in its cause) and stays undecided on the others, where
// the rule's matcher still hits.
func TestCsiNodePluginJoin(t *testing.T) {
	testJoinTable(t, "csiNodePlugin", []joinCase{
		{Rule: "volume-csi-driver-not-registered", Case: "the ODF RBD node plugin DaemonSet does not tolerate the GPU node's taint", Decided: true, CauseHas: []string{"openshift-storage.rbd.csi.ceph.com", "gpu-0"}},
		{Rule: "volume-csi-driver-not-registered", Case: "the node plugin pod on the node crash-loops (not ready), the driver never registers", Decided: true, CauseHas: []string{"ebs.csi.aws.com"}},
		{Rule: "volume-csi-driver-not-registered", Case: "the plugin DaemonSet tolerates everything and selects the node (join undecided, still fires)", Decided: false},
		{Rule: "volume-csi-driver-not-registered", Case: "neither CSINodes nor DaemonSets in the gather (undecided hint, still fires)", Decided: false},
	})
}
