package rules

import "testing"

// TestNadMissingJoin: the nadMissing join decides on the rows marked Decided
// (with the deciding words in its cause) and stays undecided on the others,
// where the rule's matcher still hits.
func TestNadMissingJoin(t *testing.T) {
	testJoinTable(t, "nadMissing", []joinCase{
		{Rule: "sandbox-multus-attachment", Case: "the gathered attachments of the namespace lack the one the annotation names", Decided: true, CauseHas: []string{"namespace shop do not include mesh-cni", "the list is empty"}},
		{Rule: "sandbox-multus-attachment", Case: "pod asks for an additional network whose NetworkAttachmentDefinition is missing (multus-shim, OCP 4.14+)", Decided: false},
		{Rule: "sandbox-multus-attachment", Case: "the attachment lives in namespace default, the annotation names it without a namespace", Decided: false},
	})
}
