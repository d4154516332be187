package parser

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mgtriage/mgtriage/fixtures/gen/synth"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mholt/archives"
)

// sampleTar is the sample gather as a plain tar, in memory.
func sampleTar(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile(archiveOf(t, sampleGather, "gather.tar", synth.Formats[".tar"]))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// compressWith compresses data with the writer of c (archives' own writers:
// zstd and xz with their checksums on, as the tools write them).
func compressWith(t testing.TB, c archives.Compressor, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := c.OpenWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func gzipOf(t testing.TB, data []byte) []byte { return compressWith(t, archives.Gz{}, data) }

// flipped returns a copy of data with the byte at i inverted.
func flipped(data []byte, i int) []byte {
	out := bytes.Clone(data)
	out[i] ^= 0xff
	return out
}

// flipThatInflates returns a copy of the .tar.gz data with one byte of its
// deflate data changed such that the stream still inflates to a tar that
// reads whole: only the trailer's CRC-32 tells (a changed restart count).
func flipThatInflates(t testing.TB, data []byte) []byte {
	t.Helper()
	for i := len(data) / 2; i < len(data)-8; i++ {
		for _, mask := range []byte{0x01, 0x10, 0x80} {
			out := bytes.Clone(data)
			out[i] ^= mask
			zr, err := gzip.NewReader(bytes.NewReader(out))
			if err != nil {
				continue
			}
			tr := tar.NewReader(zr)
			ok := true
			for {
				_, err := tr.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			if _, err := io.Copy(io.Discard, zr); errors.Is(err, gzip.ErrChecksum) {
				return out
			}
		}
	}
	t.Fatal("no byte of the deflate data inflates when changed")
	return nil
}

func writeInput(t testing.TB, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// zipOfSample writes the sample gather as a zip with archive/zip (data
// descriptors, as Go and Java write them), its members deflated or stored,
// and, when storedLast is not "", a stored member of that name last.
func zipOfSample(t testing.TB, method uint16, storedLast string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	base := filepath.Dir(sampleGather)
	err := filepath.WalkDir(sampleGather, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(base, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: filepath.ToSlash(rel), Method: method})
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if storedLast != "" {
		// A stored member written by a streaming writer: its size
		// follows its data.
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: storedLast, Method: zip.Store})
		w.Write([]byte("customer notes"))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// centralDirectoryAt returns where a zip's central directory starts (from
// its end record).
func centralDirectoryAt(t testing.TB, data []byte) int {
	t.Helper()
	end := bytes.LastIndex(data, []byte("PK\x05\x06"))
	if end < 0 {
		t.Fatal("no end of central directory record")
	}
	return int(binary.LittleEndian.Uint32(data[end+16:]))
}

// faultsOf loads in and returns its faults and Incomplete.
func faultsOf(t testing.TB, in string) (*model.Gather, []model.StreamFault) {
	t.Helper()
	g, err := Load(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return g, g.Faults
}

func TestIntactArchivesAreNotDamaged(t *testing.T) {
	for _, suffix := range []string{".tar", ".tar.gz", ".tar.xz", ".tar.zst", ".tar.bz2", ".zip"} {
		t.Run(suffix, func(t *testing.T) {
			g, faults := faultsOf(t, archiveOf(t, sampleGather, "gather"+suffix, synth.Formats[suffix]))
			if len(faults) != 0 || g.Incomplete != "" {
				t.Errorf("faults %+v, incomplete %q", faults, g.Incomplete)
			}
		})
	}
	tarData := sampleTar(t)
	half := len(tarData) / 2
	clean := map[string][]byte{
		// gzip -c a >x; gzip -c b >>x: one stream of two members.
		"multi-member gzip": append(gzipOf(t, tarData[:half]), gzipOf(t, tarData[half:])...),
		// Tar writers pad to a record size with zeros after the end marker.
		"zero padding after the tar end marker": gzipOf(t, append(bytes.Clone(tarData), make([]byte, 30<<10)...)),
	}
	for name, data := range clean {
		t.Run(name, func(t *testing.T) {
			g, faults := faultsOf(t, writeInput(t, "gather.tar.gz", data))
			if len(faults) != 0 || g.Incomplete != "" || len(g.Pods) == 0 {
				t.Errorf("faults %+v, incomplete %q, %d pods", faults, g.Incomplete, len(g.Pods))
			}
		})
	}
}

func TestDamagedStreamsAreSaid(t *testing.T) {
	tarData := sampleTar(t)
	tgz := gzipOf(t, tarData)
	zst := compressWith(t, archives.Zstd{}, tarData)
	xz := compressWith(t, archives.Xz{}, tarData)
	bz2 := compressWith(t, archives.Bz2{}, tarData)
	inner := flipped(tgz, len(tgz)-8) // the CRC-32 of the nested .tar.gz
	tests := []struct {
		name, file string
		data       []byte
		stream     string // the fault's Stream
		format     string
		says       string // in the fault's error
	}{
		{"gzip trailer CRC changed", "gather.tar.gz", flipped(tgz, len(tgz)-7), "", "gz", "checksum"},
		{"gzip trailer size changed", "gather.tar.gz", flipped(tgz, len(tgz)-2), "", "gz", ""},
		{"a byte of the deflate data changed", "gather.tar.gz", flipThatInflates(t, tgz), "", "gz", "checksum"},
		{"garbage after the gzip trailer", "gather.tar.gz", append(bytes.Clone(tgz), "<html>proxy error</html>"...), "", "gz", ""},
		{"zeros after the gzip trailer", "gather.tar.gz", append(bytes.Clone(tgz), make([]byte, 512)...), "", "gz", ""},
		{"data after the tar end marker", "gather.tar.gz", gzipOf(t, append(bytes.Clone(tarData), "not a tar"...)), "", "gz", "after the tar end marker"},
		{"data after a plain tar", "gather.tar", append(bytes.Clone(tarData), "not a tar"...), "", "tar", "after the tar end marker"},
		{"zstd checksum changed", "gather.tar.zst", flipped(zst, len(zst)-1), "", "zst", "CRC"},
		{"xz footer changed", "gather.tar.xz", flipped(xz, len(xz)-12), "", "xz", ""},
		{"bzip2 stream CRC changed", "gather.tar.bz2", flipped(bz2, len(bz2)-3), "", "bz2", ""},
		{"a nested .tar.gz damaged", "upload.tar", tarOf(t, []string{"upload/notes.txt", "upload/must-gather.tar.gz"},
			map[string]string{"upload/notes.txt": "customer notes", "upload/must-gather.tar.gz": string(inner)}),
			"upload/must-gather.tar.gz", "gz", "checksum"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, faults := faultsOf(t, writeInput(t, tt.file, tt.data))
			if len(faults) != 1 {
				t.Fatalf("faults = %+v, want one (incomplete %q, problems %v)", faults, g.Incomplete, g.Problems)
			}
			f := faults[0]
			if f.Kind != model.FaultDamaged || f.Stream != tt.stream || f.Format != tt.format || !strings.Contains(f.Error, tt.says) || f.Error == "" {
				t.Errorf("fault = %+v, want damaged %s stream %q saying %q", f, tt.format, tt.stream, tt.says)
			}
			if len(g.Pods) == 0 {
				t.Errorf("no pod read")
			}
		})
	}
}

func TestTruncatedStreamsAreSaid(t *testing.T) {
	tarData := sampleTar(t)
	for _, c := range []struct {
		format string
		comp   archives.Compressor
	}{{"gz", archives.Gz{}}, {"zst", archives.Zstd{}}, {"xz", archives.Xz{}}, {"bz2", archives.Bz2{}}} {
		t.Run(c.format, func(t *testing.T) {
			data := compressWith(t, c.comp, tarData)
			g, faults := faultsOf(t, writeInput(t, "gather.tar."+c.format, data[:len(data)*2/3]))
			if len(faults) != 1 || faults[0].Kind != model.FaultTruncated || !faults[0].Stopped || faults[0].Format != c.format {
				t.Errorf("faults = %+v", faults)
			}
			if !strings.Contains(g.Incomplete, "input ends early") || g.Files == 0 {
				t.Errorf("incomplete %q, %d files", g.Incomplete, g.Files)
			}
		})
	}
}

func TestCutZipKeepsTheMembersBeforeTheCut(t *testing.T) {
	whole := zipOfSample(t, zip.Deflate, "")
	folder, err := Load(context.Background(), sampleGather)
	if err != nil {
		t.Fatal(err)
	}
	cd := centralDirectoryAt(t, whole)
	storedLast := zipOfSample(t, zip.Deflate, "upload/notes.txt")
	tests := []struct {
		name      string
		data      []byte
		allPods   bool // every pod of the sample is read
		says      string
		wantFault model.FaultKind
	}{
		{"cut before the central directory", whole[:cd], true, "central directory missing", model.FaultTruncated},
		{"cut inside the central directory", whole[:cd+40], true, "central directory missing", model.FaultTruncated},
		{"cut inside a member", whole[:cd*3/4], false, "central directory missing", model.FaultTruncated},
		{"stored members with data descriptors", storedLast[:centralDirectoryAt(t, storedLast)], true, "notes.txt\" is stored with a data descriptor", model.FaultTruncated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, faults := faultsOf(t, writeInput(t, "upload.zip", tt.data))
			if !strings.Contains(g.Incomplete, tt.says) || !strings.Contains(g.Incomplete, "input ends early") {
				t.Errorf("incomplete = %q, want it to say %q", g.Incomplete, tt.says)
			}
			if len(faults) != 1 || faults[0].Kind != tt.wantFault || faults[0].Format != "zip" || !faults[0].Stopped {
				t.Errorf("faults = %+v", faults)
			}
			if tt.allPods && len(g.Pods) != len(folder.Pods) {
				t.Errorf("%d pods, want the sample's %d", len(g.Pods), len(folder.Pods))
			}
			if !tt.allPods && (g.Files == 0 || g.Files >= folder.Files) {
				t.Errorf("%d files read, the sample has %d", g.Files, folder.Files)
			}
		})
	}
}

// TestCutNestedZip: a zip cut short inside a whole tar is read up to its
// cut; the fault names it, and the outer input was read whole.
func TestCutNestedZip(t *testing.T) {
	whole := zipOfSample(t, zip.Deflate, "")
	in := writeInput(t, "upload.tar", tarOf(t, []string{"upload/notes.txt", "upload/must-gather.zip"},
		map[string]string{"upload/notes.txt": "customer notes", "upload/must-gather.zip": string(whole[:centralDirectoryAt(t, whole)])}))
	g, faults := faultsOf(t, in)
	if len(faults) != 1 || faults[0].Kind != model.FaultTruncated || faults[0].Stream != "upload/must-gather.zip" || !strings.Contains(faults[0].Error, "central directory missing") {
		t.Errorf("faults %+v", faults)
	}
	if g.Incomplete != "" || len(g.Pods) == 0 {
		t.Errorf("incomplete %q, %d pods", g.Incomplete, len(g.Pods))
	}
}

func TestDamagedZipMemberIsSaid(t *testing.T) {
	data := zipOfSample(t, zip.Store, "")
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var member string
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "openshift-dns/core/pods.yaml") {
			at, _ := f.DataOffset()
			body := data[at : at+int64(f.CompressedSize64)]
			i := bytes.Index(body, []byte("openshift-dns"))
			data[int(at)+i+10] = 'D' // "openshift-Dns": still YAML
			member = f.Name
		}
	}
	g, faults := faultsOf(t, writeInput(t, "gather.zip", data))
	if len(faults) != 1 || faults[0].Kind != model.FaultDamaged || faults[0].Stream != member || faults[0].Format != "zip" {
		t.Errorf("faults = %+v (problems %v)", faults, g.Problems)
	}
}

// FuzzStreamZip: the local-header reader of a zip without its central
// directory never panics, stays within the read budget and the member
// limit, hands on only clean names, and always says why it stopped.
func FuzzStreamZip(f *testing.F) {
	small := func(method uint16, files ...string) []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for i, name := range files {
			if i%2 == 1 {
				// Known sizes in the local header (as zip(1) writes).
				w, _ := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Store, CRC32: crc32IEEE("x"), CompressedSize64: 1, UncompressedSize64: 1})
				w.Write([]byte("x"))
				continue
			}
			w, _ := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method})
			w.Write([]byte(strings.Repeat("restartCount: 5\n", 20)))
		}
		zw.Close()
		return buf.Bytes()
	}
	for _, z := range [][]byte{
		small(zip.Deflate, "a/pods.yaml", "b/x.log", "c/../../etc/passwd", "d/"),
		small(zip.Store, "a/pods.yaml"),
		small(zip.Deflate, strings.Repeat("n", 5000)),
	} {
		f.Add(z)
		f.Add(z[:centralDirectoryAt(f, z)])
		f.Add(z[:len(z)/2])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<20 {
			return
		}
		w := &walker{ctx: context.Background(), budget: &readBudget{limit: 4 << 20}, maxMembers: 100,
			skipped: func(string, string) {}, fault: func(model.StreamFault) {},
			visit: func(m Member) error {
				if clean, ok := CleanMemberName(m.Path); !ok || clean != m.Path {
					t.Fatalf("member %q handed on", m.Path)
				}
				rc, err := m.Open()
				if err != nil {
					return err
				}
				defer rc.Close()
				_, err = io.Copy(io.Discard, rc)
				return err
			}}
		err := w.streamZip(bytes.NewReader(data), "", MaxNestingDepth)
		var cut *streamCut
		var limit *LimitError
		if !errors.As(err, &cut) && !errors.As(err, &limit) {
			t.Fatalf("streamZip = %v, want a *streamCut or a *LimitError", err)
		}
		if w.budget.used.Load() > 4<<20+64<<10 {
			t.Fatalf("read %d bytes past the budget", w.budget.used.Load())
		}
	})
}

func crc32IEEE(s string) uint32 { return crc32.ChecksumIEEE([]byte(s)) }

// TestDrainCountsAgainstTheReadBudget: what is read after the tar end
// marker to reach the trailer counts against --max-read like the rest.
func TestDrainCountsAgainstTheReadBudget(t *testing.T) {
	tarData := sampleTar(t)
	in := writeInput(t, "gather.tar.gz", gzipOf(t, append(bytes.Clone(tarData), make([]byte, 8<<20)...)))
	g, err := LoadWith(context.Background(), in, Options{MaxReadBytes: int64(len(tarData)) + 1<<20})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(g.Incomplete, "read limit reached") || len(g.Faults) != 0 {
		t.Errorf("incomplete %q, faults %+v", g.Incomplete, g.Faults)
	}
	if g, _ := faultsOf(t, in); g.Incomplete != "" {
		t.Errorf("without the limit: incomplete %q", g.Incomplete)
	}
}

// TestCutInTheTrailer: a .tar.gz that lacks only the end of its trailer
// held every member; it is truncated, and nothing stopped reading.
func TestCutInTheTrailer(t *testing.T) {
	tgz := gzipOf(t, sampleTar(t))
	g, faults := faultsOf(t, writeInput(t, "gather.tar.gz", tgz[:len(tgz)-3]))
	if len(faults) != 1 || faults[0].Kind != model.FaultTruncated || faults[0].Stopped || g.Incomplete != "" {
		t.Errorf("faults %+v, incomplete %q", faults, g.Incomplete)
	}
}
