package rules

import "testing"

// TestContainerCommandJoin: the containerCommand join decides on the rows
// marked Decided (with the deciding words in its cause) and stays undecided
// on the others, where the rule's matcher still hits.
func TestContainerCommandJoin(t *testing.T) {
	testJoinTable(t, "containerCommand", []joinCase{
		{Rule: "container-command-not-found", Case: "CRI-O cannot create the container, the command is not in the image", Decided: true, CauseHas: []string{"The pod's own command names it", `["gunicorn", "wsgi:application"]`}},
		{Rule: "container-command-not-found", Case: "init container runs sh -c in an image without a shell", Decided: true, CauseHas: []string{"runs sh", "has no shell"}},
		{Rule: "container-command-not-found", Case: "relative command path, Docker's stat message", Decided: true, CauseHas: []string{"./serve is a relative path", "working directory /srv"}},
		{Rule: "container-command-not-found", Case: "the command differs from the program the runtime names", Decided: false},
	})
}
