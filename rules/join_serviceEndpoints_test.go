package rules

import "testing"

// TestServiceEndpointsJoin: the serviceEndpoints join decides on the rows marked Decided (with the
// deciding words in its cause) and stays undecided on the others, where
// the rule's matcher still hits.
func TestServiceEndpointsJoin(t *testing.T) {
	testJoinTable(t, "serviceEndpoints", []joinCase{
		{Rule: "crashloop-dependency-no-endpoints", Case: "redis Service by cluster IP has no endpoints, its pods are gone", Decided: true, CauseHas: []string{"sessions", "no ready endpoint"}},
		{Rule: "crashloop-dependency-no-endpoints", Case: "PostgreSQL Service by DNS name, its only pod not ready", Decided: true, CauseHas: []string{"billing-db"}},
		{Rule: "crashloop-dependency-no-endpoints", Case: "near miss, the Service has a ready endpoint (the refusal is elsewhere)", Decided: false},
		{Rule: "crashloop-dependency-no-endpoints", Case: "Endpoints not gathered", Decided: false},
	})
}
