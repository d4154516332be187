package parser

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
)

// SeveralGathersError is returned by Load when the input holds gathers that
// cannot be read as one cluster: must-gathers or inspects of different
// clusters (their ClusterVersions name different cluster IDs), gathers with
// nothing that links them (no cluster ID, no node name and no gather time in
// common), or gathers of one cluster taken more than maxGatherSpread apart
// (merged, the older state of a pod would hide the newer one). Gathers lists
// each with its folder, gather time and cluster ID; Why says what kept them
// apart.
type SeveralGathersError struct {
	Gathers []string
	Why     string
	// Parts are the clusters the upload splits into, each with the gathers
	// (by top folder) read together; nil when there are too many gathers to
	// split. Tops are the top folders of every gather of the input, for
	// LoadWith's Options.Part.
	Parts []Part
	Tops  []string
	// Total is the number of gathers in the input (Gathers may list fewer).
	Total int
}

// Part is one cluster of an upload that holds several: Name is a folder name
// for its reports ("1-must-gather.local.5049263173451366137") and Tops the
// top folders of its gathers, relative to the input ("." for the input
// itself).
type Part struct {
	Name string
	Tops []string
}

func (e *SeveralGathersError) Error() string {
	if len(e.Parts) == 0 {
		return fmt.Sprintf("the input holds %d separate gathers (%s); analyse one at a time (--split reads at most %d gathers):\n  %s", e.Total, e.Why, maxGathers, strings.Join(e.Gathers, "\n  "))
	}
	return fmt.Sprintf("the input holds %d parts that are not one cluster (%s); analyse one at a time, or all with --split:\n  %s", len(e.Parts), e.Why, strings.Join(e.Gathers, "\n  "))
}

// maxGatherSpread is how far apart the gather times of two gathers of one
// cluster may be and still be read together.
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

// gatherUnit is one part of the upload: the must-gather image folders and
// inspect folders under one top folder, or one sosreport, or a bundle.
type gatherUnit struct {
	top      string
	kinds    map[string]bool // layout kinds of its roots
	host     string          // a sosreport's host name
	clusters map[string]bool // cluster IDs of its ClusterVersions
	infra    map[string]bool // infrastructure names of its Infrastructure configs
	apis     map[string]bool // API server URLs of its Infrastructure configs
	first    time.Time       // its earliest gather time, zero when unknown
	// nodes: host key → node name, of its Node objects and its pods'
	// spec.nodeName; facts: host key → the machine facts of its Node
	// objects; kubelets: the minor versions ("v1.22") its nodes' kubelets run.
	nodes    map[string]string
	facts    map[string]model.MachineFacts
	kubelets map[string]bool
	// machine and kubeVersion are a sosreport's own host's machine facts
	// and the Kubernetes version it printed.
	machine     model.MachineFacts
	kubeVersion string
	// clusterNodes are the nodes a sosreport's kubectl/oc output lists or
	// describes (their machine facts in facts): nodes of its cluster.
	clusterNodes []string
}

func (u *gatherUnit) sos() bool { return u.kinds[model.LayoutSosreport] }

// identity says what the part carries that tells its cluster: cluster ID,
// infrastructure name and API URL; for a sosreport its host, machine facts
// and Kubernetes version; "identity unknown" when it carries none.
func (u *gatherUnit) identity() string {
	var parts []string
	if u.sos() {
		if u.host != "" {
			parts = append(parts, "host "+u.host)
		}
		if u.machine.MachineID != "" {
			parts = append(parts, "machine-id "+u.machine.MachineID)
		} else if u.machine.SystemUUID != "" {
			parts = append(parts, "system UUID "+u.machine.SystemUUID)
		}
		if u.kubeVersion != "" {
			parts = append(parts, "Kubernetes "+u.kubeVersion)
		}
	} else {
		if ids := sortedKeys(u.clusters); len(ids) > 0 {
			parts = append(parts, "cluster "+strings.Join(ids, ","))
		} else {
			parts = append(parts, "cluster unknown")
		}
		if n := sortedKeys(u.infra); len(n) > 0 {
			parts = append(parts, "infrastructure "+strings.Join(n, ","))
		}
		if n := sortedKeys(u.apis); len(n) > 0 {
			parts = append(parts, "API "+strings.Join(n, ","))
		}
		if v := sortedKeys(u.kubelets); len(v) > 0 {
			parts = append(parts, "kubelet "+strings.Join(v, ","))
		}
	}
	if len(parts) == 0 {
		return "identity unknown"
	}
	return strings.Join(parts, ", ")
}

func (u *gatherUnit) describe() string {
	kinds := sortedKeys(u.kinds)
	what := strings.Join(kinds, "+")
	if u.host != "" && u.sos() {
		what += " of host " + u.host
	}
	when := "no gather time"
	if !u.first.IsZero() {
		when = "gathered " + u.first.Format(time.RFC3339)
	}
	if u.sos() {
		id := ""
		if u.machine.MachineID != "" {
			id = ", machine-id " + u.machine.MachineID
		}
		if u.kubeVersion != "" {
			id += ", Kubernetes " + u.kubeVersion
		}
		return fmt.Sprintf("%s/ (%s, %s%s)", u.top, what, when, id)
	}
	cluster := "cluster unknown"
	if ids := sortedKeys(u.clusters); len(ids) > 0 {
		cluster = "cluster " + strings.Join(ids, ",")
	} else if n := sortedKeys(u.infra); len(n) > 0 {
		cluster = "infrastructure " + strings.Join(n, ",")
	}
	return fmt.Sprintf("%s/ (%s, %s, %s)", u.top, what, when, cluster)
}

// unitTops maps every gather root to the folder of the gather it belongs
// to: a sosreport is its own; an inspect.local.* folder belongs to the
// must-gather beside it (the fallback of a failed image) and is its own
// gather otherwise; image folders under one top folder are one gather.
func (b *builder) unitTops() map[string]string {
	isInspect := func(root string) bool {
		return strings.HasPrefix(path.Base(strings.TrimSuffix(root, "/")), "inspect.local.")
	}
	imageTops := map[string]bool{}
	for root := range b.roots {
		if !b.sosRoots[root] && !isInspect(root) {
			imageTops[gatherTop(root)] = true
		}
	}
	out := make(map[string]string, len(b.roots))
	for root := range b.roots {
		own := dirKey(strings.TrimSuffix(root, "/"))
		switch {
		case b.sosRoots[root]:
			out[root] = own
		case isInspect(root) && !imageTops[gatherTop(root)]:
			out[root] = own
		default:
			out[root] = gatherTop(root)
		}
	}
	return out
}

// unitTimes returns the earliest gather time of each gather (by the folder
// unitTops names): the timestamp files of its roots, else of its top folder.
func (b *builder) unitTimes(tops map[string]string) map[string]time.Time {
	out := map[string]time.Time{}
	earliest := func(top string, ts []time.Time) {
		if len(ts) > 0 && (out[top].IsZero() || ts[0].Before(out[top])) {
			out[top] = ts[0]
		}
	}
	for root, top := range tops {
		earliest(top, b.timestamps[dirKey(strings.TrimSuffix(root, "/"))])
	}
	for _, top := range tops {
		if out[top].IsZero() {
			earliest(top, b.timestamps[top])
		}
	}
	return out
}

// seenNode is a Node object as decoded, before one per name is kept.
type seenNode struct {
	path, name, kubelet string
	facts               model.MachineFacts
}

// kubeMinor returns the "v1.22" of a Kubernetes version ("v1.22.0-rc.0+75ee307"),
// "" when v is not one (ParseKubeVersion reads it).
func kubeMinor(v string) string {
	pv := ParseKubeVersion(v)
	if pv.Major == 0 {
		return ""
	}
	return fmt.Sprintf("v%d.%d", pv.Major, pv.Minor)
}

// units groups the layouts into gathers and collects what identifies each.
func (b *builder) units() []*gatherUnit {
	byTop := map[string]*gatherUnit{}
	rootUnit := map[string]*gatherUnit{}
	tops := b.unitTops()
	times := b.unitTimes(tops)
	for _, l := range b.g.Layouts {
		top := tops[l.Root]
		u := byTop[top]
		if u == nil {
			u = &gatherUnit{top: top, kinds: map[string]bool{}, clusters: map[string]bool{}, infra: map[string]bool{}, apis: map[string]bool{},
				nodes: map[string]string{}, facts: map[string]model.MachineFacts{}, kubelets: map[string]bool{}, first: times[top]}
			byTop[top] = u
		}
		rootUnit[l.Root] = u
		u.kinds[l.Kind] = true
		if l.Kind == model.LayoutSosreport {
			dir := dirKey(strings.TrimSuffix(l.Root, "/"))
			u.machine = b.sos.Machine(dir)
			u.kubeVersion = b.sos.KubeVersion(dir)
			if l.Node != "" {
				u.host = l.Node
				u.nodes[model.HostKey(l.Node)] = l.Node
			}
		}
		if id := b.rootCluster[l.Root]; id != "" {
			u.clusters[id] = true
		}
		if n := b.rootInfra[l.Root]; n != "" {
			u.infra[n] = true
		}
		if a := b.rootAPI[l.Root]; a != "" {
			u.apis[a] = true
		}
	}
	// The unit of a path: its gather root's, else that of the longest layout
	// root the path lies under (support bundles, Insights archives and pod
	// captures keep their nodes and pods below their own roots).
	roots := sortedKeys(rootUnit)
	sort.SliceStable(roots, func(i, j int) bool { return len(roots[i]) > len(roots[j]) })
	unitOf := func(root, p string) *gatherUnit {
		if u := rootUnit[root]; u != nil {
			return u
		}
		for _, r := range roots {
			if r != "" && strings.HasPrefix(p, r) {
				return rootUnit[r]
			}
		}
		return rootUnit[""]
	}
	addNode := func(root, p, name string) *gatherUnit {
		if u := unitOf(root, p); u != nil && name != "" && !u.sos() {
			u.nodes[model.HostKey(name)] = name
			return u
		}
		return nil
	}
	for _, n := range b.nodeSeen {
		u := addNode(rootOf(n.path), n.path, n.name)
		if u == nil {
			// A sosreport's own kubectl/oc describe output names nodes of
			// its cluster: their machine facts can prove which cluster
			// that is, though its host need not be one of them.
			if s := unitOf(rootOf(n.path), n.path); s != nil && s.sos() {
				if !n.facts.Empty() {
					s.facts[model.HostKey(n.name)] = n.facts
				}
				if !slices.Contains(s.clusterNodes, n.name) {
					s.clusterNodes = append(s.clusterNodes, n.name)
				}
			}
			continue
		}
		if !n.facts.Empty() {
			u.facts[model.HostKey(n.name)] = n.facts
		}
		if m := kubeMinor(n.kubelet); m != "" {
			u.kubelets[m] = true
		}
	}
	for _, pods := range []map[nsKey][]*model.Pod{b.listPods, b.filePods} {
		for k, ps := range pods {
			for _, p := range ps {
				addNode(k.root, p.Source.Path, p.Object.Spec.NodeName)
			}
		}
	}
	out := make([]*gatherUnit, 0, len(byTop))
	for _, top := range sortedKeys(byTop) {
		out = append(out, byTop[top])
	}
	// Must-gathers first, then inspects, then sosreports, each by folder.
	rank := func(u *gatherUnit) int {
		switch {
		case u.kinds[model.LayoutMustGather]:
			return 0
		case u.sos():
			return 2
		}
		return 1
	}
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i]) < rank(out[j]) })
	return out
}

// sharedNodes returns the node names two gathers both name, sorted.
func sharedNodes(a, c *gatherUnit) []string {
	var out []string
	for k, name := range a.nodes {
		if _, ok := c.nodes[k]; ok {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// link says why gather c belongs to the cluster of gather a. proven is set
// when they are one cluster whatever their times: the same cluster ID,
// infrastructure name or API URL, or a node of the same name whose machine
// facts agree. conflict is set when they cannot be one cluster: different
// cluster IDs, infrastructure names or API URLs, or a node of the same name
// on another machine. Otherwise why is a weak reason (node names in common,
// gathered within the hour, nothing to compare) that the caller accepts
// only within maxGatherSpread, or "" when both name their nodes and share none.
func link(a, c *gatherUnit) (why string, proven bool, conflict string) {
	differ := func(what string, x, y map[string]bool) string {
		if len(x) == 0 || len(y) == 0 {
			return ""
		}
		for k := range y {
			if x[k] {
				return ""
			}
		}
		return fmt.Sprintf("different %s: %s and %s", what, strings.Join(sortedKeys(x), ","), strings.Join(sortedKeys(y), ","))
	}
	for _, d := range []struct {
		what string
		x, y map[string]bool
	}{{"cluster IDs", a.clusters, c.clusters}, {"infrastructure names", a.infra, c.infra}, {"API server URLs", a.apis, c.apis}} {
		if msg := differ(d.what, d.x, d.y); msg != "" {
			return "", false, msg
		}
	}
	for id := range c.clusters {
		if a.clusters[id] {
			return "same cluster ID " + id, true, ""
		}
	}
	for n := range c.infra {
		if a.infra[n] {
			return "same infrastructure name " + n, true, ""
		}
	}
	shared := sharedNodes(a, c)
	for _, name := range shared {
		k := model.HostKey(name)
		fa, fc := a.facts[k], c.facts[k]
		same, diff := fa.Compare(fc)
		if diff != "" {
			return "", false, fmt.Sprintf("node %s is another machine in each (its %s differs): two clusters with a node of the same name", name, diff)
		}
		if same != "" {
			return fmt.Sprintf("node %s is the same machine (same %s)", name, same), true, ""
		}
	}
	if len(shared) > 0 {
		return "names the same nodes (" + shortList(shared) + ")", false, ""
	}
	if len(a.nodes) > 0 && len(c.nodes) > 0 {
		return "", false, "" // both name their nodes, and not one in common
	}
	if !a.first.IsZero() && !c.first.IsZero() && absDuration(a.first.Sub(c.first)) <= maxGatherSpread {
		return fmt.Sprintf("gathered within %s of it", maxGatherSpread), false, ""
	}
	// Nothing tells them apart: no cluster ID or node names on one side.
	// Times far apart are refused by the caller.
	return "nothing tells them apart (no cluster ID or node names to compare)", false, ""
}

// weakLink reports whether link's reason is only the gather times or the
// absence of anything to compare.
func weakLink(why string) bool {
	return strings.HasPrefix(why, "gathered within") || strings.HasPrefix(why, "nothing tells them apart")
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// humanGap writes the time between two gathers: "3h18m" below two days,
// else in whole days ("182 days").
func humanGap(d time.Duration) string {
	if d >= 48*time.Hour {
		return fmt.Sprintf("%d days", int(d/(24*time.Hour)))
	}
	return strings.TrimSuffix(d.Round(time.Minute).String(), "0s")
}

// spread returns the earliest and latest gather time of units (zero when
// none is known).
func spread(units []*gatherUnit) (lo, hi time.Time) {
	for _, u := range units {
		if u.first.IsZero() {
			continue
		}
		if lo.IsZero() || u.first.Before(lo) {
			lo = u.first
		}
		if u.first.After(hi) {
			hi = u.first
		}
	}
	return lo, hi
}

// withinHour reports whether t is within maxGatherSpread of every known
// gather time of units; known is false when t or all of theirs are unknown.
func withinHour(t time.Time, units []*gatherUnit) (ok, known bool) {
	lo, hi := spread(units)
	if t.IsZero() || lo.IsZero() {
		return false, false
	}
	return absDuration(t.Sub(lo)) <= maxGatherSpread && absDuration(t.Sub(hi)) <= maxGatherSpread, true
}

// part is a set of gathers of the upload read as one cluster; lines says
// why each joined.
type part struct {
	units []*gatherUnit
	lines []string
}

// sosFit says whether the sosreport s belongs to the cluster of p: proven
// (its host is a node of p and a machine fact agrees: joins whatever the
// times), weak (nothing contradicts, gathered within the hour), or not, with
// the reason either way.
func sosFit(s *gatherUnit, p *part) (ok, proven bool, why string) {
	of := p.units[0].top + "/"
	node, nodeFacts := "", model.MachineFacts{}
	var kubelets []string
	namesNodes := false
	for _, c := range p.units {
		if c.sos() {
			continue
		}
		if n, found := c.nodes[model.HostKey(s.host)]; found && s.host != "" && node == "" {
			node, nodeFacts = n, c.facts[model.HostKey(s.host)]
		}
		kubelets = append(kubelets, sortedKeys(c.kubelets)...)
		namesNodes = namesNodes || len(c.nodes) > 0
	}
	// What proves it of p, and what contradicts that: every contradiction
	// is said, the first proof only when nothing contradicts.
	var against []string
	proof := ""
	if node != "" {
		same, differ := s.machine.Compare(nodeFacts)
		switch {
		case differ != "":
			against = append(against, fmt.Sprintf("host is named like node %s of %s but is another machine (its %s differs)", node, of, differ))
		case same != "":
			proof = fmt.Sprintf("host is node %s (same %s)", node, same)
		}
	}
	// The nodes the sosreport's own kubectl/oc output lists and describes:
	// a cluster lists all its nodes, so not one of them a node of p is a
	// contradiction, and a described node that is the same machine as p's
	// node of that name a proof.
	shared := false
	for _, name := range s.clusterNodes {
		k := model.HostKey(name)
		for _, c := range p.units {
			if c.sos() {
				continue
			}
			if _, ok := c.nodes[k]; ok {
				shared = true
			}
			theirs, ok := c.facts[k]
			if !ok {
				continue
			}
			same, differ := s.facts[k].Compare(theirs)
			switch {
			case differ != "":
				against = append(against, fmt.Sprintf("the node %s it describes is another machine than the node of that name of %s (its %s differs)", name, of, differ))
			case same != "" && proof == "":
				host := "its host " + s.host
				if node != "" {
					host = "host is node " + node
				} else if s.host == "" {
					host = "its host"
				}
				proof = fmt.Sprintf("%s, of the cluster whose node %s it describes (same %s)", host, name, same)
			}
		}
	}
	if len(s.clusterNodes) > 0 && !shared && namesNodes {
		against = append(against, fmt.Sprintf("the nodes its own kubectl/oc output lists (%s) are none of the nodes of %s", shortList(s.clusterNodes), of))
	}
	if m := kubeMinor(s.kubeVersion); m != "" && len(kubelets) > 0 && !slices.Contains(kubelets, m) {
		against = append(against, fmt.Sprintf("it runs Kubernetes %s, which no node of %s runs (%s)", s.kubeVersion, of, strings.Join(slices.Compact(slices.Sorted(slices.Values(kubelets))), ", ")))
	}
	if len(against) == 0 && proof != "" {
		return true, true, proof
	}
	within, known := withinHour(s.first, p.units)
	if known && !within {
		lo, _ := spread(p.units)
		gap := humanGap(absDuration(s.first.Sub(lo)))
		switch {
		case len(against) > 0:
			against = append(against, "it was gathered "+gap+" apart")
		case node != "":
			against = append(against, fmt.Sprintf("host is named like node %s, but no machine fact proves it the same machine and it was gathered %s apart", node, gap))
		default:
			against = append(against, fmt.Sprintf("host is not a node of %s and it was gathered %s apart", of, gap))
		}
	}
	if len(against) > 0 {
		return false, false, strings.Join(against, "; ")
	}
	when := fmt.Sprintf("gathered within %s", maxGatherSpread)
	if !known {
		when = "identity not established: no gather time to compare"
	}
	switch {
	case node != "":
		return true, false, fmt.Sprintf("host is node %s (by name; no machine fact to compare, %s)", node, when)
	case s.host == "":
		return true, false, "no host name; its journal lines are credited to the hosts they name (" + when + ")"
	}
	return true, false, "host is not a node of the other gathers (a node that never registered?); its journal lines are kept for host " + s.host + " (" + when + ")"
}

// combine decides whether the gathers of the input are one cluster. It fills
// Coverage.Combined with one line per gather when there are several, and
// returns a *SeveralGathersError, with the parts the upload splits into,
// when they cannot be read together. Gathers of one cluster join when
// proven one cluster (cluster ID, infrastructure name, a node that is the
// same machine) or, with nothing that contradicts, when gathered within the
// hour; must-gathers of one cluster more than an hour apart do not join (the
// older state of a pod would hide the newer one). A sosreport joins the
// cluster whose node its host is, proven by a machine fact whatever its
// time, else only within the hour and when nothing contradicts (a node of
// the same name on another machine, a Kubernetes version no node runs).
func (b *builder) combine(g *model.Gather) error {
	units := b.units()
	if len(units) < 2 {
		return nil
	}
	if len(units) > maxGathers {
		return b.refuse(units, nil, fmt.Sprintf("%d gathers in one input; at most %d are read together", len(units), maxGathers))
	}
	var clusters, sos []*gatherUnit
	for _, u := range units {
		if u.sos() {
			sos = append(sos, u)
		} else {
			clusters = append(clusters, u)
		}
	}
	var parts []*part
	why := ""
	note := func(w string) {
		if why == "" {
			why = w
		}
	}
	// Cluster gathers: each joins the first part it links to (proven, or
	// weakly when no gather of the part contradicts by naming other nodes),
	// else starts its own.
	for _, c := range clusters {
		placed := false
		for _, p := range parts {
			strong, weak, contradicted, conflict := "", "", false, ""
			for _, a := range p.units {
				w, _, cf := link(a, c)
				switch {
				case cf != "":
					conflict = cf
				case w == "":
					contradicted = true
				case weakLink(w):
					if weak == "" {
						weak = fmt.Sprintf("%s: read with %s/, %s", c.describe(), a.top, w)
					}
				case strong == "":
					strong = fmt.Sprintf("%s: read with %s/, %s", c.describe(), a.top, w)
				}
			}
			if conflict != "" {
				note(conflict)
				continue
			}
			line := strong
			if line == "" && !contradicted {
				line = weak
			}
			if line == "" {
				note("no cluster ID or node name links " + strings.TrimSuffix(c.top, "/") + "/ to the others, and their nodes differ")
				continue
			}
			// One cluster's state at two times is a diff, not one state.
			if lo, hi := spread(append(slices.Clone(p.units), c)); hi.Sub(lo) > maxGatherSpread {
				note(fmt.Sprintf("one cluster gathered %s apart: the older state of a pod would hide the newer one (compare them with analyze diff)", humanGap(hi.Sub(lo))))
				continue
			}
			p.units = append(p.units, c)
			p.lines = append(p.lines, line)
			placed = true
			break
		}
		if !placed {
			parts = append(parts, &part{units: []*gatherUnit{c}, lines: []string{c.describe()}})
		}
	}
	// Sosreports: each joins the cluster part that its host fits, else a
	// part of sosreports gathered within the hour, else its own.
	for _, s := range sos {
		placed := false
		var reasons []string
		for _, p := range parts {
			if len(p.units) > 0 && p.units[0].sos() {
				continue
			}
			ok, _, w := sosFit(s, p)
			if ok {
				p.units = append(p.units, s)
				p.lines = append(p.lines, s.describe()+": "+w)
				placed = true
				break
			}
			reasons = append(reasons, w)
		}
		if !placed && len(reasons) > 0 {
			note(s.top + "/: " + reasons[0])
		}
		if !placed && len(clusters) == 0 {
			for _, p := range parts {
				if within, known := withinHour(s.first, p.units); within || !known {
					p.units = append(p.units, s)
					p.lines = append(p.lines, s.describe()+": read with the other sosreports")
					placed = true
					break
				}
			}
			if !placed && len(parts) > 0 {
				note("sosreports gathered more than an hour apart, and no must-gather that proves them one cluster")
			}
		}
		if !placed {
			line := s.describe()
			if len(reasons) > 0 {
				line += ": " + reasons[0]
			}
			parts = append(parts, &part{units: []*gatherUnit{s}, lines: []string{line}})
		}
	}
	if len(parts) > 1 {
		return b.refuse(units, parts, why)
	}
	lines := parts[0].lines
	if len(lines) > maxListedGathers {
		n := len(lines) - maxListedGathers
		lines = append(lines[:maxListedGathers], fmt.Sprintf("… and %d more gathers", n))
	}
	g.Coverage.Combined = lines
	return nil
}

// maxGathers bounds the gathers of one input read together (linking them
// is quadratic); maxListedGathers the gathers a refusal lists.
const (
	maxGathers       = 256
	maxListedGathers = 50
)

// refuse returns the error for an upload that is not one cluster: every
// part with its identity (the list bounded by maxListedGathers), and every
// part (nil when the upload has too many gathers to link, maxGathers) for
// --split, which must analyse all of them whatever the list shows.
func (b *builder) refuse(units []*gatherUnit, parts []*part, why string) error {
	e := &SeveralGathersError{Why: why, Total: len(units)}
	for _, u := range units {
		e.Tops = append(e.Tops, u.top)
	}
	for i, p := range parts {
		tops := make([]string, len(p.units))
		for j, u := range p.units {
			tops[j] = u.top
		}
		e.Parts = append(e.Parts, Part{Name: partName(p.units[0], i), Tops: tops})
	}
	var lines []string
	if parts == nil {
		for _, u := range units {
			lines = append(lines, u.describe()+": "+u.identity())
		}
	}
	for i, p := range parts {
		for j, line := range p.lines {
			prefix := fmt.Sprintf("part %d: ", i+1)
			if j > 0 {
				prefix = fmt.Sprintf("part %d, with it: ", i+1)
			}
			lines = append(lines, prefix+line)
		}
	}
	if len(lines) > maxListedGathers {
		lines = append(lines[:maxListedGathers], fmt.Sprintf("… and %d more", len(lines)-maxListedGathers))
	}
	e.Gathers = lines
	return e
}

// partName is a folder name for a part's reports (--split): its first
// gather's folder name, made safe, with the part's number.
func partName(u *gatherUnit, i int) string {
	base := path.Base(strings.TrimSuffix(u.top, "/"))
	if base == "." || base == "/" || base == "" {
		base = "input"
	}
	var sb strings.Builder
	for _, r := range base {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			sb.WriteRune(r)
		} else {
			sb.WriteByte('_')
		}
		if sb.Len() >= 80 {
			break
		}
	}
	name := strings.TrimLeft(sb.String(), ".")
	if name == "" {
		name = "input"
	}
	return fmt.Sprintf("%d-%s", i+1, name)
}

// partFilter returns whether a member path lies in one of keep, the top
// folders of one part, judged by the longest of all (every gather's top
// folder) that holds it; a path that none holds is kept.
func partFilter(keep, all []string) func(p string) bool {
	in := map[string]bool{}
	for _, t := range keep {
		in[t] = true
	}
	tops := slices.Clone(all)
	sort.SliceStable(tops, func(i, j int) bool { return len(tops[i]) > len(tops[j]) })
	return func(p string) bool {
		for _, t := range tops {
			if t == "." || p == t || strings.HasPrefix(p, t+"/") {
				return in[t]
			}
		}
		return true
	}
}
