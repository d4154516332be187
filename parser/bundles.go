package parser

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/mgtriage/mgtriage/parser/installbundle"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/openshift"
	corev1 "k8s.io/api/core/v1"
)

// Gathers other than a must-gather that support cases carry. Their members
// are mapped onto the kinds a must-gather has (pod lists, events, nodes,
// container logs, node journals, store objects), so that everything after the
// pass reads them the same way.
const (
	// LayoutInsights is an Insights Operator archive (insights-*.tar.gz):
	// config/pod/<ns>/<pod>.json lists only pods that are not healthy.
	LayoutInsights = "insights archive"
	// LayoutSupportBundle is a troubleshoot.sh support bundle of a vanilla
	// Kubernetes cluster: cluster-resources/pods/<ns>.json and the like.
	LayoutSupportBundle = "support bundle"
	// LayoutPodCaptures is a folder of `kubectl get -o json` captures:
	// pods/<any>.json (a Pod or a PodList), events/<any>.json, nodes.json.
	LayoutPodCaptures = "pod captures"
)

// filteredLayouts are the layouts whose pod list is filtered by the source: a
// pod that is not there proves nothing.
var filteredLayouts = map[string]bool{LayoutInsights: true, LayoutPodCaptures: true}

// bundleRoot returns the folder that holds the non-must-gather gather p
// belongs to ("" for the input itself, else ending in "/") and its layout;
// false when p is not a member of one. Paths inside a must-gather's
// namespaces/ or cluster-scoped-resources/, or a sosreport, never are.
func bundleRoot(p string) (root, layout string, ok bool) {
	if r, ok := installbundle.Root(p); ok {
		for _, foreign := range []string{"namespaces/", "cluster-scoped-resources/", "sos_commands/"} {
			if strings.Contains(r, foreign) {
				return "", "", false
			}
		}
		return r, model.LayoutInstallBundle, true
	}
	for _, m := range bundleMarkers {
		i := markerIndex(p, m.marker)
		if i < 0 || m.whole && len(p) != i+len(m.marker) {
			continue
		}
		if m.layout == LayoutPodCaptures && !m.whole && strings.Contains(p[i+len(m.marker):], "/") || !strings.HasSuffix(p, ".json") && m.layout == LayoutPodCaptures {
			continue
		}
		for _, foreign := range []string{"namespaces/", "cluster-scoped-resources/", "sos_commands/"} {
			if strings.Contains(p[:i], foreign) {
				return "", "", false
			}
		}
		return p[:i], m.layout, true
	}
	// The other config/<folder>/ files of an Insights archive.
	if i := markerIndex(p, "config/"); i >= 0 {
		if m := insightsObjectRe.FindStringSubmatch(p[i:]); m != nil && insightsDir(m[2]) {
			return bundleRoot(p[:i] + "config/id")
		}
		// config/version.json and config/infrastructure.json.
		if insightsVersionRe.MatchString(p[i:]) {
			return bundleRoot(p[:i] + "config/id")
		}
	}
	return "", "", false
}

// insightsDir reports whether dir (below config/) holds objects the reader
// maps (see insightsObjectDirs), with or without a namespace folder.
func insightsDir(dir string) bool {
	if _, ok := insightsObjectDirs[dir]; ok {
		return true
	}
	if i := strings.LastIndex(dir, "/"); i > 0 {
		d, ok := insightsObjectDirs[dir[:i]]
		return ok && d.namespaced
	}
	return false
}

// markerIndex returns where marker starts in p as whole path elements (at
// the start or after a "/"), -1 when it is not there.
func markerIndex(p, marker string) int {
	if strings.HasPrefix(p, marker) {
		return 0
	}
	if i := strings.Index(p, "/"+marker); i >= 0 {
		return i + 1
	}
	return -1
}

// bundleMarkers recognise a gather by one of its members; whole markers are
// the member's whole path from the root.
var bundleMarkers = []struct {
	marker, layout string
	whole          bool
}{
	{"config/pod/", LayoutInsights, false},
	{"config/node/", LayoutInsights, false},
	{"config/clusteroperator/", LayoutInsights, false},
	{"config/version.json", LayoutInsights, true},
	{"config/id", LayoutInsights, true},
	{"insights-operator/gathers.json", LayoutInsights, true},
	{"cluster-resources/", LayoutSupportBundle, false},
	{"pods/", LayoutPodCaptures, false},
	{"events/", LayoutPodCaptures, false},
	{"nodes.json", LayoutPodCaptures, true},
}

// classifyOther classifies a member that no must-gather rule claimed: one of
// a bundle (see bundleRoot), or the log of an Insights archive's conditional
// gatherer, which lies under a namespaces/ folder.
func classifyOther(p string) (classified, string) {
	if _, layout, ok := bundleRoot(p); ok {
		return classifyBundle(p, layout), layout
	}
	if m := insightsCondLogRe.FindStringSubmatch(p); m != nil {
		return classified{Kind: kindContainerLog, Root: m[1], Namespace: m[2], Pod: m[3], Container: m[4]}, LayoutInsights
	}
	return classified{Kind: kindOther}, ""
}

// insightsObjectDirs maps the folders of an Insights archive's config/ to the
// kind they hold; namespaced kinds sit one folder deeper (<ns>/<name>.json).
var insightsObjectDirs = map[string]struct {
	kind       model.Kind
	namespaced bool
}{
	"machineconfigpools":         {model.MachineConfigPools, false},
	"kubeletconfigs":             {model.KubeletConfigs, false},
	"certificatesigningrequests": {model.CertificateSigningRequests, false},
	"persistentvolumes":          {model.PersistentVolumes, false},
	"storage/storageclasses":     {model.StorageClasses, false},
	"machineconfigs":             {model.Kind{Group: "machineconfiguration.openshift.io", Resource: "machineconfigs"}, false},
	"containerruntimeconfigs":    {model.Kind{Group: "machineconfiguration.openshift.io", Resource: "containerruntimeconfigs"}, false},
	"securitycontextconstraint":  {model.Kind{Group: "security.openshift.io", Resource: "securitycontextconstraints"}, false},
	"pdbs":                       {model.Kind{Group: "policy", Resource: "poddisruptionbudgets"}, true},
	"machines":                   {model.Kind{Group: "machine.openshift.io", Resource: "machines"}, true},
}

// supportBundleKinds maps the per-namespace folders and cluster-wide files of
// a support bundle's cluster-resources/ to their kinds.
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
	"limitranges":       {Resource: "limitranges"},
	"namespaces":        model.Namespaces,
	"pvs":               model.PersistentVolumes,
	"storage-classes":   model.StorageClasses,
	"csinodes":          model.CSINodes,
	"volumeattachments": {Group: "storage.k8s.io", Resource: "volumeattachments"},
}

var (
	insightsPodRe       = regexp.MustCompile(`^(.*/)?config/pod/([^/]+)/([^/]+)\.json$`)
	insightsPodLogRe    = regexp.MustCompile(`^(.*/)?config/pod/([^/]+)/logs/([^/]+)/([^/]+)\.log$`)
	insightsCondLogRe   = regexp.MustCompile(`^(.*/)?conditional/namespaces/([^/]+)/pods/([^/]+)/containers/([^/]+)/logs/[^/]+\.log$`)
	insightsNodeRe      = regexp.MustCompile(`^(.*/)?config/node/([^/]+)\.json$`)
	insightsNodeLogRe   = regexp.MustCompile(`^(.*/)?config/node/logs/([^/]+)\.log$`)
	insightsOperatorRe  = regexp.MustCompile(`^(.*/)?config/clusteroperator/([^/]+)\.json$`)
	insightsVersionRe   = regexp.MustCompile(`^(.*/)?config/(version|infrastructure)\.json$`)
	insightsEventsRe    = regexp.MustCompile(`^(.*/)?events/([^/]+)\.json$`)
	insightsObjectRe    = regexp.MustCompile(`^(.*/)?config/(.+)/([^/]+)\.json$`)
	sbPodsRe            = regexp.MustCompile(`^(.*/)?cluster-resources/pods/([^/]+)\.json$`)
	sbEventsRe          = regexp.MustCompile(`^(.*/)?cluster-resources/events/([^/]+)\.json$`)
	sbNodesRe           = regexp.MustCompile(`^(.*/)?cluster-resources/nodes\.json$`)
	sbLogRe             = regexp.MustCompile(`^(.*/)?cluster-resources/pods/logs/([^/]+)/([^/]+)/([^/]+)\.log$`)
	sbListRe            = regexp.MustCompile(`^(.*/)?cluster-resources/([^/]+)/([^/]+)\.json$`)
	sbClusterListRe     = regexp.MustCompile(`^(.*/)?cluster-resources/([^/]+)\.json$`)
	capturePodsRe       = regexp.MustCompile(`^(.*/)?pods/([^/]+)\.json$`)
	captureEventsRe     = regexp.MustCompile(`^(.*/)?events/([^/]+)\.json$`)
	captureNodesRe      = regexp.MustCompile(`^(.*/)?nodes\.json$`)
	insightsLogSuffixRe = regexp.MustCompile(`^(.+)_(current|previous)$`)
)

// classifyBundle returns what a member of an Insights archive, a support
// bundle or a folder of pod captures holds, given the layout its root was
// recognised as; Kind is kindOther for members it does not read.
func classifyBundle(p, layout string) classified {
	switch layout {
	case LayoutInsights:
		return classifyInsights(p)
	case LayoutSupportBundle:
		return classifySupportBundle(p)
	case model.LayoutInstallBundle:
		return classifyInstall(p)
	case LayoutPodCaptures:
		if m := capturePodsRe.FindStringSubmatch(p); m != nil {
			return classified{Kind: kindCaptureObjects, Root: m[1]}
		}
		if m := captureEventsRe.FindStringSubmatch(p); m != nil {
			return classified{Kind: kindAnyEvents, Root: m[1]}
		}
		if m := captureNodesRe.FindStringSubmatch(p); m != nil {
			return classified{Kind: kindNodeList, Root: m[1]}
		}
	}
	return classified{Kind: kindOther}
}

// classifyInstall returns what a member of an install log bundle holds:
// its kubelet and CRI-O journals are node journals (kindServiceLog), the
// other members it reads are the bundle reader's (kindInstall).
func classifyInstall(p string) classified {
	m := installbundle.Classify(p)
	switch m.Kind {
	case installbundle.Other:
		return classified{Kind: kindOther}
	case installbundle.Journal:
		return classified{Kind: kindServiceLog, Root: m.Root, Node: m.Node, Unit: m.Unit}
	}
	return classified{Kind: kindInstall, Root: m.Root, Install: m}
}

func classifyInsights(p string) classified {
	if m := insightsPodRe.FindStringSubmatch(p); m != nil {
		return classified{Kind: kindPod, Root: m[1], Namespace: m[2], Pod: m[3]}
	}
	if m := insightsPodLogRe.FindStringSubmatch(p); m != nil {
		// <container>_current.log and <container>_previous.log hold one
		// container's log; errors.log and messages.log hold the lines of all
		// the pod's containers that matched the operator's filter.
		c := classified{Kind: kindContainerLog, Root: m[1], Namespace: m[2], Pod: m[3]}
		if s := insightsLogSuffixRe.FindStringSubmatch(m[4]); s != nil {
			c.Container, c.Previous = s[1], s[2] == "previous"
		}
		return c
	}
	if m := insightsNodeLogRe.FindStringSubmatch(p); m != nil {
		return classified{Kind: kindNodeKubeletLog, Root: m[1], Node: m[2]}
	}
	if m := insightsNodeRe.FindStringSubmatch(p); m != nil {
		return classified{Kind: kindNode, Root: m[1], Node: m[2]}
	}
	if m := insightsOperatorRe.FindStringSubmatch(p); m != nil {
		return classified{Kind: kindClusterOperator, Root: m[1], Name: m[2]}
	}
	if m := insightsVersionRe.FindStringSubmatch(p); m != nil {
		if m[2] == "version" {
			return classified{Kind: kindClusterVersion, Root: m[1]}
		}
		return classified{Kind: kindInfrastructure, Root: m[1]}
	}
	if m := insightsEventsRe.FindStringSubmatch(p); m != nil && !strings.Contains(m[1], "config/") {
		return classified{Kind: kindAnyEvents, Root: m[1], Namespace: m[2]}
	}
	if m := insightsObjectRe.FindStringSubmatch(p); m != nil {
		dir, ns := m[2], ""
		d, ok := insightsObjectDirs[dir]
		if !ok {
			if i := strings.LastIndex(dir, "/"); i > 0 {
				dir, ns = dir[:i], dir[i+1:]
				d, ok = insightsObjectDirs[dir]
				ok = ok && d.namespaced
			}
		}
		if ok && (ns != "") == d.namespaced {
			return classified{Kind: kindObject, Root: m[1], Group: d.kind.Group, Resource: d.kind.Resource, Namespace: ns, Name: m[3], Filtered: true}
		}
	}
	return classified{Kind: kindOther}
}

func classifySupportBundle(p string) classified {
	if m := sbLogRe.FindStringSubmatch(p); m != nil {
		c := classified{Kind: kindContainerLog, Root: m[1], Namespace: m[2], Pod: m[3], Container: m[4]}
		if name, ok := strings.CutSuffix(m[4], "-previous"); ok && name != "" {
			c.Container, c.Previous = name, true
		}
		return c
	}
	if m := sbPodsRe.FindStringSubmatch(p); m != nil {
		return classified{Kind: kindPodList, Root: m[1], Namespace: m[2]}
	}
	if m := sbEventsRe.FindStringSubmatch(p); m != nil {
		return classified{Kind: kindAnyEvents, Root: m[1], Namespace: m[2]}
	}
	if m := sbNodesRe.FindStringSubmatch(p); m != nil {
		return classified{Kind: kindNodeList, Root: m[1]}
	}
	if m := sbListRe.FindStringSubmatch(p); m != nil {
		if k, ok := supportBundleKinds[m[2]]; ok {
			return classified{Kind: kindObjectList, Root: m[1], Group: k.Group, Resource: k.Resource, Namespace: m[3]}
		}
	}
	if m := sbClusterListRe.FindStringSubmatch(p); m != nil {
		if k, ok := supportBundleKinds[m[2]]; ok {
			return classified{Kind: kindObjectList, Root: m[1], Group: k.Group, Resource: k.Resource}
		}
	}
	return classified{Kind: kindOther}
}

// anyEvent is an event as a kubectl list holds it, or in the Insights
// archive's trimmed form, which has no metadata or involvedObject and names
// its namespace at the top: {"namespace","lastTimestamp","reason","message","type"}.
type anyEvent struct {
	corev1.Event
	TrimmedNamespace string `json:"namespace,omitempty"`
}

// decodeAnyEvents reads an event list in either form. Events of the trimmed
// form get ns (from the file name) when they name no namespace; they have no
// involved object, so they belong to no pod.
func decodeAnyEvents(p, ns string, data []byte) ([]*model.Event, []error) {
	var events []*model.Event
	refs := eventRefs{}
	errs := decodeItemsLean(data, func(o *anyEvent, line int, _ bool) bool {
		e := o.Event
		if e.Namespace == "" {
			e.Namespace = o.TrimmedNamespace
		}
		if e.Namespace == "" {
			e.Namespace = ns
		}
		if e.InvolvedObject.Namespace == "" && e.InvolvedObject.Kind != "" && e.InvolvedObject.Kind != "Node" {
			e.InvolvedObject.Namespace = e.Namespace
		}
		events = append(events, &model.Event{Object: eventObjectOf(&e, refs), Source: model.Source{Path: p, Line: line}, At: model.StampOf(eventTime(&e))})
		return true
	})
	return events, errs
}

// kindOf reads the top-level "kind" and whether "items" is present.
func jsonKind(data []byte) (kind string, list bool) {
	var head struct {
		Kind  string          `json:"kind"`
		Items json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return "", bytes.Contains(data, []byte(`"items"`))
	}
	return head.Kind, head.Items != nil
}

// decodeBundle decodes the bundle kinds that have no must-gather
// counterpart: a pod capture (a Pod or a PodList), an event list of either
// form, one ClusterOperator.
func (b *builder) decodeBundle(p string, c classified, data []byte) []error {
	switch c.Kind {
	case kindAnyEvents:
		events, errs := decodeAnyEvents(p, c.Namespace, data)
		b.mu.Lock()
		b.g.Events = append(b.g.Events, events...)
		b.mu.Unlock()
		return errs
	case kindClusterOperator:
		o, err := decodeObjectLean[openshift.ClusterOperator](data)
		if err != nil {
			return []error{err}
		}
		if o.Name == "" {
			o.Name = c.Name
		}
		b.mu.Lock()
		b.g.Operators = append(b.g.Operators, operatorSummary(o, model.Source{Path: p, Line: 1}))
		b.mu.Unlock()
	case kindCaptureObjects:
		kind, list := jsonKind(data)
		if list {
			var pods []*model.Pod
			errs := decodeItemsLean(data, func(o *corev1.Pod, line int, partial bool) bool {
				if o.Name == "" || o.Kind != "" && o.Kind != "Pod" {
					return true
				}
				if b.podCount.Add(1) > MaxPods {
					b.podLimitOnce.Do(func() {
						b.problem(p, fmt.Sprintf("more than %d pods in the gather: the pods beyond the limit are not analysed", MaxPods))
					})
					return false
				}
				b.parts.add(o)
				pods = append(pods, &model.Pod{Object: *o, Source: model.Source{Path: p, Line: line}, Partial: partial})
				return true
			})
			b.addCapturedPods(c, pods)
			return errs
		}
		if kind != "" && kind != "Pod" {
			return []error{fmt.Errorf("a %s, not a Pod or PodList: skipped", kind)}
		}
		o, err := decodeObjectLean[corev1.Pod](data)
		if err != nil {
			return []error{err}
		}
		if o.Name == "" {
			return []error{fmt.Errorf("not a Pod object (no metadata.name)")}
		}
		b.parts.add(o)
		b.addCapturedPods(c, []*model.Pod{{Object: *o, Source: model.Source{Path: p, Line: 1}}})
	}
	return nil
}

func (b *builder) addCapturedPods(c classified, pods []*model.Pod) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, pod := range pods {
		k := nsKey{c.Root, pod.Object.Namespace}
		b.filePods[k] = append(b.filePods[k], pod)
	}
}

// recordBundle notes the root and layout of a bundle member (see bundleRoot).
func (b *builder) recordBundle(p string) {
	root, layout, ok := bundleRoot(p)
	if !ok {
		return
	}
	b.roots[root] = true
	if layout == model.LayoutInstallBundle {
		b.install.Bundle(root)
	}
	if old := b.bundles[root]; old == "" || layoutRank[layout] < layoutRank[old] {
		b.bundles[root] = layout
	}
}

// layoutRank orders the bundle layouts when one root shows markers of
// several: an Insights archive may hold a pods/ folder of its own.
var layoutRank = map[string]int{model.LayoutInstallBundle: 0, LayoutInsights: 1, LayoutSupportBundle: 2, LayoutPodCaptures: 3}

// markFiltered records that the source of c lists only some objects of its
// kind: pods of an Insights archive or of pod captures, and the objects of
// an Insights archive's config/ folders.
func (b *builder) markFiltered(c classified, layout string) {
	switch {
	case c.Filtered:
		b.objects.MarkFiltered(model.Kind{Group: c.Group, Resource: c.Resource}, "*")
	case filteredLayouts[layout] && (c.Kind == kindPod || c.Kind == kindCaptureObjects):
		b.objects.MarkFiltered(model.Pods, "*")
	case filteredLayouts[layout] && c.Kind == kindAnyEvents:
		b.objects.MarkFiltered(model.Events, "*")
	}
}

// dropNestedCaptures forgets the pod captures found inside an Insights
// archive (its gatherer-testdata/ and the like): they are the archive's own
// files, not objects of the cluster.
func (b *builder) dropNestedCaptures() {
	var nested []string
	for root, layout := range b.bundles {
		if layout != LayoutPodCaptures {
			continue
		}
		for other, ol := range b.bundles {
			if ol == LayoutInsights && other != root && strings.HasPrefix(root, other) {
				nested = append(nested, root)
				break
			}
		}
	}
	if len(nested) == 0 {
		return
	}
	in := func(p string) bool {
		for _, r := range nested {
			if strings.HasPrefix(p, r) {
				return true
			}
		}
		return false
	}
	for _, r := range nested {
		delete(b.roots, r)
		delete(b.bundles, r)
	}
	for name, n := range b.nodes {
		if in(n.Source.Path) {
			delete(b.nodes, name)
		}
	}
	events := b.g.Events[:0]
	for _, e := range b.g.Events {
		if !in(e.Source.Path) {
			events = append(events, e)
		}
	}
	b.g.Events = events
	for k := range b.filePods {
		if in(k.root) {
			delete(b.filePods, k)
		}
	}
}

// onlyBundles reports whether every gather root is a bundle (no must-gather,
// inspect or sosreport): such sources never hold kubelet journals.
func (b *builder) onlyBundles() bool {
	for root := range b.roots {
		if b.bundles[root] == "" {
			return false
		}
	}
	return len(b.roots) > 0
}

// settleDistribution decides whether the gather comes from OpenShift: a
// ClusterVersion, a layout only OpenShift writes (must-gather, inspect,
// Insights archive, install log bundle) or an RHCOS node says so; a support
// bundle, pod captures or sosreport without any of these is vanilla
// Kubernetes. ContainerRuntime is the runtime most nodes report.
func (b *builder) settleDistribution() {
	g := b.g
	runtimes := map[string]int{}
	openshift := g.ClusterVersion != ""
	for _, n := range g.Nodes {
		if rt, _, ok := strings.Cut(n.Object.Status.NodeInfo.ContainerRuntimeVersion, "://"); ok && rt != "" {
			runtimes[rt]++
		}
		if _, ok := n.Object.Labels["node.openshift.io/os_id"]; ok {
			openshift = true
		}
	}
	for _, l := range g.Layouts {
		switch l.Kind {
		case model.LayoutMustGather, model.LayoutInspect, model.LayoutNamespace, LayoutInsights, model.LayoutInstallBundle:
			openshift = true
		}
	}
	// A node sosreport of OpenShift (an RHCOS host that never joined, say)
	// has no ClusterVersion, but its runtime runs the openshift-* static pods.
	for _, p := range g.Pods {
		if strings.HasPrefix(p.Object.Namespace, "openshift-") {
			openshift = true
			break
		}
	}
	g.Distribution = model.DistributionKubernetes
	if openshift {
		g.Distribution = model.DistributionOpenShift
	}
	for _, rt := range sortedKeys(runtimes) {
		if runtimes[rt] > runtimes[g.ContainerRuntime] {
			g.ContainerRuntime = rt
		}
	}
}
