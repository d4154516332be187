package parser

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"
)

// TestReadAheadHandsOutTheStream: the bytes come out in order whatever the
// reads' sizes, the source's error comes after its last bytes, and the stats
// count what was handed out.
func TestReadAheadHandsOutTheStream(t *testing.T) {
	data := make([]byte, 3*readAheadBlockBytes+12345)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(r.IntN(256))
	}
	var stats ReadStats
	ra := newReadAhead(iotest.HalfReader(bytes.NewReader(data)), &stats, nil)
	got, err := io.ReadAll(iotest.OneByteReader(io.LimitReader(ra, 1000)))
	if err != nil || !bytes.Equal(got, data[:1000]) {
		t.Fatalf("first 1000 bytes: %v", err)
	}
	rest, err := io.ReadAll(ra)
	if err != nil || !bytes.Equal(rest, data[1000:]) {
		t.Fatalf("rest: %d bytes, %v", len(rest), err)
	}
	ra.Close()
	if stats.Bytes != int64(len(data)) || stats.Wall <= 0 || stats.Busy <= 0 || stats.BusyFraction() > 1 {
		t.Errorf("stats %+v", stats)
	}

	// A source that ends early says so (a truncated gzip stream); its
	// error is handed on, not taken for the end of the stream.
	ra = newReadAhead(io.MultiReader(bytes.NewReader(data[:10]), iotest.ErrReader(io.ErrUnexpectedEOF)), nil, nil)
	if got, err := io.ReadAll(ra); err != io.ErrUnexpectedEOF || len(got) != 10 {
		t.Errorf("a truncated source: %d bytes, %v; want 10 and %v", len(got), err, io.ErrUnexpectedEOF)
	}
	ra.Close()

	boom := errors.New("damaged gz data: boom")
	ra = newReadAhead(io.MultiReader(bytes.NewReader(data[:10]), iotest.ErrReader(boom)), nil, nil)
	got, err = io.ReadAll(ra)
	if !errors.Is(err, boom) || !bytes.Equal(got, data[:10]) {
		t.Errorf("a failing source: %d bytes, %v; want 10 and %v", len(got), err, boom)
	}
	ra.Close()
}

// TestReadAheadClosesEarly: a walk that stops early (a limit, a cancelled
// run) closes the read-ahead while its goroutine is blocked on a full queue;
// Close returns, and the source is not read after it.
func TestReadAheadClosesEarly(t *testing.T) {
	src := &countingSource{}
	ra := newReadAhead(src, nil, nil)
	if _, err := io.ReadFull(ra, make([]byte, 10)); err != nil {
		t.Fatal(err)
	}
	ra.Close()
	after := src.reads
	if after > readAheadBlocks+2 {
		t.Errorf("%d blocks read ahead; the queue holds %d", after, readAheadBlocks)
	}
	if src.reads != after {
		t.Error("source read after Close")
	}
}

// countingSource is an endless stream of zeros that counts its reads.
type countingSource struct{ reads int }

func (s *countingSource) Read(p []byte) (int, error) {
	s.reads++
	clear(p)
	return len(p), nil
}
