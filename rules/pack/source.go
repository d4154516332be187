package pack

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// Form is how a pack is stored.
type Form string

// The forms Open reads.
const (
	FormFolder Form = "folder"   // a folder holding pack.yaml
	FormTarGz  Form = "tar.gz"   // the .tar.gz `analyze rules pack` writes
	FormOCI    Form = "oci"      // an OCI image layout whose layer is the .tar.gz
	sigSuffix       = ".minisig" // the signature beside an archive: <archive>.minisig
)

// raw is a pack as read, before its signature is checked: its files (nil
// for an archive until the signature is checked), the bytes its signature
// covers (the archive, or a folder's manifest), the signature and the
// public key shipped beside it (nil when absent).
type raw struct {
	form      Form
	signed    []byte
	signature []byte
	shipped   []byte
	archive   []byte // the .tar.gz, for FormTarGz and FormOCI
	files     files  // a folder's files
}

// readFile reads the regular file at p, refusing one over limit bytes.
func readFile(p string, limit int64, what string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", p)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: %s larger than the %d-byte limit", p, what, limit)
	}
	return b, nil
}

// readOptional is readFile of a file that may be absent (nil, nil).
func readOptional(p string, limit int64, what string) ([]byte, error) {
	b, err := readFile(p, limit, what)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

// sigLimit bounds a signature or public key file.
const sigLimit = 4 << 10

// readRaw reads the pack at p in whichever form it has.
func readRaw(p string, lim Limits) (*raw, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return readArchive(p, lim)
	}
	if _, err := os.Stat(filepath.Join(p, ocispec.ImageLayoutFile)); err == nil {
		return readOCI(p, lim)
	}
	return readFolder(p, lim)
}

// readArchive reads a .tar.gz pack and the signature and key beside it
// (<archive>.minisig, <archive>.pub).
func readArchive(p string, lim Limits) (*raw, error) {
	data, err := readFile(p, lim.ArchiveBytes, "the pack archive is")
	if err != nil {
		return nil, err
	}
	sig, err := readOptional(p+sigSuffix, sigLimit, "the signature is")
	if err != nil {
		return nil, err
	}
	pub, err := readOptional(p+".pub", sigLimit, "the public key is")
	if err != nil {
		return nil, err
	}
	return &raw{form: FormTarGz, signed: data, archive: data, signature: sig, shipped: pub}, nil
}

// readFolder reads a folder pack within lim: regular files and folders only
// (a link is refused; files and folders whose name starts with "." such as
// .git are not part of the pack), pack.minisig and pack.pub set aside as its signature
// and key; what is signed is the folder's manifest (Manifest).
func readFolder(root string, lim Limits) (*raw, error) {
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r // a link to the pack's folder is followed; links inside it are not
	}
	out := files{}
	var total int64
	members := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != root && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		members++
		if members > lim.Members {
			return fmt.Errorf("more than %d files and folders, the limit for a pack", lim.Members)
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is a link or a special file; a pack holds regular files and folders only", rel)
		}
		b, err := readFile(p, lim.MemberBytes, "one file of a pack is")
		if err != nil {
			return err
		}
		total += int64(len(b))
		if total > lim.Bytes {
			return fmt.Errorf("the pack's files hold more than %d bytes together, the limit for a pack", lim.Bytes)
		}
		out[rel] = b
		return nil
	})
	if err != nil {
		return nil, err
	}
	r := &raw{form: FormFolder, signature: out[SignatureFile], shipped: out[KeyFile]}
	delete(out, SignatureFile)
	delete(out, KeyFile)
	r.files = out
	r.signed = Manifest(out)
	return r, nil
}

// The files of a folder pack that are not part of it: its signature over
// its manifest and the signer's public key.
const (
	SignatureFile = "pack.minisig"
	KeyFile       = "pack.pub"
)

// Manifest is what a folder pack's signature covers: one line per file,
// "<sha256 hex>  <path>\n" (sha256sum's format, slash paths relative to the
// pack), sorted by path; pack.minisig and pack.pub are not in it.
func Manifest(fs files) []byte {
	var b bytes.Buffer
	for _, p := range fs.sorted() {
		sum := sha256.Sum256(fs[p])
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(sum[:]), p)
	}
	return b.Bytes()
}

var digestRe = regexp.MustCompile(`^sha256:[a-f0-9]{64}$`)

// readOCI reads an OCI image layout (oci-layout, index.json,
// blobs/sha256/...) whose image holds the pack's .tar.gz as a layer: the
// index's first manifest, its one layer that is not a signature; a layer
// titled *.minisig (org.opencontainers.image.title) is the signature of the
// pack layer, and one titled *.pub the signer's key. Each blob is read
// within lim and checked against its digest.
func readOCI(dir string, lim Limits) (*raw, error) {
	var layout ocispec.ImageLayout
	if err := readJSON(filepath.Join(dir, ocispec.ImageLayoutFile), &layout); err != nil {
		return nil, err
	}
	if layout.Version != ocispec.ImageLayoutVersion {
		return nil, fmt.Errorf("%s: imageLayoutVersion %q, this program reads %q", ocispec.ImageLayoutFile, layout.Version, ocispec.ImageLayoutVersion)
	}
	var index ocispec.Index
	if err := readJSON(filepath.Join(dir, ocispec.ImageIndexFile), &index); err != nil {
		return nil, err
	}
	if len(index.Manifests) == 0 {
		return nil, errors.New("index.json lists no manifest")
	}
	var m ocispec.Manifest
	b, err := readBlob(dir, index.Manifests[0], 1<<20)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("the image manifest: %v", err)
	}
	r := &raw{form: FormOCI}
	for _, l := range m.Layers {
		title := l.Annotations[ocispec.AnnotationTitle]
		switch {
		case strings.HasSuffix(title, sigSuffix):
			if r.signature, err = readBlob(dir, l, sigLimit); err != nil {
				return nil, err
			}
		case strings.HasSuffix(title, ".pub"):
			if r.shipped, err = readBlob(dir, l, sigLimit); err != nil {
				return nil, err
			}
		case r.archive != nil:
			return nil, errors.New("the image holds more than one pack layer")
		default:
			if r.archive, err = readBlob(dir, l, lim.ArchiveBytes); err != nil {
				return nil, err
			}
		}
	}
	if r.archive == nil {
		return nil, errors.New("the image holds no pack layer")
	}
	r.signed = r.archive
	return r, nil
}

// readJSON decodes a small JSON file of an OCI layout.
func readJSON(p string, v any) error {
	b, err := readFile(p, 1<<20, "the file is")
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %v", filepath.Base(p), err)
	}
	return nil
}

// readBlob reads the blob d names from the layout at dir: its digest must
// be sha256 (so that it names a file under blobs/sha256/ and nothing
// else), its size at most limit, and its bytes must hash to it.
func readBlob(dir string, d ocispec.Descriptor, limit int64) ([]byte, error) {
	digest := string(d.Digest)
	if !digestRe.MatchString(digest) {
		return nil, fmt.Errorf("blob digest %q: want sha256:<64 hex digits>", digest)
	}
	if d.Size > limit {
		return nil, fmt.Errorf("blob %s holds %d bytes, over the %d-byte limit", digest, d.Size, limit)
	}
	b, err := readFile(filepath.Join(dir, "blobs", "sha256", digest[len("sha256:"):]), limit, "the blob is")
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(b)
	if "sha256:"+hex.EncodeToString(sum[:]) != digest {
		return nil, fmt.Errorf("blob %s does not hash to its digest", digest)
	}
	return b, nil
}
