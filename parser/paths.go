package parser

import (
	"path"
	"slices"

	"regexp"
	"strings"

	"github.com/mgtriage/mgtriage/parser/insights"
	"github.com/mgtriage/mgtriage/parser/installbundle"
	"github.com/mgtriage/mgtriage/parser/internal/pathmatch"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/mustgather"
	"github.com/mgtriage/mgtriage/parser/sosreport"
	"github.com/mgtriage/mgtriage/parser/supportbundle"
)

// fileKind says what a member of a gather holds, judged by its path alone:
// one of the common documents the load reads as any gather's (whichever
// format's path rules claimed it), or a member its format's reader reads
// itself (one kind per format).
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
	kindObjectList     // a list of objects of any other kind, for the object store
	kindObject         // one object of any other kind
	kindSniffedJournal // a kindOther member read as a node journal by its content (never a path rule)

	// kindMustGather is a member of a must-gather or inspect output that
	// its reader (parser/mustgather) reads itself (timestamp, version,
	// must-gather.logs, alerts, etcd): what it holds is in
	// classified.MustGather. Its other members map onto the kinds above.
	kindMustGather
	// kindSos is a member of a node sosreport that its reader
	// (parser/sosreport) reads itself (the container runtime's view,
	// versions, the run's manifest): what it holds is in classified.Sos.
	kindSos
	// kindSosHostname and kindSosDate are a node sosreport's host name and
	// date files.
	kindSosHostname
	kindSosDate

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
	Rotated   string // container log: a rotated file's name under logs/rotated/ (mustgather.Member.Rotated)
	Node      string // node name from nodes/<node>/ or nodes/<node>.yaml
	Unit      string // service log: kubelet, crio, ...
	// Group and Resource name an object file's kind ("" for the core group),
	// Name the object of a per-object file.
	Group, Resource, Name string
	// Filtered is the kind of which the member's source holds only some
	// objects (an Insights archive, pod captures), as its format judged:
	// a name not found proves nothing. Resource is "" when none.
	Filtered model.Kind
	// MustGather is what a kindMustGather member holds, by the
	// must-gather reader's own reckoning.
	MustGather mustgather.Member
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

// pathRules are the node sosreport's path rules the load still holds (its
// kubectl JSON lists of the kubernetes plugin, journals, host name and
// date), tried in order after the must-gather's (mustgather.Classify).
var pathRules = []pathRule{
	{kindPodList, regexp.MustCompile(`^(.*/)?sos_commands/kubernetes/(?:[^/]+/)*kubectl_[^/]*get_-o_json_--namespace_([a-z0-9-]+)_pods$`)},
	{kindEventList, regexp.MustCompile(`^(.*/)?sos_commands/kubernetes/(?:[^/]+/)*kubectl_[^/]*get_-o_json_--namespace_([a-z0-9-]+)_events$`)},
	{kindNodeList, regexp.MustCompile(`^(.*/)?sos_commands/kubernetes/(?:[^/]+/)*kubectl_[^/]*get_-o_json_nodes$`)},
	// Any other kind the kubernetes plugin lists as JSON, per namespace
	// (services, pvc, rc, deployments, limitranges, resourcequotas, ...) or
	// cluster-wide (pv, namespaces, ...), when kubectl's name of it is one
	// of model.KnownKinds.
	{kindObjectList, regexp.MustCompile(`^(.*/)?sos_commands/kubernetes/(?:[^/]+/)*kubectl_[^/]*get_-o_json_--namespace_([a-z0-9-]+)_([a-z.-]+)$`)},
	{kindObjectList, regexp.MustCompile(`^(.*/)?sos_commands/kubernetes/(?:[^/]+/)*kubectl_[^/]*get_-o_json_()([a-z.-]+)$`)},
	{kindServiceLog, regexp.MustCompile(`^(.*/)?sos_commands/[^/]+/journalctl_[^/]*?(?:--unit_|-u_)?([a-z0-9._-]*?)(?:\.daemon)?(?:\.\d+)?(?:\.xz|\.gz)?$`)},
	// Here the sosreport reader claims its members (sosClaimAt).
	{kindSosHostname, regexp.MustCompile(`^(.*/)?(?:sos_commands/host/)?hostname$`)},
	{kindSosDate, regexp.MustCompile(`^(.*/)?(?:sos_commands/date/date(?:_--utc)?|sos_commands/systemd/timedatectl|date)$`)},
}

// pathSet matches pathRules.
var pathSet = func() *pathmatch.Set {
	res := make([]*regexp.Regexp, len(pathRules))
	for i, r := range pathRules {
		res[i] = r.re
	}
	return pathmatch.New(res...)
}()

// sosClaimAt is the index of pathRules before which the sosreport reader
// claims its members (sosreport.Classify): after the sosreport's journals,
// before the host name and date files.
var sosClaimAt = slices.IndexFunc(pathRules, func(r pathRule) bool { return r.kind == kindSosHostname })

// classify returns what the member at p holds; Kind is kindOther for members
// the analysis does not read. The must-gather's path rules come first. The
// names it keeps are strs's (the load's; nil: copies).
func classify(p string, strs *interner) classified {
	if m := mustgather.Classify(p); m.Kind != mustgather.Other {
		return fromMustGather(m, strs)
	}
	for i, r := range pathRules {
		if i == sosClaimAt {
			if m := sosreport.Classify(p); m.Kind != sosreport.Other {
				m.Root = strs.intern(m.Root)
				return classified{Kind: kindSos, Root: m.Root, Sos: m}
			}
		}
		m := pathSet.Match(i, p)
		if m == nil {
			continue
		}
		c := classified{Kind: r.kind, Root: m[1]}
		switch r.kind {
		case kindPodList, kindEventList:
			c.Namespace = m[2]
		case kindObjectList:
			k, ok := model.KubectlKind(m[3])
			if !ok {
				continue
			}
			c.Namespace, c.Group, c.Resource = m[2], strs.intern(k.Group), strs.intern(k.Resource)
		case kindServiceLog:
			c.Unit = m[2]
			if journalOtherOutput(p) {
				continue
			}
		}
		c.Root, c.Namespace, c.Unit = strs.intern(c.Root), strs.intern(c.Namespace), strs.intern(c.Unit)
		return c
	}
	return classified{Kind: kindOther}
}

// mustGatherKinds are the kinds the load reads the must-gather's common
// documents as.
var mustGatherKinds = [...]fileKind{
	mustgather.PodList:          kindPodList,
	mustgather.EventList:        kindEventList,
	mustgather.Pod:              kindPod,
	mustgather.ContainerLog:     kindContainerLog,
	mustgather.Node:             kindNode,
	mustgather.NodeList:         kindNodeList,
	mustgather.ClusterVersion:   kindClusterVersion,
	mustgather.ClusterOperators: kindClusterOperators,
	mustgather.Infrastructure:   kindInfrastructure,
	mustgather.DNS:              kindDNS,
	mustgather.ServiceLog:       kindServiceLog,
	mustgather.NodeJournal:      kindNodeKubeletLog,
	mustgather.ObjectList:       kindObjectList,
	mustgather.Object:           kindObject,
}

// fromMustGather maps a member of a must-gather or inspect output onto the
// kind the load reads it as: a common document's, or the must-gather
// reader's own (kindMustGather).
//
// The names are interned in strs: slices of the member path kept as they are (in
// map keys such as the store's gathered lists, one per kind and namespace),
// each would keep the whole path alive, about 12 MB of paths at ×50 of the
// corpus metal gather. They come from a small set, but for the pod names,
// which the pods' own names share. A container log's Container alone kept
// its path, 25 MB at ×50.
func fromMustGather(m mustgather.Member, strs *interner) classified {
	if !m.Kind.Common() {
		return classified{Kind: kindMustGather, Root: strs.intern(m.Root), MustGather: mustgather.Member{Kind: m.Kind, Root: strs.intern(m.Root)}}
	}
	return classified{Kind: mustGatherKinds[m.Kind], Root: strs.intern(m.Root), Namespace: strs.intern(m.Namespace), Node: strs.intern(m.Node), Unit: strs.intern(m.Unit),
		Group: strs.intern(m.Group), Resource: strs.intern(m.Resource), Name: m.Name, Pod: strs.intern(m.Pod), Container: strs.intern(m.Container), Previous: m.Previous,
		Rotated: strings.Clone(m.Rotated)}
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
