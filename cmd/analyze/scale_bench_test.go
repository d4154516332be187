package main

// BenchmarkFailingPods: the whole analysis (load, rules, report, every
// format rendered) of a generated gather whose pods all crash-loop, at
// three sizes; CPU per pod (cpu-ns/pod: user and system time of the
// process, every core) should stay flat as the count grows.
// `make bench` runs it (-bench . over every package); CI does not.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mgtriage/mgtriage/parser"
	"github.com/mgtriage/mgtriage/report"
	"github.com/mgtriage/mgtriage/rules"
)

// failingPodsSizes are the pod counts of BenchmarkFailingPods; the
// environment variable MGTRIAGE_BENCH_PODS (comma-separated) replaces them,
// for a profile at a small count.
var failingPodsSizes = []int{5_000, 20_000, 50_000}

func BenchmarkFailingPods(b *testing.B) {
	sizes := failingPodsSizes
	if s := os.Getenv("MGTRIAGE_BENCH_PODS"); s != "" {
		sizes = nil
		for _, f := range strings.Split(s, ",") {
			var n int
			fmt.Sscan(f, &n)
			sizes = append(sizes, n)
		}
	}
	table := rules.Builtin()
	for _, n := range sizes {
		b.Run(fmt.Sprintf("pods=%d", n), func(b *testing.B) {
			top := writeFailingPods(b, b.TempDir(), n)
			var peak uint64
			cpu0 := cpuTime()
			b.ResetTimer()
			for b.Loop() {
				stop := watchHeap(&peak)
				g, err := parser.LoadWith(context.Background(), top, parser.Options{Needs: new(table.Needs())})
				if err != nil {
					b.Fatal(err)
				}
				findings := rules.Evaluate(table, g)
				r := report.Build(g, table, findings, report.Tool{Name: "mgtriage", Version: "bench"}, report.Window{})
				for _, w := range []func(io.Writer, *report.Report) error{
					report.WriteJSON, report.WriteHTML,
					func(w io.Writer, r *report.Report) error { return report.WriteMarkdown(w, r, report.MarkdownOptions{}) },
				} {
					if err := w(io.Discard, r); err != nil {
						b.Fatal(err)
					}
				}
				stop()
				if len(g.Pods) != n || len(findings) == 0 {
					b.Fatalf("%d pods, %d findings", len(g.Pods), len(findings))
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/pod")
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/pod")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}

// cpuTime is the CPU time (user and system) the process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// watchHeap samples the heap in use every 20 ms into peak (the highest
// seen) until the returned function is called.
func watchHeap(peak *uint64) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > *peak {
				*peak = m.HeapInuse
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}

// writeFailingPods writes a must-gather of n pods, all in CrashLoopBackOff
// (log lines padded to MGTRIAGE_BENCH_LINE bytes when set):
// namespaces of 500 pods, ten pods per ReplicaSet (of a Deployment), each
// with its BackOff event and a container log whose last line says why the
// process ended; six nodes. It returns the gather's top folder.
func writeFailingPods(tb testing.TB, dir string, n int) string {
	tb.Helper()
	top := filepath.Join(dir, "must-gather.local.1")
	img := filepath.Join(top, "quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-0123456789abcdef")
	must := func(err error) {
		if err != nil {
			tb.Fatal(err)
		}
	}
	write := func(p, body string) {
		must(os.MkdirAll(filepath.Dir(p), 0o755))
		must(os.WriteFile(p, []byte(body), 0o644))
	}
	write(filepath.Join(img, "timestamp"), "2026-11-20 09:12:33.000000000 +0000 UTC m=+0.1\n2026-11-20 09:14:08.000000000 +0000 UTC m=+95.1\n")
	write(filepath.Join(img, "version"), "openshift/must-gather\n4.18.0\n")
	const nodes = 6
	for i := range nodes {
		name := fmt.Sprintf("worker-%d.example.com", i)
		write(filepath.Join(img, "cluster-scoped-resources", "core", "nodes", name+".yaml"), fmt.Sprintf(`apiVersion: v1
kind: Node
metadata:
  name: %s
  labels:
    node-role.kubernetes.io/worker: ""
status:
  conditions:
  - type: Ready
    status: "True"
    reason: KubeletReady
    lastTransitionTime: "2026-11-01T00:00:00Z"
`, name))
	}
	const perNS, perRS = 500, 10
	// MGTRIAGE_BENCH_LINE=4096 makes every log line about that long (a
	// JSON-ish payload of key=value pairs), the shape of issue 34's 200
	// containers whose 4 KiB lines cost 20 s in the rules' patterns.
	pad := ""
	if v := os.Getenv("MGTRIAGE_BENCH_LINE"); v != "" {
		var n int
		fmt.Sscan(v, &n)
		var b strings.Builder
		for k := 0; b.Len() < n; k++ {
			fmt.Fprintf(&b, " field%d=value-%d", k, k*7919)
		}
		pad = b.String()
	}
	for ns := 0; ns*perNS < n; ns++ {
		nsName := fmt.Sprintf("app-%03d", ns)
		base := filepath.Join(img, "namespaces", nsName)
		var pods, events strings.Builder
		pods.WriteString("apiVersion: v1\nkind: PodList\nitems:\n")
		events.WriteString("apiVersion: v1\nkind: EventList\nitems:\n")
		for i := 0; i < perNS && ns*perNS+i < n; i++ {
			rs := fmt.Sprintf("svc-%03d-7f9c%04d", i/perRS, i/perRS)
			name := fmt.Sprintf("%s-%05d", rs, i)
			uid := fmt.Sprintf("%08x-0000-4000-8000-%012x", ns, i)
			node := fmt.Sprintf("worker-%d.example.com", i%nodes)
			fmt.Fprintf(&pods, `- apiVersion: v1
  kind: Pod
  metadata:
    name: %s
    namespace: %s
    uid: %s
    creationTimestamp: "2026-11-19T08:00:00Z"
    labels:
      app: svc-%03d
    ownerReferences:
    - apiVersion: apps/v1
      kind: ReplicaSet
      name: %s
      controller: true
  spec:
    nodeName: %s
    containers:
    - name: app
      image: registry.example.com/%s/svc-%03d:1.0
  status:
    phase: Running
    containerStatuses:
    - name: app
      image: registry.example.com/%s/svc-%03d:1.0
      ready: false
      restartCount: 42
      state:
        waiting:
          reason: CrashLoopBackOff
          message: back-off 5m0s restarting failed container=app pod=%s_%s(%s)
      lastState:
        terminated:
          exitCode: 1
          reason: Error
          finishedAt: "2026-11-20T09:08:00Z"
`, name, nsName, uid, i/perRS, rs, node, nsName, i/perRS, nsName, i/perRS, name, nsName, uid)
			fmt.Fprintf(&events, `- apiVersion: v1
  kind: Event
  metadata:
    name: %s.1
    namespace: %s
  involvedObject:
    kind: Pod
    name: %s
    namespace: %s
    uid: %s
    fieldPath: spec.containers{app}
  reason: BackOff
  message: Back-off restarting failed container app in pod %s_%s(%s)
  type: Warning
  count: 300
  lastTimestamp: "2026-11-20T09:10:00Z"
`, name, nsName, name, nsName, uid, name, nsName, uid)
			logs := filepath.Join(base, "pods", name, "app", "app", "logs")
			must(os.MkdirAll(logs, 0o755))
			f, err := os.Create(filepath.Join(logs, "previous.log"))
			must(err)
			w := bufio.NewWriter(f)
			for l := range 20 {
				fmt.Fprintf(w, "2026-11-20T09:07:%02d.000000000Z level=info msg=\"starting worker %d\"%s\n", l, l, pad)
			}
			fmt.Fprintf(w, "2026-11-20T09:07:59.000000000Z level=error msg=\"cannot connect to the database\" error=\"dial tcp 172.30.%d.%d:5432: connect: connection refused\"%s\n", ns, i%250, pad)
			must(w.Flush())
			must(f.Close())
			write(filepath.Join(logs, "current.log"), "")
		}
		write(filepath.Join(base, "core", "pods.yaml"), pods.String())
		write(filepath.Join(base, "core", "events.yaml"), events.String())
	}
	return top
}
