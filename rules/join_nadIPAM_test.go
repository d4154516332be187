package rules

import "testing"

// TestNadIPAMJoin: the nadIPAM join decides on the rows marked Decided (with
// the deciding words in its cause) and stays undecided on the others, where
// the rule's matcher still hits.
func TestNadIPAMJoin(t *testing.T) {
	testJoinTable(t, "nadIPAM", []joinCase{
		{Rule: "sandbox-ipam-exhausted", Case: "whereabouts range of an additional network excluded whole by /23 excludes", Decided: true, CauseHas: []string{"infra-net/storage-net", "range 10.30.0.0/23", "10.30.0.1/23 and 10.30.1.254/23"}},
		{Rule: "sandbox-ipam-exhausted", Case: "whereabouts range full with excludes of single addresses (allocations not gathered)", Decided: false},
		{Rule: "sandbox-ipam-exhausted", Case: "OpenShift SDN host subnet full (host-local IPAM)", Decided: false},
	})
}

// TestIPNetOf: Go's %#v of a net.IPNet, as whereabouts prints it.
func TestIPNetOf(t *testing.T) {
	for _, tt := range []struct{ ip, mask, want string }{
		{"0xa, 0x48, 0x28, 0x0", "0xff, 0xff, 0xfe, 0x0", "10.72.40.0/23"},
		{"0xc0, 0xa8, 0x2, 0xc8", "0xff, 0xff, 0xff, 0xf8", "192.168.2.200/29"},
	} {
		p, ok := ipNetOf(tt.ip, tt.mask)
		if !ok || p.String() != tt.want {
			t.Errorf("ipNetOf(%q, %q) = %v, %v; want %s", tt.ip, tt.mask, p, ok, tt.want)
		}
	}
	if _, ok := ipNetOf("0xa, 0x1", "0xff"); ok {
		t.Error("ipNetOf accepted a mask of another length")
	}
}
