package bufpool

import "testing"

func TestClass(t *testing.T) {
	for _, tc := range []struct{ n, size int }{
		{0, 4096}, {1, 4096}, {4096, 4096}, {4097, 5120}, {5120, 5120}, {5121, 6144},
		{7169, 8192}, {8192, 8192}, {8193, 10240}, {1 << 20, 1 << 20}, {1<<20 + 1, 1<<20 + 1<<18},
		{7 << 25, 7 << 25},
	} {
		_, size, ok := class(tc.n)
		if !ok || size != tc.size {
			t.Errorf("class(%d) = %d, %v; want %d", tc.n, size, ok, tc.size)
		}
	}
	if _, _, ok := class(7<<25 + 1); ok {
		t.Errorf("class above the largest: ok")
	}
}

// FuzzGet checks for every size that a buffer is large enough, at most a
// quarter larger than asked (past the smallest class), and that a buffer put
// back is the one a Get of its class returns, empty.
func FuzzGet(f *testing.F) {
	var p Pool
	for _, n := range []int{0, 1, 4095, 4097, 100000, 1 << 24, 1<<28 + 1} {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, n int) {
		n = max(0, n%(1<<29))
		b := p.Get(n)
		if len(b) != 0 || cap(b) < n {
			t.Fatalf("Get(%d): len %d cap %d", n, len(b), cap(b))
		}
		if n > 4096 && cap(b) > n+n/4+1 {
			t.Fatalf("Get(%d): cap %d is more than a quarter above", n, cap(b))
		}
		i, _, ok := class(cap(b))
		if idx, _, _ := class(n); ok && i != idx {
			t.Fatalf("Get(%d) gave cap %d of class %d, want %d", n, cap(b), i, idx)
		}
	})
}

func TestPutGet(t *testing.T) {
	var p Pool
	b := p.Get(5000)
	b = append(b, "hello"...)
	p.Put(b)
	p.Put(make([]byte, 0, 5001)) // not a class size: dropped
	c := p.Get(4500)
	if len(c) != 0 || cap(c) != 5120 || &c[:1][0] != &b[:1][0] {
		t.Fatalf("Get after Put: len %d cap %d, not the buffer put back", len(c), cap(c))
	}
}

// TestIdleBound: the idle buffers never hold more than MaxIdleBytes; past it
// the class with the most idle bytes gives up its oldest, so a class in use
// now still gets its buffers back; Release drops them all.
func TestIdleBound(t *testing.T) {
	var p Pool
	const big = 1 << 20
	for range MaxIdleBytes/big + 4 {
		p.Put(p.Get(big))
		p.Put(make([]byte, 0, big)) // a class size not made by Get is kept too
	}
	if p.total > MaxIdleBytes {
		t.Fatalf("idle %d bytes, bound %d", p.total, MaxIdleBytes)
	}
	small := p.Get(10000)
	p.Put(small)
	if got := p.Get(10000); &got[:1][0] != &small[:1][0] {
		t.Error("a buffer of another class put back past the bound was dropped, not kept")
	}
	p.Put(make([]byte, 0, 2*MaxIdleBytes)) // larger than the bound: never kept
	if p.total > MaxIdleBytes {
		t.Fatalf("idle %d bytes after a buffer over the bound", p.total)
	}
	p.Release()
	if p.total != 0 || len(p.lists[0]) != 0 {
		t.Errorf("Release left %d bytes", p.total)
	}
}
