package model

// Distributions of Gather.Distribution.
const (
	DistributionOpenShift  = "OpenShift"
	DistributionKubernetes = "Kubernetes"
)

// Layout kinds.
const (
	LayoutMustGather = "must-gather"      // an image folder of `oc adm must-gather`
	LayoutInspect    = "inspect"          // `oc adm inspect` output (also the inspect.local.* fallback of a must-gather)
	LayoutSosreport  = "sosreport"        // a node sosreport: kubernetes plugin output, the crio plugin's runtime view, journals
	LayoutNamespace  = "namespace folder" // a single namespaces/<ns> folder given as the input
)

// Layout is one gather found in the input.
type Layout struct {
	// Root is the folder, relative to the input, that holds the gather ("" for the input itself).
	Root string
	Kind string
	// Image is the must-gather image (from the folder name and its version file).
	Image string
	// Node is the host name of a sosreport.
	Node string
	Pods int
}

// Health is what a support engineer checks first about a gather itself.
type Health struct {
	// MustGatherErrors are error lines of must-gather.logs (bounded).
	MustGatherErrors []string
	// NamespacesWithoutPods are namespace folders with no core/pods.yaml
	// although the gather shows that the namespace runs pods: workload
	// controllers (Deployments, DaemonSets, StatefulSets, ReplicaSets, Jobs,
	// ReplicationControllers), events about pods or pod log folders.
	NamespacesWithoutPods []string
	// NamespacesWithoutWorkloads are namespace folders with no core/pods.yaml
	// and nothing that would run pods (kube-public, kube-node-lease, default,
	// operator-only namespaces): normally empty, not a gap of the gather.
	NamespacesWithoutWorkloads []string
	// PodsWithoutLogs are pods with started containers but no container log in the gather.
	PodsWithoutLogs []string
	// NodesWithoutLogs are nodes with no kubelet journal in the gather.
	NodesWithoutLogs []string
}
