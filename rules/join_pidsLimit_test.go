package rules

import "testing"

// TestPidsLimitJoin: pidsLimit names the pids limit of the node's pool (a
// KubeletConfig's podPidsLimit, a MachineConfig's CRI-O pids_limit), stays
// undecided without the node, and rules the signature out for a container
// that was OOMKilled.
func TestPidsLimitJoin(t *testing.T) {
	testDeciderTable(t, "pidsLimit", []deciderCase{
		{Signature: "pids-limit-native-thread", Case: "the KubeletConfig of the node's pool sets podPidsLimit (restarted container, medium)", Decided: true, CauseHas: []string{"2048", "KubeletConfig worker-pid-cap", "per pod"}},
		{Signature: "pids-limit-native-thread", Case: "the CRI-O configuration rendered into the pool sets pids_limit", Decided: true, CauseHas: []string{"1024", "MachineConfig 01-worker-container-runtime", "/etc/crio/crio.conf", "per container"}},
		{Signature: "pids-limit-native-thread", Case: "a JVM that cannot create a native thread, with memory to spare"},
		{Signature: "pids-limit-native-thread", Case: "near miss, a native-thread error in a container that was then OOMKilled (memory, not pids)", RuledOut: true},
	})
}
