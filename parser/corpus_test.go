package parser

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/model"
)

// corpusDir returns a gather of the shared corpus, or skips the test when the
// corpus is not beside the project or under -short (the race-detector pass of
// `make test` runs -short; the plain pass reads the corpus).
func corpusDir(t testing.TB, name string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("corpus tests skipped with -short")
	}
	dir := filepath.Join("..", "..", "shared", "corpus", name)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("corpus %s not present: %v", name, err)
	}
	return dir
}

// writeTarGz archives dir into a .tar.gz under t.TempDir, with member names
// relative to dir's parent, as `tar czf x.tar.gz <dir>` would.
func writeTarGz(t testing.TB, dir string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "gather.tar.gz")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	tw := tar.NewWriter(zw)
	base := filepath.Dir(dir)
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		hdr, err := tar.FileInfoHeader(info, "")
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(base, p)
		hdr.Name = filepath.ToSlash(rel)
		if d.IsDir() {
			hdr.Name += "/"
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if d.Type().IsRegular() {
			src, err := os.Open(p)
			if err != nil {
				return err
			}
			defer src.Close()
			_, err = io.Copy(tw, src)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []io.Closer{tw, zw, f} {
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

var (
	corpusMu    sync.Mutex
	corpusCache = map[string]*model.Gather{}
)

// loadCorpus loads a corpus gather once per test binary; tests must not
// change the result.
func loadCorpus(t testing.TB, name string) *model.Gather {
	t.Helper()
	dir := corpusDir(t, name)
	corpusMu.Lock()
	defer corpusMu.Unlock()
	if g, ok := corpusCache[name]; ok {
		return g
	}
	g, err := Load(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	corpusCache[name] = g
	return g
}

type podRow struct{ Namespace, Name, Ready, Status, Restarts, Age string }

func podRows(g *model.Gather) []podRow {
	rows := make([]podRow, 0, len(g.Pods))
	for _, p := range g.Pods {
		rows = append(rows, podRow{p.Object.Namespace, p.Object.Name, p.Columns.Ready, p.Columns.Status, p.Columns.Restarts, p.Columns.Age})
	}
	return rows
}

func TestCorpusMetalFolderAndTarGz(t *testing.T) {
	dir := corpusDir(t, "mg-metal-ocp49")
	folder := loadCorpus(t, "mg-metal-ocp49")
	if len(folder.Pods) != 235 {
		t.Errorf("folder: %d pods, want 235", len(folder.Pods))
	}
	if len(folder.Events) != 5171 {
		t.Errorf("folder: %d events, want 5171", len(folder.Events))
	}
	if len(folder.Nodes) != 6 || folder.ClusterVersion != "4.9.0-0.nightly-2021-09-10-170926" {
		t.Errorf("nodes=%d clusterVersion=%q", len(folder.Nodes), folder.ClusterVersion)
	}
	if got := folder.CollectedAt.Format("2006-01-02T15:04:05Z"); got != "2021-09-14T14:43:46Z" {
		t.Errorf("collectedAt = %s", got)
	}
	status := map[string]int{}
	for _, p := range folder.Pods {
		status[p.Columns.Status]++
	}
	if diff := cmp.Diff(map[string]int{"Running": 173, "Completed": 62}, status); diff != "" {
		t.Errorf("STATUS counts (-want +got):\n%s", diff)
	}
	if len(folder.Problems) != 0 {
		t.Errorf("problems on a clean gather: %v", folder.Problems)
	}

	archive, err := Load(context.Background(), writeTarGz(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(podRows(folder), podRows(archive)); diff != "" {
		t.Errorf("tar.gz columns differ from folder (-folder +archive):\n%s", diff)
	}
	if len(archive.Events) != len(folder.Events) || archive.Files != folder.Files {
		t.Errorf("archive events=%d files=%d, folder events=%d files=%d", len(archive.Events), archive.Files, len(folder.Events), folder.Files)
	}
}

func TestCorpusImageFolderAsInput(t *testing.T) {
	dir := corpusDir(t, "mg-metal-ocp49")
	matches, _ := filepath.Glob(filepath.Join(dir, "must-gather-metal", "quay-io-*"))
	if len(matches) != 1 {
		t.Skip("image folder not found")
	}
	g, err := Load(context.Background(), matches[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Pods) != 235 || g.CollectedAt.IsZero() {
		t.Errorf("pods=%d collectedAt=%v", len(g.Pods), g.CollectedAt)
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := Load(context.Background(), filepath.Join(t.TempDir(), "missing")); err != ErrNotFound {
		t.Errorf("missing path: %v", err)
	}
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("hello"), 0o644)
	if _, err := Load(context.Background(), empty); !errors.Is(err, ErrNoGather) {
		t.Errorf("folder without a gather: %v", err)
	}
	junk := filepath.Join(t.TempDir(), "junk.tar.gz")
	os.WriteFile(junk, []byte("this is not an archive"), 0o644)
	if _, err := Load(context.Background(), junk); err == nil {
		t.Error("junk file: no error")
	}
}

func TestCorpusEveryPodHasStatusAndStage(t *testing.T) {
	for _, name := range []string{"mg-metal-ocp49", "mg-aws-ocp48"} {
		t.Run(name, func(t *testing.T) {
			g := loadCorpus(t, name)
			if len(g.Pods) < 200 {
				t.Fatalf("only %d pods", len(g.Pods))
			}
			stages := map[string]int{}
			for _, p := range g.Pods {
				if p.Columns.Status == "" || p.Stage.Name == "" || p.Columns.Age == "<unknown>" {
					t.Errorf("%s: status %q stage %q age %q", p.Key(), p.Columns.Status, p.Stage.Name, p.Columns.Age)
				}
				stages[p.Stage.Name]++
			}
			t.Logf("%s: %d pods, stages %v", name, len(g.Pods), stages)
		})
	}
}

// TestCorpusNodeLogTiedToPods checks that the kubelet's probe failures,
// "Error syncing pod" lines and sandbox failures of the metal gather land on
// their pods, grouped, with counts and path:line.
func TestCorpusNodeLogTiedToPods(t *testing.T) {
	g := loadCorpus(t, "mg-metal-ocp49")
	lines := map[string]int{}
	for _, p := range g.Pods {
		for _, lg := range p.NodeLog {
			lines[string(lg.Class)] += lg.Count
			if lg.Source.Line == 0 || lg.Source.Path == "" || lg.Count < 1 || lg.First.Year() != 2021 {
				t.Errorf("%s: group without position, count or date: %+v", p.Key(), lg)
			}
		}
	}
	t.Logf("pod-tied kubelet lines by class: %v", lines)
	for class, min := range map[string]int{"probe": 200, "crash-loop": 30, "sandbox": 3, "network-not-ready": 40, "volume": 100} {
		if lines[class] < min {
			t.Errorf("%d %s lines tied to pods, want at least %d", lines[class], class, min)
		}
	}
	node := 0
	for _, groups := range g.NodeLog {
		for _, lg := range groups {
			if lg.Class == "pleg" {
				node += lg.Count
			}
		}
	}
	if node == 0 {
		t.Error("no node-level PLEG lines")
	}
}

func TestCorpusLayouts(t *testing.T) {
	for name, want := range map[string]string{
		"mg-metal-ocp49":     model.LayoutMustGather,
		"mg-aws-ocp48":       model.LayoutMustGather,
		"mg-fragment-ocp418": model.LayoutMustGather,
		"sos-ubuntu-k8s123":  model.LayoutSosreport,
	} {
		t.Run(name, func(t *testing.T) {
			g := loadCorpus(t, name)
			if len(g.Layouts) != 1 || g.Layouts[0].Kind != want {
				t.Fatalf("layouts %+v, want one %s", g.Layouts, want)
			}
			if len(g.Pods) == 0 {
				t.Error("no pods")
			}
			for _, p := range g.Problems {
				if name != "mg-fragment-ocp418" || p.Path != "timestamp" { // the fragment really has no timestamp file
					t.Errorf("problem %v", p)
				}
			}
		})
	}
	sos := loadCorpus(t, "sos-ubuntu-k8s123")
	if sos.Layouts[0].Node != "juju-110cc2-k8stest-4" || len(sos.Pods) != 18 || sos.CollectedAt.IsZero() {
		t.Errorf("sosreport: node %q pods %d time %v", sos.Layouts[0].Node, len(sos.Pods), sos.CollectedAt)
	}
	// Its nodes from kubectl get nodes and describe node text: the
	// describe output's Ready condition and machine facts.
	var names []string
	for _, n := range sos.Nodes {
		names = append(names, n.Object.Name)
		info := n.Object.Status.NodeInfo
		if info.SystemUUID == "" || info.MachineID == "" || info.BootID == "" || info.KubeletVersion != "v1.23.3" || len(n.Object.Status.Conditions) != 4 {
			t.Errorf("node %s from %s: %+v", n.Object.Name, n.Source.Path, info)
		}
	}
	if want := []string{"juju-110cc2-k8stest-5", "juju-110cc2-k8stest-6"}; !slices.Equal(names, want) {
		t.Errorf("sosreport nodes %v, want %v", names, want)
	}
	if c := sos.Layouts[0].Clock; c == nil || c.Zone != "Etc/UTC" || c.Offset != 0 || !c.OffsetKnown {
		t.Errorf("sosreport clock %+v", c)
	}
}
