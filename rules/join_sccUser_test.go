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

// TestSccUserDecider: run as a signature's decider (the denied path
// captured), sccUser decides for the arbitrary UID of a restricted SCC and
// rules the signature out under a read-only mount, for root, and under an
// SCC that keeps the image's user.
func TestSccUserDecider(t *testing.T) {
	testDeciderTable(t, "sccUser", []deciderCase{
		{Signature: "arbitrary-uid-write-denied", Case: "an operator cannot create its data directory under /var/lib as the arbitrary UID", Decided: true, CauseHas: []string{"restricted-v2", "1000680000", "1000680000/10000"}},
		{Signature: "arbitrary-uid-write-denied", Case: "a Java log file that cannot be opened, in a pod that is Running 0/1", Decided: true, CauseHas: []string{"SCC restricted", "1000760000"}},
		{Signature: "arbitrary-uid-workdir-chdir", Case: "the restricted SCC's UID cannot enter the image's WORKDIR (CreateContainerError)", Decided: true, CauseHas: []string{"1000710000"}},
		{Signature: "arbitrary-uid-write-denied", Case: "near miss, the denied path is under a read-only mount (not the UID)", RuledOut: true},
		{Signature: "arbitrary-uid-write-denied", Case: "near miss, the pod runs as root under anyuid", RuledOut: true},
		{Signature: "arbitrary-uid-workdir-chdir", Case: "near miss, the pod runs under anyuid as the image's own user (another cause of the same message)", RuledOut: true},
	})
}
