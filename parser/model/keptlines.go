package model

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"io"
	"sync"
	"time"
)

// A container log's kept lines (its tail and its error lines) are held as one
// encoded string, flate-compressed when that makes it smaller: a gather holds
// thousands of logs whose containers failed, each with up to TailLines +
// ErrorLines lines of up to MaxLineBytes, and only the few logs that findings
// and the report cite are ever read back. On the corpus metal gather scaled
// ×50 the lines took 37 MB as LogLines and one string per log, and take
// about a fifth of that encoded.
//
// The encoding, before compression, is a run of unsigned varints and bytes:
// the number of tail lines and of error lines, then each tail line, then each
// error line as 0 followed by the line, or as k > 0 for the tail's line k-1
// (an error line in the tail is stored once). A line is its number, its time
// (0 for none, else 1 + nanoseconds within the second, then the zigzag
// seconds since the Unix epoch), the length of its text and the text. The
// first byte of the string says whether the rest is compressed
// (keptFlate) or not (keptRaw).
const (
	keptRaw   = 0
	keptFlate = 1
	// keptCompressFrom is the encoded size from which the lines are
	// compressed: below it, flate's own framing eats most of the saving.
	keptCompressFrom = 256
)

var errKeptCorrupt = errors.New("kept log lines: corrupt encoding")

type keptScratch struct {
	raw, packed bytes.Buffer
	w           *flate.Writer
}

var keptScratchPool = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestSpeed) // the level is valid
	return &keptScratch{w: w}
}}

func encodeKept(tail, errs []LogLine) (string, int) {
	sc := keptScratchPool.Get().(*keptScratch)
	defer keptScratchPool.Put(sc)
	raw := &sc.raw
	raw.Reset()
	raw.WriteByte(keptRaw)
	var tmp [binary.MaxVarintLen64]byte
	uv := func(v uint64) { raw.Write(tmp[:binary.PutUvarint(tmp[:], v)]) }
	textBytes := 0
	line := func(ll LogLine) {
		uv(uint64(ll.Line))
		if ll.Time.IsZero() {
			uv(0)
		} else {
			uv(uint64(ll.Time.Nanosecond()) + 1)
			raw.Write(tmp[:binary.PutVarint(tmp[:], ll.Time.Unix())])
		}
		uv(uint64(len(ll.Text)))
		raw.WriteString(ll.Text)
		textBytes += len(ll.Text)
	}
	uv(uint64(len(tail)))
	uv(uint64(len(errs)))
	for _, ll := range tail {
		line(ll)
	}
	for _, ll := range errs {
		if k := tailIndex(tail, ll); k >= 0 {
			uv(uint64(k) + 1)
			textBytes += len(ll.Text)
			continue
		}
		uv(0)
		line(ll)
	}
	if raw.Len() < keptCompressFrom {
		return raw.String(), textBytes
	}
	packed := &sc.packed
	packed.Reset()
	packed.WriteByte(keptFlate)
	sc.w.Reset(packed)
	// Writing to a bytes.Buffer cannot fail.
	_, _ = sc.w.Write(raw.Bytes()[1:])
	_ = sc.w.Close()
	if packed.Len() >= raw.Len() {
		return raw.String(), textBytes
	}
	return packed.String(), textBytes
}

// tailIndex returns the index of the tail line that is ll (same number and
// text), or -1. Tail lines are consecutive lines of the file in most logs,
// so the line number finds it at once; otherwise it is searched.
func tailIndex(tail []LogLine, ll LogLine) int {
	if len(tail) == 0 {
		return -1
	}
	if k := ll.Line - tail[0].Line; k >= 0 && k < len(tail) && tail[k].Line == ll.Line {
		if tail[k].Text == ll.Text && tail[k].Time.Equal(ll.Time) {
			return k
		}
		return -1
	}
	for k, t := range tail {
		if t.Line == ll.Line && t.Text == ll.Text && t.Time.Equal(ll.Time) {
			return k
		}
	}
	return -1
}

var flateReaders = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}

func decodeKept(s string) (tail, errs []LogLine, err error) {
	if s == "" {
		return nil, nil, errKeptCorrupt
	}
	var data []byte
	var text string // all texts are slices of it
	switch s[0] {
	case keptRaw:
		text = s[1:]
		data = []byte(text)
	case keptFlate:
		fr := flateReaders.Get().(io.ReadCloser)
		defer flateReaders.Put(fr)
		if err := fr.(flate.Resetter).Reset(bytes.NewReader([]byte(s[1:])), nil); err != nil {
			return nil, nil, err
		}
		if data, err = io.ReadAll(fr); err != nil {
			return nil, nil, err
		}
		text = string(data)
	default:
		return nil, nil, errKeptCorrupt
	}
	d := keptDecoder{data: data}
	nTail, nErrs := d.uv(), d.uv()
	if d.err != nil || nTail > uint64(len(data)) || nErrs > uint64(len(data)) {
		return nil, nil, errKeptCorrupt
	}
	lines := make([]LogLine, 0, nTail+nErrs)
	line := func() LogLine {
		ll := LogLine{Line: int(d.uv())}
		if ns := d.uv(); ns > 0 {
			sec := d.v()
			ll.Time = time.Unix(sec, int64(ns-1)).UTC()
		}
		n := d.uv()
		if d.err != nil || n > uint64(len(data)-d.off) {
			d.err = errKeptCorrupt
			return ll
		}
		ll.Text = text[d.off : d.off+int(n)]
		d.off += int(n)
		return ll
	}
	for range nTail {
		lines = append(lines, line())
	}
	for range nErrs {
		if k := d.uv(); k > 0 {
			if k > nTail {
				return nil, nil, errKeptCorrupt
			}
			lines = append(lines, lines[k-1])
			continue
		}
		lines = append(lines, line())
	}
	if d.err != nil || d.off != len(data) {
		return nil, nil, errKeptCorrupt
	}
	tail, errs = lines[:nTail:nTail], lines[nTail:]
	if len(tail) == 0 {
		tail = nil
	}
	if len(errs) == 0 {
		errs = nil
	}
	return tail, errs, nil
}

type keptDecoder struct {
	data []byte
	off  int
	err  error
}

func (d *keptDecoder) uv() uint64 {
	v, n := binary.Uvarint(d.data[d.off:])
	if n <= 0 {
		d.err = errKeptCorrupt
		return 0
	}
	d.off += n
	return v
}

// v reads a signed varint: binary.PutVarint's zigzag form of an unsigned one.
func (d *keptDecoder) v() int64 {
	ux := d.uv()
	x := int64(ux >> 1)
	if ux&1 != 0 {
		x = ^x
	}
	return x
}
