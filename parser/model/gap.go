package model

// Gap is a piece of evidence the input lacks that a finding or a gather
// health check needed, named so that it can be asked for: what sort of
// evidence (What) and its subject. Rules record a finding's gaps where they
// say what is missing (rules.Finding.Gaps); the report turns each into the
// command that collects it (report.AskFor). Every string in a Gap comes from
// the gather and is hostile.
type Gap struct {
	What GapKind
	// Kind is the kind of object (GapObjects).
	Kind Kind
	// Namespace is the namespace of the objects (GapObjects; "" for a
	// cluster-scoped kind or for every namespace), of the pod
	// (GapContainerLog, GapPodLogs) or the namespace itself (GapNamespace).
	Namespace string
	// Pod and Container name the container whose log is missing
	// (GapContainerLog; GapPodLogs sets only Pod); Previous is true when the
	// log of the container's previous run is the one wanted.
	Pod, Container string
	Previous       bool
	// Node is the node whose journal is missing (GapNodeJournal); Unit is
	// the systemd unit ("kubelet", "crio").
	Node, Unit string
}

// GapKind is what sort of evidence a Gap lacks.
type GapKind string

// The sorts of evidence a Gap can lack.
const (
	// GapObjects: the objects of one kind, in one namespace or all.
	GapObjects GapKind = "objects"
	// GapNamespace: a namespace's folder holds no pod list although the
	// namespace runs pods (model.Health.NamespacesWithoutPods).
	GapNamespace GapKind = "namespace"
	// GapNodeJournal: a node's journal of one unit.
	GapNodeJournal GapKind = "node-journal"
	// GapContainerLog: the log of one container (current or previous run).
	GapContainerLog GapKind = "container-log"
	// GapPodLogs: every container log of a pod (model.Health.PodsWithoutLogs).
	GapPodLogs GapKind = "pod-logs"
	// GapNetworkLogs: the cluster network's own logs and databases
	// (OVN-Kubernetes, OpenShift SDN, Multus), which the default
	// must-gather leaves out.
	GapNetworkLogs GapKind = "network-logs"
)

// GapKinds lists every GapKind, in the order above.
var GapKinds = []GapKind{GapObjects, GapNamespace, GapNodeJournal, GapContainerLog, GapPodLogs, GapNetworkLogs}
