package parser

import (
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// TestInternLastsTheLoad: a string interned again in the same load's table
// after collections is the same copy, internBytes gives that copy too, and
// another load's table keeps its own.
func TestInternLastsTheLoad(t *testing.T) {
	strs := newInterner()
	text := func() string { return strings.Repeat("Back-off restarting failed container ", 3) + t.Name() }
	first := strs.intern(text())
	runtime.GC()
	runtime.GC()
	again := strs.intern(text())
	if unsafe.StringData(first) != unsafe.StringData(again) {
		t.Errorf("interned twice across collections: two copies of %q", first)
	}
	fromBytes := strs.internBytes([]byte(text()))
	if unsafe.StringData(first) != unsafe.StringData(fromBytes) {
		t.Errorf("internBytes made another copy of %q", first)
	}
	other := newInterner().intern(text())
	if other != first || unsafe.StringData(other) == unsafe.StringData(first) {
		t.Errorf("another load's table gave %q, the first load's copy or another text", other)
	}
	b := []byte(text())
	none := (*interner)(nil).internBytes(b)
	b[0] = 'x'
	if none != first {
		t.Errorf("a nil table kept a view of its bytes: %q", none)
	}
}

// TestInternConcurrent interns from many goroutines into one load's table
// (run with -race).
func TestInternConcurrent(t *testing.T) {
	strs := newInterner()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				s := strs.intern(strings.Repeat("x", g+i%7))
				if s != strings.Repeat("x", g+i%7) {
					t.Errorf("intern changed %q", s)
				}
			}
		})
	}
	wg.Wait()
}
