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
	for _, n := range []int{0, 1, 4095, 4097, 100000, 1 << 24, 1<<28 + 1} {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, n int) {
		n = max(0, n%(1<<29))
		b := Get(n)
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
	b := Get(5000)
	b = append(b, "hello"...)
	Put(b)
	Put(make([]byte, 0, 5001)) // not a class size: dropped
	for range 3 {              // a GC between Put and Get may empty the pool
		c := Get(4500)
		if len(c) != 0 || cap(c) != 5120 {
			t.Fatalf("Get after Put: len %d cap %d", len(c), cap(c))
		}
	}
}
