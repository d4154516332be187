package rules

import "testing"

// TestReadiness5xxJoin: readiness5xx decides when the not-ready container's
// readiness probe gets an HTTP 5xx (adding the backend Service without
// endpoints, or the ready sibling replicas), and rules the signature out when
// the probe is refused or the container is not running.
func TestReadiness5xxJoin(t *testing.T) {
	testDeciderTable(t, "readiness5xx", []deciderCase{
		{Signature: "readiness-503-backend-unreachable", Case: "the identity server's database Service has no endpoints, its readiness answers 503", Decided: true, CauseHas: []string{"HTTP 503", "186 times", "Service shop/idp-db", "no ready endpoint"}},
		{Signature: "readiness-503-backend-unreachable", Case: "one replica's pooled MySQL connection is bad while its siblings are ready", Decided: true, CauseHas: []string{"HTTP 503", "1 of the 1 other replicas"}},
		{Signature: "readiness-503-backend-unreachable", Case: "near miss, the probe itself is refused (nothing listens yet), not a 503", RuledOut: true},
		{Signature: "readiness-503-backend-unreachable", Case: "near miss, the same line in a crash-looping container (not a readiness failure)", RuledOut: true},
	})
}
