package rules

import "testing"

// TestIptablesPrivilegeJoin: the iptablesPrivilege decider decides on a
// container that runs as non-root or lacks NET_ADMIN/NET_RAW (drop ALL, a
// capability added and dropped again), and rules the signature out for one
// that runs as UID 0 with both.
func TestIptablesPrivilegeJoin(t *testing.T) {
	testDeciderTable(t, "iptablesPrivilege", []deciderCase{
		{Signature: "iptables-no-net-admin", Case: "a mesh init container drops ALL and adds back only NET_ADMIN (no NET_RAW), as root", Decided: true, CauseHas: []string{"without NET_RAW", "drop: [ALL] removes NET_RAW"}},
		{Signature: "iptables-no-net-admin", Case: "the init container sets no user and inherits the pod's runAsUser 1001", Decided: true, CauseHas: []string{"UID 1001", "the pod's spec.securityContext"}},
		{Signature: "iptables-no-net-admin", Case: "NET_RAW is added, and dropped again by a drop list copied from the app container", Decided: true, CauseHas: []string{"added and dropped again", "the drop wins"}},
		{Signature: "iptables-restore-refused", Case: "near miss, root with NET_ADMIN and NET_RAW and iptables-restore cannot initialize the nat table (a kernel module)", RuledOut: true},
	})
}

// TestIptablesModuleJoin: the iptablesModule decider decides when the
// container has every privilege iptables needs, or iptables says the table
// does not exist, and rules the signature out when a privilege is missing.
func TestIptablesModuleJoin(t *testing.T) {
	testDeciderTable(t, "iptablesModule", []deciderCase{
		{Signature: "iptables-table-module-missing", Case: "root with NET_ADMIN and NET_RAW, iptables-restore cannot initialize the nat table", Decided: true, CauseHas: []string{"UID 0 with NET_ADMIN and NET_RAW"}},
		{Signature: "iptables-table-module-missing", Case: "iptables says the table does not exist, whatever the user", Decided: true, CauseHas: []string{"no such table"}},
		{Signature: "iptables-table-module-missing", Case: "near miss, the same iptables-restore message from a container that runs as UID 1337 (privilege, not a module)", RuledOut: true},
	})
}
