package parser

import (
	"io"
	"sync"
	"time"
)

// ReadStats describes how the outer stream of a compressed archive input
// was read (Options.Stats): the decompressed bytes, how long the walk over
// them took, and how much of that time the decompressor was busy. Busy is
// the time the read-ahead goroutine spent inside the decompressor's Read:
// decompressing, or waiting for the decompressor's own goroutines (pgzip,
// zstd) to finish a block. Busy close to Wall means the analysis kept up with
// decompression (reading is as fast as the decompressor allows); well below
// Wall means the analysis was the bottleneck. All zero for a folder or a zip.
type ReadStats struct {
	Bytes int64         // decompressed bytes of the input's stream
	Wall  time.Duration // from the first read of the stream to its end
	Busy  time.Duration // of Wall, the time the decompressor was read from
}

// BusyFraction is Busy / Wall, in [0, 1]; 0 when nothing was read.
func (s ReadStats) BusyFraction() float64 {
	if s.Wall <= 0 {
		return 0
	}
	return min(1, float64(s.Busy)/float64(s.Wall))
}

// readAheadBlocks and readAheadBlockBytes bound the decompressed bytes a
// read-ahead holds: 8 MiB, ahead of the walk.
const (
	readAheadBlocks     = 8
	readAheadBlockBytes = 1 << 20
)

// readAhead decompresses a stream on its own goroutine into a bounded queue
// of blocks, so that decompression runs on one core while the walk
// (classification, decoding, log scanning, inflating inner members) runs on
// another. Read hands the blocks out in order; Close stops the goroutine and
// waits for it, so the source can be closed after it. A readAhead is used by
// one reader goroutine.
type readAhead struct {
	src   io.Reader
	full  chan raBlock
	free  chan []byte
	done  chan struct{}
	ended sync.WaitGroup
	blk   []byte // the block being handed out, whole
	cur   []byte // the rest of it
	err   error  // the source's error, once its last block is handed out
	stats *ReadStats
	pool  *sync.Pool // where the blocks come from and go back to; nil: none
	start time.Time
	busy  time.Duration // written by the goroutine; read after it ended
}

type raBlock struct {
	b   []byte
	err error
}

// newReadAhead starts reading src ahead; stats, when not nil, receives the
// figures of the read when it is closed. Its blocks come from pool (of
// readAheadBlockBytes slices, as *[]byte) when not nil, and go back to it on Close.
func newReadAhead(src io.Reader, stats *ReadStats, pool *sync.Pool) *readAhead {
	ra := &readAhead{
		src:   src,
		full:  make(chan raBlock, readAheadBlocks),
		free:  make(chan []byte, readAheadBlocks),
		done:  make(chan struct{}),
		stats: stats,
		pool:  pool,
		start: time.Now(),
	}
	for range readAheadBlocks {
		var b []byte
		if pool != nil {
			if p, _ := pool.Get().(*[]byte); p != nil {
				b = *p
			}
		}
		if len(b) != readAheadBlockBytes {
			b = make([]byte, readAheadBlockBytes)
		}
		ra.free <- b
	}
	ra.ended.Add(1)
	go ra.run()
	return ra
}

func (ra *readAhead) run() {
	defer ra.ended.Done()
	for {
		select {
		case <-ra.done:
			return
		default:
		}
		var buf []byte
		select {
		case buf = <-ra.free:
		case <-ra.done:
			return
		}
		t := time.Now()
		// Filled by Reads, not io.ReadFull: the source's own error (a
		// truncated gzip stream's io.ErrUnexpectedEOF) must reach the
		// walk as it is, never taken for the end of the stream.
		n := 0
		var err error
		for n < len(buf) && err == nil {
			var k int
			k, err = ra.src.Read(buf[n:])
			n += k
		}
		ra.busy += time.Since(t)
		select {
		case ra.full <- raBlock{buf[:n], err}:
		case <-ra.done:
			return
		}
		if err != nil {
			return
		}
	}
}

// Read hands out the decompressed bytes in order; after the last block, the
// source's error (io.EOF at its end).
func (ra *readAhead) Read(p []byte) (int, error) {
	for len(ra.cur) == 0 {
		if ra.err != nil {
			return 0, ra.err
		}
		if ra.blk != nil {
			ra.free <- ra.blk[:cap(ra.blk)]
			ra.blk = nil
		}
		next := <-ra.full
		ra.blk, ra.cur, ra.err = next.b, next.b, next.err
	}
	n := copy(p, ra.cur)
	ra.cur = ra.cur[n:]
	if ra.stats != nil {
		ra.stats.Bytes += int64(n)
	}
	return n, nil
}

// Close stops the read-ahead and waits for its goroutine to leave the
// source; the stats, if any, get the read's wall and busy time.
func (ra *readAhead) Close() {
	close(ra.done)
	ra.ended.Wait()
	if ra.pool != nil {
		// Every block is back in free or full, or is the one being handed out.
		if ra.blk != nil {
			putBlock(ra.pool, ra.blk)
			ra.blk, ra.cur = nil, nil
		}
		for len(ra.free) > 0 {
			putBlock(ra.pool, <-ra.free)
		}
		for len(ra.full) > 0 {
			b := <-ra.full
			putBlock(ra.pool, b.b)
		}
	}
	if ra.stats != nil {
		ra.stats.Wall += time.Since(ra.start)
		ra.stats.Busy += ra.busy
	}
}

// putBlock hands a read-ahead block back to pool (which holds *[]byte).
func putBlock(pool *sync.Pool, b []byte) {
	b = b[:cap(b)]
	pool.Put(&b)
}
