package parser

import (
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

	"github.com/mholt/archives"
)

// ErrNotFound is returned by Walk when the input path does not exist.
var ErrNotFound = errors.New("no such file or directory")

// Limits of nested archives: how deep archives inside archives are opened, and
// how large a nested zip may be (zip needs random access, so a nested zip is
// held in memory; tar-based archives stream).
const (
	MaxNestingDepth = 4
	MaxNestedZip    = 512 << 20
)

// Member is one regular file of the input, handed to a VisitFunc in input order.
// Path is slash-separated and relative to the input (for an archive, the name in
// the archive; for a member of a nested archive, "outer.zip/inner/name"),
// cleaned, never absolute and never escaping the input. Size is the size the
// input declares, which may be wrong for a broken archive.
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
// with that error after every member before it was visited.
func Walk(ctx context.Context, root string, visit VisitFunc, skipped func(name, why string)) error {
	return walkInput(ctx, root, visit, skipped, nil)
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

func walkInput(ctx context.Context, root string, visit VisitFunc, skipped func(name, why string), onRead func(n int64)) error {
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
	if !fi.IsDir() && fi.Size() == 0 {
		return fmt.Errorf("%s is an empty file", root)
	}
	w := &walker{ctx: ctx, visit: visit, skipped: skipped}
	if fi.IsDir() {
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
		if onRead != nil {
			stream = &countingReader{r: stream, onRead: onRead}
		}
		stream = bufio.NewReaderSize(stream, 1<<20)
	}
	return w.archive(ex, stream, "", 0)
}

type walker struct {
	ctx     context.Context
	visit   VisitFunc
	skipped func(name, why string)
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
		w.member(rel, info.Size(), func() (io.ReadCloser, error) { return os.Open(p) }, 0)
		return nil
	})
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
// inside the input ("" for the input).
func (w *walker) archive(ex archives.Extractor, stream io.Reader, prefix string, depth int) error {
	return ex.Extract(w.ctx, stream, func(ctx context.Context, fi archives.FileInfo) error {
		if fi.IsDir() {
			return nil
		}
		name, ok := CleanMemberName(fi.NameInArchive)
		if !ok {
			w.skipped(prefix+fi.NameInArchive, "member name is absolute or leaves the archive, skipped")
			return nil
		}
		if !fi.Mode().IsRegular() || fi.LinkTarget != "" {
			w.skipped(prefix+name, describeType(fi.Mode().Type())+" member, not followed")
			return nil
		}
		w.member(prefix+name, fi.Size(), func() (io.ReadCloser, error) { return fi.Open() }, depth)
		return nil
	})
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
func (w *walker) member(name string, size int64, open func() (io.ReadCloser, error), depth int) {
	if looksLikeArchive(name) && classify(name).Kind == kindOther {
		if depth >= MaxNestingDepth {
			w.skipped(name, fmt.Sprintf("archive nested more than %d deep, not opened", MaxNestingDepth))
			return
		}
		if err := w.nested(name, size, open, depth+1); err != nil {
			w.skipped(name, "nested archive: "+err.Error())
		}
		return
	}
	if err := w.visit(Member{Path: name, Size: size, Open: open}); err != nil {
		w.skipped(name, err.Error())
	}
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
		if size > MaxNestedZip {
			return fmt.Errorf("nested zip of %d MiB is larger than %d MiB", size>>20, MaxNestedZip>>20)
		}
		data, err := io.ReadAll(io.LimitReader(stream, MaxNestedZip+1))
		if err != nil {
			return err
		}
		if len(data) > MaxNestedZip {
			return fmt.Errorf("nested zip is larger than %d MiB", MaxNestedZip>>20)
		}
		stream = bytes.NewReader(data)
	}
	return w.archive(ex, stream, name+"/", depth)
}

// decompress returns r decompressed when it starts with the magic bytes of
// gzip, xz, zstd or bzip2 (a .gz kubelet journal, a .xz sosreport journal),
// else r itself. close releases the decompressor.
func decompress(ctx context.Context, name string, r io.Reader) (out io.Reader, close func(), err error) {
	br := bufio.NewReaderSize(r, 64*1024)
	head, _ := br.Peek(6)
	if !compressedMagic(head) {
		return br, func() {}, nil
	}
	format, stream, err := archives.Identify(ctx, path.Base(name), br)
	if err != nil {
		return nil, nil, fmt.Errorf("identify compression: %w", err)
	}
	d, ok := format.(archives.Decompressor)
	if !ok {
		return stream, func() {}, nil
	}
	rc, err := d.OpenReader(stream)
	if err != nil {
		return nil, nil, fmt.Errorf("decompress: %w", err)
	}
	return rc, func() { rc.Close() }, nil
}

func compressedMagic(b []byte) bool {
	return bytes.HasPrefix(b, []byte{0x1f, 0x8b}) || // gzip
		bytes.HasPrefix(b, []byte{0xfd, '7', 'z', 'X', 'Z', 0x00}) || // xz
		bytes.HasPrefix(b, []byte{0x28, 0xb5, 0x2f, 0xfd}) || // zstd
		bytes.HasPrefix(b, []byte("BZh")) // bzip2
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
