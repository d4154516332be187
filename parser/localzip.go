package parser

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"strings"

	"github.com/klauspost/compress/flate"
	"github.com/mgtriage/mgtriage/parser/model"
)

// The signatures of a zip's records (APPNOTE.TXT 4.3).
const (
	zipLocalSig      = 0x04034b50
	zipCentralSig    = 0x02014b50
	zipDescriptorSig = 0x08074b50
	zipEndSig        = 0x06054b50
	zip64EndSig      = 0x06064b50
)

// zipCut is how every message of a zip read without its central directory
// starts.
const zipCut = "the zip was cut short (central directory missing)"

// streamZip reads a zip that has no valid end of central directory (an
// upload cut short) from r's start, member by member, by their local file
// headers, since neither archives nor klauspost/compress/zip reads a zip
// that way. Stored and deflated members are read; a deflated member with a
// data descriptor (flag bit 3: its sizes follow its data) is inflated to the
// end of its deflate stream, which delimits itself. Each member goes to
// w.member as the members of a whole zip do, its decompressed bytes counted
// against the read budget; a member whose CRC-32 does not match is said as
// a damaged stream and reading goes on. It returns the limit that stopped
// the walk, or a *streamCut (truncated) saying where reading stopped: at
// the end of the input, at the central directory's start, or at a member
// whose end cannot be found without the central directory (stored, or
// compressed in another way, with a data descriptor).
func (w *walker) streamZip(r io.Reader, prefix string, depth int) error {
	br := bufio.NewReaderSize(r, 64<<10)
	files := 0 // members that are not folders, read whole
	cut := func(format string, a ...any) error {
		return &streamCut{kind: model.FaultTruncated, msg: fmt.Sprintf("%s: %d %s read before the cut; ", zipCut, files, plural(files, "file", "files")) + fmt.Sprintf(format, a...)}
	}
	for {
		if err := w.ctx.Err(); err != nil {
			return err
		}
		h, err := readLocalHeader(br)
		switch {
		case errors.Is(err, io.EOF):
			return cut("the input ends after the last member")
		case errors.Is(err, io.ErrUnexpectedEOF):
			return cut("the input ends inside a member's header")
		case errors.Is(err, errZipDirectory):
			return cut("the central directory starts after them but its end is missing")
		case err != nil:
			return cut("%v", err)
		}
		if err := w.count(); err != nil {
			return err
		}
		known := h.flags&0x8 == 0
		if !known && (h.method != 8 || h.flags&0x1 != 0) {
			what := "stored"
			if h.method != 0 {
				what = fmt.Sprintf("compressed with method %d", h.method)
			}
			if h.flags&0x1 != 0 {
				what = "encrypted"
			}
			return cut("member %q is %s with a data descriptor (its size follows its data), so its end cannot be found without the central directory: reading stopped there", cutName(h.name), what)
		}
		if known && h.csize > math.MaxInt64 {
			return cut("member %q declares %d bytes", cutName(h.name), h.csize)
		}
		if h.flags&0x1 != 0 || (h.method != 0 && h.method != 8) {
			// Known size: skipped, and the next header follows.
			if _, err := io.CopyN(io.Discard, br, int64(h.csize)); err != nil {
				return cut("the input ends inside member %q", cutName(h.name))
			}
			if !strings.HasSuffix(h.name, "/") {
				w.skipped(prefix+cutName(h.name), fmt.Sprintf("zip member encrypted or compressed with method %d, not read", h.method))
			}
			continue
		}
		var raw io.Reader = br // a deflate stream delimits itself; br is an io.ByteReader, so flate reads no further
		if known {
			raw = io.LimitReader(br, int64(h.csize))
		}
		var body io.Reader = raw
		if h.method == 8 {
			body = flate.NewReader(raw) // its Close does nothing the collector does not
		}
		m := &zipMemberReader{r: body, crc: crc32.NewIEEE()}
		counted := w.budget.reader(m)
		if name, ok := w.memberName(prefix, h.name); ok && !strings.HasSuffix(h.name, "/") {
			opened := false
			open := func() (io.ReadCloser, error) {
				if opened {
					return nil, errors.New("zip member opened twice")
				}
				opened = true
				return io.NopCloser(counted), nil
			}
			size := int64(0) // unknown until its data descriptor
			if known && h.usize <= math.MaxInt64 {
				size = int64(h.usize)
			}
			if err := w.member(prefix+name, size, open, depth); err != nil {
				return err
			}
		}
		// What the visit left unread is read to the member's end: the
		// next header follows it, and the CRC-32 covers it all.
		if _, err := io.Copy(io.Discard, counted); err != nil {
			var limit *LimitError
			if errors.As(err, &limit) {
				w.stop = limit
				return limit
			}
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				return cut("the input ends inside member %q", cutName(h.name))
			}
			return &streamCut{kind: model.FaultDamaged, msg: fmt.Sprintf("%s: %d %s read before member %q, whose data is damaged (%v): reading stopped there", zipCut, files, plural(files, "file", "files"), cutName(h.name), err)}
		}
		if known && h.method == 8 {
			// The rest of the declared compressed size, if flate
			// stopped short of it.
			if _, err := io.Copy(io.Discard, raw); err != nil {
				return cut("the input ends inside member %q", cutName(h.name))
			}
		}
		crc := h.crc
		if !known {
			d, err := readDataDescriptor(br, m.n)
			if err != nil {
				return cut("member %q: %v", cutName(h.name), err)
			}
			crc = d
		}
		if m.crc.Sum32() != crc {
			w.fault(model.StreamFault{Kind: model.FaultDamaged, Stream: prefix + cutName(h.name), Format: "zip", Error: "zip: checksum error"})
		}
		if !strings.HasSuffix(h.name, "/") {
			files++
		}
	}
}

// plural returns one for n == 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// zipMemberReader counts and checksums a member's decompressed bytes.
type zipMemberReader struct {
	r   io.Reader
	crc hash.Hash32
	n   int64
}

func (z *zipMemberReader) Read(p []byte) (int, error) {
	n, err := z.r.Read(p)
	z.crc.Write(p[:n])
	z.n += int64(n)
	return n, err
}

// errZipDirectory: a central directory or end record where a local header
// was expected.
var errZipDirectory = errors.New("central directory")

// localHeader is what streamZip uses of a local file header.
type localHeader struct {
	flags, method uint16
	crc           uint32
	csize, usize  uint64
	name          string
}

// readLocalHeader reads one local file header (its name and extra field
// included, each at most 64 KiB as the format bounds them). It returns
// io.EOF at a clean end of input, errZipDirectory at a central directory
// or end record.
func readLocalHeader(br *bufio.Reader) (localHeader, error) {
	var h localHeader
	var fixed [30]byte
	if _, err := io.ReadFull(br, fixed[:4]); err != nil {
		return h, err // io.EOF: nothing more
	}
	switch binary.LittleEndian.Uint32(fixed[:4]) {
	case zipLocalSig:
	case zipCentralSig, zipEndSig, zip64EndSig:
		return h, errZipDirectory
	default:
		return h, fmt.Errorf("no local file header where the next member should start: damaged or not a zip")
	}
	if _, err := io.ReadFull(br, fixed[4:]); err != nil {
		return h, io.ErrUnexpectedEOF
	}
	le := binary.LittleEndian
	h.flags, h.method = le.Uint16(fixed[6:]), le.Uint16(fixed[8:])
	h.crc = le.Uint32(fixed[14:])
	h.csize, h.usize = uint64(le.Uint32(fixed[18:])), uint64(le.Uint32(fixed[22:]))
	nameLen, extraLen := int(le.Uint16(fixed[26:])), int(le.Uint16(fixed[28:]))
	buf := make([]byte, nameLen+extraLen)
	if _, err := io.ReadFull(br, buf); err != nil {
		return h, io.ErrUnexpectedEOF
	}
	h.name = string(buf[:nameLen])
	// Zip64: sizes of 0xFFFFFFFF are in the extra field 0x0001,
	// uncompressed size first.
	extra := buf[nameLen:]
	for len(extra) >= 4 {
		tag, size := le.Uint16(extra), int(le.Uint16(extra[2:]))
		extra = extra[4:]
		if size > len(extra) {
			break
		}
		if tag == 0x0001 {
			f := extra[:size]
			if h.usize == math.MaxUint32 && len(f) >= 8 {
				h.usize, f = le.Uint64(f), f[8:]
			}
			if h.csize == math.MaxUint32 && len(f) >= 8 {
				h.csize = le.Uint64(f)
			}
		}
		extra = extra[size:]
	}
	return h, nil
}

// readDataDescriptor reads the data descriptor after a member of n
// decompressed bytes (optional signature, CRC-32, then the sizes in 4 or, for
// zip64, 8 bytes each) and returns its CRC-32.
func readDataDescriptor(br *bufio.Reader, n int64) (uint32, error) {
	le := binary.LittleEndian
	if b, err := br.Peek(4); err == nil && le.Uint32(b) == zipDescriptorSig {
		br.Discard(4)
	}
	b, err := br.Peek(12)
	if err != nil {
		return 0, errors.New("the input ends inside its data descriptor")
	}
	crc := le.Uint32(b)
	if uint64(le.Uint32(b[8:])) == uint64(n) {
		br.Discard(12)
		return crc, nil
	}
	if b, err := br.Peek(20); err == nil && le.Uint64(b[12:]) == uint64(n) {
		br.Discard(20)
		return crc, nil
	}
	return 0, errors.New("its data descriptor does not match its data")
}
