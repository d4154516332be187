// Command analyze reads an OpenShift must-gather (folder or archive) and writes
// a Markdown, HTML and JSON report of the pods that are not healthy and the
// likely root causes. See `analyze --help`.
package main

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"time"
)

// defaultMemoryLimit is the Go runtime's soft memory limit unless GOMEMLIMIT
// says otherwise: the garbage collector works harder near it, which keeps the
// peak RSS of large gathers flat (see docs/performance.md).
const defaultMemoryLimit = 256 << 20

// largeGCPercent is GOGC for a large input unless the environment sets it:
// the collector runs when the heap has grown to five times what was live
// after the last run (or at the memory limit, whichever comes first). Every
// decoded object stays live until the end, so the default 100 collects over
// and over for little on a large gather; 400 saves about 15% of CPU there,
// and the memory limit still bounds the peak. A small gather keeps the
// default, so its peak stays small (the corpus metal gather: 65 MB against
// 120 MB with 400). largeInputBytes is where "large" starts: an archive of
// that size.
const (
	largeGCPercent  = 400
	largeInputBytes = 64 << 20
)

func main() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(defaultMemoryLimit)
		go followLiveHeap(defaultMemoryLimit, time.Tick(100*time.Millisecond))
	}
	if _, set := os.LookupEnv("GOGC"); !set && largeInput(os.Args[1:]) {
		debug.SetGCPercent(largeGCPercent)
	}
	if v := os.Getenv(testHooksEnv); v != "" {
		defaultHooks = hooksFromEnv(v, os.Stderr, os.Stdin)
	}
	os.Exit(Main(os.Args[1:], systemStreams()))
}

// largeInput reports whether an argument names an archive of at least
// largeInputBytes; a folder keeps the default (sizing it would walk it).
func largeInput(args []string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if fi, err := os.Stat(a); err == nil && fi.Mode().IsRegular() && fi.Size() >= largeInputBytes {
			return true
		}
	}
	return false
}

// liveHeapFactor is how far above the live heap followLiveHeap keeps the
// soft memory limit once the live heap has outgrown the default limit. The
// peak RSS of a large gather follows the limit, and the collector runs each
// time the heap has grown by the headroom, so the factor trades CPU for
// memory: on ×50 of the corpus metal gather (highest live heap about
// 190 MB) 1.5 peaked at 312–318 MB, 1.4 at 285 MB with 5% more CPU, 1.3 at
// 278 MB with 10% more (docs/performance.md).
const liveHeapFactor = 1.3

// followLiveHeap raises the soft memory limit to liveHeapFactor times the
// live heap (runtime/metrics' /gc/heap/live:bytes, read at every tick) when
// that is above limit, and never lowers it. A limit under the live heap
// cannot hold: the collector would run back to back, capped at half the CPU,
// and free next to nothing. On the corpus metal gather scaled x50 (live heap
// about 470 MB) the fixed 256 MiB limit took 177 s and peaked at 812 MB; with
// the limit at 700 MiB it took 112 s at 757 MB (docs/performance.md).
func followLiveHeap(limit int64, tick <-chan time.Time) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	for range tick {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return
		}
		if want := int64(float64(sample[0].Value.Uint64()) * liveHeapFactor); want > limit {
			limit = want
			debug.SetMemoryLimit(limit)
		}
	}
}
