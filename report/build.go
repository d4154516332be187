package report

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/podstatus"
	"github.com/mgtriage/mgtriage/rules"
	corev1 "k8s.io/api/core/v1"
)

// Build makes the canonical Report from a parsed gather, the rule table and
// the findings evaluated over it. Paths are shown relative to the input, with
// the image folder left out when the gather has exactly one. Build is the
// last reader of g in a run and reads no object of its store: it releases
// the store first (Gather.ReleaseObjects), so that the report, the highest
// point of memory, is built without it; g's other fields stay readable.
// A Window that is not zero narrows the findings (inWindow) and the
// timelines to the incident, and the report says so.
func Build(g *model.Gather, t *rules.Table, findings []rules.Finding, tool Tool, w Window) *Report {
	// The subjects are read from the store before it goes.
	subjects := make([]string, len(findings))
	for i, f := range findings {
		subjects[i] = subjectOf(g.Objects, f).Subject
	}
	g.ReleaseObjects()
	short := PathShortener(g.Roots)
	r := &Report{
		SchemaVersion: SchemaVersion,
		SchemaMinor:   SchemaMinor,
		Tool:          tool,
		Rules:         TableOf(t),
		Gather: Gather{
			Path:               g.Input,
			Roots:              g.Roots,
			ClusterVersion:     g.ClusterVersion,
			KubernetesVersion:  g.KubernetesVersion,
			Distribution:       g.Distribution,
			ClusterID:          g.ClusterID,
			InfrastructureName: g.InfrastructureName,
			BaseDomain:         g.BaseDomain,
			APIServerURL:       g.APIServerURL,
			Incomplete:         g.Incomplete,
			Mixed:              g.Mixed,
			Platform:           g.Platform,
			Files:              g.Files,
			Bytes:              g.Bytes,
		},
	}
	for _, f := range g.Faults {
		r.Gather.Faults = append(r.Gather.Faults, StreamFault{Kind: string(f.Kind), Stream: short(f.Stream), Format: f.Format, Error: f.Error, Stopped: f.Stopped})
	}
	if g.Printer.From != "" {
		r.Gather.Printer = &Printer{Kubernetes: g.Printer.Version.String(), From: g.Printer.From}
	}
	for _, l := range g.Layouts {
		r.Gather.Layouts = append(r.Gather.Layouts, Layout{Root: l.Root, Kind: l.Kind, Image: l.Image, Node: l.Node, Pods: l.Pods})
	}
	r.Gather.Coverage = buildCoverage(g.Coverage, short)
	h := g.Health
	r.Gather.Health = Health{MustGatherErrors: h.MustGatherErrors, NodesWithoutLogs: h.NodesWithoutLogs, PodsWithoutLogs: h.PodsWithoutLogs, SosCommands: h.SosCommands}
	for _, ns := range h.NamespacesWithoutPods {
		r.Gather.Health.NamespacesWithoutPods = append(r.Gather.Health.NamespacesWithoutPods, short(ns))
	}
	for _, ns := range h.NamespacesWithoutWorkloads {
		r.Gather.Health.NamespacesWithoutWorkloads = append(r.Gather.Health.NamespacesWithoutWorkloads, short(ns))
	}
	if !g.CollectedAt.IsZero() {
		t := g.CollectedAt.UTC()
		r.Gather.CollectedAt = &t
	}
	r.Gather.CollectedAtInferred = g.CollectedAtInferred
	if !g.FinishedAt.IsZero() {
		t := g.FinishedAt.UTC()
		r.Gather.FinishedAt = &t
	}
	kept := findings[:0:0]
	for i, f := range findings {
		bf := buildFinding(f, short, subjects[i])
		if !inWindow(bf, w, r.Gather.CollectedAt) {
			w.FindingsOutside++
			continue
		}
		r.Findings = append(r.Findings, bf)
		kept = append(kept, f)
	}
	if !w.IsZero() {
		r.Window = &w
	}
	named := map[*model.Pod]bool{}
	for _, f := range kept {
		named[f.Pod] = true
		for _, m := range f.Also {
			named[m.Pod] = true
		}
		for _, m := range f.Explains {
			named[m.Pod] = true
		}
	}
	var timed []*model.Pod
	for _, p := range g.Pods {
		pod := buildPod(p, short)
		if !p.Healthy() || named[p] {
			pod.Logs = buildLogTails(p, short)
			timed = append(timed, p)
		}
		r.Pods = append(r.Pods, pod)
	}
	nodes := append(g.Nodes[:len(g.Nodes):len(g.Nodes)], g.JournalNodes...)
	r.Timelines = buildTimelines(g, nodes, timed, w, short)
	for _, n := range nodes {
		node := buildNode(n)
		for _, lg := range g.NodeLogOf(n.Object.Name) {
			node.Log = append(node.Log, buildLogGroup(lg, short))
		}
		r.Nodes = append(r.Nodes, node)
	}
	for _, p := range g.Problems {
		r.Problems = append(r.Problems, Problem{Path: short(p.Path), Error: truncateRunes(p.Error, MaxTextRunes)})
	}
	r.Ask = askFor(r, findings, g.Health)
	r.Summary = summarize(r, g)
	r.Normalize()
	return r
}

// PathShortener is model.CitedPath: the path the reports cite for a path of
// the gather.
func PathShortener(roots []string) func(string) string { return model.CitedPath(roots) }

// buildFinding makes the report's finding of f; subject is its identity
// across gathers (subjectOf).
func buildFinding(f rules.Finding, short func(string) string, subject string) Finding {
	out := Finding{
		RuleID:      f.Rule.ID,
		Subject:     subject,
		RuleVersion: f.Rule.Version,
		Severity:    f.Severity,
		Title:       f.Title,
		Category:    f.Rule.Category,
		Hint:        f.Hint,
		Remediation: f.Remediation,
		Docs:        f.Docs,
		Missing:     f.Missing,
		GroupedBy:   f.GroupedBy,
		AlsoMatched: f.AlsoMatched,
	}
	if sig := f.Signature; sig != nil {
		out.Hint = f.CitedHint(short)
		out.Signature = &Signature{ID: sig.ID, Version: sig.Version, Decided: sig.Decided, Path: short(sig.Line.Path), Line: sig.Line.Line, Quote: sig.Quote, Cause: sig.Cause}
	}
	if f.Pod != nil {
		out.Objects = append(out.Objects, podObject(f.Pod, f.Container, ""))
	}
	if f.Node != nil {
		out.Objects = append(out.Objects, Object{Kind: "Node", Name: f.Node.Object.Name})
	}
	if f.Operator != nil {
		out.Objects = append(out.Objects, Object{Kind: "ClusterOperator", Name: f.Operator.Name})
	}
	if f.Object != nil {
		out.Objects = append(out.Objects, Object{Kind: f.ObjectKind, Namespace: f.Object.Namespace, Name: f.Object.Name})
	}
	for _, m := range f.Also {
		out.Objects = append(out.Objects, podObject(m.Pod, m.Container, ""))
	}
	for _, m := range f.Explains {
		out.Explains = append(out.Explains, podObject(m.Pod, m.Container, m.RuleID))
	}
	for _, e := range f.Evidence {
		ev := Evidence{Path: short(e.Source.Path), Line: e.Source.Line, Kind: string(e.Kind), Text: truncateRunes(e.Text, MaxTextRunes), Count: e.Count, Time: timePtr(e.Time), Summary: e.Summary}
		out.Evidence = append(out.Evidence, ev)
	}
	return out
}

func podObject(p *model.Pod, container, ruleID string) Object {
	if p.Runtime != nil {
		return Object{RuleID: ruleID, Kind: "Pod (runtime view)", Namespace: p.Object.Namespace, Name: p.Object.Name, Container: container, Node: p.Object.Spec.NodeName}
	}
	return Object{RuleID: ruleID, Kind: "Pod", Namespace: p.Object.Namespace, Name: p.Object.Name, Container: container, Node: p.Object.Spec.NodeName}
}

func buildPod(p *model.Pod, short func(string) string) Pod {
	out := Pod{
		Namespace: p.Object.Namespace,
		Name:      p.Object.Name,
		UID:       string(p.Object.UID),
		Node:      p.Object.Spec.NodeName,
		Phase:     string(p.Object.Status.Phase),
		Ready:     p.Columns.Ready,
		Status:    p.Columns.Status,
		Restarts:  p.Columns.Restarts,
		Age:       p.Columns.Age,
		Healthy:   p.Healthy(),
		Stage:     p.Stage.Name,
		Source:    short(p.Source.Path),
	}
	if p.Runtime != nil {
		out.View = "runtime"
		out.Phase = ""
		out.Stage = ""
	}
	if p.Stage.Condition != "" && p.Runtime == nil {
		out.StageReason, out.StageMessage, out.StageLookAt = p.Stage.Reason, truncateRunes(p.Stage.Message, MaxTextRunes), p.Stage.LookAt
		if !p.Stage.Since.IsZero() {
			t := p.Stage.Since.UTC()
			out.StageSince = &t
		}
	}
	if p.Source.Line > 0 {
		out.Source += ":" + strconv.Itoa(p.Source.Line)
	}
	if ref, ok := model.ControllerOf(model.PodOwners(&p.Object)); ok {
		out.Owner = ref.Kind + "/" + ref.Name
	}
	// Each list is made at its final size: the report holds those of
	// every pod of the gather at once, next to the model.
	if len(p.Containers) > 0 {
		out.Containers = make([]Container, 0, len(p.Containers))
	}
	for _, c := range p.Containers {
		out.Containers = append(out.Containers, buildContainer(c))
	}
	if len(p.NodeLog) > 0 {
		out.NodeLog = make([]LogGroup, 0, len(p.NodeLog))
	}
	for _, g := range p.NodeLog {
		out.NodeLog = append(out.NodeLog, buildLogGroup(g, short))
	}
	events := p.Events
	if len(events) > MaxPodEvents {
		out.EventsOmitted = len(events) - MaxPodEvents
		events = events[len(events)-MaxPodEvents:]
	}
	if len(events) > 0 {
		out.Events = make([]PodEvent, 0, len(events))
	}
	for _, e := range events {
		out.Events = append(out.Events, buildPodEvent(e, short))
	}
	return out
}

// buildLogTails keeps the last MaxLogTailLines lines of each container log
// of p, sorted by container, the previous run before the current one, then
// the rotated files (model.CompareLogs), then path: the reader adds logs in
// the order its workers finish, so the order must not come from it.
func buildLogTails(p *model.Pod, short func(string) string) []LogTail {
	logs := slices.Clone(p.Logs)
	slices.SortStableFunc(logs, func(a, b *model.ContainerLog) int {
		if c := model.CompareLogs(a, b); c != 0 {
			return c
		}
		return strings.Compare(short(a.Path()), short(b.Path()))
	})
	var out []LogTail
	for _, l := range logs {
		t := LogTail{Container: l.Container, Previous: l.Previous, Rotated: l.Rotated, Path: short(l.Path()), Lines: l.Lines, Tail: []LogLine{}}
		tail, _ := l.Kept()
		if len(tail) > MaxLogTailLines {
			tail = tail[len(tail)-MaxLogTailLines:]
		}
		for _, ln := range tail {
			t.Tail = append(t.Tail, LogLine{Line: ln.Line, Time: timePtr(ln.Time), Text: truncateRunes(ln.Text, MaxTextRunes)})
		}
		out = append(out, t)
	}
	return out
}

// buildPodEvent keeps what a timeline needs of an event, its message cut to
// MaxEventMessageRunes.
func buildPodEvent(e *model.Event, short func(string) string) PodEvent {
	o := e.Object
	out := PodEvent{Time: timePtr(e.When()), Type: o.Type, Reason: o.Reason, Count: e.Count(),
		Message: truncateRunes(o.Message, MaxEventMessageRunes), Path: short(e.Source.Path), Line: e.Source.Line}
	if first := o.FirstTimestamp; !first.IsZero() && first != e.At {
		out.FirstTime = timePtr(first.Time())
	}
	return out
}

func buildLogGroup(g *model.LogGroup, short func(string) string) LogGroup {
	out := LogGroup{Class: string(g.Class), Node: g.Node, Unit: string(g.Unit), Path: short(g.Source.Path), Line: g.Source.Line,
		First: timePtr(g.First), Last: timePtr(g.Last), Count: g.Count, Container: g.Container, Text: truncateRunes(g.Text, MaxTextRunes)}
	if g.Severity != 0 {
		out.Severity = string(g.Severity)
	}
	return out
}

func buildContainer(c podstatus.Container) Container {
	out := Container{Name: c.Name, Kind: c.Kind, Image: c.Image, State: c.State, Reason: c.Reason, Message: truncateRunes(c.Message, MaxTextRunes),
		ExitCode: c.ExitCode, Signal: c.Signal, ExitMeaning: c.ExitMeaning, Ready: c.Ready, RestartCount: c.RestartCount}
	if c.Last != nil {
		out.Last = &Termination{Reason: c.Last.Reason, ExitCode: c.Last.ExitCode, Signal: c.Last.Signal, ExitMeaning: c.Last.ExitMeaning, FinishedAt: timePtr(c.Last.FinishedAt)}
	}
	if c.BackOff > 0 {
		out.BackOff = c.BackOff.String()
		out.NextRestart = timePtr(c.NextRestart)
		out.CrashLoopSince = timePtr(c.CrashLoopSince)
	}
	for _, p := range c.Probes {
		out.Probes = append(out.Probes, p.String())
	}
	return out
}

// timePtr returns t in UTC, or nil for the zero time.
//
// A time outside years 0000–9999 (RFC 3339's range, which encoding/json
// enforces) is left out like an unknown one: one hostile timestamp must not
// keep report.json from being written.
func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	if u.Year() < 0 || u.Year() > 9999 {
		return nil
	}
	return &u
}

func buildNode(n *model.Node) Node {
	out := Node{Name: n.Object.Name, Ready: "Unknown", KubeletVersion: n.Object.Status.NodeInfo.KubeletVersion, NoObject: n.JournalOnly}
	if n.JournalOnly {
		out.Conditions = append(out.Conditions, "no Node object in the gather: known from its journal or its runtime's pods")
	}
	for _, a := range n.Object.Status.Addresses {
		if a.Address != "" {
			out.Addresses = append(out.Addresses, string(a.Type)+" "+truncateRunes(a.Address, 256))
		}
	}
	for label := range n.Object.Labels {
		if role, ok := strings.CutPrefix(label, "node-role.kubernetes.io/"); ok && role != "" {
			out.Roles = append(out.Roles, role)
		}
	}
	sort.Strings(out.Roles)
	for _, c := range n.Object.Status.Conditions {
		if c.Type == corev1.NodeReady {
			out.Ready = string(c.Status)
			if c.Status != corev1.ConditionTrue {
				out.Conditions = append(out.Conditions, "Ready="+string(c.Status)+" "+c.Reason+": "+c.Message)
			}
			continue
		}
		if c.Status != corev1.ConditionFalse {
			out.Conditions = append(out.Conditions, string(c.Type)+"="+string(c.Status)+" "+c.Reason+": "+c.Message)
		}
	}
	if n.Object.Spec.Unschedulable {
		out.Conditions = append(out.Conditions, "SchedulingDisabled (cordoned)")
	}
	return out
}

func summarize(r *Report, g *model.Gather) Summary {
	s := Summary{Pods: len(r.Pods), Events: len(g.Events), Nodes: len(r.Nodes), Findings: len(r.Findings), BySeverity: map[string]int{}}
	for _, sev := range Severities {
		s.BySeverity[sev] = 0
	}
	for _, p := range r.Pods {
		if !p.Healthy {
			s.UnhealthyPods++
		}
	}
	for _, e := range g.Events {
		if e.Object.Type == corev1.EventTypeWarning {
			s.WarningEvents++
		}
	}
	for _, f := range r.Findings {
		s.BySeverity[f.Severity]++
	}
	s.Limits = summaryLimits(r.Gather.Coverage.Cuts)
	return s
}

// TableOf identifies t as a report names it: its schema, version, release,
// rule count and the packs applied over it.
func TableOf(t *rules.Table) RuleTable {
	rt := RuleTable{SchemaVersion: t.SchemaVersion, Version: t.Version, Released: t.Released, Count: len(t.Rules)}
	for _, p := range t.Packs {
		rt.Packs = append(rt.Packs, RulePack{Name: p.Name, Version: p.Version, Digest: p.Digest, Signed: p.Signed, KeyID: p.KeyID, Warning: p.Warning})
	}
	return rt
}
