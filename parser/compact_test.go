package parser

import (
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// TestInternLastsTheLoad: while a load holds the interned strings, a string
// interned again after collections is the same copy; once every load has
// released them, nothing is kept.
func TestInternLastsTheLoad(t *testing.T) {
	release := holdInterned()
	text := func() string { return strings.Repeat("Back-off restarting failed container ", 3) + t.Name() }
	first := intern(text())
	runtime.GC()
	runtime.GC()
	again := intern(text())
	if unsafe.StringData(first) != unsafe.StringData(again) {
		t.Errorf("interned twice across collections: two copies of %q", first)
	}
	fromBytes := internBytes([]byte(text()))
	if unsafe.StringData(first) != unsafe.StringData(fromBytes) {
		t.Errorf("internBytes made another copy of %q", first)
	}
	// A second load overlapping the first keeps the strings until both end.
	second := holdInterned()
	release()
	release() // a second call does nothing
	runtime.GC()
	runtime.GC()
	if unsafe.StringData(intern(text())) != unsafe.StringData(first) {
		t.Errorf("the strings were let go while a second load still ran")
	}
	second()
	for i := range interned.shards {
		if interned.shards[i].m != nil {
			t.Fatalf("shard %d still keeps strings after every load ended", i)
		}
	}
	if got := intern(text()); got != first {
		t.Errorf("intern after the loads: %q, want %q", got, first)
	}
}

// TestInternConcurrentLoads interns from many goroutines while loads start
// and end (run with -race).
func TestInternConcurrentLoads(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				release := holdInterned()
				s := intern(strings.Repeat("x", g+i%7))
				if s != strings.Repeat("x", g+i%7) {
					t.Errorf("intern changed %q", s)
				}
				release()
			}
		})
	}
	wg.Wait()
}
