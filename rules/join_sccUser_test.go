package rules

import "testing"

// TestSccUserJoin: the sccUser join decides on the rows marked Decided (with the
// deciding words in its cause) and stays undecided on the others, where
// the rule's matcher still hits.
func TestSccUserJoin(t *testing.T) {
	testJoinTable(t, "sccUser", []joinCase{
		{Rule: "crashloop-permission-denied-arbitrary-uid", Case: "nginx cannot create its cache directory as the arbitrary UID", Decided: true, CauseHas: []string{"restricted-v2", "1000680000"}},
		{Rule: "crashloop-permission-denied-arbitrary-uid", Case: "near miss, the pod runs under anyuid as the image's own user", Decided: false},
		{Rule: "crashloop-permission-denied-arbitrary-uid", Case: "no SCC annotation (not OpenShift)", Decided: false},
	})
}
