package rules

import "testing"

// TestScriptToolMissingJoin: the scriptToolMissing join decides on the rows
// marked Decided (with the deciding words in its cause) and stays undecided
// on the others, where the rule's matcher still hits.
func TestScriptToolMissingJoin(t *testing.T) {
	testJoinTable(t, "scriptToolMissing", []joinCase{
		{Rule: "crashloop-command-not-found", Case: "start script execs a program the image does not have (exit 127)", Decided: true, CauseHas: []string{"exit code 127"}},
		{Rule: "crashloop-command-not-found", Case: "entrypoint not executable for the arbitrary UID (exit 126)", Decided: false},
	})
}
