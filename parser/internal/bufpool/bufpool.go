// Package bufpool recycles the byte buffers that hold one member of a gather,
// or a transform of it, while it is decoded. A real gather is tens of
// thousands of object files of the same few sizes; reading each into a fresh
// buffer made those buffers a third of all bytes allocated by a load, and the
// garbage collector runs once per so many bytes allocated.
//
// Buffers come in size classes four to a power of two (capacities 1, 1.25,
// 1.5 and 1.75 times a power of two, from 4 KiB to 128 MiB), so a buffer is at
// most 25% larger than asked for. The buffers put back wait for the next Get
// of their class in a list per class, at most MaxIdleBytes of them in all: a
// Put over that first drops idle buffers of the class holding the most idle
// bytes, then the buffer itself if it is still over. The bound is what a
// load's few decode workers reuse; a sync.Pool per class, as before, kept
// whatever the last two collection cycles put back (about 18 MB at the
// highest point of memory of ×50 of the corpus metal gather, against under
// 10 MB in use). Release drops every idle buffer.
//
// A Pool is one load's: the load makes it and drops it, so that no buffer
// outlives the load that read into it and loads share nothing.
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

// MaxIdleBytes bounds the capacity of the buffers kept for reuse.
const MaxIdleBytes = 8 << 20

const classes = (maxShift - minShift + 1) * steps

// Pool is one load's idle buffers, by class; the zero Pool is empty and
// ready for use. It is safe for concurrent use. A nil *Pool keeps nothing:
// Get allocates and Put drops the buffer.
type Pool struct {
	mu    sync.Mutex
	lists [classes][][]byte
	bytes [classes]int
	total int
	// scribble makes Put overwrite every buffer it takes back (Scribble).
	scribble atomic.Bool
}

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
func (p *Pool) Get(n int) []byte {
	i, size, ok := class(n)
	if !ok {
		return make([]byte, 0, n)
	}
	if p == nil {
		return make([]byte, 0, size)
	}
	p.mu.Lock()
	if l := p.lists[i]; len(l) > 0 {
		b := l[len(l)-1]
		l[len(l)-1] = nil
		p.lists[i] = l[:len(l)-1]
		p.bytes[i] -= cap(b)
		p.total -= cap(b)
		p.mu.Unlock()
		return b[:0]
	}
	p.mu.Unlock()
	return make([]byte, 0, size)
}

// Put hands b back for a later Get. Buffers that Get did not make (their
// capacity is not a class size) are left to the collector. The caller must
// not use b, or any slice of it, afterwards.
func (p *Pool) Put(b []byte) {
	i, size, ok := class(cap(b))
	if p == nil || !ok || size != cap(b) {
		return
	}
	if p.scribble.Load() {
		b = b[:cap(b)]
		for k := range b {
			b[k] = scribbleByte
		}
	}
	if cap(b) > MaxIdleBytes {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.total+cap(b) > MaxIdleBytes {
		// Drop the oldest idle buffer of the class with the most idle bytes.
		most := 0
		for c := range classes {
			if p.bytes[c] > p.bytes[most] {
				most = c
			}
		}
		if p.bytes[most] == 0 {
			return
		}
		l := p.lists[most]
		p.bytes[most] -= cap(l[0])
		p.total -= cap(l[0])
		l[0] = nil
		p.lists[most] = l[1:]
	}
	p.lists[i] = append(p.lists[i], b[:0])
	p.bytes[i] += cap(b)
	p.total += cap(b)
}

// Release drops every idle buffer, for the collector to free.
func (p *Pool) Release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range classes {
		clear(p.lists[c])
		p.lists[c] = nil
		p.bytes[c] = 0
	}
	p.total = 0
}

// scribbleByte is what Scribble writes: not valid UTF-8 on its own, so a
// string made from a kept slice shows up in any comparison.
const scribbleByte = 0xA5

// Scribble turns on or off the overwriting of every buffer put back, for
// tests: a caller that put back a buffer it still held a slice of then reads
// 0xA5 bytes instead of its text, and the result differs from a run without.
func (p *Pool) Scribble(on bool) { p.scribble.Store(on) }
