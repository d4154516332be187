package rules

import "testing"

// TestNadElsewhereJoin: the nadElsewhere join decides on the rows marked
// Decided (with the deciding words in its cause) and stays undecided on the
// others, where the rule's matcher still hits.
func TestNadElsewhereJoin(t *testing.T) {
	testJoinTable(t, "nadElsewhere", []joinCase{
		{Rule: "sandbox-multus-attachment", Case: "the attachment lives in namespace default, the annotation names it without a namespace", Decided: true, CauseHas: []string{"sig-net lives in namespace default, not in shop", `{"interface":"net1","name":"sig-net"}`}},
		{Rule: "sandbox-multus-attachment", Case: "the gathered attachments of the namespace lack the one the annotation names", Decided: false},
		{Rule: "sandbox-multus-attachment", Case: "trailing comma in the networks annotation (Multus looks up an empty name)", Decided: false},
	})
}
