package rules

import "testing"

// TestNodeNameBypassJoin: as the decider of kubelet-admission-no-room, the
// nodeNameBypass join decides when spec.nodeName came from the pod template
// or a pod without a controller and no scheduler bound the pod, and rules the
// bypass out on a Scheduled event or a template without nodeName.
func TestNodeNameBypassJoin(t *testing.T) {
	testDeciderTable(t, "nodeNameBypass", []deciderCase{
		{Signature: "kubelet-admission-no-room", Case: "a bare pod with spec.nodeName set by hand, refused OutOfcpu (no Scheduled event)", Decided: true, CauseHas: []string{"no controller", "spec.nodeName: render-2.example.internal", "2310m"}},
		{Signature: "kubelet-admission-no-room", Case: "a ReplicaSet whose pod template sets nodeName, replicas refused OutOfmemory", Decided: true, CauseHas: []string{"pod template of ReplicaSet montecarlo-worker-8d4f6b7c59", "23.3Gi allocatable"}},
		{Signature: "kubelet-admission-no-room", Case: "near miss, the default scheduler bound the Job's pod in the same second (kubelet 1.22 accounting race)", RuledOut: true},
		{Signature: "kubelet-admission-no-room", Case: "near miss, the Job's pod template sets no nodeName (its events have expired)", RuledOut: true},
		{Signature: "kubelet-admission-node-affinity", Case: "a bare pod pinned by spec.nodeName to a node without the gpu label it selects", Decided: true, CauseHas: []string{"node selector and required node affinity", "spec.nodeName: cpu-node-4"}},
		{Signature: "kubelet-admission-node-affinity", Case: "near miss, the scheduler bound the pod and the node's labels changed before the kubelet admitted it", RuledOut: true},
	})
}
