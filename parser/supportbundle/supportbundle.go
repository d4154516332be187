// Package supportbundle reads the two gathers of a vanilla Kubernetes
// cluster that hold `kubectl get -o json` output: a troubleshoot.sh support
// bundle (cluster-resources/pods/<ns>.json, cluster-resources/events/,
// cluster-resources/nodes.json, cluster-resources/<kind>/<ns>.json, the
// container logs under cluster-resources/pods/logs/) and a folder of pod
// captures (pods/<any>.json, each a Pod or a PodList; events/<any>.json;
// nodes.json).
//
// Pod captures belong here, not in a package of their own nor in the load:
// a support bundle is the collected form of what pod captures hold by hand
// (the same kubectl JSON of pods, events and nodes, from a cluster that
// may not be OpenShift), and the two are told apart only by their markers.
// They stay two layouts: a support bundle lists every pod of its
// namespaces, pod captures only the pods someone chose (Member.Filtered).
//
// The package claims the members by path (Root, Classify). Pod lists,
// node lists, object lists and container logs the load reads as a
// must-gather's; the event lists and the pod captures the Reader hands
// back to the load as common documents (load.Events, load.PodCaptures)
// and counts for the coverage.
package supportbundle

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mgtriage/mgtriage/parser/load"
	"github.com/mgtriage/mgtriage/parser/model"
)

// The layout kinds (model.Layout.Kind) of the gathers this package reads.
const (
	// Layout is a troubleshoot.sh support bundle.
	Layout = "support bundle"
	// LayoutPodCaptures is a folder of `kubectl get -o json` captures.
	LayoutPodCaptures = "pod captures"
)

// Kind says what a member of a support bundle or of pod captures holds,
// judged by its path.
type Kind int

const (
	// Other is a member the analysis does not read.
	Other Kind = iota
	// PodList is cluster-resources/pods/<ns>.json: read as a must-gather's
	// pod list.
	PodList
	// ContainerLog is cluster-resources/pods/logs/<ns>/<pod>/<container>.log
	// (<container>-previous.log for the previous run).
	ContainerLog
	// NodeList is cluster-resources/nodes.json or a capture's nodes.json.
	NodeList
	// ObjectList is cluster-resources/<folder>/<ns>.json or
	// cluster-resources/<file>.json of supportBundleKinds: objects of
	// Member.Object's kind for the object store.
	ObjectList
	// Events is cluster-resources/events/<ns>.json or a capture's
	// events/<any>.json (an Insights archive's events/ among them, in its
	// trimmed form), which the Reader reads.
	Events
	// PodCaptures is a capture's pods/<any>.json (a Pod or a PodList), which
	// the Reader reads.
	PodCaptures
)

// kindLabels name what the members of each Kind the Reader reads hold, in
// report order (model.Coverage.Used).
var kindLabels = []load.Label[Kind]{
	{Kind: Events, Text: EventListsLabel},
	{Kind: PodCaptures, Text: PodCapturesLabel},
}

// The coverage labels (model.FileCount.What) of the members the Reader reads.
const (
	// EventListsLabel is what event lists hold, in kubectl's form or an
	// Insights archive's trimmed form (whose events/ are claimed as pod
	// captures').
	EventListsLabel = "event lists (Insights or kubectl form)"
	// PodCapturesLabel is what pod captures hold.
	PodCapturesLabel = "pod captures (kubectl get -o json)"
)

// Member is what a member holds and the path parts that locate it: Root is
// the gather's folder ("" or ending in "/"); the other fields are set where
// the kind has them.
type Member struct {
	Kind                            Kind
	Root, Namespace, Pod, Container string
	Previous                        bool // a container's -previous.log
	// Object is an ObjectList member's kind.
	Object model.Kind
	// Filtered is the kind of which the member lists only some objects
	// (Resource "" when it lists all it names): the pods and events of pod
	// captures.
	Filtered model.Kind
}

// markers recognise a gather by one of its members; whole markers are the
// member's whole path from the root.
var markers = []struct {
	marker, layout string
	whole          bool
}{
	{"cluster-resources/", Layout, false},
	{"pods/", LayoutPodCaptures, false},
	{"events/", LayoutPodCaptures, false},
	{"nodes.json", LayoutPodCaptures, true},
}

// supportBundleKinds maps the per-namespace folders and cluster-wide files
// of a support bundle's cluster-resources/ to their kinds.
var supportBundleKinds = map[string]model.Kind{
	"services":          model.Services,
	"endpoints":         model.Endpoints,
	"serviceaccounts":   model.ServiceAccounts,
	"deployments":       model.Deployments,
	"replicasets":       model.ReplicaSets,
	"statefulsets":      model.StatefulSets,
	"daemonsets":        model.DaemonSets,
	"jobs":              model.Jobs,
	"cronjobs":          {Group: "batch", Resource: "cronjobs"},
	"pvcs":              model.PersistentVolumeClaims,
	"configmaps":        model.ConfigMaps,
	"network-policy":    model.NetworkPolicies,
	"resource-quota":    {Resource: "resourcequotas"},
	"limitranges":       model.LimitRanges,
	"namespaces":        model.Namespaces,
	"pvs":               model.PersistentVolumes,
	"storage-classes":   model.StorageClasses,
	"csinodes":          model.CSINodes,
	"volumeattachments": {Group: "storage.k8s.io", Resource: "volumeattachments"},
}

var (
	podsRe        = regexp.MustCompile(`^(.*/)?cluster-resources/pods/([^/]+)\.json$`)
	eventsRe      = regexp.MustCompile(`^(.*/)?cluster-resources/events/([^/]+)\.json$`)
	nodesRe       = regexp.MustCompile(`^(.*/)?cluster-resources/nodes\.json$`)
	logRe         = regexp.MustCompile(`^(.*/)?cluster-resources/pods/logs/([^/]+)/([^/]+)/([^/]+)\.log$`)
	listRe        = regexp.MustCompile(`^(.*/)?cluster-resources/([^/]+)/([^/]+)\.json$`)
	clusterListRe = regexp.MustCompile(`^(.*/)?cluster-resources/([^/]+)\.json$`)
	capPodsRe     = regexp.MustCompile(`^(.*/)?pods/([^/]+)\.json$`)
	capEventsRe   = regexp.MustCompile(`^(.*/)?events/([^/]+)\.json$`)
	capNodesRe    = regexp.MustCompile(`^(.*/)?nodes\.json$`)
)

// Root returns the folder of the support bundle or pod captures p is a
// member of ("" for the input itself, else ending in "/") and its layout;
// false when p is none. A capture is a .json file directly in pods/ or
// events/, or nodes.json. The load decides whether the folder lies inside
// another gather.
func Root(p string) (root, layout string, ok bool) {
	for _, m := range markers {
		i := load.MarkerIndex(p, m.marker)
		if i < 0 || m.whole && len(p) != i+len(m.marker) {
			continue
		}
		if m.layout == LayoutPodCaptures && (!m.whole && strings.Contains(p[i+len(m.marker):], "/") || !strings.HasSuffix(p, ".json")) {
			continue
		}
		return p[:i], m.layout, true
	}
	return "", "", false
}

// Classify returns what p, a member of a gather of layout (as Root judged
// it), holds; Kind is Other for members the analysis does not read.
func Classify(p, layout string) Member {
	switch layout {
	case Layout:
		return classifyBundle(p)
	case LayoutPodCaptures:
		if m := capPodsRe.FindStringSubmatch(p); m != nil {
			return Member{Kind: PodCaptures, Root: m[1], Filtered: model.Pods}
		}
		if m := capEventsRe.FindStringSubmatch(p); m != nil {
			return Member{Kind: Events, Root: m[1], Filtered: model.Events}
		}
		if m := capNodesRe.FindStringSubmatch(p); m != nil {
			return Member{Kind: NodeList, Root: m[1]}
		}
	}
	return Member{}
}

func classifyBundle(p string) Member {
	if m := logRe.FindStringSubmatch(p); m != nil {
		c := Member{Kind: ContainerLog, Root: m[1], Namespace: m[2], Pod: m[3], Container: m[4]}
		if name, ok := strings.CutSuffix(m[4], "-previous"); ok && name != "" {
			c.Container, c.Previous = name, true
		}
		return c
	}
	if m := podsRe.FindStringSubmatch(p); m != nil {
		return Member{Kind: PodList, Root: m[1], Namespace: m[2]}
	}
	if m := eventsRe.FindStringSubmatch(p); m != nil {
		return Member{Kind: Events, Root: m[1], Namespace: m[2]}
	}
	if m := nodesRe.FindStringSubmatch(p); m != nil {
		return Member{Kind: NodeList, Root: m[1]}
	}
	if m := listRe.FindStringSubmatch(p); m != nil {
		if k, ok := supportBundleKinds[m[2]]; ok {
			return Member{Kind: ObjectList, Root: m[1], Object: k, Namespace: m[3]}
		}
	}
	if m := clusterListRe.FindStringSubmatch(p); m != nil {
		if k, ok := supportBundleKinds[m[2]]; ok {
			return Member{Kind: ObjectList, Root: m[1], Object: k}
		}
	}
	return Member{}
}

// ReadsItself reports whether the Reader reads members of kind k (Read);
// the load reads the others as a must-gather's.
func (k Kind) ReadsItself() bool { return k == Events || k == PodCaptures }

// Reader reads the members of the support bundles and pod captures of one
// load that the load does not read as a must-gather's. Read is safe for
// concurrent use; Count and Used are for the load's sequential pass.
type Reader struct {
	load             load.Load
	load.Tally[Kind] // the members read, by kind (Count, Used)
}

// NewReader returns the reader of the support bundles and pod captures of l.
func NewReader(l load.Load) *Reader {
	return &Reader{load: l, Tally: load.NewTally(kindLabels)}
}

// Read reads data, the member at p of kind m.Kind (ReadsItself): an event
// list, whose events without a namespace are in the one the file is named
// for, or a pod capture. It hands them to the load, which records the
// problems of their items.
func (r *Reader) Read(p string, m Member, data []byte) error {
	switch m.Kind {
	case Events:
		return r.load.ReadObjects(p, load.Objects{Content: load.Events, Root: m.Root, Namespace: m.Namespace}, data)
	case PodCaptures:
		return r.load.ReadObjects(p, load.Objects{Content: load.PodCaptures, Root: m.Root}, data)
	}
	return fmt.Errorf("not read by the support bundle's reader")
}
