package parser

import (
	"fmt"
	"path"
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
}

func (e *SeveralGathersError) Error() string {
	return fmt.Sprintf("the input holds %d separate gathers (%s); analyse one at a time:\n  %s", len(e.Gathers), e.Why, strings.Join(e.Gathers, "\n  "))
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

// gatherUnit is one gather of the upload: the must-gather image folders and
// inspect folders under one top folder, or one sosreport.
type gatherUnit struct {
	top      string
	kinds    map[string]bool // layout kinds of its roots
	host     string          // a sosreport's host name
	clusters map[string]bool // cluster IDs of its ClusterVersions
	first    time.Time       // its earliest gather time, zero when unknown
	nodes    map[string]string
	// nodes: host key → node name, of its Node objects and its pods' spec.nodeName
}

func (u *gatherUnit) sos() bool { return u.kinds[model.LayoutSosreport] }

func (u *gatherUnit) describe() string {
	kinds := sortedKeys(u.kinds)
	what := strings.Join(kinds, "+")
	if u.host != "" {
		what += " of host " + u.host
	}
	when := "no gather time"
	if !u.first.IsZero() {
		when = "gathered " + u.first.Format(time.RFC3339)
	}
	cluster := "cluster unknown"
	if ids := sortedKeys(u.clusters); len(ids) > 0 {
		cluster = "cluster " + strings.Join(ids, ",")
	}
	if u.sos() {
		return fmt.Sprintf("%s/ (%s, %s)", u.top, what, when)
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

// units groups the layouts into gathers and collects what links them.
func (b *builder) units() []*gatherUnit {
	byTop := map[string]*gatherUnit{}
	rootUnit := map[string]*gatherUnit{}
	tops := b.unitTops()
	times := b.unitTimes(tops)
	for _, l := range b.g.Layouts {
		top := tops[l.Root]
		u := byTop[top]
		if u == nil {
			u = &gatherUnit{top: top, kinds: map[string]bool{}, clusters: map[string]bool{}, nodes: map[string]string{}, first: times[top]}
			byTop[top] = u
		}
		rootUnit[l.Root] = u
		u.kinds[l.Kind] = true
		if l.Kind == model.LayoutSosreport && l.Node != "" {
			u.host = l.Node
			u.nodes[model.HostKey(l.Node)] = l.Node
		}
		if id := b.rootCluster[l.Root]; id != "" {
			u.clusters[id] = true
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
	addNode := func(root, p, name string) {
		if u := unitOf(root, p); u != nil && name != "" && !u.sos() {
			u.nodes[model.HostKey(name)] = name
		}
	}
	for _, n := range b.nodes {
		addNode(rootOf(n.Source.Path), n.Source.Path, n.Object.Name)
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

// link says why gather c belongs to the cluster of gather a: the same
// cluster ID, node names in common, or nothing that tells them apart. It
// returns "" when both name their nodes and share none, and a non-empty
// conflict when their cluster IDs differ.
func link(a, c *gatherUnit) (why, conflict string) {
	for id := range c.clusters {
		if !a.clusters[id] && len(a.clusters) > 0 {
			return "", fmt.Sprintf("different cluster IDs: %s and %s", strings.Join(sortedKeys(a.clusters), ","), strings.Join(sortedKeys(c.clusters), ","))
		}
	}
	for id := range c.clusters {
		if a.clusters[id] {
			return "same cluster ID " + id, ""
		}
	}
	if shared := sharedNodes(a, c); len(shared) > 0 {
		if len(shared) > 3 {
			shared = append(shared[:3], fmt.Sprintf("… %d more", len(shared)-3))
		}
		return "names the same nodes (" + strings.Join(shared, ", ") + ")", ""
	}
	if len(a.nodes) > 0 && len(c.nodes) > 0 {
		return "", "" // both name their nodes, and not one in common
	}
	if !a.first.IsZero() && !c.first.IsZero() && absDuration(a.first.Sub(c.first)) <= maxGatherSpread {
		return fmt.Sprintf("gathered within %s of it", maxGatherSpread), ""
	}
	// Nothing tells them apart: no cluster ID or node names on one side.
	// Times far apart are refused by the caller.
	return "nothing tells them apart (no cluster ID or node names to compare)", ""
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

// combine decides whether the gathers of the input are one cluster. It fills
// Coverage.Combined with one line per gather when there are several, and
// returns a *SeveralGathersError when they cannot be read together.
// Sosreports join the cluster whose nodes include their host; one of a host
// the cluster does not name is still read (its journal lines stay keyed by
// its host) and the line says so.
func (b *builder) combine(g *model.Gather) error {
	units := b.units()
	if len(units) < 2 {
		return nil
	}
	if len(units) > maxGathers {
		return b.refuse(units, fmt.Sprintf("%d gathers in one input; at most %d are read together", len(units), maxGathers))
	}
	var clusters, sos []*gatherUnit
	for _, u := range units {
		if u.sos() {
			sos = append(sos, u)
		} else {
			clusters = append(clusters, u)
		}
	}
	var lines []string
	if len(clusters) > 0 {
		base := clusters[0]
		lines = append(lines, base.describe())
		// Every other gather must link to one already accepted.
		accepted := []*gatherUnit{base}
		pending := clusters[1:]
		for len(pending) > 0 {
			progress := false
			var rest []*gatherUnit
			for _, c := range pending {
				// A cluster ID or a node in common links c to the accepted
				// gathers; a weak link (gathered within the hour, or nothing
				// to compare) only when no accepted gather contradicts it by
				// naming other nodes, so one gather without node names cannot
				// chain unrelated clusters together.
				why, weak, contradicted := "", "", false
				for _, a := range accepted {
					w, conflict := link(a, c)
					if conflict != "" {
						return b.refuse(clusters, conflict)
					}
					switch {
					case w == "":
						contradicted = true
					case weakLink(w):
						if weak == "" {
							weak = fmt.Sprintf("%s: read with %s/, %s", c.describe(), a.top, w)
						}
					case why == "":
						why = fmt.Sprintf("%s: read with %s/, %s", c.describe(), a.top, w)
					}
				}
				if why == "" && !contradicted {
					why = weak
				}
				if why == "" {
					rest = append(rest, c)
					continue
				}
				lines = append(lines, why)
				accepted = append(accepted, c)
				progress = true
			}
			if !progress {
				return b.refuse(clusters, "no cluster ID or node name links "+strings.TrimSuffix(rest[0].top, "/")+"/ to the others, and their nodes differ")
			}
			pending = rest
		}
		var lo, hi time.Time
		for _, u := range accepted {
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
		if spread := hi.Sub(lo); spread > maxGatherSpread {
			return b.refuse(clusters, fmt.Sprintf("one cluster gathered %s apart: the older state of a pod would hide the newer one", spread.Round(time.Minute)))
		}
	}
	for _, s := range sos {
		line := s.describe()
		switch {
		case s.host == "":
			line += ": no host name; its journal lines are credited to the hosts they name"
		case len(clusters) == 0:
			line += ": read with the other sosreports"
		default:
			node := ""
			for _, c := range clusters {
				if n, ok := c.nodes[model.HostKey(s.host)]; ok {
					node = n
					break
				}
			}
			if node != "" {
				line += ": host is node " + node
			} else {
				line += ": host is not a node of the other gathers; its journal lines are kept for host " + s.host
			}
		}
		lines = append(lines, line)
	}
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

func (b *builder) refuse(units []*gatherUnit, why string) error {
	e := &SeveralGathersError{Why: why}
	for i, u := range units {
		if i == maxListedGathers {
			e.Gathers = append(e.Gathers, fmt.Sprintf("… and %d more", len(units)-maxListedGathers))
			break
		}
		e.Gathers = append(e.Gathers, u.describe())
	}
	return e
}
