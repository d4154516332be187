package parser

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/mgtriage/mgtriage/parser/internal/bufpool"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/model"
)

func TestReadBounded(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), 100_000)
	for _, tt := range []struct {
		name string
		size int64
		max  int64
		ok   bool
	}{
		{"size right", int64(len(data)), 2 << 20, true},
		{"size unknown", 0, 2 << 20, true},
		{"size too small (compressed)", 1000, 2 << 20, true},
		{"size too large: the data and a shortMemberError", 1 << 20, 2 << 20, true},
		{"exactly max", 0, int64(len(data)), true},
		{"over max", 0, int64(len(data)) - 1, false},
		{"over max, size lies", 10, 1000, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readBounded(iotest.HalfReader(bytes.NewReader(data)), tt.max, tt.size, new(bufpool.Pool))
			var short *shortMemberError
			if errors.As(err, &short) {
				// The data is returned with the error: what the member holds.
				if tt.size <= int64(len(data)) || short.got != int64(len(data)) || short.declared != tt.size {
					t.Fatalf("short read for size %d: %v", tt.size, err)
				}
				err = nil
			} else if tt.size > int64(len(data)) && tt.ok {
				t.Fatalf("size %d over the %d bytes held: err = %v, want a shortMemberError", tt.size, len(data), err)
			}
			if tt.ok != (err == nil) {
				t.Fatalf("err = %v", err)
			}
			if tt.ok && !bytes.Equal(got, data) {
				t.Fatalf("read %d bytes, want %d", len(got), len(data))
			}
		})
	}
	if _, err := readBounded(iotest.ErrReader(io.ErrClosedPipe), 100, 0, nil); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("read error lost: %v", err)
	}
}

// tarGz writes a tar.gz of the members (name → body; a body starting with
// "->" makes a symlink to the rest).
func tarGz(t *testing.T, names []string, body func(string) string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "in.tar.gz")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := gzip.NewWriter(f)
	tw := tar.NewWriter(zw)
	for _, n := range names {
		b := body(n)
		h := &tar.Header{Name: n, Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg}
		if target, ok := strings.CutPrefix(b, "->"); ok {
			h = &tar.Header{Name: n, Typeflag: tar.TypeSymlink, Linkname: target}
			b = ""
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		io.WriteString(tw, b)
	}
	tw.Close()
	zw.Close()
	return p
}

func TestProblemsAreCapped(t *testing.T) {
	names := []string{"mg/q/namespaces/a/core/pods.yaml"}
	for i := range MaxProblems + 500 {
		names = append(names, fmt.Sprintf("mg/q/link-%d", i))
	}
	in := tarGz(t, names, func(n string) string {
		if strings.HasSuffix(n, ".yaml") {
			return miniPodList
		}
		return "->/etc/passwd"
	})
	g, err := Load(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	// The 1000 kept link problems are identical and collapse into one;
	// 500 links and the missing timestamp were over the limit.
	if len(g.Problems) != 2 || !strings.Contains(g.Problems[0].Error, "(the same in 999 more files, e.g. ") ||
		g.Problems[1].Error != "501 more problems not listed (at most 1000 are kept)" {
		t.Errorf("%d problems: %+v", len(g.Problems), g.Problems)
	}
}

func TestLimitsStopTheWalk(t *testing.T) {
	names := []string{"mg/q/namespaces/a/core/pods.yaml"}
	for i := range 100 {
		names = append(names, fmt.Sprintf("mg/q/junk/%03d", i))
	}
	in := tarGz(t, names, func(n string) string {
		if strings.HasSuffix(n, ".yaml") {
			return miniPodList
		}
		return strings.Repeat("x", 10_000)
	})
	for _, tt := range []struct {
		name  string
		o     Options
		limit string
	}{
		{"members", Options{MaxMembers: 50}, "member limit reached: more than 50 files"},
		{"bytes", Options{MaxReadBytes: 200_000}, "read limit reached: more than 200000 bytes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g, err := LoadWith(context.Background(), in, tt.o)
			if err != nil {
				t.Fatal(err)
			}
			named := slices.ContainsFunc(g.Problems, func(p model.Problem) bool { return p.Path == "in.tar.gz" && strings.HasPrefix(p.Error, tt.limit) })
			if !named || len(g.Pods) == 0 || g.Files >= len(names) {
				t.Errorf("files %d, pods %d, problems %+v", g.Files, len(g.Pods), g.Problems)
			}
		})
	}
	// Walk itself returns the limit as a *LimitError.
	w := walkOptions{budget: &readBudget{limit: 1 << 40}, maxMembers: 10}
	err := walkInput(context.Background(), in, func(Member) error { return nil }, func(string, string) {}, w)
	var limit *LimitError
	if !errors.As(err, &limit) || limit.Limit != "member" {
		t.Errorf("walk error %v", err)
	}
}

// TestZipMemberShorterThanDeclared: a zip entry whose header declares more
// bytes than its data (a damaged copy; Go's zip reader then checks no CRC)
// is read, and a problem says so, instead of passing as a whole file.
func TestZipMemberShorterThanDeclared(t *testing.T) {
	pods := `apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: api
    namespace: shop
    uid: 7d3c1e2a-0000-4000-8000-000000000001
  status:
    phase: Running
kind: PodList
`
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	name := "must-gather/namespaces/shop/core/pods.yaml"
	w, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Store, CRC32: crc32.ChecksumIEEE([]byte(pods)),
		CompressedSize64: uint64(len(pods)), UncompressedSize64: uint64(len(pods)) + 100})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(pods))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	g := loadArchiveBytes(t, "mg.zip", buf.Bytes())
	if len(g.Pods) != 1 || g.Pods[0].Object.Name != "api" {
		t.Errorf("pods = %v, want the one pod the member holds", podRows(g))
	}
	want := fmt.Sprintf("the file holds %d bytes where its archive header declares %d", len(pods), len(pods)+100)
	found := false
	for _, p := range g.Problems {
		if strings.HasSuffix(p.Path, "pods.yaml") && strings.Contains(p.Error, want) {
			found = true
		}
	}
	if !found {
		t.Errorf("no problem %q on pods.yaml; problems: %v", want, g.Problems)
	}
}

// loadArchiveBytes writes an archive built in memory to a file named name
// and loads it.
// tarOf returns a tar holding files[name] for each name of order, in that order.
func tarOf(t *testing.T, order []string, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, name := range order {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(files[name])), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(files[name])); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func loadArchiveBytes(t *testing.T, name string, data []byte) *model.Gather {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := Load(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestProblemsInPathOrder: the problems of a gather do not depend on the
// order its members come in (or the workers finish in): they are listed by
// path.
// problemGather returns the members of a must-gather under root that holds
// one healthy pod in namespace web, the gather's timestamp, and each of
// broken as a list that does not decode.
func problemGather(root string, broken ...string) map[string]string {
	members := map[string]string{
		root + "timestamp":                     "2026-11-20 09:12:33.000000000 +0000 UTC m=+0.01\n",
		root + "namespaces/web/core/pods.yaml": "apiVersion: v1\nkind: List\nitems:\n- metadata:\n    name: web-1\n    namespace: web\n  status:\n    phase: Running\n",
	}
	for _, name := range broken {
		members[name] = "apiVersion: v1\nkind: List\nitems:\n- metadata: [\n"
	}
	return members
}

func TestProblemsInPathOrder(t *testing.T) {
	const root = "must-gather.local.1/quay-io-image/"
	members := problemGather(root, root+"namespaces/shop/core/events.yaml", root+"namespaces/shop/core/pods.yaml", root+"namespaces/cart/core/pods.yaml")
	var first []model.Problem
	for _, order := range [][]string{
		{root + "timestamp", root + "namespaces/shop/core/events.yaml", root + "namespaces/shop/core/pods.yaml", root + "namespaces/cart/core/pods.yaml"},
		{root + "timestamp", root + "namespaces/shop/core/pods.yaml", root + "namespaces/cart/core/pods.yaml", root + "namespaces/shop/core/events.yaml"},
		{root + "namespaces/cart/core/pods.yaml", root + "namespaces/shop/core/pods.yaml", root + "namespaces/shop/core/events.yaml", root + "timestamp"},
	} {
		g := loadArchiveBytes(t, "g.tar", tarOf(t, append(order, root+"namespaces/web/core/pods.yaml"), members))
		if len(g.Problems) < 3 {
			t.Fatalf("%d problems, want one per broken file: %+v", len(g.Problems), g.Problems)
		}
		if !sort.SliceIsSorted(g.Problems, func(i, j int) bool { return g.Problems[i].Path < g.Problems[j].Path }) {
			t.Errorf("problems not in path order: %+v", g.Problems)
		}
		if first == nil {
			first = g.Problems
		} else if d := cmp.Diff(first, g.Problems); d != "" {
			t.Errorf("member order %v changed the problems (-first +this):\n%s", order, d)
		}
	}
}

// TestProblemsOverTheLimitInPathOrder: past MaxProblems, the problems kept
// are the first in path order, whatever order the members come in, and the
// rest are counted in a last line.
func TestProblemsOverTheLimitInPathOrder(t *testing.T) {
	const root = "must-gather.local.1/quay-io-image/"
	var names []string
	for i := range MaxProblems + 50 {
		names = append(names, root+fmt.Sprintf("namespaces/ns-%04d/core/pods.yaml", i))
	}
	members := problemGather(root, names...)
	var first []model.Problem
	for _, reverse := range []bool{false, true} {
		order := slices.Clone(names)
		if reverse {
			slices.Reverse(order)
		}
		order = append(order, root+"timestamp", root+"namespaces/web/core/pods.yaml")
		g := loadArchiveBytes(t, "g.tar", tarOf(t, order, members))
		last := g.Problems[len(g.Problems)-1]
		if !strings.Contains(last.Error, "50 more problems not listed") {
			t.Errorf("last problem %+v, want the count of the 50 not kept", last)
		}
		// The kept ones share their text, so they are folded into the first.
		if p := g.Problems[0]; p.Path != names[0] || !strings.Contains(p.Error, fmt.Sprintf("the same in %d more files", MaxProblems-1)) {
			t.Errorf("first problem %+v, want %s's, folding %d more", p, names[0], MaxProblems-1)
		}
		if first == nil {
			first = g.Problems
		} else if d := cmp.Diff(first, g.Problems); d != "" {
			t.Errorf("member order changed the problems kept (-forward +reverse):\n%s", d)
		}
	}
}
