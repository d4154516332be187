package parser

import (
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/openshift"
	"github.com/mgtriage/mgtriage/parser/podstatus"
	"github.com/mgtriage/mgtriage/parser/sosreport"
	corev1 "k8s.io/api/core/v1"
)

// finish joins what the pass collected: picks each namespace's pods (the list,
// or the per-pod files where the list is missing or empty), keeps one pod per
// UID, settles the gather time, derives the kubectl columns and startup stage
// of every pod, and ties events and logs to their pods.
func (b *builder) finish() *model.Gather {
	g := b.g
	b.parts = nil // the decode workers are done: the pods hold what they share
	b.dropNestedCaptures()
	g.Roots = sortedKeys(b.roots)
	g.KubeletLogNodes = sortedKeys(b.logHosts)
	g.JournalFiles = b.journalFiles
	sort.Slice(g.JournalFiles, func(i, j int) bool { return g.JournalFiles[i].Path < g.JournalFiles[j].Path })
	where := filepath.Base(g.Input)
	b.guardSettle("sosreport", where, func() { b.sosKubeVersion = b.sos.Settle(b.timestamps) })
	b.guardSettle("sosreport", where, b.addSosNodes)
	g.Alerts = append(g.Alerts, b.mustgather.Alerts()...)
	b.guardSettle("mustgather", where, func() { g.Etcd = b.mustgather.Etcd() })
	g.Health.MustGatherErrors = b.mustgather.Errors()
	if b.dnsBaseDomain != "" {
		g.BaseDomain = b.dnsBaseDomain
	}
	b.settleTime()
	b.settleSosLogTimes()
	b.settleLogYears()
	g.NodeLog = map[string][]*model.LogGroup{}
	for host, groups := range b.hostLog {
		g.NodeLog[host] = sortGroups(groups)
	}
	for _, name := range sortedKeys(b.nodes) {
		g.Nodes = append(g.Nodes, b.nodes[name])
	}
	g.KubernetesVersion = kubeletVersion(g.Nodes)
	if g.KubernetesVersion == "" {
		g.KubernetesVersion = b.sosKubeVersion
	}
	if g.KubernetesVersion == "" {
		g.KubernetesVersion = b.journalKubeVersion
	}
	g.Pods = b.choosePods()
	b.guardSettle("sosreport", where, func() { g.Pods = append(g.Pods, b.sos.Pods(g.Pods, b.hostnames)...) })
	b.settlePodFileErrors()
	// Stable: items of one JSON list share path and line 0, and keep their
	// order in the file.
	sort.SliceStable(g.Events, func(i, j int) bool {
		a, c := g.Events[i], g.Events[j]
		if a.At != c.At {
			return a.At < c.At
		}
		if a.Source.Path != c.Source.Path {
			return a.Source.Path < c.Source.Path
		}
		return a.Source.Line < c.Source.Line
	})
	g.Events = dedupEvents(g.Events)
	sort.Slice(g.Operators, func(i, j int) bool {
		if g.Operators[i].Name != g.Operators[j].Name {
			return g.Operators[i].Name < g.Operators[j].Name
		}
		return g.Operators[i].Source.Path < g.Operators[j].Source.Path
	})

	g.Printer = b.choosePrinter()
	explainPrinter(g)
	version := g.Printer.Version
	byUID := make(map[string]*model.Pod, len(g.Pods))
	byKey := make(map[string]*model.Pod, len(g.Pods))
	// Each pod's columns are those of its own gather's time: an inspect taken
	// after the must-gather holds container times after the must-gather's.
	// A part without a time of its own, among several, has unknown ages.
	tops := b.unitTops()
	unitTime := b.unitTimes(tops)
	parts := map[string]bool{}
	for _, top := range tops {
		parts[top] = true
	}
	unknownAges := map[string]bool{}
	for _, p := range g.Pods {
		root := rootOf(p.Source.Path)
		now := g.CollectedAt
		switch {
		case len(parts) > 1:
			now = unitTime[tops[root]]
		case b.bundles[root] == LayoutPodCaptures && unitTime[tops[root]].IsZero():
			// Pod captures carry no time of their own: a time inferred
			// from the objects beside them (node heartbeats of whatever
			// cluster nodes.json came from) is no clock of theirs.
			now = time.Time{}
		}
		if now.IsZero() && !unknownAges[root] {
			unknownAges[root] = true
			b.problem(b.rootName(root), "no collection time of this part's own: the AGE and restart \"ago\" of its pods are unknown")
		}
		p.Now = now
		p.Columns = podstatus.Compute(&p.Object, now, version)
		if p.Runtime != nil {
			p.Columns = sosreport.RuntimeColumns(p, now)
		}
		p.Stage = podstatus.StartupStage(&p.Object)
		p.Containers = podstatus.Containers(&p.Object)
		if p.Object.UID != "" {
			byUID[string(p.Object.UID)] = p
		}
		byKey[p.Key()] = p
		p.Logs = b.logs[p.Key()]
		b.dropQuietTails(p)
		slices.SortStableFunc(p.Logs, model.CompareLogs)
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
	g.JournalNodes = b.journalNodes(g)
	b.settleLayouts()
	b.guardSettle("installbundle", where, func() { b.g.Installs = append(b.g.Installs, b.install.Settle()...) })
	b.settleDistribution()
	b.indexModel(g)
	b.settleCoverage(g)
	g.Coverage.JournalLines = b.journalLines
	return g
}

// rootName names a gather root in a problem: the input's own name for the
// input itself (as every problem about the whole input does).
func (b *builder) rootName(root string) string {
	if root == "" || root == "." {
		return path.Base(b.g.Input)
	}
	return root
}

// addSosNodes adds the Node objects that sosreports print as text (kubectl
// or oc get nodes tables, describe output) of which the gather holds no
// node from a JSON or YAML list, and marks nodes as gathered when any is.
func (b *builder) addSosNodes() {
	for _, n := range b.sos.Nodes() {
		// Their machine facts tell which cluster the sosreport is of (combine.go).
		b.nodeSeen = append(b.nodeSeen, seenNode{path: n.Source.Path, name: n.Object.Name, facts: model.NodeMachineFacts(n), kubelet: n.Object.Status.NodeInfo.KubeletVersion})
		if _, ok := b.nodes[n.Object.Name]; !ok {
			b.nodes[n.Object.Name] = n
		}
		b.objects.MarkGathered(model.Nodes, "")
	}
}

// crashLoopSince sets CrashLoopSince of each container in CrashLoopBackOff
// from the oldest BackOff event for it ("Back-off restarting failed
// container <name>"). Events expire (3 h on OpenShift), so it is a lower bound.
func crashLoopSince(p *model.Pod) {
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
			first := e.Object.FirstTimestamp.Time()
			if first.IsZero() {
				first = e.Object.EventTime.Time()
			}
			if first.IsZero() {
				first = e.When()
			}
			if !first.IsZero() && (c.CrashLoopSince.IsZero() || first.Before(c.CrashLoopSince)) {
				c.CrashLoopSince = first.UTC()
			}
		}
	}
}

// explainPrinter adds to g.Printer.From why the columns follow another
// release than the Kubernetes version the gather states (KubernetesVersion:
// the kubelet version most nodes run, else a sosreport's or a kubelet's
// start line), so that the report never states one release and prints
// another without a word.
func explainPrinter(g *model.Gather) {
	v := ParseKubeVersion(g.KubernetesVersion)
	p := g.Printer.Version
	if v.Major == 0 || p.Major == 0 || (v.Major == p.Major && v.Minor == p.Minor) {
		return
	}
	if kubeletVersion(g.Nodes) == g.KubernetesVersion {
		g.Printer.From += "; the stated " + g.KubernetesVersion + " is the kubelet version most nodes run, and the nodes run other releases too"
		return
	}
	g.Printer.From += "; the gather also states Kubernetes " + g.KubernetesVersion
}

// choosePrinter picks the release of the API server that printed this
// gather's columns. A settled ClusterVersion (OpenShift 4.N runs Kubernetes
// 1.(N+13)) comes first; during an upgrade the components run either release,
// so the kube-apiserver ClusterOperator's own operand version is used; without
// either, the highest kubelet version among the nodes (the version skew policy
// never lets a kubelet be newer than its API server, so it is a lower bound),
// raised to the last completed OpenShift release when there is one.
func (b *builder) choosePrinter() model.PrinterChoice {
	g := b.g
	cv := kubeVersionOfOpenShift(g.ClusterVersion)
	if cv.Major != 0 && !b.cvUpgrading {
		return model.PrinterChoice{Version: cv, From: "ClusterVersion " + g.ClusterVersion}
	}
	if v := ParseKubeVersion(b.apiserverVersion); v.Major != 0 {
		return model.PrinterChoice{Version: v, From: "kube-apiserver ClusterOperator version " + b.apiserverVersion}
	}
	var best podstatus.Version
	bestRaw := ""
	for _, n := range g.Nodes {
		raw := n.Object.Status.NodeInfo.KubeletVersion
		if v := ParseKubeVersion(raw); v.Major != 0 && (best.Major == 0 || best.Less(v)) {
			best, bestRaw = v, raw
		}
	}
	switch {
	case cv.Major != 0 && (best.Major == 0 || best.Less(cv)):
		return model.PrinterChoice{Version: cv, From: "ClusterVersion " + g.ClusterVersion + " (last completed; an upgrade is under way)"}
	case best.Major != 0:
		return model.PrinterChoice{Version: best, From: "highest kubelet version " + bestRaw}
	}
	// Without Node objects: the version a sosreport's kubectl/oc printed, or
	// the one a kubelet logged at start.
	for _, src := range []struct{ raw, from string }{
		{b.sosKubeVersion, "the sosreport's version output "},
		{b.journalKubeVersion, "the kubelet's start line "},
	} {
		if v := ParseKubeVersion(src.raw); v.Major != 0 {
			return model.PrinterChoice{Version: v, From: src.from + src.raw}
		}
	}
	return model.PrinterChoice{From: "no version in the gather: the newest printer"}
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

// settleSosLogTimes moves the times of the node-log groups of sosreport
// journals (the host's wall clock, year 1) to UTC by the clock of their own
// sosreport (sosreport.Clock.ToUTC: the year of its date, its zone); the
// groups of a sosreport without a date are left to settleLogYears.
func (b *builder) settleSosLogTimes() {
	for g, part := range b.partGroups {
		if c, ok := b.sos.Clock(part); ok {
			g.First, g.Last = c.ToUTC(g.First), c.ToUTC(g.Last)
		}
	}
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
		if t.Year() != 1 || t.IsZero() {
			return t
		}
		year := ref.Year()
		if t.Month() > ref.Month() {
			year--
		}
		return t.AddDate(year-1, 0, 0)
	}
	b.guardSettle("installbundle", filepath.Base(b.g.Input), func() { b.install.DateSteps(fix) })
	for _, m := range []map[string]map[groupKey]*model.LogGroup{b.nodeLog, b.hostLog} {
		for _, groups := range m {
			for _, g := range groups {
				g.First, g.Last = fix(g.First), fix(g.Last)
			}
		}
	}
}

// choosePods returns the pods of every namespace, one per UID, sorted by
// namespace and name. Within one gather root the first copy is kept (the
// list, then per-pod files); when two roots (a must-gather and an inspect of
// the same cluster) hold the same pod, the newer copy is kept: the one with
// the higher resourceVersion, else the one with more container statuses.
func (b *builder) choosePods() []*model.Pod {
	type chosen struct {
		at   int
		root string
	}
	seen := map[string]chosen{}
	var out []*model.Pod
	add := func(root string, pods []*model.Pod) {
		for _, p := range pods {
			id := string(p.Object.UID)
			if id == "" {
				id = p.Key()
			}
			if c, ok := seen[id]; ok {
				if c.root != root && newerPod(p, out[c.at]) {
					out[c.at] = p
					seen[id] = chosen{c.at, root}
				}
				continue
			}
			seen[id] = chosen{len(out), root}
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
		byName := map[string]*model.Pod{}
		for _, p := range fp {
			byName[p.Key()] = p
		}
		var list []*model.Pod
		for _, p := range b.listPods[k] {
			if p.Partial {
				if f := byName[p.Key()]; f != nil {
					p = f
				}
			}
			list = append(list, p)
		}
		add(k.root, list)
		add(k.root, fp)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Object.Namespace != out[j].Object.Namespace {
			return out[i].Object.Namespace < out[j].Object.Namespace
		}
		return out[i].Object.Name < out[j].Object.Name
	})
	return out
}

// newerPod reports whether p is a newer copy of the pod old: a higher
// resourceVersion (etcd's revision, comparable within one cluster), or, when
// either is unknown or they are equal, more container statuses.
func newerPod(p, old *model.Pod) bool {
	a, errA := strconv.ParseUint(p.Object.ResourceVersion, 10, 64)
	c, errC := strconv.ParseUint(old.Object.ResourceVersion, 10, 64)
	if errA == nil && errC == nil && a != c {
		return a > c
	}
	n := func(q *model.Pod) int {
		return len(q.Object.Status.ContainerStatuses) + len(q.Object.Status.InitContainerStatuses)
	}
	return n(p) > n(old)
}

// settleTime picks the gather time: the timestamp file of an image folder
// first, else any timestamp file (the outer one), else the latest time seen in
// the objects, which is then reported as a problem.
func (b *builder) settleTime() {
	var times []time.Time
	roots := sortedKeys(b.roots)
	// A sosreport's date says when that node was gathered; with a
	// must-gather or inspect in the input, the gather time is theirs.
	var clusterRoots []string
	for _, root := range roots {
		if !b.sosRoots[root] && b.timestamps[dirKey(strings.TrimSuffix(root, "/"))] != nil {
			clusterRoots = append(clusterRoots, root)
		}
	}
	if len(clusterRoots) > 0 && len(clusterRoots) < len(roots) {
		roots = clusterRoots
	}
	// Several gathers of one cluster (an inspect taken after the
	// must-gather): the gather time is that of the first, start and end.
	if tops := b.unitTops(); len(roots) > 1 {
		unitTime := b.unitTimes(tops)
		first := ""
		for _, root := range roots {
			top := tops[root]
			if t := unitTime[top]; !t.IsZero() && (first == "" || t.Before(unitTime[first])) {
				first = top
			}
		}
		var own []string
		for _, root := range roots {
			if tops[root] == first {
				own = append(own, root)
			}
		}
		if first != "" {
			roots = own
		}
	}
	for _, root := range roots {
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
		if len(times) == 1 {
			// One time (a sosreport's date): the end is not known.
			b.g.FinishedAt = time.Time{}
		}
		return
	}
	var c timeCandidates
	c.add("pod condition", b.dedup.latest) // per-pod files not decoded as duplicates
	c.add("install bundle container", b.install.Latest())
	for _, e := range b.g.Events {
		c.add("event", e.When())
		c.add("event", e.Object.FirstTimestamp.Time())
		c.add("event", e.Object.EventTime.Time())
	}
	for _, pods := range []map[nsKey][]*model.Pod{b.listPods, b.filePods} {
		for _, ps := range pods {
			for _, p := range ps {
				c.pod(&p.Object)
			}
		}
	}
	for _, n := range b.nodes {
		c.add("node creation", n.Object.CreationTimestamp.Time)
		for _, cond := range n.Object.Status.Conditions {
			c.add("node heartbeat", cond.LastHeartbeatTime.Time)
			c.add("node condition", cond.LastTransitionTime.Time)
		}
	}
	now, how := c.infer()
	where, what := b.missingTimeFile()
	if now.IsZero() {
		b.problem(where, what+" and no time in the gather: ages cannot be measured")
		return
	}
	b.g.CollectedAt = now.UTC()
	b.g.CollectedAtInferred = how
	b.problem(where, what+": the gather time "+now.UTC().Format(time.RFC3339)+" is "+how)
}

// missingTimeFile names the file whose absence leaves the gather without a
// time, and where to report it: a must-gather's "timestamp" file, or, when
// every root is a node sosreport, the sosreport's date files (at its root;
// "." for several).
func (b *builder) missingTimeFile() (where, what string) {
	roots := sortedKeys(b.roots)
	for _, root := range roots {
		if !b.sosRoots[root] {
			return "timestamp", "no readable timestamp file"
		}
	}
	switch len(roots) {
	case 0:
		return "timestamp", "no readable timestamp file"
	case 1:
		return b.rootName(roots[0]), "the sosreport holds no readable date file (sos_commands/date/date, date, sos_commands/systemd/timedatectl)"
	}
	return b.rootName(""), "the sosreports hold no readable date file (sos_commands/date/date, date, sos_commands/systemd/timedatectl)"
}

func (b *builder) podNodeLog(p *model.Pod) []*model.LogGroup {
	seen := map[*model.LogGroup]bool{}
	var out []*model.LogGroup
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

func sortGroups(groups map[groupKey]*model.LogGroup) []*model.LogGroup {
	out := make([]*model.LogGroup, 0, len(groups))
	for _, g := range groups {
		out = append(out, g)
	}
	sortByFirst(out)
	return out
}

// sortByFirst orders groups by their first time, then by path and line, so
// the order never depends on map iteration.
func sortByFirst(gs []*model.LogGroup) {
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
func kubeletVersion(nodes []*model.Node) string {
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

// operatorSummary is the model's view of ClusterOperator o, the object at
// src in data (lines: data's line index), with the field lines of its
// status (scanFieldLines) when its line is known.
func operatorSummary(o *openshift.ClusterOperator, src model.Source, data []byte, lines *lineIndex) model.Operator {
	op := model.Operator{Name: o.Name, Source: src}
	if src.Line > 0 {
		op.Fields = scanFieldLines(data, lines.of(data), src.Line)
	}
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

// dropQuietTails keeps of the logs of a container that never failed
// (quietStatus) only the line count, as readContainerLog does when the pod
// was decoded before the log was read: which of the two came first depends
// on the decode workers, and the report must not. Each log is judged by the
// pod readContainerLog and settleTails use, its own root's pods.yaml copy
// (b.known), else by p: two roots may hold one pod in different states, and
// p is the copy choosePods kept, from either.
func (b *builder) dropQuietTails(p *model.Pod) {
	for _, l := range p.Logs {
		judge := p
		if q := b.known[l.Root+p.Key()]; q != nil {
			judge = q
		}
		b.dropQuietTail(&judge.Object, l)
	}
}

// dropQuietTail keeps of l only its line count when its container never
// failed in pod p (quietStatus), unless the run needs the logs of p's
// namespace (model.Needs.KeepLogsOf).
func (b *builder) dropQuietTail(p *corev1.Pod, l *model.ContainerLog) {
	if !b.keepLogsOf[p.Namespace] && quietStatus(p, l.Container) {
		l.DropKept()
	}
}

// dedupEvents keeps one copy of an event that two gathers of the upload
// both hold (a must-gather and an inspect of one namespace, two
// must-gathers of one cluster): the same involved object, reason, message
// and first time, read under different gather roots. The copy kept is the
// later one (the higher count; then the later last time), as a pod in two
// gathers is kept in its newer copy. Events of one root are never merged:
// one gather may hold two events that look alike. events is sorted by time
// and stays so.
func dedupEvents(events []*model.Event) []*model.Event {
	type key struct {
		kind, ns, name, uid, field, reason, message string
		first, eventTime                            model.Stamp
	}
	keyOf := func(e *model.Event) key {
		io := e.Object.InvolvedObject
		return key{io.Kind, io.Namespace, io.Name, string(io.UID), io.FieldPath, e.Object.Reason, e.Object.Message, e.Object.FirstTimestamp, e.Object.EventTime}
	}
	kept := make(map[key]int, len(events))
	drop := map[int]bool{}
	for i, e := range events {
		if e.Object.FirstTimestamp == 0 && e.Object.EventTime == 0 {
			continue // no first time to tell two events apart
		}
		k := keyOf(e)
		j, seen := kept[k]
		if !seen {
			kept[k] = i
			continue
		}
		old := events[j]
		if rootOf(old.Source.Path) == rootOf(e.Source.Path) {
			continue
		}
		if e.Count() > old.Count() || e.Count() == old.Count() && e.At > old.At {
			drop[j] = true
			kept[k] = i
		} else {
			drop[i] = true
		}
	}
	if len(drop) == 0 {
		return events
	}
	out := events[:0]
	for i, e := range events {
		if !drop[i] {
			out = append(out, e)
		}
	}
	return out
}
