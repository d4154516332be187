package parser

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/mgtriage/mgtriage/parser/internal/lit"
	"github.com/mgtriage/mgtriage/parser/model"
)

// MaxLineBytes bounds every log line kept in memory; longer lines are cut and
// marked with " …[cut]".
const MaxLineBytes = 4096

// TailLines is how many trailing lines of each container log are kept.
const TailLines = 60

// LongLineProblemBytes is the line length past which a log's cut lines are
// also reported as a Problem: a line of megabytes is a damaged or hostile file
// rather than a long log line.
const LongLineProblemBytes = 1 << 20

// longLines counts the lines scanLines cut.
type longLines struct {
	cut     int
	longest int64 // bytes of the longest line cut, before cutting
}

// err returns a Problem's text when a cut line was longer than
// LongLineProblemBytes, else nil.
func (l *longLines) err() error {
	if l.longest <= LongLineProblemBytes {
		return nil
	}
	return fmt.Errorf("line too long: %d lines longer than %d bytes were cut to that size, the longest of %d MiB", l.cut, MaxLineBytes, l.longest>>20)
}

// scanLines calls fn for every line of r with its 1-based number, without the
// line ending. A line longer than MaxLineBytes is cut to that size; the rest of
// it is read and dropped, so memory stays bounded whatever the input. The slice
// is only valid during the call.
func scanLines(r io.Reader, fn func(n int, line []byte)) error {
	return scanLinesCounted(r, fn, &longLines{}, nil)
}

// scanLinesCounted is scanLines that counts the lines it cuts in cut and
// reads through a reader of sp (the load's).
func scanLinesCounted(r io.Reader, fn func(n int, line []byte), cut *longLines, sp *scratchPools) error {
	br := sp.reader(r)
	defer sp.putReader(br)
	n := 0
	var long []byte
	var longLen int64
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if long == nil {
				long = append(make([]byte, 0, MaxLineBytes), chunk[:min(len(chunk), MaxLineBytes)]...)
			}
			longLen += int64(len(chunk))
			continue
		}
		if len(chunk) > 0 || long != nil {
			n++
			line := bytes.TrimRight(chunk, "\r\n")
			if long != nil {
				line = append(long, []byte(" …[cut]")...)
				long = nil
				cut.cut++
				cut.longest = max(cut.longest, longLen+int64(len(chunk)))
				longLen = 0
			} else if len(line) > MaxLineBytes {
				line = append(line[:MaxLineBytes:MaxLineBytes], []byte(" …[cut]")...)
				cut.cut++
				cut.longest = max(cut.longest, int64(len(chunk)))
			}
			fn(n, line)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// ErrorLines bounds the error-looking lines kept per container log.
const ErrorLines = 20

// looksLikeError reports whether a container-log line looks like an error:
// it contains "panic:", "fatal error:", "Exception", "Traceback (most recent
// call last)", "level=error", "level=fatal", `"level":"error"`,
// `"level":"fatal"`, "ERROR", "FATAL", "Error:" or "error:", or starts with a
// klog E/F header ("E1120 09:01:02.123456").
func looksLikeError(text []byte) bool {
	if len(text) > 6 && (text[0] == 'E' || text[0] == 'F') && text[5] == ' ' &&
		text[1] >= '0' && text[1] <= '9' && text[4] >= '0' && text[4] <= '9' {
		return true
	}
	return hasErrorMarker(text)
}

// hasErrorMarker reports whether text contains one of errorMarkers, in one
// pass over it: every container-log line of a kept log goes through it
// (errorMarkersReference in the tests is the plain loop of bytes.Contains).
func hasErrorMarker(text []byte) bool {
	return errorMarkerIndex.FirstBytes(text) >= 0
}

// errorMarkers are the markers of an error line that looksLikeError looks
// for anywhere in it.
var errorMarkers = []string{"panic:", "fatal error:", "Exception", "Traceback (most recent call last)",
	"level=error", "level=fatal", `"level":"error"`, `"level":"fatal"`, "ERROR", "FATAL", "Error:", "error:"}

var errorMarkerIndex = lit.New([][]string{errorMarkers})

// afterTimestamp drops the timestamp ("2026-11-20T09:01:02.1Z ") that
// starts a container log line, and the stream and tag after it in the
// kubelet's own files ("stderr F ": rotated logs, CRI logs of a node).
func afterTimestamp(line []byte) []byte {
	if len(line) > 20 && line[4] == '-' && line[10] == 'T' {
		if sp := bytes.IndexByte(line, ' '); sp > 0 && sp <= 40 {
			rest, _ := criStreamPrefix(line[sp+1:])
			return rest
		}
	}
	return line
}

// tailSlot is one line readTail holds while reading: its number and bytes.
type tailSlot struct {
	n    int
	text []byte
}

// tailScratch is readTail's blocks, ring and error slots, reused from one
// log to the next with their buffers (every kept line becomes a string copy
// at the end): a gather has tens of thousands of container logs.
type tailScratch struct {
	blocks                    [3][]byte // the block being read and the two before it (tailBlockBytes each)
	ring, firstErrs, lastErrs []tailSlot
	firstSigs, lastSigs       []tailSlot // lines a signature asks for (MatchedLines)
	text, low                 []byte
}

// MatchedLines bounds the lines of one container log kept because they hold
// a literal of model.Needs.LogLines (the first and the last halves of them),
// whatever the container's state.
const MatchedLines = 8

// MatchedWindow is how much of the end of a container log is searched for
// the lines of model.Needs.LogLines: a failure that a running process keeps
// logging shows in its last lines, and searching every byte of every
// healthy container's log cost more than the rest of reading it. The window
// is the same whether the log was stored plain or gzipped.
const MatchedWindow = 32 << 10

// tailBlockBytes is the block readTail reads a container log in. A log is
// read block by block: the lines of a block are counted at once
// (bytes.Count), and only a log that may be evidence is read line by line.
const tailBlockBytes = 256 << 10

// cutMark ends a line cut to MaxLineBytes.
const cutMark = " …[cut]"

// readTail reads a container log and keeps its last TailLines lines and its
// error-looking lines (see ContainerLog.Kept); with keep false it only
// counts lines (a container that never failed). Each line starts with the CRI
// timestamp (RFC 3339 with nanoseconds), which becomes Time. Lines are held as
// reused byte buffers while reading and handed to SetKept once, at the end.
// A line of more than LongLineProblemBytes makes it return an error after the
// whole log was read. It returns the bytes of text kept (see SetKept). Its
// scratch comes from sp (the load's). Whatever keep says, the lines of the
// log's last MatchedWindow bytes that hold a literal of match (nil: none)
// are kept apart (SetMatched), at most MatchedLines: a failure a process
// logs while it goes on running.
//
// The log is read in blocks of tailBlockBytes; a log that is not kept costs
// a count of its newlines per block, whatever its size, so that a gather of
// tens of GiB of healthy containers' logs reads at the speed of its
// decompression. Lines, line numbers, cuts and kept lines are those of a
// line-by-line read (scanLines); the tests hold it to that reference.
func readTail(r io.Reader, log *model.ContainerLog, keep bool, match *lineFilter, sp *scratchPools) (int, error) {
	var cut longLines
	type raw = tailSlot
	sc := sp.tail()
	defer sp.putTail(sc)
	ring := sc.ring[:0]
	start := 0
	firstErrs, lastErrs := sc.firstErrs[:0], sc.lastErrs[:0]
	firstSigs, lastSigs := sc.firstSigs[:0], sc.lastSigs[:0]
	defer func() {
		sc.ring, sc.firstErrs, sc.lastErrs, sc.firstSigs, sc.lastSigs = ring, firstErrs, lastErrs, firstSigs, lastSigs
	}()
	errStart, sigStart := 0, 0
	half := ErrorLines / 2
	blockSize := tailBlockBytes
	if sp != nil && sp.tailBlock > 0 {
		blockSize = sp.tailBlock
	}
	for i := range sc.blocks {
		if len(sc.blocks[i]) != blockSize {
			sc.blocks[i] = make([]byte, blockSize)
		}
	}
	n := 0
	// line handles line number n of a kept log; last is whether it is among
	// the last TailLines lines of its block (the others would leave the ring
	// before the block ends).
	line := func(text []byte, last bool) {
		if looksLikeError(afterTimestamp(text)) {
			log.ErrorCount++
			keepHalves(&firstErrs, &lastErrs, &errStart, half, n, text)
		}
		if !last {
			return
		}
		if len(ring) < TailLines {
			ring = growSlots(ring)
			putSlot(&ring[len(ring)-1], n, text)
		} else {
			putSlot(&ring[start], n, text)
			start = (start + 1) % TailLines
		}
	}
	// region walks the complete lines of a block (the last may lack its
	// newline at the input's end).
	var cutBuf [MaxLineBytes + len(cutMark)]byte
	region := func(b []byte) {
		lines := lineCount(b)
		if !keep {
			n += lines
			cutLines(b, &cut)
			return
		}
		for i := 0; len(b) > 0; i++ {
			text, rest := nextLine(b)
			b = rest
			n++
			line(cutLine(text, &cut, &cutBuf), i >= lines-TailLines)
		}
	}
	var (
		cur, prev []byte // this block's and the block before's complete lines
		carry     int    // bytes of a line begun in the block before, at the start of this one
		inLong    bool   // reading past the end of a line longer than a block
		long      []byte // that line's first MaxLineBytes bytes
		longLen   int64
		which     int
		err       error
	)
	for err == nil {
		buf := sc.blocks[which]
		filled := carry
		for filled < len(buf) && err == nil {
			var k int
			k, err = r.Read(buf[filled:])
			filled += k
		}
		data := buf[:filled]
		if inLong {
			i := bytes.IndexByte(data, '\n')
			if i < 0 && err == nil {
				longLen += int64(len(data))
				carry = 0
				continue
			}
			end := len(data)
			if i >= 0 {
				end = i + 1
			}
			longLen += int64(end)
			inLong = false
			n++
			cut.cut++
			cut.longest = max(cut.longest, longLen)
			if keep {
				line(append(long, cutMark...), true)
			}
			prev = nil // the window reaches no further back than a long line
			data = data[end:]
		}
		end := len(data)
		if err == nil {
			end = bytes.LastIndexByte(data, '\n') + 1
			if end == 0 && len(data) == len(buf) {
				// A line longer than a block: keep its head, skip the rest.
				inLong, longLen = true, int64(len(data))
				long = append(long[:0], data[:MaxLineBytes]...)
				carry = 0
				cur, prev = nil, nil
				continue
			}
		}
		if end == 0 {
			break // the input's end, nothing after the last newline
		}
		region(data[:end])
		// This block's lines stay where they are for the window; the next
		// block is read into the one before the block before.
		prev, cur = cur, data[:end]
		which = (which + 1) % len(sc.blocks)
		carry = copy(sc.blocks[which], data[end:])
	}
	if errors.Is(err, io.EOF) {
		err = nil
	}
	log.Lines = n
	if match != nil {
		windowMatches(prev, cur, n, match, &sc.low, func(ln int, text []byte) {
			keepHalves(&firstSigs, &lastSigs, &sigStart, MatchedLines/2, ln, text)
		}, &cutBuf)
	}
	if err == nil {
		err = cut.err()
	}
	// The kept lines' texts go into one string, each line a slice of it (a
	// string per line cost its size class's slack, on 200,000 lines at ×50
	// of the corpus metal gather), and an error line that is also in the
	// tail is the tail's line: together 51 → 38 MB there.
	block := sc.text[:0]
	defer func() { sc.text = block[:0] }()
	type span struct{ from, to int }
	var spans [TailLines + ErrorLines]span
	var lines [TailLines + ErrorLines]model.LogLine
	k := 0
	toLine := func(r raw) {
		ll := model.LogLine{Line: r.n}
		text := r.text
		if sp := bytes.IndexByte(text, ' '); sp > 0 && sp <= 40 {
			if t, perr := time.Parse(time.RFC3339Nano, string(text[:sp])); perr == nil {
				ll.Time = t
				text = text[sp+1:]
				// CRI log lines carry "stdout F " / "stderr P " after the time.
				if rest, ok := criStreamPrefix(text); ok {
					text = rest
				}
			}
		}
		from := len(block)
		if utf8.Valid(text) {
			block = append(block, text...)
		} else {
			block = append(block, bytes.ToValidUTF8(text, []byte("\uFFFD"))...)
		}
		lines[k], spans[k] = ll, span{from, len(block)}
		k++
	}
	for _, part := range [][]raw{ring[start:], ring[:start]} {
		for _, r := range part {
			toLine(r)
		}
	}
	tailLen := k
	firstTail := log.Lines - tailLen + 1 // the tail is the file's last lines
	var inTail [ErrorLines]int
	errs := 0
	for _, part := range [][]raw{firstErrs, lastErrs[errStart:], lastErrs[:errStart]} {
		for _, r := range part {
			if tailLen > 0 && r.n >= firstTail {
				inTail[errs] = r.n - firstTail
			} else {
				inTail[errs] = -1
				toLine(r)
			}
			errs++
		}
	}
	matched := 0
	if len(firstSigs) > 0 {
		matched = log.SetMatched(slotLines(slices.Concat(firstSigs, lastSigs[sigStart:], lastSigs[:sigStart])))
	}
	if k == 0 {
		return matched, err
	}
	// The lines' texts are views of block, which SetKept copies.
	text := unsafe.String(unsafe.SliceData(block), len(block))
	for i := range k {
		lines[i].Text = text[spans[i].from:spans[i].to]
	}
	var errArr [ErrorLines]model.LogLine
	errLines := errArr[:0]
	own := tailLen
	for _, t := range inTail[:errs] {
		if t >= 0 {
			errLines = append(errLines, lines[t])
		} else {
			errLines = append(errLines, lines[own])
			own++
		}
	}
	return matched + log.SetKept(lines[:tailLen], errLines), err
}

var nl = []byte{'\n'}

// lineCount is how many lines b holds: its newlines, and one more for a
// last line without one.
func lineCount(b []byte) int {
	c := bytes.Count(b, nl)
	if len(b) > 0 && b[len(b)-1] != '\n' {
		c++
	}
	return c
}

// nextLine splits b at its first newline: the line without it, and what
// follows.
func nextLine(b []byte) (line, rest []byte) {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i], b[i+1:]
	}
	return b, nil
}

// cutLine returns a line of a container log as scanLines hands it: without
// its trailing carriage returns, and cut to MaxLineBytes with cutMark (in
// buf) when longer, counted in cut. raw is the line without its newline.
func cutLine(raw []byte, cut *longLines, buf *[MaxLineBytes + len(cutMark)]byte) []byte {
	line := bytes.TrimRight(raw, "\r\n")
	if len(line) <= MaxLineBytes {
		return line
	}
	cut.cut++
	cut.longest = max(cut.longest, int64(len(raw)+1))
	n := copy(buf[:], line[:MaxLineBytes])
	n += copy(buf[n:], cutMark)
	return buf[:n]
}

// cutLines counts in cut the lines of b (complete lines) that scanLines
// would cut, without walking b line by line: a line longer than
// MaxLineBytes holds a whole aligned span of MaxLineBytes/2 bytes with no
// newline, so only the spans without one are looked at closely.
func cutLines(b []byte, cut *longLines) {
	const span = MaxLineBytes / 2
	for at := 0; at+span <= len(b); at += span {
		if bytes.IndexByte(b[at:at+span], '\n') >= 0 {
			continue
		}
		from := bytes.LastIndexByte(b[:at], '\n') + 1
		end := len(b)
		if i := bytes.IndexByte(b[at+span:], '\n'); i >= 0 {
			end = at + span + i
		}
		var buf [MaxLineBytes + len(cutMark)]byte
		cutLine(b[from:end], cut, &buf)
		at = (end+span)/span*span - span // the next span that starts after this line's newline

	}
}

// windowMatches hands keep the lines that end in the last MatchedWindow
// bytes of prev and cur (the complete lines of the last two blocks a log
// was read in, cur ending with line n), in order with their numbers and as
// scanLines hands them, that hold a literal of match.
func windowMatches(prev, cur []byte, n int, match *lineFilter, low *[]byte, keep func(n int, text []byte), buf *[MaxLineBytes + len(cutMark)]byte) {
	var discard longLines
	walk := func(b []byte, from, first int) {
		// from is where the window starts in b; the line it falls in is
		// the first of the window.
		at := 0
		if from > 0 {
			at = bytes.LastIndexByte(b[:from], '\n') + 1
			first += bytes.Count(b[:at], nl)
		}
		for i, rest := first, b[at:]; len(rest) > 0; i++ {
			var raw []byte
			raw, rest = nextLine(rest)
			text := cutLine(raw, &discard, buf)
			if match.match(afterTimestamp(text), low) {
				keep(i, text)
			}
		}
	}
	from := len(prev) + len(cur) - MatchedWindow
	lc := lineCount(cur)
	if from < len(prev) {
		walk(prev, max(from, 0), n-lc-lineCount(prev)+1)
	}
	walk(cur, max(from-len(prev), 0), n-lc+1)
}

// putSlot holds line n in slot, reusing the slot's buffer.
func putSlot(slot *tailSlot, n int, line []byte) {
	slot.n = n
	slot.text = append(slot.text[:0], line...)
}

// growSlots adds a slot, reusing the one (and its buffer) a former log left.
func growSlots(s []tailSlot) []tailSlot {
	if len(s) < cap(s) {
		return s[:len(s)+1]
	}
	return append(s, tailSlot{})
}

// keepHalves keeps line n among the first half lines of a kind (first) and,
// once those are full, the last half (last, a ring whose oldest slot is
// *start).
func keepHalves(first, last *[]tailSlot, start *int, half, n int, line []byte) {
	switch {
	case len(*first) < half:
		*first = growSlots(*first)
		putSlot(&(*first)[len(*first)-1], n, line)
	case len(*last) < half:
		*last = growSlots(*last)
		putSlot(&(*last)[len(*last)-1], n, line)
	default:
		putSlot(&(*last)[*start], n, line)
		*start = (*start + 1) % half
	}
}

// slotLines makes the log lines of slots (a CRI timestamp and stream prefix
// become the line's time, as for the kept lines); their texts are copies.
func slotLines(slots []tailSlot) []model.LogLine {
	out := make([]model.LogLine, 0, len(slots))
	for _, r := range slots {
		ll := model.LogLine{Line: r.n}
		text := r.text
		if sp := bytes.IndexByte(text, ' '); sp > 0 && sp <= 40 {
			if t, perr := time.Parse(time.RFC3339Nano, string(text[:sp])); perr == nil {
				ll.Time = t
				text = text[sp+1:]
				if rest, ok := criStreamPrefix(text); ok {
					text = rest
				}
			}
		}
		ll.Text = strings.ToValidUTF8(string(text), "\uFFFD")
		out = append(out, ll)
	}
	return out
}

func criStreamPrefix(b []byte) ([]byte, bool) {
	for _, p := range []string{"stdout F ", "stdout P ", "stderr F ", "stderr P "} {
		if bytes.HasPrefix(b, []byte(p)) {
			return b[len(p):], true
		}
	}
	return b, false
}

// scratchPools are one load's pools of the scratch its readers reuse from
// one member to the next (the builder's): the 64 KiB bufio.Readers of
// decompress and scanLinesCounted, and readTail's ring and error slots (a
// gather has tens of thousands of logs), the YAML converter's work
// (yamlWork), the Events decodeEvent fills and the line starts of a file
// (lineIndex). A nil *scratchPools pools nothing.
type scratchPools struct {
	readers    sync.Pool // *bufio.Reader
	ahead      sync.Pool // *[]byte: the blocks of the read-aheads of large compressed members
	tails      sync.Pool // *tailScratch
	yamlWork   sync.Pool // *yamlWork
	events     sync.Pool // *corev1.Event
	lineStarts sync.Pool // *[]int
	// tailBlock is the block readTail reads in: tailBlockBytes when 0
	// (tests set it, at least 2*MaxLineBytes, to cross blocks on small logs).
	tailBlock int
}

// reader returns a pooled 64 KiB reader over r.
func (sp *scratchPools) reader(r io.Reader) *bufio.Reader {
	if sp != nil {
		if br, _ := sp.readers.Get().(*bufio.Reader); br != nil {
			br.Reset(r)
			return br
		}
	}
	return bufio.NewReaderSize(r, 64*1024)
}

// putReader hands br back to the pool, dropping its source.
func (sp *scratchPools) putReader(br *bufio.Reader) {
	if sp == nil {
		return
	}
	br.Reset(nil)
	sp.readers.Put(br)
}

// tail returns a pooled tailScratch.
func (sp *scratchPools) tail() *tailScratch {
	if sp != nil {
		if sc, _ := sp.tails.Get().(*tailScratch); sc != nil {
			return sc
		}
	}
	return new(tailScratch)
}

// putTail hands sc back to the pool.
func (sp *scratchPools) putTail(sc *tailScratch) {
	if sp != nil {
		sp.tails.Put(sc)
	}
}
