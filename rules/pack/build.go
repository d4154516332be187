package pack

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"
)

// buildTime is every member's modification time in a built pack.
var buildTime = time.Unix(0, 0).UTC()

// Build reads the folder pack at dir (as Open would, pack.yaml checked,
// tool version not) and returns its .tar.gz and that archive's digest
// ("sha256:<hex>"). The archive is deterministic: members sorted by path,
// folders before their files, mode 0644/0755, uid/gid 0, no owner names,
// mtime 1970-01-01, gzip with no name and no time; the same folder gives the
// same bytes. pack.minisig and pack.pub are left out: an archive is signed
// as a whole (<archive>.minisig beside it).
func Build(dir string) ([]byte, string, error) {
	r, err := readFolder(dir, DefaultLimits)
	if err != nil {
		return nil, "", fmt.Errorf("pack %s: %w", dir, err)
	}
	pk := &Pack{Path: dir, Form: FormFolder, files: r.files}
	if err := pk.readSpec(""); err != nil {
		return nil, "", fmt.Errorf("pack %s: %w", dir, err)
	}
	b, err := writeTarGz(r.files)
	if err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(b)
	return b, "sha256:" + hex.EncodeToString(sum[:]), nil
}

// writeTarGz writes fs as a deterministic .tar.gz (Build).
func writeTarGz(fs files) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	tw := tar.NewWriter(zw)
	dirs := map[string]bool{}
	for _, p := range fs.sorted() {
		for _, d := range parents(p) {
			if dirs[d] {
				continue
			}
			dirs[d] = true
			if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d + "/", Mode: 0o755, ModTime: buildTime, Format: tar.FormatPAX}); err != nil {
				return nil, err
			}
		}
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: p, Mode: 0o644, Size: int64(len(fs[p])), ModTime: buildTime, Format: tar.FormatPAX}); err != nil {
			return nil, err
		}
		if _, err := tw.Write(fs[p]); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// parents are the folders above slash path p, outermost first.
func parents(p string) []string {
	var out []string
	for i := 0; i < len(p); i++ {
		if p[i] == '/' {
			out = append(out, p[:i])
		}
	}
	return out
}
