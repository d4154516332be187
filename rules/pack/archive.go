package pack

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
)

// Limits bound what reading one pack takes from a hostile archive or folder.
// They are far above what a pack of rules and small test gathers holds and
// far below what could hurt the machine.
type Limits struct {
	// ArchiveBytes bounds the .tar.gz (or an OCI blob) as stored.
	ArchiveBytes int64
	// Bytes bounds the pack's files together, counted decompressed.
	Bytes int64
	// MemberBytes bounds one file of the pack.
	MemberBytes int64
	// Members bounds the files and folders of the pack.
	Members int
}

// DefaultLimits are the limits Open applies when Options.Limits is zero.
var DefaultLimits = Limits{ArchiveBytes: 64 << 20, Bytes: 128 << 20, MemberBytes: 16 << 20, Members: 20000}

// files is a pack's content: slash paths relative to the pack's root (no
// "./", no "..", never absolute) to their bytes.
type files map[string][]byte

// sorted returns the paths of fs in byte order.
func (fs files) sorted() []string {
	out := make([]string, 0, len(fs))
	for p := range fs {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// cleanMember returns the pack-relative path of an archive member name, or
// an error naming it when it would leave the pack: absolute, "..", a
// backslash or a NUL byte. A leading "./" is dropped; "" is the root.
func cleanMember(name string) (string, error) {
	if strings.ContainsAny(name, "\\\x00") {
		return "", fmt.Errorf("member %q: a backslash or NUL byte in its path", name)
	}
	if strings.HasPrefix(name, "/") {
		return "", fmt.Errorf("member %q: an absolute path leaves the pack", name)
	}
	for _, part := range strings.Split(name, "/") {
		if part == ".." {
			return "", fmt.Errorf("member %q: \"..\" leaves the pack", name)
		}
	}
	p := path.Clean(name)
	if p == "." {
		return "", nil
	}
	return p, nil
}

// readTarGz reads a pack archive (gzip-compressed tar) within lim: regular
// files and folders only (a link, device or FIFO is refused, naming the
// member), no member outside the pack, no member twice, at most lim.Members
// members, lim.MemberBytes per file and lim.Bytes in all. When every member
// lies under one top folder that holds pack.yaml (a `tar czf p.tar.gz dir`),
// that folder is the pack's root.
func readTarGz(data []byte, lim Limits) (files, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("not a gzip-compressed tar: %v", err)
	}
	zr.Multistream(false)
	tr := tar.NewReader(zr)
	out := files{}
	var total int64
	members := 0
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading the tar: %v", err)
		}
		members++
		if members > lim.Members {
			return nil, fmt.Errorf("more than %d members, the limit for a pack", lim.Members)
		}
		name, err := cleanMember(h.Name)
		if err != nil {
			return nil, err
		}
		switch h.Typeflag {
		case tar.TypeDir:
			continue
		case tar.TypeReg:
		case tar.TypeSymlink, tar.TypeLink:
			return nil, fmt.Errorf("member %q is a link (to %q); a pack holds regular files and folders only", h.Name, h.Linkname)
		default:
			return nil, fmt.Errorf("member %q is not a regular file or folder (tar type %q); a pack holds regular files and folders only", h.Name, string(h.Typeflag))
		}
		if name == "" {
			return nil, fmt.Errorf("member %q names the pack's root as a file", h.Name)
		}
		if h.Size > lim.MemberBytes {
			return nil, fmt.Errorf("member %q holds %d bytes, over the %d-byte limit for one file of a pack", h.Name, h.Size, lim.MemberBytes)
		}
		if total+h.Size > lim.Bytes {
			return nil, fmt.Errorf("the pack's files hold more than %d bytes together, the limit for a pack", lim.Bytes)
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("member %q appears twice", h.Name)
		}
		b, err := io.ReadAll(io.LimitReader(tr, h.Size+1))
		if err != nil {
			return nil, fmt.Errorf("member %q: %v", h.Name, err)
		}
		if int64(len(b)) != h.Size {
			return nil, fmt.Errorf("member %q: its size says %d bytes, it holds %d", h.Name, h.Size, len(b))
		}
		total += h.Size
		out[name] = b
	}
	if err := checkNesting(out); err != nil {
		return nil, err
	}
	return stripTop(out), nil
}

// checkNesting refuses a pack where a path is both a file and a folder.
func checkNesting(fs files) error {
	for p := range fs {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			if _, ok := fs[d]; ok {
				return fmt.Errorf("%q is a file and a folder of the pack", d)
			}
		}
	}
	return nil
}

// stripTop returns fs rooted at its single top folder when pack.yaml is not
// at the root but in that folder.
func stripTop(fs files) files {
	if _, ok := fs[ManifestFile]; ok || len(fs) == 0 {
		return fs
	}
	top := ""
	for p := range fs {
		first, _, ok := strings.Cut(p, "/")
		if !ok || (top != "" && first != top) {
			return fs
		}
		top = first
	}
	if _, ok := fs[top+"/"+ManifestFile]; !ok {
		return fs
	}
	out := make(files, len(fs))
	for p, b := range fs {
		out[strings.TrimPrefix(p, top+"/")] = b
	}
	return out
}
