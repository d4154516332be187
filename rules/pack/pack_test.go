package pack

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aead.dev/minisign"
	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/rules"
	"github.com/opencontainers/go-digest"
	"github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

const testRule = `schemaVersion: 1
rules:
  - id: acme-boom
    version: 1
    severity: high
    title: Acme catalog panics on boom
    category: crash-loop
    match:
      matcher: containerWaiting
      params: {reasons: [CrashLoopBackOff], logs: true}
      cause: 'panic: (boom)'
    hint: The Acme catalog panics at start ({{.Cause}}).
    remediation:
      - "Fix the boom setting"
    docs:
      - https://example.com/acme/boom
`

const testSpec = `name: acme-catalog
version: 1.2.0
mgtriage: ">=1.0.0 <2.0.0"
schemaVersion: 1
description: Known issues of the Acme catalog operator.
sources: [https://example.com/acme/issues/1]
tests:
  - rule: acme-boom
    fires:
      - gather: tests/boom
        contains: [panics at start]
    quiet: [tests/healthy]
`

// testFiles is a small valid pack.
func testFiles() map[string]string {
	return map[string]string{
		"pack.yaml":                            testSpec,
		"rules/acme.yaml":                      testRule,
		"tests/boom/namespaces/x/pods.yaml":    "kind: PodList\n",
		"tests/healthy/namespaces/x/pods.yaml": "kind: PodList\n",
	}
}

func writeDir(t *testing.T, fs map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "pack")
	for p, b := range fs {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// member is one entry of a hand-made tar.
type member struct {
	name, body, link string
	typ              byte
}

func tarGz(t testing.TB, ms []member) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, m := range ms {
		typ := m.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		h := &tar.Header{Name: m.name, Typeflag: typ, Linkname: m.link, Mode: 0o644, Size: int64(len(m.body))}
		if typ != tar.TypeReg {
			h.Size = 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if typ == tar.TypeReg {
			if _, err := tw.Write([]byte(m.body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// ociLayout writes an OCI image layout whose one layer is archive (and a
// signature layer when sig is not nil) and returns its folder.
func ociLayout(t *testing.T, archive, sig []byte) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "layout")
	blob := func(b []byte, mediaType, title string) ocispec.Descriptor {
		sum := sha256.Sum256(b)
		h := hex.EncodeToString(sum[:])
		p := filepath.Join(dir, "blobs", "sha256", h)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		d := ocispec.Descriptor{MediaType: mediaType, Digest: digest.Digest("sha256:" + h), Size: int64(len(b))}
		if title != "" {
			d.Annotations = map[string]string{ocispec.AnnotationTitle: title}
		}
		return d
	}
	layers := []ocispec.Descriptor{blob(archive, ocispec.MediaTypeImageLayerGzip, "acme-catalog.tar.gz")}
	if sig != nil {
		layers = append(layers, blob(sig, "application/vnd.minisign.signature", "acme-catalog.tar.gz.minisig"))
	}
	cfg := blob([]byte("{}"), ocispec.MediaTypeEmptyJSON, "")
	m := ocispec.Manifest{Versioned: specs.Versioned{SchemaVersion: 2}, MediaType: ocispec.MediaTypeImageManifest, Config: cfg, Layers: layers}
	mb, _ := json.Marshal(m)
	md := blob(mb, ocispec.MediaTypeImageManifest, "")
	idx, _ := json.Marshal(ocispec.Index{Versioned: specs.Versioned{SchemaVersion: 2}, MediaType: ocispec.MediaTypeImageIndex, Manifests: []ocispec.Descriptor{md}})
	lay, _ := json.Marshal(ocispec.ImageLayout{Version: ocispec.ImageLayoutVersion})
	if err := os.WriteFile(filepath.Join(dir, ocispec.ImageIndexFile), idx, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ocispec.ImageLayoutFile), lay, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// marshalRules is the table's rules as YAML, for comparing two loads.
func marshalRules(t *testing.T, tb *rules.Table) []string {
	t.Helper()
	var out []string
	for _, r := range tb.Rules {
		b, err := rules.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// TestFormsLoadTheSameRules: a folder pack, its .tar.gz (Build) and an OCI
// image layout holding that .tar.gz load to the same rules; the archive and
// the layout have the same digest, the one Build returns; Build gives the
// same bytes twice.
func TestFormsLoadTheSameRules(t *testing.T) {
	fs := testFiles()
	fs[".git/HEAD"] = "ref: refs/heads/main\n" // not part of the pack
	dir := writeDir(t, fs)
	archive, digest, err := Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	again, _, err := Build(dir)
	if err != nil || !bytes.Equal(archive, again) {
		t.Fatalf("Build is not deterministic (%v)", err)
	}
	ap := filepath.Join(t.TempDir(), "acme.tar.gz")
	if err := os.WriteFile(ap, archive, 0o644); err != nil {
		t.Fatal(err)
	}
	layout := ociLayout(t, archive, nil)
	var want []string
	for _, p := range []string{dir, ap, layout} {
		pk, err := Open(p, Options{ToolVersion: "1.4.0"})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		tb := rules.Builtin()
		if errs := pk.Apply(tb); len(errs) > 0 {
			t.Fatalf("%s: %v", p, errs)
		}
		if len(tb.Packs) != 1 || tb.Packs[0].Name != "acme-catalog" || tb.Packs[0].Version != "1.2.0" {
			t.Errorf("%s: packs %+v", p, tb.Packs)
		}
		if p != dir && pk.Digest != digest {
			t.Errorf("%s: digest %s, Build said %s", p, pk.Digest, digest)
		}
		got := marshalRules(t, tb)
		if want == nil {
			want = got
			continue
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s loads other rules than the folder (-folder +this):\n%s", p, d)
		}
	}
	// Fixed members: sorted, folders first, zero times and owners.
	zr, _ := gzip.NewReader(bytes.NewReader(archive))
	tr := tar.NewReader(zr)
	var names []string
	for {
		h, err := tr.Next()
		if err != nil {
			break
		}
		if !h.ModTime.Equal(buildTime) || h.Uid != 0 || h.Gid != 0 || h.Uname != "" {
			t.Errorf("%s: mtime %v uid %d gid %d uname %q", h.Name, h.ModTime, h.Uid, h.Gid, h.Uname)
		}
		names = append(names, h.Name)
	}
	wantNames := []string{"pack.yaml", "rules/", "rules/acme.yaml", "tests/", "tests/boom/", "tests/boom/namespaces/", "tests/boom/namespaces/x/", "tests/boom/namespaces/x/pods.yaml",
		"tests/healthy/", "tests/healthy/namespaces/", "tests/healthy/namespaces/x/", "tests/healthy/namespaces/x/pods.yaml"}
	if d := cmp.Diff(wantNames, names); d != "" {
		t.Errorf("members (-want +got):\n%s", d)
	}
}

// TestOCISigned: a signature layer of the layout verifies the pack layer
// with a trusted key; a layout whose blob does not hash to its digest is
// refused.
func TestOCISigned(t *testing.T) {
	pub, priv, err := minisign.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	archive, _, err := Build(writeDir(t, testFiles()))
	if err != nil {
		t.Fatal(err)
	}
	keys := &Keys{keys: map[uint64]minisign.PublicKey{pub.ID(): pub}, From: []string{"test.pub"}}
	layout := ociLayout(t, archive, minisign.Sign(priv, archive))
	pk, err := Open(layout, Options{Trust: keys})
	if err != nil || !pk.Signed || !pk.Trusted || pk.Form != FormOCI {
		t.Fatalf("signed layout: %v %+v", err, pk)
	}
	// The minisign command signs a hash of the file (HashEdDSA), as
	// minisign.Reader does: it verifies alike.
	r := minisign.NewReader(bytes.NewReader(archive))
	if _, err := io.Copy(io.Discard, r); err != nil {
		t.Fatal(err)
	}
	if pk, err := Open(ociLayout(t, archive, r.Sign(priv)), Options{Trust: keys}); err != nil || !pk.Signed {
		t.Errorf("prehashed signature: %v", err)
	}
	unsigned := ociLayout(t, archive, nil)
	if _, err := Open(unsigned, Options{Trust: keys}); !isRefused(err) {
		t.Errorf("unsigned layout under trust: %v", err)
	}
	// Swap the layer's bytes: the digest no longer matches.
	sum := sha256.Sum256(archive)
	blob := filepath.Join(layout, "blobs", "sha256", hex.EncodeToString(sum[:]))
	bad := append([]byte{}, archive...)
	bad[len(bad)-10] ^= 1
	if err := os.WriteFile(blob, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(layout, Options{Trust: keys}); err == nil || !strings.Contains(err.Error(), "does not hash to its digest") {
		t.Errorf("changed blob: %v", err)
	}
}

func isRefused(err error) bool {
	_, ok := err.(*RefusedError)
	return ok
}

// TestHostileArchives: archives that reach out of the pack, hold links or
// special files, a member or a total over the limits, or too many members,
// are refused with an error naming the member and the limit.
func TestHostileArchives(t *testing.T) {
	spec := member{name: "pack.yaml", body: testSpec}
	rule := member{name: "rules/acme.yaml", body: testRule}
	small := Limits{ArchiveBytes: 1 << 20, Bytes: 64 << 10, MemberBytes: 16 << 10, Members: 20}
	cases := []struct {
		name string
		ms   []member
		want string
	}{
		{"traversal", []member{spec, rule, {name: "../evil.yaml", body: "x"}}, `member "../evil.yaml": ".." leaves the pack`},
		{"traversal inside", []member{spec, rule, {name: "rules/../../evil", body: "x"}}, `".." leaves the pack`},
		{"absolute", []member{spec, rule, {name: "/etc/passwd", body: "x"}}, "an absolute path leaves the pack"},
		{"symlink", []member{spec, {name: "rules/acme.yaml", typ: tar.TypeSymlink, link: "/etc/passwd"}}, `member "rules/acme.yaml" is a link (to "/etc/passwd")`},
		{"hard link", []member{spec, rule, {name: "rules/b.yaml", typ: tar.TypeLink, link: "rules/acme.yaml"}}, "is a link"},
		{"fifo", []member{spec, rule, {name: "rules/fifo", typ: tar.TypeFifo}}, "not a regular file or folder"},
		{"huge member", []member{spec, rule, {name: "tests/big", body: strings.Repeat("a", 17<<10)}}, "over the 16384-byte limit for one file"},
		{"huge total", []member{spec, rule, {name: "a", body: strings.Repeat("a", 15<<10)}, {name: "b", body: strings.Repeat("a", 15<<10)}, {name: "c", body: strings.Repeat("a", 15<<10)}, {name: "d", body: strings.Repeat("a", 15<<10)}, {name: "e", body: strings.Repeat("a", 15<<10)}}, "more than 65536 bytes together"},
		{"too many members", append([]member{spec, rule}, manyMembers(30)...), "more than 20 members"},
		{"twice", []member{spec, rule, rule}, "appears twice"},
		{"no pack.yaml", []member{rule}, "no pack.yaml"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "hostile.tar.gz")
			if err := os.WriteFile(p, tarGz(t, c.ms), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Open(p, Options{Limits: small})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error with %q", err, c.want)
			}
		})
	}
	t.Run("not gzip", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "x.tar.gz")
		os.WriteFile(p, []byte("hello"), 0o644)
		if _, err := Open(p, Options{}); err == nil || !strings.Contains(err.Error(), "not a gzip-compressed tar") {
			t.Errorf("got %v", err)
		}
	})
	t.Run("folder with a link", func(t *testing.T) {
		dir := writeDir(t, testFiles())
		if err := os.Symlink("/etc/passwd", filepath.Join(dir, "rules", "link.yaml")); err != nil {
			t.Skip("no symlinks here")
		}
		if _, err := Open(dir, Options{}); err == nil || !strings.Contains(err.Error(), "rules/link.yaml is a link") {
			t.Errorf("got %v", err)
		}
	})
	t.Run("OCI digest path", func(t *testing.T) {
		dir := ociLayout(t, tarGz(t, []member{spec, rule}), nil)
		idx := `{"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:../../../../etc/passwd","size":10}]}`
		os.WriteFile(filepath.Join(dir, "index.json"), []byte(idx), 0o644)
		if _, err := Open(dir, Options{}); err == nil || !strings.Contains(err.Error(), "want sha256:<64 hex digits>") {
			t.Errorf("got %v", err)
		}
	})
}

func manyMembers(n int) []member {
	out := make([]member, n)
	for i := range out {
		out[i] = member{name: "tests/m/" + strings.Repeat("x", i+1), body: "x"}
	}
	return out
}

// TestSpecChecks: pack.yaml's fields are checked: name, semver, the
// mgtriage range against the running version, schema, sources, test
// gathers that exist.
func TestSpecChecks(t *testing.T) {
	cases := []struct {
		name, from, to, tool, want string
	}{
		{"bad name", "name: acme-catalog", "name: Acme Catalog", "", `name "Acme Catalog"`},
		{"bad version", "version: 1.2.0", "version: 1.2", "", `version "1.2"`},
		{"bad range", `mgtriage: ">=1.0.0 <2.0.0"`, `mgtriage: "soon"`, "", `mgtriage "soon"`},
		{"too old", "", "", "0.9.0", "needs mgtriage >=1.0.0 <2.0.0; this is 0.9.0"},
		{"dev is not checked", "", "", "dev", ""},
		{"schema", "schemaVersion: 1", "schemaVersion: 7", "", "schemaVersion 7"},
		{"sources", "sources: [https://example.com/acme/issues/1]", "sources: []", "", "sources is empty"},
		{"unknown key", "description:", "descripton: x\ndescription:", "", "descripton"},
		{"missing gather", "quiet: [tests/healthy]", "quiet: [tests/nope]", "", `gather "tests/nope" is not a folder of the pack`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fs := testFiles()
			fs["pack.yaml"] = strings.Replace(fs["pack.yaml"], c.from, c.to, 1)
			_, err := Open(writeDir(t, fs), Options{ToolVersion: c.tool})
			switch {
			case c.want == "" && err != nil:
				t.Errorf("got %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
}

// FuzzReadTarGz: any bytes read as a pack archive give a pack or an
// error, never a panic, and never a path outside the pack.
func FuzzReadTarGz(f *testing.F) {
	f.Add(tarGz(f, []member{{name: "pack.yaml", body: testSpec}, {name: "rules/a.yaml", body: testRule}}))
	f.Add(tarGz(f, []member{{name: "../x", body: "x"}}))
	f.Add(tarGz(f, []member{{name: "top/pack.yaml", body: "x"}, {name: "top/rules/a.yaml", body: "y"}}))
	f.Add([]byte{0x1f, 0x8b})
	f.Fuzz(func(t *testing.T, data []byte) {
		fs, err := readTarGz(data, Limits{ArchiveBytes: 1 << 20, Bytes: 1 << 20, MemberBytes: 1 << 16, Members: 100})
		if err != nil {
			return
		}
		for p := range fs {
			if p == "" || strings.HasPrefix(p, "/") || p == ".." || strings.HasPrefix(p, "../") || strings.Contains(p, "/../") || strings.HasSuffix(p, "/..") {
				t.Errorf("path %q leaves the pack", p)
			}
		}
	})
}
