// Package bufpool recycles the byte buffers that hold one member of a gather,
// or a transform of it, while it is decoded. A real gather is tens of
// thousands of object files of the same few sizes; reading each into a fresh
// buffer made those buffers a third of all bytes allocated by a load, and the
// garbage collector runs once per so many bytes allocated.
//
// Buffers come in size classes four to a power of two (capacities 1, 1.25,
// 1.5 and 1.75 times a power of two, from 4 KiB to 128 MiB), so a buffer is at
// most 25% larger than asked for. Each class is a sync.Pool: what is not
// taken again is freed by the collector like any other garbage.
//
// A buffer may be put back only when nothing holds a slice of it any more:
// every string made from it must be a copy.
package bufpool

import (
	"math/bits"
	"sync"
	"sync/atomic"
)

const (
	minShift = 12 // smallest class: 4 KiB
	maxShift = 27 // largest class: 1.75 × 128 MiB
	steps    = 4  // classes per power of two
)

var pools [(maxShift - minShift + 1) * steps]sync.Pool

// class returns the index and the capacity of the smallest class that holds
// n bytes; ok is false when n is above the largest class.
func class(n int) (i, size int, ok bool) {
	if n <= 1<<minShift {
		return 0, 1 << minShift, true
	}
	shift := bits.Len(uint(n-1)) - 1 // 2^shift < n <= 2^(shift+1)
	if shift > maxShift {
		return 0, 0, false
	}
	quarter := 1 << (shift - 2)
	// n is in (2^shift, 2^(shift+1)]: the classes are 2^shift + k·quarter
	// for k = 1..4, the last being the next power of two.
	k := (n - 1<<shift + quarter - 1) / quarter
	if k == steps {
		shift, k = shift+1, 0
		if shift > maxShift {
			return 0, 0, false
		}
	}
	return (shift-minShift)*steps + k, 1<<shift + k<<(shift-2), true
}

// Get returns a buffer of length 0 and capacity at least n. A buffer larger
// than the largest class is a plain allocation.
func Get(n int) []byte {
	i, size, ok := class(n)
	if !ok {
		return make([]byte, 0, n)
	}
	if p, _ := pools[i].Get().(*[]byte); p != nil {
		return (*p)[:0]
	}
	return make([]byte, 0, size)
}

// Put hands b back for a later Get. Buffers that Get did not make (their
// capacity is not a class size) are left to the collector. The caller must
// not use b, or any slice of it, afterwards.
func Put(b []byte) {
	i, size, ok := class(cap(b))
	if !ok || size != cap(b) {
		return
	}
	if scribble.Load() {
		b = b[:cap(b)]
		for k := range b {
			b[k] = scribbleByte
		}
	}
	b = b[:0]
	pools[i].Put(&b)
}

// scribble makes Put overwrite every buffer it takes back (Scribble).
var scribble atomic.Bool

// scribbleByte is what Scribble writes: not valid UTF-8 on its own, so a
// string made from a kept slice shows up in any comparison.
const scribbleByte = 0xA5

// Scribble turns on or off the overwriting of every buffer put back, for
// tests: a caller that put back a buffer it still held a slice of then reads
// 0xA5 bytes instead of its text, and the result differs from a run without.
func Scribble(on bool) { scribble.Store(on) }
