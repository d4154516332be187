package rules

import "testing"

// TestNadPluginJoin: the nadPlugin join decides on the rows marked Decided
// (with the deciding words in its cause) and stays undecided on the others,
// where the rule's matcher still hits.
func TestNadPluginJoin(t *testing.T) {
	testJoinTable(t, "nadPlugin", []joinCase{
		{Rule: "sandbox-creation-failed", Case: "the macvlan plugin of an additional network is not installed on the node", Decided: true, CauseHas: []string{"NetworkAttachmentDefinition shop/vlan-200", "macvlan and host-local"}},
		{Rule: "sandbox-creation-failed", Case: "the cluster network's own plugin binary is not in the runtime's plugin directory", Decided: false},
	})
}
