package rules

import "testing"

// TestImagePullerJoin: the imagePuller decider decides when no binding of
// the image's project lets the pod's service account (or its namespace's
// group) pull, an anonymous-only binding included, and rules the signature
// out when one does.
func TestImagePullerJoin(t *testing.T) {
	testDeciderTable(t, "imagePuller", []deciderCase{
		{Signature: "registry-cross-project-pull", Case: "a pod pulls an image stream of another project, whose bindings let only its own service accounts and anonymous users pull", Decided: true,
			CauseHas: []string{"project builds", "shop:events", "system:unauthenticated (anonymous pulls only"}},
		{Signature: "registry-cross-project-pull", Case: "near miss, the pulling project's service accounts hold system:image-puller in the image's project", RuledOut: true},
	})
}
