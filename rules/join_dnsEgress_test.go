package rules

import "testing"

// TestDnsEgressJoin: the dnsEgress join decides on the rows marked Decided (with the
// deciding words in its cause) and stays undecided on the others, where
// the rule's matcher still hits.
func TestDnsEgressJoin(t *testing.T) {
	testJoinTable(t, "dnsEgress", []joinCase{
		{Rule: "crashloop-dns-blocked-by-networkpolicy", Case: "egress policy opens UDP/TCP 53 to openshift-dns, the DNS pods listen on 5353 (named targetPort via Endpoints)", Decided: true, CauseHas: []string{"5353"}},
		{Rule: "crashloop-dns-blocked-by-networkpolicy", Case: "default-deny egress for app=worker, glibc \"Temporary failure in name resolution\", numeric targetPort 5353", Decided: true, CauseHas: []string{"orders-db"}},
		{Rule: "crashloop-dns-blocked-by-networkpolicy", Case: "near miss, the same policy also opens UDP/TCP 5353 to openshift-dns (DNS egress is open)", Decided: false},
		{Rule: "crashloop-dns-blocked-by-networkpolicy", Case: "a 53-only egress policy exists but selects other pods (app=billing), none selects this one", Decided: false},
		{Rule: "crashloop-dns-blocked-by-networkpolicy", Case: "the DNS Service is gathered but the NetworkPolicies of shop are not", Decided: false},
	})
}
