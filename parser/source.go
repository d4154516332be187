package parser

import (
	"archive/tar"
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/klauspost/compress/zip"
	"github.com/mgtriage/mgtriage/parser/internal/bufpool"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mholt/archives"
	fastxz "github.com/mikelolasagasti/xz"
)

// ErrNotFound is returned by Walk when the input path does not exist.
var ErrNotFound = errors.New("no such file or directory")

// Limits of one pass over a hostile input. Each limit, when reached, becomes a
// Problem that names it; the analysis goes on with what was read before.
const (
	// DefaultMaxReadBytes bounds the bytes one pass reads, counted once
	// decompressed: the decompressed stream of every tar-based archive (nested
	// ones included, read or skipped members alike), every member of a zip and
	// every file of a folder as it is read, and what comes out of every
	// compressed member (a .gz log). The walk stops there (Options.MaxReadBytes).
	DefaultMaxReadBytes = 64 << 30
	// DefaultMaxMembers bounds the entries (files, folders, links) the walk
	// meets, nested archives included; the walk stops there (Options.MaxMembers).
	DefaultMaxMembers = 2_000_000
	// MaxNestingDepth is how deep archives inside archives are opened.
	MaxNestingDepth = 4
	// MaxNestedZip bounds the nested zips held in memory at once, together
	// (zip needs random access, so a nested zip is read whole; tar-based
	// archives stream).
	MaxNestedZip = 512 << 20
	// MaxMemberNameBytes bounds a member's path (PATH_MAX on Linux); a tar
	// may carry names of up to a megabyte. Longer names are skipped.
	MaxMemberNameBytes = 4096
)

// LimitError is returned by Walk when the input reaches one of the limits
// above: every member before that point was visited.
type LimitError struct {
	Limit string // "read", "member"
	Msg   string
	Path  string // the member being read when the limit was reached, if any
}

func (e *LimitError) Error() string { return e.Msg }

// readBudget counts the bytes a pass reads against its limit; nil counts
// nothing. It is shared with the decode of members, hence atomic.
type readBudget struct {
	limit int64
	used  atomic.Int64
}

func (b *readBudget) exceeded() bool { return b != nil && b.used.Load() > b.limit }

func (b *readBudget) err() error {
	return &LimitError{Limit: "read", Msg: fmt.Sprintf("read limit reached: more than %s read from the input once decompressed (--max-read); the walk stopped here and the analysis covers what was read before", sizeText(b.limit))}
}

// reader returns r counted against the budget: once the budget is spent,
// reads fail with a *LimitError.
func (b *readBudget) reader(r io.Reader) io.Reader {
	if b == nil {
		return r
	}
	return &budgetReader{r: r, b: b}
}

type budgetReader struct {
	r io.Reader
	b *readBudget
}

func (r *budgetReader) Read(p []byte) (int, error) {
	if r.b.exceeded() {
		return 0, r.b.err()
	}
	n, err := r.r.Read(p)
	if r.b.used.Add(int64(n)) > r.b.limit {
		return n, r.b.err()
	}
	return n, err
}

// sizeText writes a byte count the way a user gives it ("64 GiB", "512 MiB").
func sizeText(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Member is one regular file of the input, handed to a VisitFunc in input order.
// Path is slash-separated and relative to the input (for an archive, the name in
// the archive; for a member of a nested archive, "outer.zip/inner/name"),
// cleaned, never absolute and never escaping the input. Size is the size the
// input declares, which may be wrong for a broken archive; 0 when it declares
// none (a member of a zip read without its central directory, whose size
// follows its data).
type Member struct {
	Path string
	Size int64
	// Open returns the member's bytes. It is valid only during the visit and may
	// be called at most once.
	Open func() (io.ReadCloser, error)
}

// VisitFunc receives each member once. An error it returns is recorded against
// that member; the walk goes on.
type VisitFunc func(m Member) error

// Walk reads the directory or archive at root in one sequential pass and hands
// every regular file to visit. Archives are identified by content (tar, tar.gz,
// tar.xz, tar.zst, tar.bz2, zip) and are never extracted to disk; archives
// inside the input (a zip holding a tar.gz, a sosreport .tar.xz in a case
// folder) are opened as streams in the same pass, up to MaxNestingDepth.
// Members whose names are absolute or contain "..", symlinks, hardlinks and
// devices are skipped and reported through skipped. It returns ErrNotFound
// when root does not exist, and an error when root is neither a directory nor
// a readable archive. A read error in the middle of an archive ends the walk
// with that error after every member before it was visited. After an
// archive's last member the rest of its stream is read (checkEnd), so that
// its decompressor checks its trailer; a zip without its central directory
// is read by its local headers up to the cut (streamZip).
// Walk itself does not report damaged or truncated streams (walkOptions.fault does).
//
// The walk stops with a *LimitError after DefaultMaxMembers entries or
// DefaultMaxReadBytes bytes (see the constants for what counts).
func Walk(ctx context.Context, root string, visit VisitFunc, skipped func(name, why string)) error {
	return walkInput(ctx, root, visit, skipped, walkOptions{budget: &readBudget{limit: DefaultMaxReadBytes}, maxMembers: DefaultMaxMembers})
}

// walkOptions are the progress callback and the limits of one walk.
type walkOptions struct {
	onRead     func(n int64) // bytes read from an archive file, for a progress bar
	budget     *readBudget
	maxMembers int
	bufs       *bufpool.Pool // the load's read buffers (nested zips are read into them)
	stats      *ReadStats    // figures of the input's decompressed stream; nil: none
	// fault receives each stream of the input found damaged or cut short
	// (checkStream, streamZip); nil: none is said. It may be called from
	// the goroutine that reads a zip member.
	fault    func(model.StreamFault)
	skipDirs []string // folders a folder input is walked without (Options.SkipDirs)
}

// countingReader reports the bytes read through it.
type countingReader struct {
	r      io.Reader
	onRead func(n int64)
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 {
		c.onRead(int64(n))
	}
	return n, err
}

func walkInput(ctx context.Context, root string, visit VisitFunc, skipped func(name, why string), o walkOptions) error {
	if resolved, err := filepath.EvalSymlinks(root); err == nil {
		root = resolved // the input itself may be a link; links inside it are never followed
	}
	fi, err := os.Stat(root)
	if errors.Is(err, fs.ErrNotExist) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	if fi.IsDir() {
		if _, err := os.ReadDir(root); err != nil {
			return err
		}
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		return fmt.Errorf("a %s, not a directory nor an archive", describeType(fi.Mode().Type()))
	}
	if !fi.IsDir() && fi.Size() == 0 {
		return fmt.Errorf("%s is an empty file", root)
	}
	w := &walker{ctx: ctx, visit: visit, skipped: skipped, budget: o.budget, maxMembers: o.maxMembers, bufs: o.bufs, stats: o.stats, fault: o.fault}
	if w.fault == nil {
		w.fault = func(model.StreamFault) {}
	}
	if fi.IsDir() {
		for _, d := range o.skipDirs {
			if si, err := os.Stat(d); err == nil && si.IsDir() {
				w.skipDirs = append(w.skipDirs, si)
			}
		}
		return w.dir(root)
	}
	f, err := os.Open(root)
	if err != nil {
		return err
	}
	defer f.Close()
	format, stream, err := archives.Identify(ctx, filepath.Base(root), f)
	if err != nil {
		if errors.Is(err, archives.NoMatch) {
			return fmt.Errorf("not a directory nor an archive this tool reads (tar, tar.gz, tar.xz, tar.zst, tar.bz2, zip)")
		}
		return fmt.Errorf("cannot tell what kind of archive this is (empty or damaged?): %v", err)
	}
	ex, ok := format.(archives.Extractor)
	if !ok {
		return fmt.Errorf("a single %s-compressed file, not an archive of a gather", strings.TrimPrefix(format.Extension(), "."))
	}
	if _, isZip := format.(archives.Zip); !isZip {
		// Streaming formats read in large blocks; a zip needs the file itself
		// for random access.
		if o.onRead != nil {
			stream = &countingReader{r: stream, onRead: o.onRead}
		}
		stream = bufio.NewReaderSize(stream, 1<<20)
	}
	return w.archive(ex, stream, "", 0)
}

type walker struct {
	ctx        context.Context
	visit      VisitFunc
	skipped    func(name, why string)
	budget     *readBudget
	bufs       *bufpool.Pool
	stats      *ReadStats
	maxMembers int           // 0: no limit
	members    int           // entries met so far
	skipDirs   []os.FileInfo // folders walked without (walkOptions.skipDirs)
	heldZip    int64         // bytes of nested zips held in memory now
	fault      func(model.StreamFault)
	// stop is the limit reached, if any: the walk unwinds with it.
	stop error
}

// count counts one entry against the member limit.
func (w *walker) count() error {
	w.members++
	if w.maxMembers > 0 && w.members > w.maxMembers {
		w.stop = &LimitError{Limit: "member", Msg: fmt.Sprintf("member limit reached: more than %d files, folders and links in the input (--max-members); the walk stopped here and the analysis covers what was read before", w.maxMembers)}
	}
	return w.stop
}

// open returns a member's opener with its reads counted against the budget.
func (w *walker) counted(open func() (io.ReadCloser, error)) func() (io.ReadCloser, error) {
	if w.budget == nil {
		return open
	}
	return func() (io.ReadCloser, error) {
		rc, err := open()
		if err != nil {
			return nil, err
		}
		return struct {
			io.Reader
			io.Closer
		}{w.budget.reader(rc), rc}, nil
	}
}

func (w *walker) dir(root string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if err != nil {
			w.skipped(rel, err.Error())
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if ctxErr := w.ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if d.IsDir() && p != root && w.skipDir(d) {
			return fs.SkipDir
		}
		if err := w.count(); err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			w.skipped(rel, describeType(d.Type())+", not followed")
			return nil
		}
		info, err := d.Info()
		if err != nil {
			w.skipped(rel, err.Error())
			return nil
		}
		return w.member(rel, info.Size(), w.counted(func() (io.ReadCloser, error) { return os.Open(p) }), 0)
	})
}

// skipDir reports whether the folder d is one of w.skipDirs.
func (w *walker) skipDir(d fs.DirEntry) bool {
	if len(w.skipDirs) == 0 {
		return false
	}
	info, err := d.Info()
	if err != nil {
		return false
	}
	for _, s := range w.skipDirs {
		if os.SameFile(info, s) {
			return true
		}
	}
	return false
}

func describeType(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "not a regular file"
}

// archive walks one archive stream; prefix is the path of the archive itself
// inside the input ("" for the input). The decompressed stream of a tar-based
// archive is counted against the read budget; a zip's members are counted as
// they are read.
func (w *walker) archive(ex archives.Extractor, stream io.Reader, prefix string, depth int) error {
	streamed := false
	format := "tar" // for a StreamFault
	switch f := ex.(type) {
	case archives.CompressedArchive:
		if f.Compression != nil && f.Extraction != nil {
			c := f.Compression
			format = strings.TrimPrefix(c.Extension(), ".")
			if gz, ok := c.(archives.Gz); ok {
				// The archive's stream is inflated ahead on its own
				// goroutine (pgzip), so that inflating overlaps with
				// reading the members: one core alone cannot keep
				// up with both on a large gather.
				gz.Multithreaded = true
				c = gz
			}
			rc, err := c.OpenReader(stream)
			if err != nil {
				return w.streamFault(err, prefix, format, true)
			}
			defer rc.Close()
			// Decompression runs on its own goroutine, a bounded queue
			// ahead of the walk (readAhead); the input's own stream
			// records how busy it kept the decompressor.
			var stats *ReadStats
			if depth == 0 {
				stats = w.stats
			}
			ra := newReadAhead(rc, stats, nil)
			defer ra.Close() // before rc.Close: the goroutine leaves rc first
			stream, ex, streamed = ra, f.Extraction, true
		}
	case archives.Tar:
		streamed = true
	case archives.Zip:
		format = "zip"
	}
	if streamed {
		stream = w.budget.reader(stream)
	}
	err := ex.Extract(w.ctx, stream, func(ctx context.Context, fi archives.FileInfo) error {
		if err := w.count(); err != nil {
			return err
		}
		if fi.IsDir() {
			return nil
		}
		name, ok := w.memberName(prefix, fi.NameInArchive)
		if !ok {
			return nil
		}
		if kind := linkKind(fi); kind != "" {
			w.skipped(prefix+name, kind+" member, not followed")
			return nil
		}
		if h, ok := fi.Header.(*tar.Header); ok && sparseTar(h) {
			w.skipped(prefix+name, fmt.Sprintf("sparse tar member (%d bytes, mostly holes), not read", h.Size))
			return nil
		}
		open := func() (io.ReadCloser, error) { return fi.Open() }
		if !streamed {
			open = w.counted(w.watched(open, prefix+name))
		}
		return w.member(prefix+name, fi.Size(), open, depth)
	})
	if format == "zip" && w.stop == nil && errors.Is(err, zip.ErrFormat) {
		// No end of central directory: an upload cut short. What its
		// local headers still hold is read from the start.
		if rs, ok := stream.(io.ReadSeeker); ok {
			if _, serr := rs.Seek(0, io.SeekStart); serr == nil {
				err = w.streamZip(rs, prefix, depth)
			}
		}
	}
	stopped := err != nil
	if err == nil && streamed && w.stop == nil {
		err = w.checkEnd(stream)
	}
	var limit *LimitError
	if w.stop == nil && errors.As(err, &limit) {
		w.stop = limit // the budget ran out in the archive stream itself
	}
	if w.stop != nil {
		return w.stop
	}
	if err != nil {
		err = w.streamFault(err, prefix, format, stopped)
	}
	if !stopped {
		return nil // every member was read: the fault is said, the walk goes on
	}
	return err
}

// memberName returns the cleaned name of the archive member raw, or false
// when it is skipped (too long, absolute, leaving the archive), which it
// reports.
func (w *walker) memberName(prefix, raw string) (string, bool) {
	if len(raw) > MaxMemberNameBytes {
		w.skipped(prefix+cutName(raw), fmt.Sprintf("member name longer than %d bytes (%d), skipped", MaxMemberNameBytes, len(raw)))
		return "", false
	}
	name, ok := CleanMemberName(raw)
	if !ok {
		w.skipped(prefix+raw, "member name is absolute or leaves the archive, skipped")
		return "", false
	}
	return name, true
}

// streamCut is a stream of the input that is not whole, in this tool's
// words (a zip without its central directory, data after a tar's end).
type streamCut struct {
	kind model.FaultKind
	msg  string
}

func (e *streamCut) Error() string { return e.msg }

// faultKind says whether err, from reading a stream of the input, means
// the stream ends early (truncated) or that its bytes are wrong (damaged).
func faultKind(err error) model.FaultKind {
	var cut *streamCut
	switch {
	case errors.As(err, &cut):
		return cut.kind
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, fastxz.ErrBuf):
		// xz says "truncated or corrupt" when its input ends before
		// the stream does; corrupt data is its ErrData.
		return model.FaultTruncated
	}
	return model.FaultDamaged
}

// streamFault says err, from reading the stream of the archive at prefix
// ("" for the input), as a StreamFault, and returns it. stopped: the walk of
// the archive stopped there. A cancelled walk is no fault.
func (w *walker) streamFault(err error, prefix, format string, stopped bool) error {
	if w.ctx.Err() != nil {
		return err
	}
	w.fault(model.StreamFault{Kind: faultKind(err), Stream: strings.TrimSuffix(prefix, "/"), Format: format, Error: cutFaultText(err.Error()), Stopped: stopped})
	return err
}

// cutFaultText bounds a fault's error text to 1 KiB.
func cutFaultText(s string) string {
	if len(s) <= 1024 {
		return s
	}
	return strings.ToValidUTF8(s[:1024], "") + "…"
}

// checkEnd reads what is left of an archive's stream after its end marker,
// so that the decompressor reaches its trailer and checks it (gzip's CRC-32
// and size, zstd's checksum, xz's and bzip2's footers) and that data after
// the end shows; the bytes read count against the read budget. It returns
// the stream's own error, else a *streamCut (damaged) when anything but
// zeros follows the end marker (tar writers pad with zeros to their record
// size), else nil.
func (w *walker) checkEnd(r io.Reader) error {
	buf := make([]byte, 64<<10)
	var after int64
	first := int64(-1) // the first byte that is not zero
	for {
		if err := w.ctx.Err(); err != nil {
			return err
		}
		n, err := r.Read(buf)
		if first < 0 {
			for i, c := range buf[:n] {
				if c != 0 {
					first = after + int64(i)
					break
				}
			}
		}
		after += int64(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if first >= 0 {
		return &streamCut{kind: model.FaultDamaged, msg: fmt.Sprintf("%d bytes after the tar end marker, not zeros from byte %d on: data that is not part of the archive (not read)", after, first)}
	}
	return nil
}

// watched returns open with the read errors of the member said as a damaged
// stream (a zip member whose CRC-32 or deflate data is wrong), once.
func (w *walker) watched(open func() (io.ReadCloser, error), name string) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) {
		rc, err := open()
		if err != nil {
			return nil, err
		}
		return &watchedReader{rc: rc, said: func(err error) {
			w.fault(model.StreamFault{Kind: model.FaultDamaged, Stream: name, Format: "zip", Error: cutFaultText(err.Error())})
		}}, nil
	}
}

type watchedReader struct {
	rc   io.ReadCloser
	said func(error)
	done bool
}

func (r *watchedReader) Read(p []byte) (int, error) {
	n, err := r.rc.Read(p)
	if err != nil && err != io.EOF && !r.done {
		r.done = true
		r.said(err)
	}
	return n, err
}

func (r *watchedReader) Close() error { return r.rc.Close() }

// linkKind names a member that is not a regular file ("symbolic link",
// "hard link", "device"), or returns "".
func linkKind(fi archives.FileInfo) string {
	if h, ok := fi.Header.(*tar.Header); ok && h.Typeflag == tar.TypeLink {
		return "hard link"
	}
	if fi.Mode().IsRegular() && fi.LinkTarget == "" {
		return ""
	}
	if fi.LinkTarget != "" && fi.Mode()&fs.ModeSymlink == 0 {
		return "link"
	}
	return describeType(fi.Mode().Type())
}

// sparseTar reports whether a tar member is sparse: its declared size is
// mostly holes that read as zeros, a decompression bomb of its own.
func sparseTar(h *tar.Header) bool {
	if h.Typeflag == tar.TypeGNUSparse {
		return true
	}
	for k := range h.PAXRecords {
		if strings.HasPrefix(k, "GNU.sparse.") {
			return true
		}
	}
	return false
}

// cutName shortens an overlong member name for a Problem.
func cutName(name string) string {
	if len(name) <= 256 {
		return name
	}
	return strings.ToValidUTF8(name[:256], "") + "…"
}

// nestedArchiveSuffixes are the names of members tried as archives.
var nestedArchiveSuffixes = []string{".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.zst", ".tzst", ".tar.bz2", ".tbz2", ".zip"}

func looksLikeArchive(name string) bool {
	lower := strings.ToLower(name)
	for _, s := range nestedArchiveSuffixes {
		if strings.HasSuffix(lower, s) {
			return true
		}
	}
	return false
}

// member hands one file to visit, or, for a nested archive, walks into it.
// It returns an error only when a limit stops the walk.
func (w *walker) member(name string, size int64, open func() (io.ReadCloser, error), depth int) error {
	if len(name) > MaxMemberNameBytes {
		w.skipped(cutName(name), fmt.Sprintf("member path longer than %d bytes (%d), skipped", MaxMemberNameBytes, len(name)))
		return nil
	}
	if looksLikeArchive(name) && classify(name, nil).Kind == kindOther {
		if depth >= MaxNestingDepth {
			w.skipped(name, fmt.Sprintf("archive nested more than %d deep, not opened", MaxNestingDepth))
			return nil
		}
		if err := w.nested(name, size, open, depth+1); err != nil && w.stop == nil {
			w.skipped(name, "nested archive: "+err.Error())
		}
		return w.stop
	}
	if err := w.visit(Member{Path: name, Size: size, Open: open}); err != nil {
		var limit *LimitError
		if errors.As(err, &limit) {
			stop := *limit
			stop.Path = name // the member being read when the limit was reached
			w.stop = &stop
			return w.stop
		}
		w.skipped(name, err.Error())
	}
	if w.stop == nil && w.budget.exceeded() {
		w.stop = w.budget.err()
	}
	return w.stop
}

func (w *walker) nested(name string, size int64, open func() (io.ReadCloser, error), depth int) error {
	rc, err := open()
	if err != nil {
		return err
	}
	defer rc.Close()
	format, stream, err := archives.Identify(w.ctx, path.Base(name), rc)
	if err != nil {
		return fmt.Errorf("not an archive this tool reads: %v", err)
	}
	ex, ok := format.(archives.Extractor)
	if !ok {
		return fmt.Errorf("a single compressed file, not an archive")
	}
	if _, isZip := format.(archives.Zip); isZip {
		room := MaxNestedZip - w.heldZip
		if size > room {
			return fmt.Errorf("nested zip of %d MiB does not fit in the %d MiB held in memory for nested zips (%d MiB in use)", size>>20, MaxNestedZip>>20, w.heldZip>>20)
		}
		data, err := readBounded(stream, room, size, w.bufs)
		if err != nil {
			if w.budget.exceeded() {
				w.stop = w.budget.err()
				return w.stop
			}
			return fmt.Errorf("nested zip: %v (at most %d MiB of nested zips are held in memory, %d MiB in use)", err, MaxNestedZip>>20, w.heldZip>>20)
		}
		w.heldZip += int64(len(data))
		defer func() { w.heldZip -= int64(len(data)) }()
		stream = bytes.NewReader(data)
	}
	return w.archive(ex, stream, name+"/", depth)
}

// decompress returns r decompressed when it starts with the magic bytes of
// gzip, xz, zstd or bzip2 (a .gz kubelet journal, a .xz sosreport journal),
// else r itself. The content decides, never the name (a hostile or renamed
// member may hold anything). What comes out of a decompressor is counted
// against budget. close releases the decompressor. inflated says whether out
// decompresses r (the member's declared size is then not out's).
//
// The buffer of r comes from sp (the load's pool) and goes back to it on close, so out must
// not be read after close: a pass over tens of thousands of members would
// otherwise allocate a 64 KiB buffer for each (gigabytes at ×10 scale, most
// of the collector's work).
func decompress(ctx context.Context, name string, r io.Reader, budget *readBudget, sp *scratchPools) (out io.Reader, close func(), inflated bool, err error) {
	br := sp.reader(r)
	head, _ := br.Peek(6)
	d := decompressorFor(head)
	if d == nil {
		return br, func() { sp.putReader(br) }, false, nil
	}
	kind := strings.TrimPrefix(d.(archives.Format).Extension(), ".")
	rc, err := d.OpenReader(br)
	if err != nil {
		sp.putReader(br)
		return nil, nil, false, fmt.Errorf("damaged %s data: %w", kind, err)
	}
	return budget.reader(&damagedReader{rc, kind}), func() { rc.Close(); sp.putReader(br) }, true, nil
}

// Decompressed is r decompressed when it starts with the magic bytes of
// gzip, xz, zstd or bzip2, as the one pass reads members (decompressorFor:
// the content decides, never the name), else r itself; kind is the
// compression ("gz", "xz", "zst", "bz2"; "" for none) and close releases the
// decompressor. For a reader of the input after the pass (analyze serve
// reading a folder input's file again); the caller bounds what it reads.
func Decompressed(r io.Reader) (out io.Reader, kind string, close func(), err error) {
	br := bufio.NewReader(r)
	head, _ := br.Peek(6)
	d := decompressorFor(head)
	if d == nil {
		return br, "", func() {}, nil
	}
	kind = strings.TrimPrefix(d.(archives.Format).Extension(), ".")
	rc, err := d.OpenReader(br)
	if err != nil {
		return nil, kind, nil, fmt.Errorf("damaged %s data: %w", kind, err)
	}
	return &damagedReader{rc, kind}, kind, func() { rc.Close() }, nil
}

// damagedReader says which compression a read error comes from ("damaged gz
// data: unexpected EOF" rather than "unexpected EOF").
type damagedReader struct {
	r    io.Reader
	kind string
}

func (d *damagedReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("damaged %s data: %w", d.kind, err)
	}
	return n, err
}

// decompressorFor returns the decompressor for the magic bytes b starts with,
// or nil.
func decompressorFor(b []byte) archives.Decompressor {
	switch {
	case bytes.HasPrefix(b, []byte{0x1f, 0x8b}):
		return archives.Gz{}
	case bytes.HasPrefix(b, []byte{0xfd, '7', 'z', 'X', 'Z', 0x00}):
		return archives.Xz{}
	case bytes.HasPrefix(b, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		return archives.Zstd{}
	case bytes.HasPrefix(b, []byte("BZh")):
		return archives.Bz2{}
	}
	return nil
}

// CleanMemberName returns the cleaned, slash-separated form of an archive member
// name, and false when the name is empty, absolute, or climbs out of the archive
// with "..". Backslashes count as separators so a Windows-made zip cannot sneak
// a "..\" past the check.
func CleanMemberName(name string) (string, bool) {
	n := strings.ReplaceAll(name, "\\", "/")
	if n == "" || strings.HasPrefix(n, "/") || (len(n) > 1 && n[1] == ':') {
		return "", false
	}
	for _, part := range strings.Split(n, "/") {
		if part == ".." {
			return "", false
		}
	}
	n = path.Clean(n)
	if n == "." || strings.ContainsRune(n, 0) {
		return "", false
	}
	return n, true
}
