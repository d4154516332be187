package model

import "strings"

// MachineFacts are the facts that tell one machine from another whatever
// its host name: what a Node's status.nodeInfo reports (machineID,
// systemUUID, bootID) and what a node sosreport holds of its own host
// (/etc/machine-id, the DMI product UUID, /proc/sys/kernel/random/boot_id,
// hostnamectl's Machine ID and Boot ID). Each is "" when unknown. A name such
// as master-0 exists in many clusters; these do not.
type MachineFacts struct {
	MachineID  string
	SystemUUID string
	BootID     string
}

// Empty reports whether no fact is known.
func (m MachineFacts) Empty() bool { return m == MachineFacts{} }

// NodeMachineFacts returns the machine facts a Node object reports.
func NodeMachineFacts(n *Node) MachineFacts {
	in := n.Object.Status.NodeInfo
	return MachineFacts{MachineID: normalID(in.MachineID), SystemUUID: normalID(in.SystemUUID), BootID: normalID(in.BootID)}
}

// normalID is an identifier lower-cased with its dashes and spaces removed:
// dmidecode prints the system UUID in upper case, sysfs and the kubelet in
// lower case; machine-id has no dashes where boot_id has them.
func normalID(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.NewReplacer("-", "", " ", "").Replace(s)
}

// NormalMachineFacts returns m with every fact normalised as
// NodeMachineFacts normalises a Node's, so the two compare with ==.
func NormalMachineFacts(m MachineFacts) MachineFacts {
	return MachineFacts{MachineID: normalID(m.MachineID), SystemUUID: normalID(m.SystemUUID), BootID: normalID(m.BootID)}
}

// Compare says what two machines' facts prove: same is the name of the first
// fact both know and that is equal ("machine-id", "system UUID", "boot ID"),
// differ the name of the first stable fact both know and that differs
// (machine-id or system UUID; a boot ID changes at every reboot, so a
// different one proves nothing). Both are "" when nothing is comparable.
func (m MachineFacts) Compare(o MachineFacts) (same, differ string) {
	a, b := NormalMachineFacts(m), NormalMachineFacts(o)
	facts := []struct {
		name   string
		x, y   string
		stable bool
	}{
		{"machine-id", a.MachineID, b.MachineID, true},
		{"system UUID", a.SystemUUID, b.SystemUUID, true},
		{"boot ID", a.BootID, b.BootID, false},
	}
	for _, f := range facts {
		if f.x == "" || f.y == "" {
			continue
		}
		if f.x == f.y {
			if same == "" {
				same = f.name
			}
		} else if f.stable && differ == "" {
			differ = f.name
		}
	}
	return same, differ
}
