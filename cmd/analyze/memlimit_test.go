package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestFollowLiveHeapRaisesLimit: once the live heap outgrows the soft
// memory limit, the limit moves to liveHeapFactor times the live heap, and
// it is never lowered.
func TestFollowLiveHeapRaisesLimit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)

	const limit = 4 << 20
	debug.SetMemoryLimit(limit)
	live := make([][]byte, 64) // 64 MiB kept live
	for i := range live {
		live[i] = make([]byte, 1<<20)
	}
	runtime.GC()

	tick := make(chan time.Time)
	done := make(chan struct{})
	go func() { followLiveHeap(limit, tick); close(done) }()
	tick <- time.Now()
	tick <- time.Now() // the first tick's work is done once the second is taken
	raised := debug.SetMemoryLimit(-1)
	runtime.KeepAlive(live)
	if float64(raised) < 64<<20*liveHeapFactor {
		t.Errorf("limit %d MiB with 64 MiB live, want at least %v MiB", raised>>20, 64*liveHeapFactor)
	}

	live = nil
	runtime.GC()
	tick <- time.Now()
	close(tick)
	<-done
	if now := debug.SetMemoryLimit(-1); now != raised {
		t.Errorf("limit went from %d to %d MiB when the live heap shrank; it must not be lowered", raised>>20, now>>20)
	}
}
