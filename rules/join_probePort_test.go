package rules

import "testing"

// TestProbePortJoin: as the decider of the probe signatures, the probePort
// join decides when the probe's port is not declared (or its name names no
// port), rules the wrong port out when the probe resolves to a declared port.
func TestProbePortJoin(t *testing.T) {
	testDeciderTable(t, "probePort", []deciderCase{
		{Signature: "probe-port-not-declared", Case: "liveness probe on 8074 while the container declares 8080 (CrashLoopBackOff)", Decided: true, CauseHas: []string{"liveness probe", "port 8074", "8080/TCP named http"}},
		{Signature: "probe-port-not-declared", Case: "readiness tcpSocket probe on 5433 while the database listens on its declared 5432 (running, not ready)", Decided: true, CauseHas: []string{"readiness probe", "5433", "5432/TCP (unnamed)"}},
		{Signature: "probe-port-not-declared", Case: "near miss, the probe's named port resolves to the declared 5380, the server is still recovering", RuledOut: true},
		{Signature: "probe-port-name-unresolved", Case: "readiness and liveness probes use port http-api, the only containerPort has no name", Decided: true, CauseHas: []string{"port: http-api", "9095/TCP (unnamed)", "never Ready"}},
		{Signature: "probe-port-name-unresolved", Case: "near miss, the container declares the port name now (the event is from before)", RuledOut: true},
	})
}
