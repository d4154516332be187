package parser

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/openshift"
	"github.com/mgtriage/mgtriage/parser/podstatus"
)

// finish joins what the pass collected: picks each namespace's pods (the list,
// or the per-pod files where the list is missing or empty), keeps one pod per
// UID, settles the gather time, derives the kubectl columns and startup stage
// of every pod, and ties events and logs to their pods.
func (b *builder) finish() *Gather {
	g := b.g
	g.Roots = sortedKeys(b.roots)
	g.KubeletLogNodes = sortedKeys(b.logHosts)
	if b.dnsBaseDomain != "" {
		g.BaseDomain = b.dnsBaseDomain
	}
	b.settleTime()
	b.settleLogYears()
	g.NodeLog = map[string][]*LogGroup{}
	for host, groups := range b.hostLog {
		g.NodeLog[host] = sortGroups(groups)
	}
	for _, name := range sortedKeys(b.nodes) {
		g.Nodes = append(g.Nodes, b.nodes[name])
	}
	g.KubernetesVersion = kubeletVersion(g.Nodes)
	g.Pods = b.choosePods()
	// Stable: items of one JSON list share path and line 0, and keep their
	// order in the file.
	sort.SliceStable(g.Events, func(i, j int) bool {
		a, c := g.Events[i], g.Events[j]
		if !a.When.Equal(c.When) {
			return a.When.Before(c.When)
		}
		if a.Source.Path != c.Source.Path {
			return a.Source.Path < c.Source.Path
		}
		return a.Source.Line < c.Source.Line
	})
	sort.Slice(g.Operators, func(i, j int) bool {
		if g.Operators[i].Name != g.Operators[j].Name {
			return g.Operators[i].Name < g.Operators[j].Name
		}
		return g.Operators[i].Source.Path < g.Operators[j].Source.Path
	})

	version := ParseKubeVersion(g.KubernetesVersion)
	if version.Major == 0 {
		version = kubeVersionOfOpenShift(g.ClusterVersion)
	}
	byUID := make(map[string]*Pod, len(g.Pods))
	byKey := make(map[string]*Pod, len(g.Pods))
	for _, p := range g.Pods {
		p.Columns = podstatus.Compute(&p.Object, g.CollectedAt, version)
		p.Stage = podstatus.StartupStage(&p.Object)
		p.Containers = podstatus.Containers(&p.Object)
		p.Healthy = (p.Columns.Status == "Running" && p.Columns.ReadyContainers == p.Columns.TotalContainers) ||
			p.Columns.Status == "Completed"
		if p.Object.UID != "" {
			byUID[string(p.Object.UID)] = p
		}
		byKey[p.Key()] = p
		p.Logs = b.logs[p.Key()]
		sort.Slice(p.Logs, func(i, j int) bool {
			a, c := p.Logs[i], p.Logs[j]
			if a.Container != c.Container {
				return a.Container < c.Container
			}
			return a.Previous && !c.Previous
		})
		p.NodeLog = b.podNodeLog(p)
	}
	for _, e := range g.Events {
		io := e.Object.InvolvedObject
		if io.Kind != "Pod" {
			continue
		}
		p := byUID[string(io.UID)]
		if p == nil {
			p = byKey[io.Namespace+"/"+io.Name]
		}
		if p != nil {
			p.Events = append(p.Events, e)
		}
	}
	for _, p := range g.Pods {
		crashLoopSince(p)
	}
	b.settleLayouts()
	b.indexModel(g)
	return g
}

// crashLoopSince sets CrashLoopSince of each container in CrashLoopBackOff
// from the oldest BackOff event for it ("Back-off restarting failed
// container <name>"). Events expire (3 h on OpenShift), so it is a lower bound.
func crashLoopSince(p *Pod) {
	for i := range p.Containers {
		c := &p.Containers[i]
		if c.Reason != "CrashLoopBackOff" {
			continue
		}
		needle := "restarting failed container " + c.Name + " "
		for _, e := range p.Events {
			if e.Object.Reason != "BackOff" || !strings.Contains(e.Object.Message+" ", needle) {
				continue
			}
			first := e.Object.FirstTimestamp.Time
			if first.IsZero() {
				first = e.Object.EventTime.Time
			}
			if first.IsZero() {
				first = e.When
			}
			if !first.IsZero() && (c.CrashLoopSince.IsZero() || first.Before(c.CrashLoopSince)) {
				c.CrashLoopSince = first.UTC()
			}
		}
	}
}

// kubeVersionOfOpenShift maps an OpenShift 4.N release to the Kubernetes
// 1.(N+13) it ships (4.9 → 1.22, 4.18 → 1.31); the zero Version when unknown.
func kubeVersionOfOpenShift(v string) podstatus.Version {
	ocp := ParseKubeVersion(v)
	if ocp.Major != 4 || ocp.Minor < 1 {
		return podstatus.Version{}
	}
	return podstatus.Version{Major: 1, Minor: ocp.Minor + 13}
}

// settleLogYears dates the journal lines read before the gather time was
// known (the timestamp file often comes after host_service_logs/ in an
// archive): ParseJournal gave them year 1, and they get the gather's year now,
// or the year before for a month later than the gather's.
func (b *builder) settleLogYears() {
	ref := b.g.CollectedAt
	if ref.IsZero() {
		return
	}
	fix := func(t time.Time) time.Time {
		if t.Year() != 1 {
			return t
		}
		year := ref.Year()
		if t.Month() > ref.Month() {
			year--
		}
		return t.AddDate(year-1, 0, 0)
	}
	for _, m := range []map[string]map[string]*LogGroup{b.nodeLog, b.hostLog} {
		for _, groups := range m {
			for _, g := range groups {
				g.First, g.Last = fix(g.First), fix(g.Last)
			}
		}
	}
}

// choosePods returns the pods of every namespace, one per UID, sorted by
// namespace and name.
func (b *builder) choosePods() []*Pod {
	seen := map[string]bool{}
	var out []*Pod
	add := func(pods []*Pod) {
		for _, p := range pods {
			id := string(p.Object.UID)
			if id == "" {
				id = p.Key()
			}
			if seen[id] {
				continue
			}
			seen[id] = true
			out = append(out, p)
		}
	}
	keys := map[nsKey]bool{}
	for k := range b.listPods {
		keys[k] = true
	}
	for k := range b.filePods {
		keys[k] = true
	}
	ordered := make([]nsKey, 0, len(keys))
	for k := range keys {
		ordered = append(ordered, k)
	}
	sort.Slice(ordered, func(i, j int) bool {
		if ordered[i].root != ordered[j].root {
			return ordered[i].root < ordered[j].root
		}
		return ordered[i].ns < ordered[j].ns
	})
	for _, k := range ordered {
		// The list comes first; per-pod files fill in pods the list lacks (a
		// missing, empty or truncated pods.yaml), and replace an item the
		// list file cut short. Per-pod files are decoded in parallel: order
		// them by path first.
		fp := b.filePods[k]
		sort.Slice(fp, func(i, j int) bool { return fp[i].Source.Path < fp[j].Source.Path })
		byName := map[string]*Pod{}
		for _, p := range fp {
			byName[p.Key()] = p
		}
		var list []*Pod
		for _, p := range b.listPods[k] {
			if p.partial {
				if f := byName[p.Key()]; f != nil {
					p = f
				}
			}
			list = append(list, p)
		}
		add(list)
		add(fp)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Object.Namespace != out[j].Object.Namespace {
			return out[i].Object.Namespace < out[j].Object.Namespace
		}
		return out[i].Object.Name < out[j].Object.Name
	})
	return out
}

// settleTime picks the gather time: the timestamp file of an image folder
// first, else any timestamp file (the outer one), else the latest time seen in
// the objects, which is then reported as a problem.
func (b *builder) settleTime() {
	var times []time.Time
	for _, root := range sortedKeys(b.roots) {
		if ts, ok := b.timestamps[strings.TrimSuffix(root, "/")]; ok || (root == "" && b.timestamps["."] != nil) {
			if root == "" {
				ts = b.timestamps["."]
			}
			times = append(times, ts...)
		}
	}
	if len(times) == 0 {
		for _, dir := range sortedKeys(b.timestamps) {
			times = append(times, b.timestamps[dir]...)
		}
	}
	if len(times) > 0 {
		sort.Slice(times, func(i, j int) bool { return times[i].Before(times[j]) })
		b.g.CollectedAt, b.g.FinishedAt = times[0], times[len(times)-1]
		return
	}
	latest := b.dedup.latest // per-pod files not decoded as duplicates
	for _, e := range b.g.Events {
		if e.When.After(latest) {
			latest = e.When
		}
	}
	for _, pods := range []map[nsKey][]*Pod{b.listPods, b.filePods} {
		for _, ps := range pods {
			for _, p := range ps {
				for _, c := range p.Object.Status.Conditions {
					if c.LastTransitionTime.After(latest) {
						latest = c.LastTransitionTime.Time
					}
				}
			}
		}
	}
	b.g.CollectedAt = latest.UTC()
	b.problem("timestamp", "no readable timestamp file: ages are measured from the latest event or condition time, "+latest.UTC().Format(time.RFC3339))
}

func (b *builder) podNodeLog(p *Pod) []*LogGroup {
	seen := map[*LogGroup]bool{}
	var out []*LogGroup
	for _, owner := range []string{p.Key(), "uid:" + string(p.Object.UID)} {
		for _, g := range b.nodeLog[owner] {
			if !seen[g] {
				seen[g] = true
				out = append(out, g)
			}
		}
	}
	sortByFirst(out)
	return out
}

func sortGroups(groups map[string]*LogGroup) []*LogGroup {
	out := make([]*LogGroup, 0, len(groups))
	for _, g := range groups {
		out = append(out, g)
	}
	sortByFirst(out)
	return out
}

// sortByFirst orders groups by their first time, then by path and line, so
// the order never depends on map iteration.
func sortByFirst(gs []*LogGroup) {
	sort.Slice(gs, func(i, j int) bool {
		a, b := gs[i], gs[j]
		if !a.First.Equal(b.First) {
			return a.First.Before(b.First)
		}
		if a.Source.Path != b.Source.Path {
			return a.Source.Path < b.Source.Path
		}
		return a.Source.Line < b.Source.Line
	})
}

// kubeletVersion returns the kubeletVersion most nodes report, "" without nodes.
func kubeletVersion(nodes []*Node) string {
	count := map[string]int{}
	best := ""
	for _, n := range nodes {
		v := n.Object.Status.NodeInfo.KubeletVersion
		if v == "" {
			continue
		}
		count[v]++
		if count[v] > count[best] || (count[v] == count[best] && v < best) {
			best = v
		}
	}
	return best
}

// ParseKubeVersion reads "v1.22.0-rc.0+75ee307" as {1 22}; the zero Version
// (newest behaviour) when s is empty or unreadable.
func ParseKubeVersion(s string) podstatus.Version {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	parts := strings.SplitN(s, ".", 3)
	if len(parts) < 2 {
		return podstatus.Version{}
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(strings.TrimRight(parts[1], "+"))
	if err1 != nil || err2 != nil || major < 0 || minor < 0 {
		return podstatus.Version{}
	}
	return podstatus.Version{Major: major, Minor: minor}
}

func operatorSummary(o *openshift.ClusterOperator, src Source) Operator {
	op := Operator{Name: o.Name, Source: src}
	op.Available, _ = o.Condition("Available")
	op.Progressing, _ = o.Condition("Progressing")
	var degradedMsg, availMsg string
	op.Degraded, degradedMsg = o.Condition("Degraded")
	_, availMsg = o.Condition("Available")
	switch {
	case op.Degraded == "True":
		op.Message = degradedMsg
	case op.Available != "True":
		op.Message = availMsg
	}
	return op
}
