package parser

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/sosreport"
)

// maxHealthItems bounds each list of Health.
const maxHealthItems = 200

func (b *builder) recordNamespace(p string) {
	i := strings.Index(p, "namespaces/")
	if i < 0 || (i > 0 && p[i-1] != '/') {
		return
	}
	rest := p[i+len("namespaces/"):]
	ns, _, ok := strings.Cut(rest, "/")
	if !ok || ns == "" {
		return
	}
	b.namespaces[nsKey{p[:i], ns}] = true
}

// namespacesExpectingPods returns the namespaces that the gather shows run
// pods: they hold a workload object, an event about a pod or a pod's logs.
func (b *builder) namespacesExpectingPods() map[string]bool {
	out := b.objects.NamespacesOf(model.ControllerStoreKinds()...) // controllers run pods in their namespace
	for _, e := range b.g.Events {
		if io := e.Object.InvolvedObject; io.Kind == "Pod" && io.Namespace != "" {
			out[io.Namespace] = true
		}
	}
	for key := range b.logs {
		if ns, _, ok := strings.Cut(key, "/"); ok {
			out[ns] = true
		}
	}
	return out
}

func (b *builder) hasNamespaceObject(name string) bool {
	o, _ := b.objects.Get(model.Namespaces, "", name)
	return o != nil
}

// settleLayouts names the kind of every gather root found, and fills Health.
func (b *builder) settleLayouts() {
	g := b.g
	pods := map[string]int{}
	for _, p := range g.Pods {
		pods[rootOf(p.Source.Path)]++
	}
	for _, root := range g.Roots {
		l := model.Layout{Root: root, Pods: pods[root]}
		dir := strings.TrimSuffix(root, "/")
		base := path.Base(dir)
		switch {
		case b.bundles[root] != "":
			l.Kind = b.bundles[root]
		case b.sosRoots[root]:
			l.Kind = model.LayoutSosreport
			l.Node = b.hostnames[dirKey(dir)]
			l.Sos, l.Clock = b.sos.Facts(dirKey(dir))
			g.Health.SosCommands = append(g.Health.SosCommands, sosreport.HealthLines(root, l.Sos)...)
		case b.nsFolder:
			l.Kind = model.LayoutNamespace
		case strings.HasPrefix(base, "inspect.local."):
			l.Kind = model.LayoutInspect
		case b.mustGatherImage(root, &l):
			l.Kind = model.LayoutMustGather
		default:
			l.Kind = model.LayoutInspect
		}
		g.Layouts = append(g.Layouts, l)
	}
	expects := b.namespacesExpectingPods()
	for k := range b.namespaces {
		if b.bundles[strings.TrimSuffix(k.root, "conditional/")] != "" {
			continue // an Insights archive's namespaces/ folders hold what its gatherers chose
		}
		if _, ok := b.listPods[k]; ok || len(b.filePods[k]) > 0 {
			continue
		}
		switch {
		case k.ns == "all" && !expects[k.ns] && !b.hasNamespaceObject("all"):
			// A product gather's own namespaces/all/ folder, not a
			// namespace.
		case expects[k.ns]:
			g.Health.NamespacesWithoutPods = append(g.Health.NamespacesWithoutPods, k.root+"namespaces/"+k.ns)
		default:
			g.Health.NamespacesWithoutWorkloads = append(g.Health.NamespacesWithoutWorkloads, k.root+"namespaces/"+k.ns)
		}
	}
	sort.Strings(g.Health.NamespacesWithoutPods)
	capList(&g.Health.NamespacesWithoutPods)
	sort.Strings(g.Health.NamespacesWithoutWorkloads)
	capList(&g.Health.NamespacesWithoutWorkloads)
	logs := map[string]bool{}
	for _, p := range g.Pods {
		for _, l := range p.Logs {
			logs[p.Key()] = logs[p.Key()] || l.Path() != ""
		}
	}
	hasLogs := len(b.logs) > 0
	for _, p := range g.Pods {
		started := false
		for _, c := range p.Containers {
			if c.State == "running" || c.State == "terminated" || c.Last != nil {
				started = true
			}
		}
		if hasLogs && started && !logs[p.Key()] && !filteredLayouts[b.bundles[rootOf(p.Source.Path)]] {
			g.Health.PodsWithoutLogs = append(g.Health.PodsWithoutLogs, p.Key())
		}
	}
	capList(&g.Health.PodsWithoutLogs)
	logHosts := map[string]bool{} // by model.HostKey
	for h := range b.logHosts {
		logHosts[model.HostKey(h)] = true
	}
	for _, n := range g.Nodes {
		if b.onlyBundles() {
			break // archives and bundles carry no kubelet journals by design
		}
		if !logHosts[model.HostKey(n.Object.Name)] {
			g.Health.NodesWithoutLogs = append(g.Health.NodesWithoutLogs, n.Object.Name)
		}
	}
	capList(&g.Health.NodesWithoutLogs)
	capList(&g.Health.SosCommands)
	if len(b.clusterIDs) > 1 {
		b.problem(".", fmt.Sprintf("the input holds gathers of %d clusters (%s); they were analysed together", len(b.clusterIDs), strings.Join(sortedKeys(b.clusterIDs), ", ")))
	}
}

// mustGatherImage reports whether root is a must-gather image folder
// (mustgather.Reader.Layout), setting l.Image when it is.
func (b *builder) mustGatherImage(root string, l *model.Layout) bool {
	image, ok := b.mustgather.Layout(root, b.timestamps[dirKey(strings.TrimSuffix(root, "/"))] != nil)
	if ok {
		l.Image = image
	}
	return ok
}

func capList(l *[]string) {
	if len(*l) > maxHealthItems {
		n := len(*l) - maxHealthItems
		*l = append((*l)[:maxHealthItems], fmt.Sprintf("… and %d more", n))
	}
}

// rootOf returns the gather root a path lies in ("" when none).
func rootOf(p string) string {
	if r, ok := gatherRoot(p); ok {
		return r
	}
	r, _, _ := bundleRoot(p)
	return r
}

// dirKey maps a root without its trailing slash to the key of the maps
// filled by path.Dir (where the input itself is ".").
func dirKey(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}
