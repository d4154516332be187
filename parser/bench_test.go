package parser

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	gen "github.com/mgtriage/mgtriage/fixtures/gen/synth"
)

// syntheticKubeletLog writes a kubelet journal of about size bytes in the mix
// seen in real gathers: mostly info lines, some probe failures, "Error syncing
// pod" lines for a few hundred pods, PLEG and network-not-ready errors.
func syntheticKubeletLog(size int) []byte {
	var b bytes.Buffer
	b.Grow(size + 1024)
	t := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; b.Len() < size; i++ {
		t = t.Add(time.Duration(rng.IntN(5000)) * time.Microsecond)
		stamp := t.Format("Jan 02 15:04:05.000000")
		pod := fmt.Sprintf("ns-%d/app-%d", i%37, i%311)
		switch i % 20 {
		case 0:
			fmt.Fprintf(&b, "%s worker-%d kubenswrapper[2154]: I1120 %s    2154 prober.go:107] \"Probe failed\" probeType=\"Readiness\" pod=\"%s\" podUID=\"0b9f3c2a-1111-2222-3333-%012d\" containerName=\"app\" probeResult=\"failure\" output=\"HTTP probe failed with statuscode: 503\"\n", stamp, i%6, t.Format("15:04:05.000000"), pod, i%311)
		case 1:
			fmt.Fprintf(&b, "%s worker-%d kubenswrapper[2154]: E1120 %s    2154 pod_workers.go:1301] \"Error syncing pod, skipping\" err=\"failed to \\\"StartContainer\\\" for \\\"app\\\" with CrashLoopBackOff: \\\"back-off 5m0s restarting failed container=app pod=app-%d_ns-%d(0b9f3c2a-1111-2222-3333-%012d)\\\"\" pod=\"%s\" podUID=\"0b9f3c2a-1111-2222-3333-%012d\"\n", stamp, i%6, t.Format("15:04:05.000000"), i%311, i%37, i%311, pod, i%311)
		case 2:
			fmt.Fprintf(&b, "%s worker-%d kubenswrapper[2154]: E1120 %s    2154 kubelet.go:2014] \"Skipping pod synchronization\" err=\"PLEG is not healthy: pleg was last seen active 3m0.1s ago; threshold is 3m0s\"\n", stamp, i%6, t.Format("15:04:05.000000"))
		default:
			fmt.Fprintf(&b, "%s worker-%d kubenswrapper[2154]: I1120 %s    2154 kubelet.go:2421] \"SyncLoop (PLEG): event for pod\" pod=\"%s\" event={\"ID\":\"%08x-%04x\",\"Type\":\"ContainerStarted\",\"Data\":\"%016x%016x%016x\"}\n", stamp, i%6, t.Format("15:04:05.000000"), pod, rng.Uint32(), rng.IntN(65536), rng.Uint64(), rng.Uint64(), rng.Uint64())
		}
	}
	return b.Bytes()
}

var (
	benchLogOnce sync.Once
	benchLog     []byte
	benchLogGz   []byte
)

func benchLogs(b *testing.B) ([]byte, []byte) {
	benchLogOnce.Do(func() {
		benchLog = syntheticKubeletLog(64 << 20)
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(benchLog)
		zw.Close()
		benchLogGz = z.Bytes()
	})
	return benchLog, benchLogGz
}

// BenchmarkNodeLog compares scanning a kubelet journal (parse, classify, tie
// to pods, collapse repeats) with only decompressing the same journal gzipped.
// Read the ratio scan/gunzip from one run: ns/op of "scan" over ns/op of
// "gunzip" (the bound is 2×).
func BenchmarkNodeLog(b *testing.B) {
	raw, gz := benchLogs(b)
	b.Run("gunzip", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			zr, err := gzip.NewReader(bytes.NewReader(gz))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := io.Copy(io.Discard, zr); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("scan", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			bl := newBuilder("bench")
			bl.timestamps["."] = []time.Time{time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)}
			if err := bl.readNodeLog("host_service_logs/masters/kubelet_service.log", classified{Kind: kindServiceLog, Unit: "kubelet"}, bytes.NewReader(raw)); err != nil {
				b.Fatal(err)
			}
			if bl.groups == 0 {
				b.Fatal("no groups")
			}
		}
	})
}

// logStream yields a synthetic kubelet journal of n bytes without holding it
// in memory: it repeats blocks of syntheticKubeletLog with fresh line numbers.
type logStream struct {
	block []byte
	left  int64
	off   int
}

func (s *logStream) Read(p []byte) (int, error) {
	if s.left <= 0 {
		return 0, io.EOF
	}
	n := copy(p, s.block[s.off:])
	if int64(n) > s.left {
		n = int(s.left)
	}
	s.off = (s.off + n) % len(s.block)
	s.left -= int64(n)
	return n, nil
}

// BenchmarkNodeLogStreamMemory scans a 1 GiB kubelet journal streamed from a
// generator and reports the peak heap in use while scanning (peak-heap-MB);
// repeats collapse into groups, so the peak does not grow with the log.
func BenchmarkNodeLogStreamMemory(b *testing.B) {
	block := syntheticKubeletLog(8 << 20)
	for b.Loop() {
		runtime.GC()
		var base runtime.MemStats
		runtime.ReadMemStats(&base)
		stop := make(chan struct{})
		peak := make(chan uint64)
		go func() {
			var max uint64
			var ms runtime.MemStats
			for {
				select {
				case <-stop:
					peak <- max
					return
				case <-time.After(20 * time.Millisecond):
					runtime.ReadMemStats(&ms)
					if ms.HeapInuse > max {
						max = ms.HeapInuse
					}
				}
			}
		}()
		bl := newBuilder("bench")
		bl.timestamps["."] = []time.Time{time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)}
		err := bl.readNodeLog("kubelet_service.log", classified{Kind: kindServiceLog}, &logStream{block: block, left: 1 << 30})
		close(stop)
		p := <-peak
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(1 << 30)
		b.ReportMetric(float64(p)/(1<<20), "peak-heap-MB")
		b.ReportMetric(float64(bl.groups), "groups")
	}
}

// BenchmarkReadGather reads one generated gather (2,000 pods, 40 MB of logs)
// from a folder (also with a Live) and from a .tar.gz of it, and only
// decompresses the .tar.gz, all in one run. The bound: tar.gz ≤ 1.3 × (folder + gunzip).
func BenchmarkReadGather(b *testing.B) {
	dir := b.TempDir()
	top, err := gen.Write(dir, gen.Options{Namespaces: 20, PodsPerNS: 100, Nodes: 6, LogLines: 200, KubeletLines: 100_000, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	tgz := archiveOf(b, top, "gather.tar.gz", gen.Formats[".tar.gz"])
	b.Run("folder", func(b *testing.B) {
		for b.Loop() {
			if _, err := Load(context.Background(), top); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The same with a Live kept up to date, as the command line's overview
	// on a terminal has it (its cost is folder-live over folder).
	b.Run("folder-live", func(b *testing.B) {
		for b.Loop() {
			if _, err := LoadWith(context.Background(), top, Options{Live: new(Live)}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("gunzip", func(b *testing.B) {
		for b.Loop() {
			f, err := os.Open(tgz)
			if err != nil {
				b.Fatal(err)
			}
			zr, err := gzip.NewReader(f)
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, zr)
			f.Close()
		}
	})
	b.Run("tar.gz", func(b *testing.B) {
		for b.Loop() {
			g, err := Load(context.Background(), tgz)
			if err != nil {
				b.Fatal(err)
			}
			if len(g.Pods) != 2000 {
				b.Fatalf("%d pods", len(g.Pods))
			}
		}
	})
}

// BenchmarkLiveAddPods is what a Live costs a load of the gather of
// BenchmarkReadGather: recording its 2,000 pods, its nodes and its
// ClusterOperators, as the decode workers do (compare with a load's ns/op
// there).
func BenchmarkLiveAddPods(b *testing.B) {
	top, err := gen.Write(b.TempDir(), gen.Options{Namespaces: 20, PodsPerNS: 100, Nodes: 6, LogLines: 200, KubeletLines: 100_000, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	g, err := Load(context.Background(), top)
	if err != nil {
		b.Fatal(err)
	}
	unhealthy := 0
	for _, p := range g.Pods {
		if !p.Healthy() {
			unhealthy++
		}
	}
	for b.Loop() {
		l := new(Live)
		for i := 0; i < len(g.Pods); i += 100 { // a pods.yaml of 100 pods at a time
			l.addPods(g.Pods[i:min(i+100, len(g.Pods))])
		}
		for _, n := range g.Nodes {
			l.addNode(&n.Object)
		}
		l.addOperators(g.Operators)
		l.Overview(3)
	}
	b.ReportMetric(float64(unhealthy), "unhealthy-pods")
}
