package parser

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mgtriage/mgtriage/parser/insights"
	"github.com/mgtriage/mgtriage/parser/installbundle"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/openshift"
	"github.com/mgtriage/mgtriage/parser/supportbundle"
	corev1 "k8s.io/api/core/v1"
)

// Gathers other than a must-gather that support cases carry. Their readers
// (parser/insights, parser/supportbundle, parser/installbundle) claim their
// members; most map onto the kinds a must-gather has (pod lists, events,
// nodes, container logs, node journals, store objects), so that everything
// after the pass reads them the same way.
const (
	// LayoutInsights is an Insights Operator archive (insights.Layout).
	LayoutInsights = insights.Layout
	// LayoutSupportBundle is a troubleshoot.sh support bundle
	// (supportbundle.Layout).
	LayoutSupportBundle = supportbundle.Layout
	// LayoutPodCaptures is a folder of `kubectl get -o json` captures
	// (supportbundle.LayoutPodCaptures).
	LayoutPodCaptures = supportbundle.LayoutPodCaptures
)

// filteredLayouts are the layouts whose pod list is filtered by the source: a
// pod that is not there proves nothing.
var filteredLayouts = map[string]bool{LayoutInsights: true, LayoutPodCaptures: true}

// bundleRoot returns the folder that holds the non-must-gather gather p
// belongs to ("" for the input itself, else ending in "/") and its layout;
// false when p is not a member of one. The formats claim in order: the
// install log bundle, an Insights archive's markers, a support bundle's or
// pod captures' markers, the other config/ files of an Insights archive.
// Paths inside a must-gather's namespaces/ or cluster-scoped-resources/, or
// a sosreport, never are.
func bundleRoot(p string) (root, layout string, ok bool) {
	if root, ok = installbundle.Root(p); ok {
		layout = model.LayoutInstallBundle
	} else if root, ok = insights.Root(p); ok {
		layout = LayoutInsights
	} else if root, layout, ok = supportbundle.Root(p); ok {
	} else if root, ok = insights.ObjectRoot(p); ok {
		layout = LayoutInsights
	} else {
		return "", "", false
	}
	for _, foreign := range []string{"namespaces/", "cluster-scoped-resources/", "sos_commands/"} {
		if strings.Contains(root, foreign) {
			return "", "", false
		}
	}
	return root, layout, true
}

// classifyOther classifies a member that no must-gather rule claimed: one of
// a bundle (see bundleRoot), or the log of an Insights archive's conditional
// gatherer, which lies under a namespaces/ folder.
func classifyOther(p string) (classified, string) {
	if _, layout, ok := bundleRoot(p); ok {
		return classifyBundle(p, layout), layout
	}
	if m := insights.ClassifyConditional(p); m.Kind != insights.Other {
		return fromInsights(m), LayoutInsights
	}
	return classified{Kind: kindOther}, ""
}

// classifyBundle returns what a member of an Insights archive, a support
// bundle, pod captures or an install log bundle holds, given the layout its
// root was recognised as; Kind is kindOther for members it does not read.
func classifyBundle(p, layout string) classified {
	switch layout {
	case LayoutInsights:
		return fromInsights(insights.Classify(p))
	case LayoutSupportBundle, LayoutPodCaptures:
		return fromSupportBundle(supportbundle.Classify(p, layout))
	case model.LayoutInstallBundle:
		return classifyInstall(p)
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

// fromInsights maps a member of an Insights archive onto the kind the load
// reads it as: a must-gather's, or the archive reader's own (kindInsights).
func fromInsights(m insights.Member) classified {
	c := classified{Root: m.Root, Namespace: m.Namespace, Filtered: m.Filtered}
	switch m.Kind {
	case insights.Pod:
		c.Kind, c.Pod = kindPod, m.Pod
	case insights.ContainerLog:
		c.Kind, c.Pod, c.Container, c.Previous = kindContainerLog, m.Pod, m.Container, m.Previous
	case insights.NodeLog:
		c.Kind, c.Node = kindNodeKubeletLog, m.Node
	case insights.Node:
		c.Kind, c.Node = kindNode, m.Node
	case insights.ClusterVersion:
		c.Kind = kindClusterVersion
	case insights.Infrastructure:
		c.Kind = kindInfrastructure
	case insights.Object:
		c.Kind, c.Group, c.Resource, c.Name = kindObject, m.Object.Group, m.Object.Resource, m.Name
	case insights.ClusterOperator:
		c.Kind, c.Insights = kindInsights, m
	default:
		return classified{Kind: kindOther}
	}
	return c
}

// fromSupportBundle maps a member of a support bundle or pod captures onto
// the kind the load reads it as: a must-gather's, or the bundle reader's own
// (kindSupportBundle).
func fromSupportBundle(m supportbundle.Member) classified {
	c := classified{Root: m.Root, Namespace: m.Namespace, Filtered: m.Filtered}
	switch m.Kind {
	case supportbundle.PodList:
		c.Kind = kindPodList
	case supportbundle.ContainerLog:
		c.Kind, c.Pod, c.Container, c.Previous = kindContainerLog, m.Pod, m.Container, m.Previous
	case supportbundle.NodeList:
		c.Kind = kindNodeList
	case supportbundle.ObjectList:
		c.Kind, c.Group, c.Resource = kindObjectList, m.Object.Group, m.Object.Resource
	case supportbundle.Events, supportbundle.PodCaptures:
		c.Kind, c.Bundle = kindSupportBundle, m
	default:
		return classified{Kind: kindOther}
	}
	return c
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
// involved object, so they belong to no pod. lm is the load's memory, whose
// strings the events' are.
func decodeAnyEvents(p, ns string, data []byte, lm loadMem) ([]*model.Event, []error) {
	var events []*model.Event
	refs := eventRefs{}
	lines := lineIndex{}
	errs := decodeItemsLean(data, lm, func(o *anyEvent, line int, _ bool) bool {
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
		ev := &model.Event{Object: eventObjectOf(&e, lm.strs, refs), Source: model.Source{Path: p, Line: line}, At: model.StampOf(eventTime(&e))}
		if line > 0 {
			ev.SetMessageLine(keyLine(data, lines.of(data), line, "message"))
		}
		events = append(events, ev)
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

// readAnyEvents reads an event list in either form (decodeAnyEvents), the
// load.Events handed back by a format.
func (b *builder) readAnyEvents(p, ns string, data []byte) []error {
	events, errs := decodeAnyEvents(p, ns, data, b.mem())
	b.mu.Lock()
	b.g.Events = append(b.g.Events, events...)
	b.mu.Unlock()
	return errs
}

// readClusterOperator reads one ClusterOperator, named name when it names
// itself not (load.ClusterOperator).
func (b *builder) readClusterOperator(p, name string, data []byte) []error {
	o, err := decodeObjectLean[openshift.ClusterOperator](data, b.mem())
	if err != nil {
		return []error{err}
	}
	if o.Name == "" {
		o.Name = name
	}
	b.mu.Lock()
	op := operatorSummary(o, model.Source{Path: p, Line: 1}, data, &lineIndex{})
	b.g.Operators = append(b.g.Operators, op)
	b.mu.Unlock()
	b.live.addOperators([]model.Operator{op})
	return nil
}

// readPodCaptures reads a pod capture, a Pod or a PodList, of the gather at
// root (load.PodCaptures).
func (b *builder) readPodCaptures(p, root string, data []byte) []error {
	kind, list := jsonKind(data)
	if list {
		var pods []*model.Pod
		lines := lineIndex{}
		errs := decodeItemsLean(data, b.mem(), func(o *corev1.Pod, line int, partial bool) bool {
			if o.Name == "" || o.Kind != "" && o.Kind != "Pod" {
				return true
			}
			if !b.podUnderCap(p, line) {
				return false
			}
			b.parts.add(o)
			pods = append(pods, &model.Pod{Object: *o, Source: model.Source{Path: p, Line: line}, Partial: partial, Fields: podFieldLines(o, data, &lines, line)})
			return true
		})
		b.addCapturedPods(root, pods)
		return errs
	}
	if kind != "" && kind != "Pod" {
		return []error{fmt.Errorf("a %s, not a Pod or PodList: skipped", kind)}
	}
	o, err := decodeObjectLean[corev1.Pod](data, b.mem())
	if err != nil {
		return []error{err}
	}
	if why := subjectProblem(o); why != "" {
		return []error{errors.New(why)}
	}
	b.parts.add(o)
	b.addCapturedPods(root, []*model.Pod{{Object: *o, Source: model.Source{Path: p, Line: 1}, Fields: podFieldLines(o, data, &lineIndex{}, 1)}})
	return nil
}

func (b *builder) addCapturedPods(root string, pods []*model.Pod) {
	b.live.addPods(pods)
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, pod := range pods {
		k := nsKey{root, pod.Object.Namespace}
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
		b.install.Note(root, p)
	}
	if old := b.bundles[root]; old == "" || layoutRank[layout] < layoutRank[old] {
		b.bundles[root] = layout
	}
}

// layoutRank orders the bundle layouts when one root shows markers of
// several: an Insights archive may hold a pods/ folder of its own.
var layoutRank = map[string]int{model.LayoutInstallBundle: 0, LayoutInsights: 1, LayoutSupportBundle: 2, LayoutPodCaptures: 3}

// markFiltered records that the source of c lists only some objects of
// c.Filtered's kind, as its format judged: pods and events of an Insights
// archive or of pod captures, and the objects of an Insights archive's
// config/ folders.
func (b *builder) markFiltered(c classified) {
	if c.Filtered.Resource != "" {
		b.objects.MarkFiltered(c.Filtered, "*")
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

// plainRuntimes reports whether the gather's container runtimes are known
// and none is CRI-O: every node that reports one, and every container ID of
// the pods, names containerd or Docker.
func plainRuntimes(g *model.Gather, nodeRuntimes map[string]int) bool {
	seen := false
	for rt := range nodeRuntimes {
		if rt != "containerd" && rt != "docker" {
			return false
		}
		seen = true
	}
	for _, p := range g.Pods {
		for _, list := range [][]corev1.ContainerStatus{p.Object.Status.InitContainerStatuses, p.Object.Status.ContainerStatuses} {
			for _, cs := range list {
				rt, _, ok := strings.Cut(cs.ContainerID, "://")
				if !ok {
					continue
				}
				if rt != "containerd" && rt != "docker" {
					return false
				}
				seen = true
			}
		}
	}
	return seen
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

// settleDistribution decides whether the gather comes from OpenShift, the
// one place that does (the rules' words follow Gather.Distribution alone).
// OpenShift's own facts say so: a ClusterVersion, an RHCOS node, a pod or
// object in an openshift-* namespace, an object of an *.openshift.io group,
// or a layout only OpenShift writes (an Insights archive, an install log
// bundle). A must-gather or inspect layout says so too, unless the gather's
// runtimes contradict it: OpenShift 4 runs every container under CRI-O, so
// must-gather-shaped folders whose nodes and containers all report
// containerd or Docker, with none of the facts above, come from plain
// Kubernetes. A support bundle, pod captures or sosreport without any of
// these is vanilla Kubernetes. ContainerRuntime is the runtime most nodes
// report.
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
	ocpLayout := false
	for _, l := range g.Layouts {
		switch l.Kind {
		case LayoutInsights, model.LayoutInstallBundle:
			openshift = true
		case model.LayoutMustGather, model.LayoutInspect, model.LayoutNamespace:
			ocpLayout = true
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
	if !openshift && b.objects.Any(func(o *model.Object) bool {
		return strings.HasPrefix(o.Namespace, "openshift-") ||
			o.Kind == model.Namespaces && strings.HasPrefix(o.Name, "openshift-") ||
			strings.HasSuffix(o.Group, ".openshift.io") || o.Group == "openshift.io"
	}) {
		openshift = true
	}
	for ns := range b.objects.GatheredNamespaces() {
		if strings.HasPrefix(ns, "openshift-") {
			openshift = true
		}
	}
	if !openshift && ocpLayout {
		openshift = !plainRuntimes(g, runtimes)
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
