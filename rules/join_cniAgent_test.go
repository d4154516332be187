package rules

import "testing"

// TestCniAgentJoin: the cniAgent join decides on the rows marked Decided (with the
// deciding words in its cause) and stays undecided on the others, where
// the rule's matcher still hits.
func TestCniAgentJoin(t *testing.T) {
	testJoinTable(t, "cniAgent", []joinCase{
		{Rule: "sandbox-cni-agent-restarted", Case: "ovnkube-controller restarted two minutes before the sandbox failures", Decided: true, CauseHas: []string{"worker-2", "ovnkube-controller"}},
		{Rule: "sandbox-cni-agent-restarted", Case: "multus daemon restarted while an init-stage pod was being created", Decided: true, CauseHas: []string{"worker-5"}},
		{Rule: "sandbox-cni-agent-restarted", Case: "near miss, the agent restarted a day earlier", Decided: false},
		{Rule: "sandbox-cni-agent-restarted", Case: "the agent restarted on another node", Decided: false},
	})
}
