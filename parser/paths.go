package parser

import (
	"path"
	"slices"

	"regexp"
	"strings"

	"github.com/mgtriage/mgtriage/parser/insights"
	"github.com/mgtriage/mgtriage/parser/installbundle"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/sosreport"
	"github.com/mgtriage/mgtriage/parser/supportbundle"
)

// fileKind says what a member of a gather holds, judged by its path alone.
type fileKind int

const (
	kindOther fileKind = iota
	kindPodList
	kindPod
	kindEventList
	kindNode
	kindNodeList
	kindClusterVersion
	kindClusterOperators
	kindInfrastructure
	kindDNS // the cluster DNS config (dnses.config.openshift.io): spec.baseDomain
	kindContainerLog
	kindServiceLog
	kindNodeKubeletLog
	kindTimestamp
	kindVersion
	kindMustGatherLogs
	kindSosHostname
	kindSosDate
	kindAlerts     // monitoring/prometheus/rules.json
	kindEtcd       // etcd_info/*.json
	kindObjectList // a list of any other kind: namespaces/<ns>/<group>/<resource>.yaml, cluster-scoped-resources/<group>/<resource>.yaml
	kindObject     // one object of any other kind: .../<group>/<resource>/<name>.yaml
	// kindSos is a member of a node sosreport that its reader
	// (parser/sosreport) reads itself (the container runtime's view,
	// versions, the run's manifest): what it holds is in classified.Sos.
	kindSos
	kindSniffedJournal // a kindOther member read as a node journal by its content (never a path rule)

	// kindInsights is a member of an Insights archive that its reader
	// (parser/insights) reads itself: what it holds is in
	// classified.Insights. Its other members map onto the kinds above.
	kindInsights
	// kindSupportBundle is a member of a support bundle or of pod captures
	// that their reader (parser/supportbundle) reads itself: what it holds
	// is in classified.Bundle. Its other members map onto the kinds above.
	kindSupportBundle

	// kindInstall is a member of an install log bundle that its reader
	// (parser/installbundle) reads itself: what it holds is in
	// classified.Install. Its kubelet and CRI-O journals are kindServiceLog.
	kindInstall
)

// classified is a member's kind and the path parts that locate it: Root is the
// gather's image folder ("" or ending in "/"), and the other fields are set
// where the kind has them.
type classified struct {
	Kind      fileKind
	Root      string
	Namespace string
	Pod       string
	Container string
	Previous  bool   // container log: previous.log
	Node      string // node name from nodes/<node>/ or nodes/<node>.yaml
	Unit      string // service log: kubelet, crio, ...
	// Group and Resource name an object file's kind ("" for the core group),
	// Name the object of a per-object file.
	Group, Resource, Name string
	// Filtered is the kind of which the member's source holds only some
	// objects (an Insights archive, pod captures), as its format judged:
	// a name not found proves nothing. Resource is "" when none.
	Filtered model.Kind
	// Install is what a kindInstall member holds, by the install log
	// bundle's own reckoning.
	Install installbundle.Member
	// Sos is what a kindSos member holds, by the sosreport reader's own
	// reckoning.
	Sos sosreport.Member
	// Insights is what a kindInsights member holds, by the Insights
	// archive reader's own reckoning.
	Insights insights.Member
	// Bundle is what a kindSupportBundle member holds, by the support
	// bundle reader's own reckoning.
	Bundle supportbundle.Member
}

// pathRule is a path pattern and the kind of the members it matches.
type pathRule struct {
	kind fileKind
	re   *regexp.Regexp
}

// pathRules are tried in order; the literals each pattern requires are
// tested before the regular expression (pathfilter.go).
var pathRules = []pathRule{
	{kindPodList, regexp.MustCompile(`^(.*/)?namespaces/([^/]+)/core/pods\.(?:yaml|json)$`)},
	{kindEventList, regexp.MustCompile(`^(.*/)?namespaces/([^/]+)/core/events\.(?:yaml|json)$`)},
	{kindPod, regexp.MustCompile(`^(.*/)?namespaces/([^/]+)/pods/([^/]+)/([^/]+)\.(?:yaml|json)$`)},
	{kindContainerLog, regexp.MustCompile(`^(.*/)?namespaces/([^/]+)/pods/([^/]+)/([^/]+)/[^/]+/logs/(current|previous)(?:\.insecure)?\.log$`)},
	{kindNode, regexp.MustCompile(`^(.*/)?cluster-scoped-resources/core/nodes/([^/]+)\.(?:yaml|json)$`)},
	{kindNodeList, regexp.MustCompile(`^(.*/)?cluster-scoped-resources/core/nodes\.(?:yaml|json)$`)},
	{kindClusterVersion, regexp.MustCompile(`^(.*/)?cluster-scoped-resources/config\.openshift\.io/clusterversions(?:\.yaml|/[^/]+\.yaml)$`)},
	{kindClusterOperators, regexp.MustCompile(`^(.*/)?cluster-scoped-resources/config\.openshift\.io/clusteroperators\.yaml$`)},
	{kindInfrastructure, regexp.MustCompile(`^(.*/)?cluster-scoped-resources/config\.openshift\.io/infrastructures(?:\.yaml|/cluster\.yaml)$`)},
	{kindDNS, regexp.MustCompile(`^(.*/)?cluster-scoped-resources/config\.openshift\.io/dnses(?:\.yaml|/cluster\.yaml)$`)},
	{kindServiceLog, regexp.MustCompile(`^(.*/)?host_service_logs/masters/([^/]+)_service\.log(?:\.gz)?$`)},
	{kindNodeKubeletLog, regexp.MustCompile(`^(.*/)?nodes/([^/]+)/[^/]*kubelet[^/]*$`)},
	{kindTimestamp, regexp.MustCompile(`^(.*/)?timestamp$`)},
	{kindVersion, regexp.MustCompile(`^(.*/)?version$`)},
	{kindMustGatherLogs, regexp.MustCompile(`^(.*/)?must-gather\.logs$`)},
	// sosreport: kubectl JSON lists of the kubernetes plugin, journals, host name and date.
	{kindPodList, regexp.MustCompile(`^(.*/)?sos_commands/kubernetes/(?:[^/]+/)*kubectl_[^/]*get_-o_json_--namespace_([a-z0-9-]+)_pods$`)},
	{kindEventList, regexp.MustCompile(`^(.*/)?sos_commands/kubernetes/(?:[^/]+/)*kubectl_[^/]*get_-o_json_--namespace_([a-z0-9-]+)_events$`)},
	{kindNodeList, regexp.MustCompile(`^(.*/)?sos_commands/kubernetes/(?:[^/]+/)*kubectl_[^/]*get_-o_json_nodes$`)},
	{kindServiceLog, regexp.MustCompile(`^(.*/)?sos_commands/[^/]+/journalctl_[^/]*?(?:--unit_|-u_)?([a-z0-9._-]*?)(?:\.daemon)?(?:\.\d+)?(?:\.xz|\.gz)?$`)},
	// Here the sosreport reader claims its members (sosClaimAt).
	{kindSosHostname, regexp.MustCompile(`^(.*/)?(?:sos_commands/host/)?hostname$`)},
	{kindSosDate, regexp.MustCompile(`^(.*/)?(?:sos_commands/date/)?date$`)},
	{kindAlerts, regexp.MustCompile(`^(.*/)?monitoring/prometheus/rules\.json$`)},
	{kindEtcd, regexp.MustCompile(`^(.*/)?etcd_info/[a-z_]+\.json$`)},
	// Every other object file of a must-gather or inspect, for the object store.
	{kindObject, regexp.MustCompile(`^(.*/)?namespaces/([^/]+)/([^/]+)\.(?:yaml|json)$`)},
	{kindObjectList, regexp.MustCompile(`^(.*/)?namespaces/([^/]+)/([^/]+)/([^/]+)\.(?:yaml|json)$`)},
	{kindObject, regexp.MustCompile(`^(.*/)?namespaces/([^/]+)/([^/]+)/([^/]+)/([^/]+)\.(?:yaml|json)$`)},
	{kindObjectList, regexp.MustCompile(`^(.*/)?cluster-scoped-resources/([^/]+)/([^/]+)\.(?:yaml|json)$`)},
	{kindObject, regexp.MustCompile(`^(.*/)?cluster-scoped-resources/([^/]+)/([^/]+)/([^/]+)\.(?:yaml|json)$`)},
}

// sosClaimAt is the index of pathRules before which the sosreport reader
// claims its members (sosreport.Classify): after the sosreport's journals,
// before the host name and date files.
var sosClaimAt = slices.IndexFunc(pathRules, func(r pathRule) bool { return r.kind == kindSosHostname })

// classify returns what the member at p holds; Kind is kindOther for members
// the analysis does not read.
func classify(p string) classified {
	for i, r := range pathRules {
		if i == sosClaimAt {
			if m := sosreport.Classify(p); m.Kind != sosreport.Other {
				m.Root = intern(m.Root)
				return classified{Kind: kindSos, Root: m.Root, Sos: m}
			}
		}
		if !containsAll(p, pathLiterals[i]) {
			continue
		}
		m := matchRule(i, p)
		if m == nil {
			continue
		}
		c := classified{Kind: r.kind, Root: m[1]}
		switch r.kind {
		case kindPodList, kindEventList:
			c.Namespace = m[2]
		case kindPod:
			if m[3] != m[4] {
				continue // pods/<pod>/<other>.yaml is not the pod itself
			}
			c.Namespace, c.Pod = m[2], m[3]
		case kindContainerLog:
			c.Namespace, c.Pod, c.Container, c.Previous = m[2], m[3], m[4], m[5] == "previous"
		case kindNode:
			c.Node = m[2]
		case kindServiceLog:
			c.Unit = m[2]
			if journalOtherOutput(p) {
				continue
			}
		case kindNodeKubeletLog:
			c.Node = m[2]
			if strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".yaml") {
				continue
			}
		case kindObject, kindObjectList:
			if !objectPath(&c, m) {
				continue
			}
		}
		// The names below are slices of p: kept as they are (in map keys
		// such as the store's gathered lists, one per kind and namespace),
		// each would keep the whole member path alive, about 12 MB of paths
		// at ×50 of the corpus metal gather. They come from a small set,
		// but for the pod names, which the pods' own names share. A
		// container log's Container alone kept its path, 25 MB at ×50.
		c.Root, c.Namespace, c.Node, c.Unit = intern(c.Root), intern(c.Namespace), intern(c.Node), intern(c.Unit)
		c.Group, c.Resource = intern(c.Group), intern(c.Resource)
		c.Pod, c.Container = intern(c.Pod), intern(c.Container)
		return c
	}
	return classified{Kind: kindOther}
}

// journalOtherOutput reports whether a sosreport's journalctl file is in an
// output form other than short (export, json, verbose, cat) or a report of
// the journal's size: nothing in it is a journal line, and the export form
// is as large as the whole journal.
func journalOtherOutput(p string) bool {
	base := path.Base(p)
	for _, o := range []string{"_-o_export", "_-o_json", "_-o_verbose", "_-o_cat", "--output_export", "--output_json", "--output=", "--disk-usage"} {
		if strings.Contains(base, o) {
			return true
		}
	}
	return false
}

// objectPath fills the kind, namespace and name of an object file from the
// submatches of its path rule (see pathRules); false when the path is not an
// object file (anything under a pod's own folder).
func objectPath(c *classified, m []string) bool {
	group := func(g string) string {
		if g == "core" {
			return ""
		}
		return g
	}
	if strings.Contains(m[0], "cluster-scoped-resources/") || strings.HasPrefix(m[0], "cluster-scoped-resources/") {
		c.Group, c.Resource = group(m[2]), m[3]
		if c.Kind == kindObject {
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

// gatherRoot returns the image folder that p lies in, judged by the
// namespaces/ or cluster-scoped-resources/ part of its path, and false when p
// lies in neither.
func gatherRoot(p string) (string, bool) {
	for _, marker := range []string{"namespaces/", "cluster-scoped-resources/", "sos_commands/"} {
		if strings.HasPrefix(p, marker) {
			return "", true
		}
		if i := strings.Index(p, "/"+marker); i >= 0 {
			// An Insights archive's conditional gatherer writes
			// conditional/namespaces/...: the archive is the root.
			return strings.TrimSuffix(p[:i+1], "conditional/"), true
		}
	}
	return "", false
}
