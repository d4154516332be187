package rules

import "testing"

// TestNonRootUserJoin: nonRootUser decides when runAsNonRoot is set and no
// runAsUser, citing the field, and rules the image's user out when a
// runAsUser is set.
func TestNonRootUserJoin(t *testing.T) {
	testDeciderTable(t, "nonRootUser", []deciderCase{
		{Signature: "runasnonroot-image-root", Case: "runAsNonRoot with no runAsUser, and an image that runs as root", Decided: true, CauseHas: []string{"spec.containers[record-sync].securityContext.runAsNonRoot", "nonroot-v2"}},
		{Signature: "runasnonroot-image-root", Case: "runAsNonRoot set for the whole pod, known from the event only", Decided: true, CauseHas: []string{"spec.securityContext.runAsNonRoot", "pod's"}},
		{Signature: "runasnonroot-non-numeric-user", Case: "runAsNonRoot, no runAsUser, and USER nginx in the image", Decided: true},
		{Signature: "runasnonroot-image-root", Case: "near miss, a runAsUser is set, so the kubelet never checks the image's user", RuledOut: true},
		{Signature: "runasnonroot-non-numeric-user", Case: "near miss, the pod sets runAsUser, so the image's user is never checked", RuledOut: true},
	})
}
