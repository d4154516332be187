package parser

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestInferGatherTime(t *testing.T) {
	base := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	at := func(d time.Duration) time.Time { return base.Add(d) }
	tests := []struct {
		name    string
		times   []time.Time
		want    time.Time
		dropped int
	}{
		{"latest wins", []time.Time{at(-48 * time.Hour), at(-time.Hour), at(0)}, at(0), 0},
		{"a far-future time is set aside", []time.Time{at(-time.Hour), at(-time.Minute), at(0), at(70 * 365 * 24 * time.Hour)}, at(0), 1},
		{"a close later time is kept", []time.Time{at(-time.Hour), at(0), at(2 * time.Hour)}, at(2 * time.Hour), 0},
		{"old gaps below the latest do not matter", []time.Time{at(-400 * 24 * time.Hour), at(-30 * 24 * time.Hour), at(0)}, at(0), 0},
		{"a lone time is the answer", []time.Time{at(0)}, at(0), 0},
	}
	for _, tt := range tests {
		var c timeCandidates
		for _, ts := range tt.times {
			c.add("event", ts)
		}
		c.add("event", time.Time{}) // zero times are not candidates
		got, how := c.infer()
		if !got.Equal(tt.want) {
			t.Errorf("%s: infer = %v, want %v", tt.name, got, tt.want)
		}
		if !strings.Contains(how, "inferred: the latest of") && !strings.Contains(how, "inferred: the only time") || strings.Contains(how, "outlier") != (tt.dropped > 0) {
			t.Errorf("%s: description %q", tt.name, how)
		}
	}
	var none timeCandidates
	if got, _ := none.infer(); !got.IsZero() {
		t.Errorf("no times: %v", got)
	}
}

// TestLoadInfersGatherTimeFromContainerTimes: without a timestamp file, a
// container that finished after every event and condition still prints its
// restart as "(… ago)" measured from a time not before it, never
// "(<invalid> ago)", and the gather says the time was inferred.
func TestLoadInfersGatherTimeFromContainerTimes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "must-gather.local.8")
	pods := `apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata:
    creationTimestamp: "2026-11-20T08:00:00Z"
    name: web-1
    namespace: shop
    uid: 11111111-0000-0000-0000-000000000001
  spec:
    containers:
    - name: app
  status:
    conditions:
    - lastTransitionTime: "2026-11-20T08:00:10Z"
      status: "True"
      type: Ready
    containerStatuses:
    - name: app
      ready: true
      restartCount: 1
      lastState:
        terminated:
          exitCode: 1
          finishedAt: "2026-11-20T08:40:00Z"
      state:
        running:
          startedAt: "2026-11-20T08:40:05Z"
    phase: Running
- apiVersion: v1
  kind: Pod
  metadata:
    creationTimestamp: "2099-01-01T00:00:00Z"
    name: clock-skew
    namespace: shop
    uid: 11111111-0000-0000-0000-000000000002
  spec:
    containers:
    - name: app
  status:
    phase: Pending
kind: PodList
`
	events := `apiVersion: v1
items:
- apiVersion: v1
  kind: Event
  involvedObject:
    kind: Pod
    name: web-1
    namespace: shop
  lastTimestamp: "2026-11-20T08:30:00Z"
  message: Back-off restarting failed container app
  metadata:
    name: web-1.1
    namespace: shop
  reason: BackOff
  type: Warning
kind: EventList
`
	writeTree(t, dir, map[string]string{
		"namespaces/shop/core/pods.yaml":   pods,
		"namespaces/shop/core/events.yaml": events,
	})
	g, err := Load(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, 11, 20, 8, 40, 5, 0, time.UTC); !g.CollectedAt.Equal(want) {
		t.Errorf("CollectedAt = %v, want %v (the container start, the latest time before the outlier)", g.CollectedAt, want)
	}
	if !strings.Contains(g.CollectedAtInferred, "container start") || !strings.Contains(g.CollectedAtInferred, "outlier") {
		t.Errorf("CollectedAtInferred = %q", g.CollectedAtInferred)
	}
	for _, p := range g.Pods {
		if p.Object.Name == "web-1" && p.Columns.Restarts != "1 (5s ago)" {
			t.Errorf("web-1 RESTARTS = %q, want \"1 (5s ago)\"", p.Columns.Restarts)
		}
	}
}
