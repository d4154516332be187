package parser

import (
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

// Member is one regular file of the input, handed to a VisitFunc in input order.
// Path is slash-separated and relative to the input (for an archive, the name in
// the archive), cleaned, never absolute and never escaping the input. Size is
// the size the input declares, which may be wrong for a broken archive.
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
// tar.xz, tar.zst, tar.bz2, zip) and are never extracted to disk. Members whose
// names are absolute or contain "..", symlinks, hardlinks and devices are
// skipped and reported through skipped. It returns ErrNotFound when root does
// not exist, and an error when root is neither a directory nor a readable
// archive. A read error in the middle of an archive ends the walk with that
// error after every member before it was visited.
func Walk(ctx context.Context, root string, visit VisitFunc, skipped func(name, why string)) error {
	fi, err := os.Stat(root)
	if errors.Is(err, fs.ErrNotExist) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return walkDir(ctx, root, visit, skipped)
	}
	return walkArchive(ctx, root, visit, skipped)
}

func walkDir(ctx context.Context, root string, visit VisitFunc, skipped func(name, why string)) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			rel, _ := filepath.Rel(root, p)
			skipped(filepath.ToSlash(rel), err.Error())
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if !d.Type().IsRegular() {
			skipped(rel, "not a regular file ("+d.Type().String()+")")
			return nil
		}
		info, err := d.Info()
		if err != nil {
			skipped(rel, err.Error())
			return nil
		}
		m := Member{Path: rel, Size: info.Size(), Open: func() (io.ReadCloser, error) { return os.Open(p) }}
		if err := visit(m); err != nil {
			skipped(rel, err.Error())
		}
		return nil
	})
}

func walkArchive(ctx context.Context, root string, visit VisitFunc, skipped func(name, why string)) error {
	f, err := os.Open(root)
	if err != nil {
		return err
	}
	defer f.Close()
	format, stream, err := archives.Identify(ctx, filepath.Base(root), f)
	if err != nil {
		if errors.Is(err, archives.NoMatch) {
			return fmt.Errorf("%s is neither a directory nor an archive this tool reads", root)
		}
		return fmt.Errorf("identify %s: %w", root, err)
	}
	ex, ok := format.(archives.Extractor)
	if !ok {
		return fmt.Errorf("%s is a %s file, not an archive of a gather", root, format.Extension())
	}
	return ex.Extract(ctx, stream, func(ctx context.Context, fi archives.FileInfo) error {
		if fi.IsDir() {
			return nil
		}
		name, ok := CleanMemberName(fi.NameInArchive)
		if !ok {
			skipped(fi.NameInArchive, "member name is absolute or leaves the archive")
			return nil
		}
		if !fi.Mode().IsRegular() || fi.LinkTarget != "" {
			skipped(name, "not a regular file (link or device)")
			return nil
		}
		m := Member{Path: name, Size: fi.Size(), Open: func() (io.ReadCloser, error) { return fi.Open() }}
		if err := visit(m); err != nil {
			skipped(name, err.Error())
		}
		return nil
	})
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
