package parser

import (
	"regexp"
	"strings"
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
	kindContainerLog
	kindServiceLog
	kindNodeKubeletLog
	kindTimestamp
	kindVersion
	kindMustGatherLogs
	kindSosHostname
	kindSosDate
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
}

var pathRules = []struct {
	kind fileKind
	re   *regexp.Regexp
}{
	{kindPodList, regexp.MustCompile(`^(.*/)?namespaces/([^/]+)/core/pods\.(?:yaml|json)$`)},
	{kindEventList, regexp.MustCompile(`^(.*/)?namespaces/([^/]+)/core/events\.(?:yaml|json)$`)},
	{kindPod, regexp.MustCompile(`^(.*/)?namespaces/([^/]+)/pods/([^/]+)/([^/]+)\.(?:yaml|json)$`)},
	{kindContainerLog, regexp.MustCompile(`^(.*/)?namespaces/([^/]+)/pods/([^/]+)/([^/]+)/[^/]+/logs/(current|previous)(?:\.insecure)?\.log$`)},
	{kindNode, regexp.MustCompile(`^(.*/)?cluster-scoped-resources/core/nodes/([^/]+)\.(?:yaml|json)$`)},
	{kindNodeList, regexp.MustCompile(`^(.*/)?cluster-scoped-resources/core/nodes\.(?:yaml|json)$`)},
	{kindClusterVersion, regexp.MustCompile(`^(.*/)?cluster-scoped-resources/config\.openshift\.io/clusterversions(?:\.yaml|/[^/]+\.yaml)$`)},
	{kindClusterOperators, regexp.MustCompile(`^(.*/)?cluster-scoped-resources/config\.openshift\.io/clusteroperators\.yaml$`)},
	{kindInfrastructure, regexp.MustCompile(`^(.*/)?cluster-scoped-resources/config\.openshift\.io/infrastructures(?:\.yaml|/cluster\.yaml)$`)},
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
	{kindSosHostname, regexp.MustCompile(`^(.*/)?(?:sos_commands/host/)?hostname$`)},
	{kindSosDate, regexp.MustCompile(`^(.*/)?(?:sos_commands/date/)?date$`)},
}

// classify returns what the member at p holds; Kind is kindOther for members
// the analysis does not read.
func classify(p string) classified {
	for i, r := range pathRules {
		if !containsAll(p, pathLiterals[i]) {
			continue
		}
		m := r.re.FindStringSubmatch(p)
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
		case kindNodeKubeletLog:
			c.Node = m[2]
			if strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".yaml") {
				continue
			}
		}
		return c
	}
	return classified{Kind: kindOther}
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
			return p[:i+1], true
		}
	}
	return "", false
}
