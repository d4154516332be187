package rules

import "testing"

// TestPodFinalizersJoin: the podFinalizers join decides on the rows marked
// Decided (with the deciding words in its cause) and stays undecided on the
// others, where the rule's matcher still hits.
func TestPodFinalizersJoin(t *testing.T) {
	testJoinTable(t, "podFinalizers", []joinCase{
		{Rule: "pod-stuck-terminating-finalizer", Case: "pod held by a finalizer for 3 hours, containers already stopped (phase Failed)", Decided: true, CauseHas: []string{"acme.com/deregister-endpoint", "its containers have exited"}},
		{Rule: "pod-stuck-terminating-finalizer", Case: "a Job's pod keeps batch.kubernetes.io/job-tracking after its Job was deleted (kubelet confirmed, Ready node)", Decided: true, CauseHas: []string{"batch.kubernetes.io/job-tracking", "deletionGracePeriodSeconds 0", "no longer exists"}},
		{Rule: "pod-stuck-terminating-finalizer", Case: "near miss, deleted pod with no finalizer on a node that stopped reporting", Decided: false},
		{Rule: "pod-stuck-terminating-finalizer", Case: "near miss, a finalizer but the container still runs (the kubelet has not stopped it)", Decided: false},
	})
}
