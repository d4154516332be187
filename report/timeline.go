package report

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/nodelog"
	"github.com/mgtriage/mgtriage/parser/podstatus"
	corev1 "k8s.io/api/core/v1"
)

// Timeline is one subject's incident timeline: what happened to a pod or a
// node, from every part of the upload (must-gather, inspect, sosreport),
// merged onto one time axis. Entries are sorted by time, then source, then
// path and line (then text), all times UTC. Only entries with a time are kept:
// Untimed counts those left out for having none.
type Timeline struct {
	// Kind is "Pod" or "Node".
	Kind      string `json:"kind" redact:"keep"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	// Node is the pod's node (spec.nodeName), or the node's own name.
	Node    string          `json:"node,omitempty"`
	Entries []TimelineEntry `json:"entries"`
	// Omitted counts the oldest entries left out beyond MaxTimelineEntries,
	// OutsideWindow those outside the report's Window, Untimed those without
	// a time.
	Omitted       int `json:"omitted,omitempty"`
	OutsideWindow int `json:"outsideWindow,omitempty"`
	Untimed       int `json:"untimed,omitempty"`
}

// TimelineEntry is one thing that happened. Time is when it happened, or
// first happened when it repeated (Count > 1), and Last when it last did (set
// only when different from Time). Source is one of the Timeline* kinds. Level
// is the tool's reading of it: error, warning or info. What is the event's
// type, reason and message, the journal line's class and text, or the
// tool's sentence for a container or condition change, cut to
// MaxTimelineTextRunes. Path and Line cite it (Line 0 when unknown).
type TimelineEntry struct {
	Time   time.Time  `json:"time"`
	Last   *time.Time `json:"last,omitempty"`
	Source string     `json:"source" redact:"keep"`
	Level  string     `json:"level" redact:"keep"`
	What   string     `json:"what"`
	Count  int        `json:"count"`
	Path   string     `json:"path"`
	Line   int        `json:"line"`
}

// Sources of a TimelineEntry.
const (
	TimelineEvent     = "event"     // an Event whose involved object is the subject
	TimelineKubelet   = "kubelet"   // kubelet journal lines (a collapsed node-log group)
	TimelineCRIO      = "crio"      // CRI-O journal lines
	TimelineKernel    = "kernel"    // kernel lines (OOM kills)
	TimelineJournal   = "journal"   // journal lines of another unit
	TimelineContainer = "container" // a container start or exit, from its status
	TimelineCondition = "condition" // a pod or node condition's lastTransitionTime
)

// Levels of a TimelineEntry.
const (
	LevelError   = "error"
	LevelWarning = "warning"
	LevelInfo    = "info"
)

// Bounds of a Timeline: a node of a long-running cluster holds thousands of
// events and journal groups; the newest MaxTimelineEntries are kept.
const (
	MaxTimelineEntries   = 500
	MaxTimelineTextRunes = 1000
)

// buildTimelines makes the timeline of every node and of every pod in pods,
// narrowed to w: nodes first in the report's node order, then pods in the
// gather's order.
func buildTimelines(g *model.Gather, nodes []*model.Node, pods []*model.Pod, w Window, short func(string) string) []Timeline {
	out := make([]Timeline, 0, len(nodes)+len(pods))
	for _, n := range nodes {
		t := Timeline{Kind: "Node", Name: n.Object.Name, Node: n.Object.Name}
		t.fill(nodeEntries(g, n, short), w)
		out = append(out, t)
	}
	for _, p := range pods {
		t := Timeline{Kind: "Pod", Namespace: p.Object.Namespace, Name: p.Object.Name, Node: p.Object.Spec.NodeName}
		t.fill(podEntries(p, short), w)
		out = append(out, t)
	}
	return out
}

// fill sets t's Entries from all: those without a time and those outside w
// are counted and left out, the rest sorted (sortTimeline) and bounded to the
// newest MaxTimelineEntries.
func (t *Timeline) fill(all []TimelineEntry, w Window) {
	kept := all[:0]
	for _, e := range all {
		e.Time = e.Time.UTC()
		if e.Last != nil {
			e.Last = timePtr(*e.Last)
		}
		switch {
		case e.Time.IsZero() || timePtr(e.Time) == nil:
			t.Untimed++ // no time, or none a report can write (timePtr)
		case !w.Overlaps(e.Time, e.Last):
			t.OutsideWindow++
		default:
			kept = append(kept, e)
		}
	}
	sortTimeline(kept)
	if len(kept) > MaxTimelineEntries {
		t.Omitted = len(kept) - MaxTimelineEntries
		kept = kept[t.Omitted:]
	}
	t.Entries = slices.Clip(kept)
	if t.Entries == nil {
		t.Entries = []TimelineEntry{}
	}
}

// sortTimeline orders entries by time, then source, then path, line and text,
// so that equal inputs give equal timelines whatever order they came in.
func sortTimeline(entries []TimelineEntry) {
	slices.SortStableFunc(entries, func(a, b TimelineEntry) int {
		return cmp.Or(a.Time.Compare(b.Time), cmp.Compare(a.Source, b.Source), cmp.Compare(a.Path, b.Path),
			cmp.Compare(a.Line, b.Line), cmp.Compare(a.What, b.What))
	})
}

// podEntries lists what happened to p: its events, its node-log groups, its
// containers' starts and exits and its conditions' transitions, unsorted.
func podEntries(p *model.Pod, short func(string) string) []TimelineEntry {
	var out []TimelineEntry
	for _, e := range p.Events {
		out = append(out, eventEntry(e, short))
	}
	for _, lg := range p.NodeLog {
		out = append(out, logGroupEntry(lg, short))
	}
	path := short(p.Source.Path)
	line := func(paths ...string) int {
		if n := p.Fields.Line(paths...); n > 0 {
			return n
		}
		return p.Source.Line
	}
	st := &p.Object.Status
	for _, l := range []struct {
		field    string
		statuses []corev1.ContainerStatus
	}{{"initContainerStatuses", st.InitContainerStatuses}, {"containerStatuses", st.ContainerStatuses}, {"ephemeralContainerStatuses", st.EphemeralContainerStatuses}} {
		for _, cs := range l.statuses {
			base := "status." + l.field + "[" + cs.Name + "]"
			out = append(out, containerEntries(cs.Name, "", cs.State, base+".state", path, line)...)
			out = append(out, containerEntries(cs.Name, "previous run: ", cs.LastTerminationState, base+".lastState", path, line)...)
		}
	}
	for _, c := range st.Conditions {
		level := LevelInfo
		if c.Status != corev1.ConditionTrue {
			level = LevelWarning
		}
		base := "status.conditions[" + string(c.Type) + "]"
		out = append(out, conditionEntry(string(c.Type), string(c.Status), c.Reason, c.Message, c.LastTransitionTime.Time, level,
			path, line(base+".lastTransitionTime", base)))
	}
	return out
}

// containerEntries are the start and exit of one container state (the
// current one, or the last with prefix "previous run: "), cited at the
// state's fields.
func containerEntries(name, prefix string, s corev1.ContainerState, field, path string, line func(...string) int) []TimelineEntry {
	var out []TimelineEntry
	entry := func(t time.Time, level, what string, paths ...string) {
		out = append(out, TimelineEntry{Time: t, Source: TimelineContainer, Level: level, What: truncateRunes(what, MaxTimelineTextRunes),
			Count: 1, Path: path, Line: line(append(paths, field)...)})
	}
	if r := s.Running; r != nil {
		entry(r.StartedAt.Time, LevelInfo, "container "+name+" started, running at gather time", field+".running.startedAt", field+".running")
	}
	if t := s.Terminated; t != nil {
		f := field + ".terminated"
		entry(t.StartedAt.Time, LevelInfo, prefix+"container "+name+" started", f+".startedAt", f)
		level := LevelInfo
		if t.ExitCode != 0 {
			level = LevelError
		}
		what := prefix + "container " + name + " exited: " + cmp.Or(t.Reason, "terminated") + ", exit code " + strconv.Itoa(int(t.ExitCode))
		if t.Signal != 0 {
			what += fmt.Sprintf(" (signal %d)", t.Signal)
		}
		if m := podstatus.ExitMeaning(t.ExitCode, t.Signal, t.Reason); m != "" {
			what += ": " + m
		}
		if msg := strings.TrimSpace(t.Message); msg != "" {
			what += "; message: " + msg
		}
		entry(t.FinishedAt.Time, level, what, f+".finishedAt", f+".exitCode", f)
	}
	return out
}

// conditionEntry is a condition's transition: "Ready=False KubeletNotReady: message".
func conditionEntry(typ, status, reason, message string, at time.Time, level, path string, line int) TimelineEntry {
	what := typ + "=" + status
	if reason != "" {
		what += " " + reason
	}
	if m := strings.TrimSpace(message); m != "" {
		what += ": " + m
	}
	return TimelineEntry{Time: at, Source: TimelineCondition, Level: level, What: truncateRunes(what, MaxTimelineTextRunes), Count: 1, Path: path, Line: line}
}

// nodeEntries lists what happened to node n: the events about it, its
// node-level journal groups (kubelet, CRI-O, kernel lines not tied to a pod)
// and its conditions' transitions, unsorted.
func nodeEntries(g *model.Gather, n *model.Node, short func(string) string) []TimelineEntry {
	var out []TimelineEntry
	for _, e := range g.NodeEvents(n.Object.Name) {
		out = append(out, eventEntry(e, short))
	}
	for _, lg := range g.NodeLogOf(n.Object.Name) {
		out = append(out, logGroupEntry(lg, short))
	}
	path := short(n.Source.Path)
	for _, c := range n.Object.Status.Conditions {
		out = append(out, conditionEntry(string(c.Type), string(c.Status), c.Reason, c.Message, c.LastTransitionTime.Time,
			nodeConditionLevel(c), path, n.Source.Line))
	}
	return out
}

// nodeConditionLevel: Ready not True is an error, a pressure or other
// condition that is True a warning, the rest info.
func nodeConditionLevel(c corev1.NodeCondition) string {
	switch {
	case c.Type == corev1.NodeReady && c.Status != corev1.ConditionTrue:
		return LevelError
	case c.Type != corev1.NodeReady && c.Status != corev1.ConditionFalse:
		return LevelWarning
	}
	return LevelInfo
}

// eventEntry is an event: from its first to its last time when it repeated.
func eventEntry(e *model.Event, short func(string) string) TimelineEntry {
	o := e.Object
	at := e.When()
	out := TimelineEntry{Time: at, Source: TimelineEvent, Level: LevelInfo, Count: e.Count(), Path: short(e.Source.Path), Line: e.Source.Line}
	if first := o.FirstTimestamp.Time(); !first.IsZero() && first.Before(at) {
		out.Time, out.Last = first, timePtr(at)
	}
	if o.Type == corev1.EventTypeWarning {
		out.Level = LevelWarning
	}
	what := strings.TrimSpace(o.Type + " " + o.Reason)
	if m := strings.TrimSpace(o.Message); m != "" {
		what += ": " + m
	}
	out.What = truncateRunes(what, MaxTimelineTextRunes)
	return out
}

// logGroupEntry is a collapsed run of journal lines: its class and first
// line's text, from its first to its last time.
func logGroupEntry(lg *model.LogGroup, short func(string) string) TimelineEntry {
	out := TimelineEntry{Time: lg.First, Source: journalSource(lg.Unit), Level: LevelInfo, Count: max(1, lg.Count),
		Path: short(lg.Source.Path), Line: lg.Source.Line}
	if !lg.Last.IsZero() && lg.Last.After(lg.First) {
		out.Last = timePtr(lg.Last)
	}
	switch {
	case lg.Severity == 'E' || lg.Severity == 'F' || lg.Class == nodelog.ClassOOMKill:
		out.Level = LevelError
	case lg.Severity == 'W':
		out.Level = LevelWarning
	}
	what := string(lg.Class)
	if lg.Container != "" {
		what += " (container " + lg.Container + ")"
	}
	out.What = truncateRunes(what+": "+strings.TrimSpace(lg.Text), MaxTimelineTextRunes)
	return out
}

// journalSource is the TimelineEntry source of a journal unit.
func journalSource(u nodelog.Unit) string {
	switch u {
	case nodelog.UnitKubelet:
		return TimelineKubelet
	case nodelog.UnitCRIO:
		return TimelineCRIO
	case nodelog.UnitKernel:
		return TimelineKernel
	}
	return TimelineJournal
}
