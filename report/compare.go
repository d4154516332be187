package report

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
)

// Compare builds the Diff of two snapshots of one cluster taken with the
// same rule table. It puts them in time order (Diff.Swapped) and returns a
// *ClusterMismatchError when they are of different clusters. It is pure:
// the same snapshots give the same Diff.
func Compare(a, b *Snapshot, tool Tool, table RuleTable) (*Diff, error) {
	by, err := sameCluster(a, b)
	if err != nil {
		return nil, err
	}
	d := &Diff{SchemaVersion: DiffSchemaVersion, Tool: tool, Rules: table, SameCluster: by}
	if !a.CollectedAt.IsZero() && !b.CollectedAt.IsZero() && b.CollectedAt.Before(a.CollectedAt) {
		a, b = b, a
		d.Swapped = true
		d.Notes = append(d.Notes, fmt.Sprintf("the second gather (%s) was collected before the first (%s): compared in time order, %s as OLD", a.Path, b.Path, a.Path))
	}
	switch {
	case a.CollectedAt.IsZero() || b.CollectedAt.IsZero():
		d.Notes = append(d.Notes, "a gather has no timestamp file: the time order is as given, and restart rates and how long a finding has failed are not computed")
	case a.CollectedAt.Equal(b.CollectedAt):
		d.SameCollection = true
		d.Notes = append(d.Notes, SameCollectionNote(a.CollectedAt))
	default:
		d.IntervalSeconds = int64(b.CollectedAt.Sub(a.CollectedAt) / time.Second)
	}
	if by == "not verified" {
		d.Notes = append(d.Notes, "neither a cluster ID nor a node or namespace UID is in both gathers: that they are of one cluster is not verified")
	}
	d.Old, d.New = side(a), side(b)
	config := compareConfig(a, b)
	d.Findings = compareFindings(a, b, config)
	d.Pods = comparePods(a, b, d.IntervalSeconds)
	d.Nodes = compareNodes(a, b)
	d.Cluster = compareVersions(a, b)
	d.Operators = compareOperators(a, b)
	d.Pools = comparePools(a, b)
	for _, c := range config {
		d.Config = append(d.Config, c.ConfigChange)
	}
	d.Events = compareEvents(a, b)
	d.summarize()
	d.Normalize()
	return d, nil
}

// SameCollectionNote is the note of a Diff whose two gathers were collected
// at the same time t (to the second): one collection given twice, such as a
// folder and its own archive.
func SameCollectionNote(t time.Time) string {
	return "both gathers were collected at " + t.UTC().Format(time.RFC3339) +
		": the same collection (given twice, such as a folder and its own archive); no time passed between them, so no duration is given, and a difference below comes from what each input holds, not from the cluster"
}

func side(s *Snapshot) DiffSide {
	return DiffSide{Path: s.Path, CollectedAt: timePtr(s.CollectedAt), ClusterID: s.ClusterID, ClusterVersion: s.ClusterVersion,
		Findings: len(s.Findings), Pods: len(s.Pods), EventsFrom: timePtr(s.EventFirst), EventsTo: timePtr(s.EventLast)}
}

func (d *Diff) summarize() {
	s := &d.Summary
	for _, f := range d.Findings {
		switch f.State {
		case StateNew:
			s.New++
		case StateResolved:
			s.Resolved++
		case StateStillFailing:
			s.StillFailing++
		case StateChanged:
			s.Changed++
		case StateNotComparable:
			s.NotComparable++
		}
	}
	s.NewlyUnhealthy, s.Recovered, s.Replaced, s.Gone = len(d.Pods.NewlyUnhealthy), len(d.Pods.Recovered), len(d.Pods.Replaced), len(d.Pods.Gone)
	s.Restarted, s.NodeChanges, s.OperatorChanges, s.ConfigChanges = len(d.Pods.Restarts), len(d.Nodes), len(d.Operators), len(d.Config)
	for _, g := range d.Events.Groups {
		if g.Type == "Warning" {
			s.WarningEvents += g.Count
		}
	}
}

// scopedChange is a configuration change with the chains it lies on.
type scopedChange struct {
	ConfigChange
	scope []string
}

// compareConfig lists the configuration items whose digest differs, or that
// exist in one gather only where the other gathered their list, sorted by
// kind and ref.
func compareConfig(a, b *Snapshot) []scopedChange {
	kinds := func(s *Snapshot) map[string]bool {
		m := map[string]bool{}
		for _, c := range s.Config {
			m[c.Kind] = true
		}
		return m
	}
	ka, kb := kinds(a), kinds(b)
	// An item in one gather only is added or removed when the other
	// gathered its list (or, without a list, holds items of its kind); else
	// it was not gathered there and is not compared.
	comparable := func(c ConfigItem, other *Snapshot, kinds map[string]bool) bool {
		if c.Kind == "Workload images" || c.Kind == "Node taints" {
			return false // a workload or node that left is in pods and nodes
		}
		if c.List != "" {
			return other.Gathered[c.List]
		}
		return kinds[c.Kind]
	}
	var out []scopedChange
	for _, key := range sortedKeysOf(union(a.Config, b.Config)) {
		x, inA := a.Config[key]
		y, inB := b.Config[key]
		ref := x.Ref
		if !inA {
			ref = y.Ref
		}
		switch {
		case inA && inB && x.Digest != y.Digest:
			out = append(out, scopedChange{ConfigChange{Kind: y.Kind, Ref: ref, Change: "changed", Old: x.Summary, New: y.Summary}, slices.Concat(x.Scope, y.Scope)})
		case inA && !inB && comparable(x, b, kb):
			out = append(out, scopedChange{ConfigChange{Kind: x.Kind, Ref: ref, Change: "removed", Old: x.Summary}, x.Scope})
		case inB && !inA && comparable(y, a, ka):
			out = append(out, scopedChange{ConfigChange{Kind: y.Kind, Ref: ref, Change: "added", New: y.Summary}, y.Scope})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Kind < out[j].Kind })
	return out
}

func union[V any](a, b map[string]V) map[string]bool {
	m := map[string]bool{}
	for k := range a {
		m[k] = true
	}
	for k := range b {
		m[k] = true
	}
	return m
}

// findingKey is a finding's identity: rule, subject and container.
func findingKey(f *SnapFinding) string {
	return identityKey(f.Finding.RuleID, f.Subject, f.Container)
}

// identityKey joins a finding's rule id, subject (subjectOf) and container
// into its identity across gathers: what a comparison matches findings by
// and what SARIF's partialFingerprints hash.
func identityKey(ruleID, subject, container string) string {
	return ruleID + "\x00" + subject + "\x00" + container
}

func subjectKey(f *SnapFinding) string { return f.Subject + "\x00" + f.Container }

// compareFindings matches findings by rule and subject identity; a subject
// that fires another rule (or the same rule at another severity) is changed.
func compareFindings(a, b *Snapshot, config []scopedChange) []FindingChange {
	index := func(list []SnapFinding) (map[string]*SnapFinding, map[string][]*SnapFinding) {
		byKey, bySubject := map[string]*SnapFinding{}, map[string][]*SnapFinding{}
		for i := range list {
			f := &list[i]
			if _, dup := byKey[findingKey(f)]; dup {
				continue // a second pod of the same workload: one finding
			}
			byKey[findingKey(f)] = f
			bySubject[subjectKey(f)] = append(bySubject[subjectKey(f)], f)
		}
		return byKey, bySubject
	}
	oldKeys, oldSubj := index(a.Findings)
	newKeys, _ := index(b.Findings)
	var out []FindingChange
	pairedOld := map[*SnapFinding]bool{}
	for _, k := range sortedKeysOf(newKeys) {
		n := newKeys[k]
		if o, ok := oldKeys[k]; ok {
			pairedOld[o] = true
			fc := change(o, n)
			if o.Finding.Severity != n.Finding.Severity {
				fc.State, fc.Why = StateChanged, "severity "+o.Finding.Severity+" → "+n.Finding.Severity
				fc.Config = configFor(n, config)
			} else {
				fc.State = StateStillFailing
				// What the two gathers observed, nothing more: the finding
				// fired when OLD was collected and again when NEW was. An
				// evidence time (a previous termination, an event's first
				// time, a log line) is not when the failure began, and a
				// gather compared with itself shows no time passing.
				if !a.CollectedAt.IsZero() && b.CollectedAt.After(a.CollectedAt) {
					fc.Since = timePtr(a.CollectedAt)
					fc.FailingSeconds = int64(b.CollectedAt.Sub(a.CollectedAt) / time.Second)
				}
			}
			out = append(out, fc)
			continue
		}
		// The same subject under another rule in OLD: the cause changed.
		var other *SnapFinding
		for _, o := range oldSubj[subjectKey(n)] {
			if _, same := newKeys[findingKey(o)]; !same && !pairedOld[o] {
				other = o
				break
			}
		}
		if other != nil {
			pairedOld[other] = true
			fc := change(other, n)
			fc.State, fc.Why = StateChanged, "cause "+other.Finding.RuleID+" → "+n.Finding.RuleID
			fc.Config = configFor(n, config)
			out = append(out, fc)
			continue
		}
		fc := change(nil, n)
		if !a.Gathered[n.Scope] && n.Scope != "" {
			fc.State, fc.Why = StateNotComparable, scopeText(n.Scope)+" not gathered in OLD"
		} else {
			fc.State = StateNew
			fc.Config = configFor(n, config)
		}
		out = append(out, fc)
	}
	for _, k := range sortedKeysOf(oldKeys) {
		o := oldKeys[k]
		if pairedOld[o] {
			continue
		}
		fc := change(o, nil)
		if !b.Gathered[o.Scope] && o.Scope != "" {
			fc.State, fc.Why = StateNotComparable, scopeText(o.Scope)+" not gathered in NEW"
		} else {
			fc.State = StateResolved
		}
		out = append(out, fc)
	}
	order := map[string]int{StateNew: 0, StateChanged: 1, StateStillFailing: 2, StateResolved: 3, StateNotComparable: 4}
	sort.SliceStable(out, func(i, j int) bool {
		x, y := out[i], out[j]
		if order[x.State] != order[y.State] {
			return order[x.State] < order[y.State]
		}
		if SeverityRank(x.Severity) != SeverityRank(y.Severity) {
			return SeverityRank(x.Severity) < SeverityRank(y.Severity)
		}
		if x.RuleID != y.RuleID {
			return x.RuleID < y.RuleID
		}
		return x.Subject+x.Container < y.Subject+y.Container
	})
	return out
}

func scopeText(scope string) string {
	if ns, ok := strings.CutPrefix(scope, "pods/"); ok {
		return "the pods of namespace " + ns + " were"
	}
	return scope + " were"
}

// change fills what a FindingChange shows from the finding in each gather
// (the newer one decides rule, severity and title).
func change(o, n *SnapFinding) FindingChange {
	f := n
	if f == nil {
		f = o
	}
	fc := FindingChange{Subject: displaySubject(f.Subject), Container: f.Container, RuleID: f.Finding.RuleID, Severity: f.Finding.Severity, Title: f.Finding.Title}
	if o != nil {
		x := o.Finding
		fc.Old = &x
	}
	if n != nil {
		x := n.Finding
		fc.New = &x
	}
	return fc
}

// displaySubject drops the "pod/" prefix model.Store.PodIdentity puts on pods named by
// their own name.
func displaySubject(s string) string {
	if rest, ok := strings.CutPrefix(s, "pod/"); ok {
		return "Pod/" + rest
	}
	return s
}

// configFor returns the configuration changes on f's chain: its namespace's
// NetworkPolicies, its nodes' taints, pools and KubeletConfigs, its
// workload's images.
func configFor(f *SnapFinding, config []scopedChange) []ConfigChange {
	want := map[string]bool{}
	if f.Namespace != "" {
		want["ns:"+f.Namespace] = true
	}
	for _, n := range f.Nodes {
		want["node:"+n] = true
	}
	if f.Workload != "" {
		want["workload:"+f.Workload] = true
	}
	var out []ConfigChange
	for _, c := range config {
		for _, s := range c.scope {
			if want[s] {
				out = append(out, c.ConfigChange)
				break
			}
		}
	}
	return out
}

// comparePods pairs pods by namespace/name (same or new UID) and, for a
// pod that left, with a new pod of the same workload identity.
func comparePods(a, b *Snapshot, interval int64) PodChanges {
	var pc PodChanges
	matchedNew := map[string]bool{}
	var gone []*SnapPod
	for _, k := range sortedKeysOf(a.Pods) {
		o := a.Pods[k]
		n, ok := b.Pods[k]
		if !ok {
			gone = append(gone, o)
			continue
		}
		matchedNew[k] = true
		if n.UID != o.UID {
			pc.Replaced = append(pc.Replaced, podChange(o, n))
		} else {
			for _, c := range sortedKeysOf(n.Restarts) {
				before, had := o.Restarts[c]
				if after := n.Restarts[c]; had && after > before {
					rc := RestartChange{Namespace: n.Namespace, Pod: n.Name, Container: c, Old: before, New: after, Delta: after - before, Status: n.Status}
					if interval > 0 {
						rc.PerHour = math.Round(float64(rc.Delta)/(float64(interval)/3600)*100) / 100
					}
					pc.Restarts = append(pc.Restarts, rc)
				}
			}
		}
		healthChange(&pc, o, n)
	}
	// New pods by workload, for the pods that left.
	byWorkload := map[string][]*SnapPod{}
	for _, k := range sortedKeysOf(b.Pods) {
		if !matchedNew[k] {
			n := b.Pods[k]
			byWorkload[n.Workload] = append(byWorkload[n.Workload], n)
		}
	}
	for _, o := range gone {
		cands := byWorkload[o.Workload]
		if len(cands) > 0 && !strings.HasPrefix(o.Workload, "pod/") {
			n := cands[0]
			byWorkload[o.Workload] = cands[1:]
			matchedNew[n.Namespace+"/"+n.Name] = true
			pc.Replaced = append(pc.Replaced, podChange(o, n))
			healthChange(&pc, o, n)
			continue
		}
		switch {
		case o.Completed || strings.HasPrefix(o.Workload, "Job/") || strings.HasPrefix(o.Workload, "CronJob/"):
			pc.CompletedGone++
		case b.Gathered["pods/"+o.Namespace]:
			pc.Gone = append(pc.Gone, podChange(o, nil))
		}
	}
	for _, k := range sortedKeysOf(b.Pods) {
		if matchedNew[k] {
			continue
		}
		n := b.Pods[k]
		if n.Healthy || !a.Gathered["pods/"+n.Namespace] {
			pc.Appeared++
			continue
		}
		pc.NewlyUnhealthy = append(pc.NewlyUnhealthy, podChange(nil, n))
	}
	return pc
}

func healthChange(pc *PodChanges, o, n *SnapPod) {
	switch {
	case o.Healthy && !n.Healthy:
		pc.NewlyUnhealthy = append(pc.NewlyUnhealthy, podChange(o, n))
	case !o.Healthy && n.Healthy:
		pc.Recovered = append(pc.Recovered, podChange(o, n))
	}
}

func podChange(o, n *SnapPod) PodChange {
	var c PodChange
	if o != nil {
		c.Workload, c.Namespace, c.OldPod, c.OldStatus, c.OldReady, c.Node = displaySubject(o.Workload), o.Namespace, o.Name, o.Status, o.Ready, o.Node
	}
	if n != nil {
		c.Workload, c.Namespace, c.NewPod, c.NewStatus, c.NewReady, c.Node = displaySubject(n.Workload), n.Namespace, n.Name, n.Status, n.Ready, n.Node
	}
	return c
}

func compareNodes(a, b *Snapshot) []NodeChange {
	var out []NodeChange
	for _, name := range sortedKeysOf(union(a.Nodes, b.Nodes)) {
		o, n := a.Nodes[name], b.Nodes[name]
		var ch []string
		switch {
		case o == nil && b.Gathered["nodes"] && a.Gathered["nodes"]:
			ch = append(ch, "node added (Ready "+orNone(n.Ready)+")")
		case n == nil && a.Gathered["nodes"] && b.Gathered["nodes"]:
			ch = append(ch, "node removed")
		case o != nil && n != nil:
			if o.UID != n.UID && o.UID != "" && n.UID != "" {
				ch = append(ch, "node object re-created (new UID)")
			}
			if o.Ready != n.Ready {
				c := "Ready " + arrow(o.Ready, n.Ready)
				if !n.ReadySince.IsZero() {
					c += " (since " + n.ReadySince.Format(time.RFC3339) + ")"
				}
				ch = append(ch, c)
			}
			if p, q := strings.Join(o.Pressure, ","), strings.Join(n.Pressure, ","); p != q {
				ch = append(ch, "pressure "+arrow(p, q))
			}
			if o.KubeletVersion != n.KubeletVersion {
				ch = append(ch, "kubelet "+arrow(o.KubeletVersion, n.KubeletVersion))
			}
			if p, q := strings.Join(o.Taints, ", "), strings.Join(n.Taints, ", "); p != q {
				ch = append(ch, "taints "+arrow(p, q))
			}
		}
		if len(ch) > 0 {
			out = append(out, NodeChange{Name: name, Changes: ch})
		}
	}
	return out
}

// compareVersions lists the updates of NEW's history that started after OLD
// was gathered or that OLD's history does not hold.
func compareVersions(a, b *Snapshot) VersionChange {
	vc := VersionChange{Old: a.ClusterVersion, New: b.ClusterVersion}
	seen := map[string]bool{}
	for _, h := range a.History {
		seen[h.Version+"\x00"+h.State] = true
	}
	for _, h := range b.History {
		started := h.Started != nil && !a.CollectedAt.IsZero() && h.Started.After(a.CollectedAt)
		if started || (!seen[h.Version+"\x00"+h.State] && len(a.History) > 0) {
			vc.Updates = append(vc.Updates, h)
		}
	}
	return vc
}

func compareOperators(a, b *Snapshot) []OperatorChange {
	if len(a.Operators) == 0 || len(b.Operators) == 0 {
		return nil
	}
	var out []OperatorChange
	for _, name := range sortedKeysOf(union(a.Operators, b.Operators)) {
		o, inA := a.Operators[name]
		n, inB := b.Operators[name]
		var ch []string
		switch {
		case !inA:
			ch = append(ch, "operator added")
		case !inB:
			ch = append(ch, "operator removed")
		default:
			for _, c := range []struct{ t, x, y string }{{"Available", o.Available, n.Available}, {"Degraded", o.Degraded, n.Degraded}, {"Progressing", o.Progressing, n.Progressing}} {
				if c.x != c.y {
					ch = append(ch, c.t+" "+arrow(c.x, c.y))
				}
			}
		}
		if len(ch) > 0 {
			out = append(out, OperatorChange{Name: name, Changes: ch, Message: n.Message})
		}
	}
	return out
}

func comparePools(a, b *Snapshot) []PoolChange {
	var out []PoolChange
	for _, name := range sortedKeysOf(union(a.Pools, b.Pools)) {
		o, inA := a.Pools[name]
		n, inB := b.Pools[name]
		var ch []string
		switch {
		case !inA && len(a.Pools) > 0:
			ch = append(ch, "pool added")
		case !inB && len(b.Pools) > 0:
			ch = append(ch, "pool removed")
		case inA && inB:
			if o.Rendered != n.Rendered {
				ch = append(ch, "rendered "+arrow(o.Rendered, n.Rendered))
			}
			for _, c := range []struct{ t, x, y string }{{"Updated", o.Updated, n.Updated}, {"Updating", o.Updating, n.Updating}, {"Degraded", o.Degraded, n.Degraded}} {
				if c.x != c.y {
					ch = append(ch, c.t+" "+arrow(c.x, c.y))
				}
			}
			if o.Machines != n.Machines || o.UpdatedMachines != n.UpdatedMachines || o.DegradedCount != n.DegradedCount {
				ch = append(ch, fmt.Sprintf("machines %d/%d updated, %d degraded → %d/%d updated, %d degraded",
					o.UpdatedMachines, o.Machines, o.DegradedCount, n.UpdatedMachines, n.Machines, n.DegradedCount))
			}
		}
		if len(ch) > 0 {
			out = append(out, PoolChange{Name: name, Changes: ch})
		}
	}
	return out
}

// compareEvents groups NEW's events that happened after OLD was gathered.
// The part of the interval before NEW's oldest event is unseen: events
// expire (about three hours by default) and neither gather holds it.
func compareEvents(a, b *Snapshot) EventChanges {
	var ec EventChanges
	type key struct{ t, r, o string }
	groups := map[key]*EventGroup{}
	for _, e := range b.Events {
		if e.When.IsZero() || (!a.CollectedAt.IsZero() && !e.When.After(a.CollectedAt)) {
			continue
		}
		k := key{e.Type, e.Reason, e.Object}
		g := groups[k]
		if g == nil {
			g = &EventGroup{Type: e.Type, Reason: e.Reason, Object: e.Object}
			groups[k] = g
		}
		g.Count += e.Count
		if g.First == nil || e.When.Before(*g.First) {
			g.First = timePtr(e.When)
		}
		if g.Last == nil || e.When.After(*g.Last) {
			g.Last = timePtr(e.When)
		}
	}
	for _, g := range groups {
		ec.Groups = append(ec.Groups, *g)
	}
	sort.Slice(ec.Groups, func(i, j int) bool {
		x, y := ec.Groups[i], ec.Groups[j]
		if (x.Type == "Warning") != (y.Type == "Warning") {
			return x.Type == "Warning"
		}
		if x.Count != y.Count {
			return x.Count > y.Count
		}
		if x.Reason != y.Reason {
			return x.Reason < y.Reason
		}
		return x.Object < y.Object
	})
	if len(ec.Groups) > MaxEventGroups {
		ec.Omitted = len(ec.Groups) - MaxEventGroups
		ec.Groups = ec.Groups[:MaxEventGroups]
	}
	if !a.CollectedAt.IsZero() && !b.CollectedAt.IsZero() {
		from := a.CollectedAt
		if !b.EventFirst.IsZero() && b.EventFirst.After(from) {
			ec.UnseenSeconds = int64(b.EventFirst.Sub(from) / time.Second)
		} else if b.EventFirst.IsZero() {
			ec.UnseenSeconds = int64(b.CollectedAt.Sub(from) / time.Second)
		}
	}
	return ec
}
