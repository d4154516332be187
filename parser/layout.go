package parser

import (
	"fmt"
	"github.com/mgtriage/mgtriage/parser/store"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Layout kinds.
const (
	LayoutMustGather = "must-gather"      // an image folder of `oc adm must-gather`
	LayoutInspect    = "inspect"          // `oc adm inspect` output (also the inspect.local.* fallback of a must-gather)
	LayoutSosreport  = "sosreport"        // a node sosreport with the kubernetes plugin
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
	// NamespacesWithoutPods are namespace folders with no core/pods.yaml.
	NamespacesWithoutPods []string
	// PodsWithoutLogs are pods with started containers but no container log in the gather.
	PodsWithoutLogs []string
	// NodesWithoutLogs are nodes with no kubelet journal in the gather.
	NodesWithoutLogs []string
}

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

// mustGatherMarkers are folders only a must-gather image writes beside
// namespaces/ and cluster-scoped-resources/.
var mustGatherMarkers = []string{"host_service_logs/", "nodes/", "etcd_info/", "monitoring/", "ingress_controllers/", "network_logs/"}

func (b *builder) recordMustGatherMarker(p string) {
	for _, m := range mustGatherMarkers {
		if strings.HasPrefix(p, m) {
			b.mgMarkers[""] = true
		} else if i := strings.Index(p, "/"+m); i >= 0 {
			b.mgMarkers[p[:i+1]] = true
		}
	}
}

var mgLogErrorRe = regexp.MustCompile(`(?i)\berror\b|\bfailed\b|timed out`)

func (b *builder) readMustGatherLogs(data []byte) {
	for _, line := range strings.Split(string(data), "\n") {
		if mgLogErrorRe.MatchString(line) && len(b.health.MustGatherErrors) < maxHealthItems {
			b.health.MustGatherErrors = append(b.health.MustGatherErrors, cleanText([]byte(strings.TrimSpace(line))))
		}
	}
}

// sosDateRe reads `timedatectl` ("Universal time: Fri 2022-02-11 19:24:03 UTC").
var sosDateRe = regexp.MustCompile(`Universal time: \w+ (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) UTC`)

// parseSosDate reads the gather time of a sosreport from its date file: the
// timedatectl form, or `date` output ("Fri Feb 11 19:24:03 UTC 2022").
func parseSosDate(data []byte) (time.Time, bool) {
	s := string(data)
	if m := sosDateRe.FindStringSubmatch(s); m != nil {
		t, err := time.Parse("2006-01-02 15:04:05", m[1])
		return t.UTC(), err == nil
	}
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		for _, layout := range []string{time.UnixDate, "Mon Jan _2 15:04:05 MST 2006", time.RFC3339} {
			if t, err := time.Parse(layout, line); err == nil {
				return t.UTC(), true
			}
		}
	}
	return time.Time{}, false
}

// settleLayouts names the kind of every gather root found, and fills Health.
func (b *builder) settleLayouts() {
	g := b.g
	pods := map[string]int{}
	for _, p := range g.Pods {
		pods[rootOf(p.Source.Path)]++
	}
	for _, root := range g.Roots {
		l := Layout{Root: root, Pods: pods[root]}
		dir := strings.TrimSuffix(root, "/")
		base := path.Base(dir)
		switch {
		case b.bundles[root] != "":
			l.Kind = b.bundles[root]
		case b.sosRoots[root]:
			l.Kind = LayoutSosreport
			l.Node = b.hostnames[dirKey(dir)]
		case b.nsFolder:
			l.Kind = LayoutNamespace
		case strings.HasPrefix(base, "inspect.local."):
			l.Kind = LayoutInspect
		case b.timestamps[dirKey(dir)] != nil || b.versions[dirKey(dir)] != "" || b.mgMarkers[root]:
			l.Kind = LayoutMustGather
			if root != "" {
				l.Image = base
			}
			if v := b.versions[dirKey(dir)]; v != "" {
				l.Image = v
			}
		default:
			l.Kind = LayoutInspect
		}
		g.Layouts = append(g.Layouts, l)
	}
	for k := range b.namespaces {
		if b.bundles[strings.TrimSuffix(k.root, "conditional/")] != "" {
			continue // an Insights archive's namespaces/ folders hold what its gatherers chose
		}
		if _, ok := b.listPods[k]; !ok && len(b.filePods[k]) == 0 {
			g.Health.NamespacesWithoutPods = append(g.Health.NamespacesWithoutPods, k.root+"namespaces/"+k.ns)
		}
	}
	sort.Strings(g.Health.NamespacesWithoutPods)
	capList(&g.Health.NamespacesWithoutPods)
	logs := map[string]bool{}
	for _, p := range g.Pods {
		for _, l := range p.Logs {
			logs[p.Key()] = logs[p.Key()] || l.Source.Path != ""
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
	for _, n := range g.Nodes {
		if b.onlyBundles() {
			break // archives and bundles carry no kubelet journals by design
		}
		if !b.logHosts[n.Object.Name] && !b.logHosts[shortHost(n.Object.Name)] {
			g.Health.NodesWithoutLogs = append(g.Health.NodesWithoutLogs, n.Object.Name)
		}
	}
	capList(&g.Health.NodesWithoutLogs)
	if len(b.clusterIDs) > 1 {
		b.problem(".", fmt.Sprintf("the input holds gathers of %d clusters (%s); they were analysed together", len(b.clusterIDs), strings.Join(sortedKeys(b.clusterIDs), ", ")))
	}
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

func shortHost(h string) string { return store.HostKey(h) }

// SeveralGathersError is returned by Load when the input holds must-gathers
// of different clusters, or of one cluster taken at different times: merged,
// the older state of a pod would hide the newer one. Gathers lists each with
// its folder, gather time and cluster ID, for the user to pick one.
type SeveralGathersError struct {
	Gathers []string
}

func (e *SeveralGathersError) Error() string {
	return fmt.Sprintf("the input holds %d separate gathers; analyse one at a time:\n  %s", len(e.Gathers), strings.Join(e.Gathers, "\n  "))
}

// maxGatherSpread is how far apart the gather times of image folders in
// different top folders may be and still count as one gather.
const maxGatherSpread = time.Hour

// gatherTop returns the folder that holds the gather of root: the parent of
// an image folder (quay-io-...-sha256-..., registry-...) or an inspect.local.*
// folder, else the root itself ("." for the input).
func gatherTop(root string) string {
	dir := strings.TrimSuffix(root, "/")
	if dir == "" {
		return "."
	}
	base := path.Base(dir)
	if strings.Contains(base, "sha256") || strings.HasPrefix(base, "inspect.local.") || strings.Count(base, "-") >= 3 && strings.ContainsAny(base, "0123456789") {
		return path.Dir(dir)
	}
	return dir
}

// severalGathers returns a *SeveralGathersError when must-gather or inspect
// roots under different top folders disagree on the cluster or the time.
// Image folders side by side in one must-gather.local.* folder are one gather,
// and sosreports are merged with the must-gather of their cluster.
func (b *builder) severalGathers() error {
	type unit struct {
		top      string
		clusters map[string]bool
		first    time.Time
	}
	units := map[string]*unit{}
	for _, l := range b.g.Layouts {
		if l.Kind == LayoutSosreport {
			continue
		}
		top := gatherTop(l.Root)
		u := units[top]
		if u == nil {
			u = &unit{top: top, clusters: map[string]bool{}}
			units[top] = u
		}
		if id := b.rootCluster[l.Root]; id != "" {
			u.clusters[id] = true
		}
		for _, dir := range []string{dirKey(strings.TrimSuffix(l.Root, "/")), dirKey(top)} {
			if ts := b.timestamps[dir]; len(ts) > 0 && (u.first.IsZero() || ts[0].Before(u.first)) {
				u.first = ts[0]
			}
		}
	}
	if len(units) < 2 {
		return nil
	}
	clusters := map[string]bool{}
	var lo, hi time.Time
	for _, u := range units {
		for id := range u.clusters {
			clusters[id] = true
		}
		if !u.first.IsZero() {
			if lo.IsZero() || u.first.Before(lo) {
				lo = u.first
			}
			if u.first.After(hi) {
				hi = u.first
			}
		}
	}
	if len(clusters) < 2 && hi.Sub(lo) <= maxGatherSpread {
		return nil
	}
	e := &SeveralGathersError{}
	for _, top := range sortedKeys(units) {
		u := units[top]
		when := "no gather time"
		if !u.first.IsZero() {
			when = "gathered " + u.first.Format(time.RFC3339)
		}
		cluster := "cluster unknown"
		if ids := sortedKeys(u.clusters); len(ids) > 0 {
			cluster = "cluster " + strings.Join(ids, ",")
		}
		e.Gathers = append(e.Gathers, fmt.Sprintf("%s (%s, %s)", top, when, cluster))
	}
	return e
}
