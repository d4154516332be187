package rules

import "testing"

// TestConfigReferenceJoin: the configReference join decides on the rows marked Decided (with the
// deciding words in its cause) and stays undecided on the others, where
// the rule's matcher still hits.
func TestConfigReferenceJoin(t *testing.T) {
	testJoinTable(t, "configReference", []joinCase{
		{Rule: "config-reference-decided", Case: "name/key mix-up, configmap \"log-level\" not found but ConfigMap worker-settings has key log-level", Decided: true, CauseHas: []string{"name/key mix-up"}},
		{Rule: "config-reference-decided", Case: "misspelt Secret name, secret \"config-server-tokn\" not found while config-server-token exists", Decided: true, CauseHas: []string{"config-server-token"}},
		{Rule: "config-reference-decided", Case: "key password missing from Secret billing-db, which has passwd (a near name)", Decided: true, CauseHas: []string{"passwd"}},
		{Rule: "config-reference-decided", Case: "ConfigMaps of shop gathered and empty, so worker-settings is proven absent", Decided: true, CauseHas: []string{"does not exist"}},
		{Rule: "config-reference-decided", Case: "configmap \"log-level\" not found and no ConfigMaps gathered at all (nothing to compare with)", Decided: false},
		{Rule: "config-reference-decided", Case: "near miss, configmap \"worker-settings\" not found but the gather holds ConfigMap worker-settings", Decided: false},
	})
}
