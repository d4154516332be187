// Package mustgather reads the gathers `oc adm must-gather` and
// `oc adm inspect` write: an image folder (or inspect output) holding
// namespaces/<ns>/core/pods.yaml and events.yaml, per-pod files and
// container logs under namespaces/<ns>/pods/, cluster-scoped-resources/,
// host_service_logs/, nodes/<node>/ journals, and beside them the gather's
// own files: timestamp, version, must-gather.logs, the Prometheus rules
// dump (monitoring/prometheus/rules.json) and etcd's reports (etcd_info/).
//
// The package claims the members by path (Classify) and tells an image
// folder by its markers (Reader.Layout). The common documents among its
// members (pod and event lists, per-pod files, node files and lists, object
// lists and files, container logs, node journals, the cluster's config
// objects) are the load's to read, as any gather's; the gather's own files
// the Reader reads, through a load.Load, and counts for the coverage.
package mustgather

import (
	"regexp"
	"strings"

	"github.com/mgtriage/mgtriage/parser/internal/pathmatch"
)

// Kind says what a member of a must-gather or inspect output holds, judged
// by its path.
type Kind int

const (
	// Other is a member the analysis does not read.
	Other Kind = iota

	// The common documents, which the load reads.

	// PodList is namespaces/<ns>/core/pods.yaml.
	PodList
	// EventList is namespaces/<ns>/core/events.yaml.
	EventList
	// Pod is namespaces/<ns>/pods/<pod>/<pod>.yaml.
	Pod
	// ContainerLog is a container log:
	// namespaces/<ns>/pods/<pod>/<container>/<container>/logs/{current,previous}[.insecure].log,
	// gzipped or not (.log.gz: must-gather's REDUCE_LOGS=compress_logs), or
	// a rotated file the kubelet kept, logs/rotated/<restart count>.log.<suffix>
	// (oc adm inspect --rotated-pod-logs; the suffix is the rotation time,
	// YYYYMMDD-HHMMSS, with ".gz" when compressed).
	ContainerLog
	// Node is cluster-scoped-resources/core/nodes/<node>.yaml.
	Node
	// NodeList is cluster-scoped-resources/core/nodes.yaml.
	NodeList
	// ClusterVersion is config.openshift.io's clusterversions.
	ClusterVersion
	// ClusterOperators is config.openshift.io's clusteroperators.yaml list.
	ClusterOperators
	// Infrastructure is config.openshift.io's infrastructures.
	Infrastructure
	// DNS is the cluster DNS config (dnses.config.openshift.io): spec.baseDomain.
	DNS
	// ServiceLog is host_service_logs/masters/<unit>_service.log: a journal
	// of the control plane's hosts.
	ServiceLog
	// NodeJournal is nodes/<node>/<any>kubelet<any>: one node's kubelet journal.
	NodeJournal
	// ObjectList is a list of any other kind:
	// namespaces/<ns>/<group>/<resource>.yaml,
	// cluster-scoped-resources/<group>/<resource>.yaml.
	ObjectList
	// Object is one object of any other kind:
	// .../<group>/<resource>/<name>.yaml, or namespaces/<ns>/<ns>.yaml.
	Object

	// The gather's own files, which the Reader reads.

	// Timestamp is the gather's timestamp file: its gather time.
	Timestamp
	// Version is an image folder's version file: the image and its version.
	Version
	// Logs is must-gather.logs: the gather's own output.
	Logs
	// Alerts is monitoring/prometheus/rules.json.
	Alerts
	// Etcd is etcd_info/<report>.json.
	Etcd
)

// Common reports whether members of k are common documents the load reads
// (as any gather's), not the Reader.
func (k Kind) Common() bool { return k > Other && k < Timestamp }

// Heavy reports whether the Reader's members of k are large enough to be
// decoded off the pass (by the load's decode workers); the others are read
// on the pass, in member order.
func (k Kind) Heavy() bool { return k == Alerts || k == Etcd }

// Member is what a member holds and the path parts that locate it: Root is
// the gather's image folder ("" or ending in "/"); the other fields are set
// where the kind has them.
type Member struct {
	Kind      Kind
	Root      string
	Namespace string
	Pod       string
	Container string
	Previous  bool   // container log: previous.log
	Rotated   string // container log: its file name under logs/rotated/ ("3.log.20211027-082023.gz"); "" for current and previous
	Node      string // Node, NodeJournal: from nodes/<node>/ or nodes/<node>.yaml
	Unit      string // ServiceLog: kubelet, crio, ...
	// Group and Resource name an object file's kind ("" for the core
	// group), Name the object of a per-object file.
	Group, Resource, Name string
}

// pathRules are the patterns of the members, tried in order (Classify).
var pathRules = []struct {
	kind Kind
	re   *regexp.Regexp
}{
	{PodList, regexp.MustCompile(`^(.*/)?namespaces/([^/]+)/core/pods\.(?:yaml|json)$`)},
	{EventList, regexp.MustCompile(`^(.*/)?namespaces/([^/]+)/core/events\.(?:yaml|json)$`)},
	{Pod, regexp.MustCompile(`^(.*/)?namespaces/([^/]+)/pods/([^/]+)/([^/]+)\.(?:yaml|json)$`)},
	{ContainerLog, regexp.MustCompile(`^(.*/)?namespaces/([^/]+)/pods/([^/]+)/([^/]+)/[^/]+/logs/(current|previous)(?:\.insecure)?\.log(?:\.gz)?$`)},
	// oc adm inspect matches a rotated file's name by [0-9]+\.log\..+
	{ContainerLog, regexp.MustCompile(`^(.*/)?namespaces/([^/]+)/pods/([^/]+)/([^/]+)/[^/]+/logs/rotated/([0-9]+\.log\.[^/]+)$`)},
	{Node, regexp.MustCompile(`^(.*/)?cluster-scoped-resources/core/nodes/([^/]+)\.(?:yaml|json)$`)},
	{NodeList, regexp.MustCompile(`^(.*/)?cluster-scoped-resources/core/nodes\.(?:yaml|json)$`)},
	{ClusterVersion, regexp.MustCompile(`^(.*/)?cluster-scoped-resources/config\.openshift\.io/clusterversions(?:\.yaml|/[^/]+\.yaml)$`)},
	{ClusterOperators, regexp.MustCompile(`^(.*/)?cluster-scoped-resources/config\.openshift\.io/clusteroperators\.yaml$`)},
	{Infrastructure, regexp.MustCompile(`^(.*/)?cluster-scoped-resources/config\.openshift\.io/infrastructures(?:\.yaml|/cluster\.yaml)$`)},
	{DNS, regexp.MustCompile(`^(.*/)?cluster-scoped-resources/config\.openshift\.io/dnses(?:\.yaml|/cluster\.yaml)$`)},
	{ServiceLog, regexp.MustCompile(`^(.*/)?host_service_logs/masters/([^/]+)_service\.log(?:\.gz)?$`)},
	{NodeJournal, regexp.MustCompile(`^(.*/)?nodes/([^/]+)/[^/]*kubelet[^/]*$`)},
	{Timestamp, regexp.MustCompile(`^(.*/)?timestamp$`)},
	{Version, regexp.MustCompile(`^(.*/)?version$`)},
	{Logs, regexp.MustCompile(`^(.*/)?must-gather\.logs$`)},
	{Alerts, regexp.MustCompile(`^(.*/)?monitoring/prometheus/rules\.json$`)},
	{Etcd, regexp.MustCompile(`^(.*/)?etcd_info/[a-z_]+\.json$`)},
	// Every other object file, for the object store.
	{Object, regexp.MustCompile(`^(.*/)?namespaces/([^/]+)/([^/]+)\.(?:yaml|json)$`)},
	{ObjectList, regexp.MustCompile(`^(.*/)?namespaces/([^/]+)/([^/]+)/([^/]+)\.(?:yaml|json)$`)},
	{Object, regexp.MustCompile(`^(.*/)?namespaces/([^/]+)/([^/]+)/([^/]+)/([^/]+)\.(?:yaml|json)$`)},
	{ObjectList, regexp.MustCompile(`^(.*/)?cluster-scoped-resources/([^/]+)/([^/]+)\.(?:yaml|json)$`)},
	{Object, regexp.MustCompile(`^(.*/)?cluster-scoped-resources/([^/]+)/([^/]+)/([^/]+)\.(?:yaml|json)$`)},
}

// rules matches pathRules.
var rules = func() *pathmatch.Set {
	res := make([]*regexp.Regexp, len(pathRules))
	for i, r := range pathRules {
		res[i] = r.re
	}
	return pathmatch.New(res...)
}()

// Classify returns what the member at p holds; Kind is Other for members
// the analysis does not read. The names are slices of p.
func Classify(p string) Member {
	for i, r := range pathRules {
		m := rules.Match(i, p)
		if m == nil {
			continue
		}
		c := Member{Kind: r.kind, Root: m[1]}
		switch r.kind {
		case PodList, EventList:
			c.Namespace = m[2]
		case Pod:
			if m[3] != m[4] {
				continue // pods/<pod>/<other>.yaml is not the pod itself
			}
			c.Namespace, c.Pod = m[2], m[3]
		case ContainerLog:
			c.Namespace, c.Pod, c.Container = m[2], m[3], m[4]
			switch m[5] {
			case "current":
			case "previous":
				c.Previous = true
			default: // logs/rotated/<name>
				c.Rotated = m[5]
			}
		case Node:
			c.Node = m[2]
		case ServiceLog:
			c.Unit = m[2]
		case NodeJournal:
			c.Node = m[2]
			if strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".yaml") {
				continue
			}
		case Object, ObjectList:
			if !objectPath(&c, m) {
				continue
			}
		}
		return c
	}
	return Member{}
}

// objectPath fills the kind, namespace and name of an object file from the
// submatches of its path rule (see pathRules); false when the path is not an
// object file (anything under a pod's own folder).
func objectPath(c *Member, m []string) bool {
	group := func(g string) string {
		if g == "core" {
			return ""
		}
		return g
	}
	if strings.Contains(m[0], "cluster-scoped-resources/") || strings.HasPrefix(m[0], "cluster-scoped-resources/") {
		c.Group, c.Resource = group(m[2]), m[3]
		if c.Kind == Object {
			c.Name = m[4]
		}
		return true
	}
	c.Namespace = m[2]
	switch len(m) {
	case 4: // namespaces/<ns>/<ns>.yaml: the Namespace itself
		if m[3] != m[2] {
			return false
		}
		c.Namespace, c.Resource, c.Name = "", "namespaces", m[2]
		return true
	case 5: // namespaces/<ns>/<group>/<resource>.yaml
		c.Group, c.Resource = group(m[3]), m[4]
	case 6: // namespaces/<ns>/<group>/<resource>/<name>.yaml
		c.Group, c.Resource, c.Name = group(m[3]), m[4], m[5]
	}
	return m[3] != "pods"
}

// markers are folders only a must-gather image writes beside namespaces/
// and cluster-scoped-resources/.
var markers = []string{"host_service_logs/", "nodes/", "etcd_info/", "monitoring/", "ingress_controllers/", "network_logs/"}
