package main

// Builders of hostile inputs for hostile_input_test.go. Everything is written
// at test time into the test's own folder, streaming: a multi-GB member is a
// concatenation of one precomputed compressed chunk (gzip and zstd both allow
// concatenated streams), so no case ever holds its decompressed size in memory
// or on disk.

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mholt/archives"
)

// chunkBytes is the decompressed size of one precomputed compressed chunk.
const chunkBytes = 64 << 20

var (
	gzChunkMu sync.Mutex
	gzChunks  = map[byte][]byte{}
)

// gzChunk returns a gzip stream of chunkBytes copies of c (about 64 KiB).
func gzChunk(t testing.TB, c byte) []byte {
	t.Helper()
	gzChunkMu.Lock()
	defer gzChunkMu.Unlock()
	if b, ok := gzChunks[c]; ok {
		return b
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	block := bytes.Repeat([]byte{c}, 1<<20)
	for range chunkBytes >> 20 {
		zw.Write(block)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	gzChunks[c] = buf.Bytes()
	return buf.Bytes()
}

var gzWriters = sync.Pool{New: func() any { zw, _ := gzip.NewWriterLevel(io.Discard, gzip.BestSpeed); return zw }}

// gzBytes returns data as one gzip stream.
func gzBytes(data []byte) []byte {
	var buf bytes.Buffer
	zw := gzWriters.Get().(*gzip.Writer)
	defer gzWriters.Put(zw)
	zw.Reset(&buf)
	zw.Write(data)
	zw.Close()
	return buf.Bytes()
}

// writeGzRepeat writes a gzip stream (concatenated members) of n copies of c;
// n is a multiple of 512.
func writeGzRepeat(t testing.TB, w io.Writer, c byte, n int64) {
	t.Helper()
	chunk := gzChunk(t, c)
	for ; n >= chunkBytes; n -= chunkBytes {
		if _, err := w.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	if n > 0 {
		if _, err := w.Write(gzBytes(bytes.Repeat([]byte{c}, int(n)))); err != nil {
			t.Fatal(err)
		}
	}
}

// gzTarMember is one member of a streamed tar.gz: Body, or Size copies of Fill.
type gzTarMember struct {
	Name     string
	Body     string
	Fill     byte
	Size     int64 // with Fill
	Typeflag byte  // default regular
	Link     string
}

// writeBigTarGz writes a tar.gz whose members may be many GB of one repeated
// byte, as concatenated gzip streams, in time and memory proportional to the
// compressed size.
func writeBigTarGz(t testing.TB, path string, members []gzTarMember) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, m := range members {
		var hdr bytes.Buffer
		tw := tar.NewWriter(&hdr)
		h := &tar.Header{Name: m.Name, Mode: 0o644, Typeflag: m.Typeflag, Linkname: m.Link, Format: tar.FormatPAX}
		if h.Typeflag == 0 {
			h.Typeflag = tar.TypeReg
		}
		size := m.Size
		if m.Body != "" {
			size = int64(len(m.Body))
		}
		if h.Typeflag == tar.TypeReg {
			h.Size = size
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if m.Body != "" {
			hdr.WriteString(m.Body)
			if r := len(m.Body) % 512; r != 0 {
				hdr.Write(make([]byte, 512-r))
			}
		}
		f.Write(gzBytes(hdr.Bytes()))
		if m.Body == "" && h.Size > 0 {
			whole := size / 512 * 512
			writeGzRepeat(t, f, m.Fill, whole)
			if rest := size - whole; rest > 0 {
				tail := append(bytes.Repeat([]byte{m.Fill}, int(rest)), make([]byte, 512-rest)...)
				f.Write(gzBytes(tail))
			}
		}
	}
	if _, err := f.Write(gzBytes(make([]byte, 1024))); err != nil {
		t.Fatal(err)
	}
}

// tarMember is one member of a tar written with archive/tar.
type tarMember struct {
	Name     string
	Body     string
	Typeflag byte
	Link     string
}

// writeTar writes members as a tar, compressed with c when not nil.
func writeTar(t testing.TB, path string, c archives.Compressor, members []tarMember) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var w io.Writer = f
	var cw io.WriteCloser
	if c != nil {
		if cw, err = c.OpenWriter(f); err != nil {
			t.Fatal(err)
		}
		w = cw
	}
	tw := tar.NewWriter(w)
	for _, m := range members {
		h := &tar.Header{Name: m.Name, Mode: 0o644, Typeflag: m.Typeflag, Linkname: m.Link, Format: tar.FormatPAX}
		if h.Typeflag == 0 {
			h.Typeflag = tar.TypeReg
		}
		if h.Typeflag == tar.TypeReg {
			h.Size = int64(len(m.Body))
		}
		if h.Typeflag == tar.TypeDir {
			h.Mode = 0o755
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatalf("%q: %v", m.Name, err)
		}
		if h.Typeflag == tar.TypeReg {
			if _, err := tw.Write([]byte(m.Body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if cw != nil {
		if err := cw.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// writeZip writes members as a zip (regular files only, deflated).
func writeZip(t testing.TB, path string, members []tarMember) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	for _, m := range members {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m.Name, Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(m.Body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
}

// rawTarHeader returns one ustar header block, for what archive/tar will not
// write (PAX sparse records).
func rawTarHeader(name string, size int64, flag byte) []byte {
	h := make([]byte, 512)
	copy(h[0:100], name)
	copy(h[100:108], "0000644\x00")
	copy(h[108:116], "0000000\x00")
	copy(h[116:124], "0000000\x00")
	copy(h[124:136], fmt.Sprintf("%011o\x00", size))
	copy(h[136:148], "00000000000\x00")
	h[156] = flag
	copy(h[257:265], "ustar\x0000")
	for i := 148; i < 156; i++ {
		h[i] = ' '
	}
	sum := 0
	for _, c := range h {
		sum += int(c)
	}
	copy(h[148:156], fmt.Sprintf("%06o\x00 ", sum))
	return h
}

func paxRecord(k, v string) string {
	rec := " " + k + "=" + v + "\n"
	n := len(rec) + 1
	for len(strconv.Itoa(n))+len(rec) != n {
		n++
	}
	return strconv.Itoa(n) + rec
}

func pad512(b []byte) []byte {
	if r := len(b) % 512; r != 0 {
		b = append(b, make([]byte, 512-r)...)
	}
	return b
}

// sparseTarMember returns the blocks of a GNU 1.0 PAX sparse member named
// name that reads as size bytes of zeros from 1.5 KiB of archive.
func sparseTarMember(name string, size int64) []byte {
	pax := paxRecord("GNU.sparse.major", "1") + paxRecord("GNU.sparse.minor", "0") +
		paxRecord("GNU.sparse.realsize", strconv.FormatInt(size, 10)) + paxRecord("GNU.sparse.name", name)
	var b []byte
	b = append(b, rawTarHeader("PaxHeaders/x", int64(len(pax)), 'x')...)
	b = append(b, pad512([]byte(pax))...)
	b = append(b, rawTarHeader("sparse", 512, '0')...)
	return append(b, pad512([]byte("1\n0\n0\n"))...)
}

// tarBlocks returns members as tar blocks without the end-of-archive marker.
func tarBlocks(t testing.TB, members []tarMember) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, m := range members {
		if err := tw.WriteHeader(&tar.Header{Name: m.Name, Mode: 0o644, Size: int64(len(m.Body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(m.Body))
	}
	tw.Flush()
	return buf.Bytes()
}

// writeFiles writes files (slash paths → contents) under dir.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// smallGather is a valid must-gather with one crash-looping pod, its events,
// node and logs, as slash paths under prefix (e.g. "must-gather.local.1/").
func smallGather(prefix string) []tarMember {
	const img = "quay-io-image/"
	files := []tarMember{
		{Name: prefix + img + "timestamp", Body: "2026-11-20 09:12:33.000000000 +0000 UTC m=+0.01\n2026-11-20 09:13:00.000000000 +0000 UTC m=+27.0\n"},
		{Name: prefix + img + "namespaces/shop/core/pods.yaml", Body: podList(crashPod("catalog-1", "shop", 4))},
		{Name: prefix + img + "namespaces/shop/core/events.yaml", Body: "---\napiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Event\n  metadata:\n    name: catalog-1.1\n    namespace: shop\n  involvedObject:\n    kind: Pod\n    name: catalog-1\n    namespace: shop\n  reason: BackOff\n  type: Warning\n  count: 5\n  lastTimestamp: \"2026-11-20T09:10:00Z\"\n  message: Back-off restarting failed container catalog in pod catalog-1\nkind: EventList\n"},
		{Name: prefix + img + "namespaces/shop/pods/catalog-1/catalog/catalog/logs/previous.log", Body: "2026-11-20T09:10:32.000000000Z panic: boom\n"},
		{Name: prefix + img + "cluster-scoped-resources/core/nodes/worker-0.yaml", Body: "apiVersion: v1\nkind: Node\nmetadata:\n  name: worker-0\nstatus:\n  nodeInfo:\n    kubeletVersion: v1.31.6\n"},
		{Name: prefix + img + "cluster-scoped-resources/config.openshift.io/clusterversions.yaml", Body: "apiVersion: config.openshift.io/v1\nitems:\n- apiVersion: config.openshift.io/v1\n  kind: ClusterVersion\n  metadata:\n    name: version\n  status:\n    history:\n    - state: Completed\n      version: 4.18.12\nkind: ClusterVersionList\n"},
	}
	return files
}

// smallGatherFiles is smallGather as a map for writeFiles.
func smallGatherFiles(prefix string) map[string]string {
	m := map[string]string{}
	for _, f := range smallGather(prefix) {
		m[f.Name] = f.Body
	}
	return m
}

// crashPod is one list item (indented for a v1 List) of a crash-looping pod.
func crashPod(name, ns string, restarts int) string {
	return strings.NewReplacer("NAME", name, "NS", ns, "RESTARTS", strconv.Itoa(restarts)).Replace(`- apiVersion: v1
  kind: Pod
  metadata:
    creationTimestamp: "2026-11-19T09:12:33Z"
    name: NAME
    namespace: NS
    uid: 11111111-2222-3333-4444-NAME
  spec:
    containers:
    - image: catalog:1
      name: catalog
    nodeName: worker-0
  status:
    containerStatuses:
    - image: catalog:1
      lastState:
        terminated:
          exitCode: 1
          finishedAt: "2026-11-20T09:10:33Z"
          reason: Error
      name: catalog
      ready: false
      restartCount: RESTARTS
      state:
        waiting:
          reason: CrashLoopBackOff
    phase: Running
`)
}

func podList(items ...string) string {
	return "---\napiVersion: v1\nitems:\n" + strings.Join(items, "") + "kind: PodList\n"
}
