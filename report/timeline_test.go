package report

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/nodelog"
	"github.com/mgtriage/mgtriage/parser/podstatus"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var tlBase = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func at(min int) time.Time { return tlBase.Add(time.Duration(min) * time.Minute) }

func event(kind, typ, reason, msg string, first, last time.Time, count int32, line int) *model.Event {
	return &model.Event{
		Object: model.EventObject{InvolvedObject: &model.EventReference{Kind: kind, Namespace: "shop", Name: "web-1"},
			Type: typ, Reason: reason, Message: msg, FirstTimestamp: model.StampOf(first), Count: count},
		Source: model.Source{Path: "namespaces/shop/core/events.yaml", Line: line},
		At:     model.StampOf(last),
	}
}

func identity(s string) string { return s }

// entryKeys is the short form the table compares: "time source what".
func entryKeys(tl Timeline) []string {
	var out []string
	for _, e := range tl.Entries {
		k := e.Time.Format("15:04:05") + " " + e.Source + " " + e.What
		if e.Last != nil {
			k += " .." + e.Last.Format("15:04:05")
		}
		out = append(out, k)
	}
	return out
}

func TestPodTimelineMerge(t *testing.T) {
	cet := time.FixedZone("CET", 3600)
	tests := []struct {
		name string
		pod  model.Pod
		w    Window
		want []string
	}{
		{
			name: "events, journal, container and condition sorted on one axis",
			pod: model.Pod{
				Object: corev1.Pod{Status: corev1.PodStatus{
					Conditions: []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(at(0))}},
					ContainerStatuses: []corev1.ContainerStatus{{Name: "app",
						State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}},
						LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
							ExitCode: 1, Reason: "Error", StartedAt: metav1.NewTime(at(3)), FinishedAt: metav1.NewTime(at(4))}}}},
				}},
				Events:  []*model.Event{event("Pod", "Warning", "BackOff", "Back-off restarting", at(5), at(9), 7, 40)},
				NodeLog: []*model.LogGroup{{Source: model.Source{Path: "kubelet.log", Line: 3}, Unit: nodelog.UnitKubelet, Severity: 'E', Class: nodelog.ClassCrashLoop, First: at(2), Last: at(2), Count: 1, Text: "Error syncing pod", Container: "app"}},
			},
			want: []string{
				"09:00:00 condition PodScheduled=True",
				"09:02:00 kubelet crash-loop (container app): Error syncing pod",
				"09:03:00 container previous run: container app started",
				"09:04:00 container previous run: container app exited: Error, exit code 1: " + podstatus.ExitMeaning(1, 0, "Error"),
				"09:05:00 event Warning BackOff: Back-off restarting ..09:09:00",
			},
		},
		{
			name: "ties: same time, by source, then path and line",
			pod: model.Pod{
				Events: []*model.Event{
					event("Pod", "Normal", "Pulled", "b", time.Time{}, at(1), 1, 20),
					event("Pod", "Normal", "Pulling", "a", time.Time{}, at(1), 1, 10),
				},
				NodeLog: []*model.LogGroup{
					{Source: model.Source{Path: "crio.log", Line: 9}, Unit: nodelog.UnitCRIO, Class: nodelog.ClassOther, First: at(1), Last: at(1), Count: 1, Text: "c"},
					{Source: model.Source{Path: "a-kubelet.log", Line: 9}, Unit: nodelog.UnitKubelet, Class: nodelog.ClassOther, First: at(1), Last: at(1), Count: 1, Text: "k2"},
					{Source: model.Source{Path: "a-kubelet.log", Line: 2}, Unit: nodelog.UnitKubelet, Class: nodelog.ClassOther, First: at(1), Last: at(1), Count: 1, Text: "k1"},
				},
			},
			want: []string{
				"09:01:00 crio other: c",
				"09:01:00 event Normal Pulling: a",
				"09:01:00 event Normal Pulled: b",
				"09:01:00 kubelet other: k1",
				"09:01:00 kubelet other: k2",
			},
		},
		{
			name: "times in another zone are placed by their instant and given in UTC",
			pod: model.Pod{
				Object: corev1.Pod{Status: corev1.PodStatus{Conditions: []corev1.PodCondition{
					{Type: corev1.PodReady, Status: corev1.ConditionFalse, Reason: "ContainersNotReady", LastTransitionTime: metav1.NewTime(at(30).In(cet))},
				}}},
				NodeLog: []*model.LogGroup{{Source: model.Source{Path: "kern.log", Line: 1}, Unit: nodelog.UnitKernel, Class: nodelog.ClassOOMKill, First: at(20).In(cet), Last: at(40).In(cet), Count: 3, Text: "Killed process 1"}},
			},
			want: []string{
				"09:20:00 kernel oom-kill: Killed process 1 ..09:40:00",
				"09:30:00 condition Ready=False ContainersNotReady",
			},
		},
		{
			name: "window: what meets it is kept, a span that overlaps its start included",
			pod: model.Pod{
				Events: []*model.Event{
					event("Pod", "Normal", "Early", "", time.Time{}, at(0), 1, 1),
					event("Pod", "Warning", "Spans", "", at(0), at(15), 2, 2),
					event("Pod", "Normal", "Inside", "", time.Time{}, at(12), 1, 3),
					event("Pod", "Normal", "Late", "", time.Time{}, at(30), 1, 4),
				},
			},
			w:    Window{From: ptr(at(10)), To: ptr(at(20))},
			want: []string{"09:00:00 event Warning Spans ..09:15:00", "09:12:00 event Normal Inside"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl := buildTimelines(&model.Gather{}, nil, []*model.Pod{&tt.pod}, tt.w, identity)[0]
			if diff := cmp.Diff(tt.want, entryKeys(tl)); diff != "" {
				t.Errorf("timeline (-want +got):\n%s", diff)
			}
			for _, e := range tl.Entries {
				if e.Time.Location() != time.UTC || (e.Last != nil && e.Last.Location() != time.UTC) {
					t.Errorf("entry %q not in UTC: %v", e.What, e.Time)
				}
			}
		})
	}
}

func ptr(t time.Time) *time.Time { return &t }

// TestTimelineBounds: the newest MaxTimelineEntries are kept, older ones
// counted; entries with no time are counted, not placed; texts are cut.
func TestTimelineBounds(t *testing.T) {
	var p model.Pod
	for i := range MaxTimelineEntries + 30 {
		p.Events = append(p.Events, event("Pod", "Normal", fmt.Sprint("R", i), strings.Repeat("m", 3*MaxTimelineTextRunes), time.Time{}, at(i), 1, i+1))
	}
	p.Events = append(p.Events, event("Pod", "Normal", "NoTime", "", time.Time{}, time.Time{}, 1, 9999))
	p.Object.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionTrue}}
	tl := buildTimelines(&model.Gather{}, nil, []*model.Pod{&p}, Window{}, identity)[0]
	if len(tl.Entries) != MaxTimelineEntries || tl.Omitted != 30 || tl.Untimed != 2 {
		t.Fatalf("%d entries, %d omitted, %d untimed", len(tl.Entries), tl.Omitted, tl.Untimed)
	}
	if !strings.HasPrefix(tl.Entries[0].What, "Normal R30:") || !strings.HasPrefix(tl.Entries[len(tl.Entries)-1].What, fmt.Sprintf("Normal R%d:", MaxTimelineEntries+29)) {
		t.Errorf("kept %q .. %q, want the newest", tl.Entries[0].What[:12], tl.Entries[len(tl.Entries)-1].What[:12])
	}
	if n := len([]rune(tl.Entries[0].What)); n != MaxTimelineTextRunes {
		t.Errorf("text of %d runes, want %d", n, MaxTimelineTextRunes)
	}
	if tl.Entries[0].Path != "namespaces/shop/core/events.yaml" || tl.Entries[0].Line != 31 {
		t.Errorf("cite %s:%d", tl.Entries[0].Path, tl.Entries[0].Line)
	}
}

// TestNodeTimeline: a node's events, its node-level journal groups (by host,
// whatever the case or domain) and its conditions' transitions, with levels.
func TestNodeTimeline(t *testing.T) {
	n := &model.Node{Source: model.Source{Path: "nodes/worker-0.yaml", Line: 1}, Object: corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: "worker-0.example.com"},
		Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{
			{Type: corev1.NodeReady, Status: corev1.ConditionFalse, Reason: "KubeletNotReady", Message: "PLEG is not healthy", LastTransitionTime: metav1.NewTime(at(10))},
			{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(at(5))},
			{Type: corev1.NodeDiskPressure, Status: corev1.ConditionFalse, LastTransitionTime: metav1.NewTime(at(1))},
		}},
	}}
	ev := event("Node", "Warning", "NodeNotReady", "Node is not ready", time.Time{}, at(11), 1, 7)
	ev.Object.InvolvedObject = &model.EventReference{Kind: "Node", Name: "worker-0.example.com"}
	g := &model.Gather{Nodes: []*model.Node{n}, Events: []*model.Event{ev}, NodeLog: map[string][]*model.LogGroup{
		"worker-0": {{Source: model.Source{Path: "sos/journalctl_kubelet", Line: 12}, Unit: nodelog.UnitKubelet, Severity: 'E', Class: nodelog.ClassPLEG, First: at(9), Last: at(9), Count: 1, Text: "PLEG is not healthy"}},
	}}
	g.Freeze()
	tl := buildTimelines(g, g.Nodes, nil, Window{}, identity)[0]
	want := []string{
		"09:01:00 condition DiskPressure=False info",
		"09:05:00 condition MemoryPressure=True warning",
		"09:09:00 kubelet pleg: PLEG is not healthy error",
		"09:10:00 condition Ready=False KubeletNotReady: PLEG is not healthy error",
		"09:11:00 event Warning NodeNotReady: Node is not ready warning",
	}
	var got []string
	for i, k := range entryKeys(tl) {
		got = append(got, k+" "+tl.Entries[i].Level)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("node timeline (-want +got):\n%s", diff)
	}
	if tl.Kind != "Node" || tl.Node != "worker-0.example.com" || tl.Entries[3].Path != "nodes/worker-0.yaml" {
		t.Errorf("subject %+v", tl)
	}
}

func TestParseWindow(t *testing.T) {
	tests := []struct {
		in       string
		from, to string
		err      string
	}{
		{in: "2026-11-20T09:00:00Z..2026-11-20T10:00:00Z", from: "2026-11-20T09:00:00Z", to: "2026-11-20T10:00:00Z"},
		{in: " 2026-11-20T09:00:00Z .. ", from: "2026-11-20T09:00:00Z"},
		{in: "..2026-11-20T11:00:00+02:00", to: "2026-11-20T09:00:00Z"},
		{in: "2026-11-20T09:00:00.5Z..", from: "2026-11-20T09:00:00.5Z"},
		{in: "2026-11-20T09:00:00Z", err: "want FROM..TO"},
		{in: "..", err: "neither FROM nor TO"},
		{in: "2026-11-20T09:00:00..", err: "not an RFC 3339 time with a zone"},
		{in: "yesterday..", err: "not an RFC 3339 time"},
		{in: "2026-11-20T10:00:00Z..2026-11-20T09:00:00Z", err: "is after TO"},
		{in: "..9999-12-31T23:59:59-01:00", err: "outside the years 0001 to 9999"},
		{in: "0000-01-01T00:00:00+01:00..", err: "outside the years 0001 to 9999"},
		{in: "0001-01-01T00:00:00Z..9999-12-31T23:59:59Z", from: "0001-01-01T00:00:00Z", to: "9999-12-31T23:59:59Z"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			w, err := ParseWindow(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := formatTimeNano(w.From) + ".." + formatTimeNano(w.To); got != tt.from+".."+tt.to || w.String() != got {
				t.Errorf("got %s (String %s), want %s..%s", got, w.String(), tt.from, tt.to)
			}
		})
	}
}

func formatTimeNano(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.Format(time.RFC3339Nano)
}

// TestInWindow: a finding is kept when one of its timed evidence lines lies
// in the window; without timed evidence, by the gather time; kept when that
// is unknown too.
func TestInWindow(t *testing.T) {
	w := Window{From: ptr(at(0)), To: ptr(at(60))}
	gather := ptr(at(90))
	tests := []struct {
		name   string
		times  []*time.Time
		gather *time.Time
		w      Window
		want   bool
	}{
		{"one evidence inside", []*time.Time{ptr(at(-30)), ptr(at(30))}, gather, w, true},
		{"every evidence before", []*time.Time{ptr(at(-30)), nil}, gather, w, false},
		{"end included", []*time.Time{ptr(at(60))}, gather, w, true},
		{"no timed evidence, gather time outside", []*time.Time{nil}, gather, w, false},
		{"no timed evidence, gather time inside", nil, ptr(at(59)), w, true},
		{"no timed evidence, gather time unknown", nil, nil, w, true},
		{"no window", []*time.Time{ptr(at(-30))}, gather, Window{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var f Finding
			for _, ts := range tt.times {
				f.Evidence = append(f.Evidence, Evidence{Time: ts})
			}
			if got := inWindow(f, tt.w, tt.gather); got != tt.want {
				t.Errorf("inWindow = %v, want %v", got, tt.want)
			}
		})
	}
}

// A time report.json cannot write (outside years 0000–9999) is left out,
// never a failed report.
func TestTimePtrOutOfRange(t *testing.T) {
	for _, tt := range []struct {
		in   time.Time
		want bool
	}{
		{time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC), true},
		{time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC), true},
		{time.Date(9999, 12, 31, 23, 30, 0, 0, time.FixedZone("-14", -14*3600)), false},
		{time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC), false},
		{time.Time{}, false},
	} {
		if got := timePtr(tt.in) != nil; got != tt.want {
			t.Errorf("timePtr(%v) kept %v, want %v", tt.in, got, tt.want)
		}
	}
}
