package installbundle

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/load"
	"github.com/mgtriage/mgtriage/parser/model"
)

// testCut is the text bound of testLoad.CutText.
const testCut = 4096

// testLoad is a load.Load of no gather: problems are dropped, lines split
// on "\n", texts cut at testCut bytes.
type testLoad struct{}

func (testLoad) Problem(string, string)                         {}
func (testLoad) ReferenceTime() time.Time                       { return time.Time{} }
func (testLoad) GatherTimes(string, []time.Time)                {}
func (testLoad) Intern(s string) string                         { return s }
func (testLoad) ReadTail(io.Reader, *model.ContainerLog) error  { return nil }
func (testLoad) ReadObjects(string, load.Objects, []byte) error { return nil }
func (testLoad) CutText(s string) string {
	if len(s) <= testCut {
		return s
	}
	return strings.ToValidUTF8(s[:testCut], "") + "…"
}
func (testLoad) ScanLines(r io.Reader, fn func(int, []byte)) error {
	data, err := io.ReadAll(r)
	for i, line := range bytes.Split(data, []byte("\n")) {
		fn(i+1, line)
	}
	return err
}

func TestClassify(t *testing.T) {
	const r = "log-bundle-1/"
	for _, tc := range []struct {
		path string
		want Member
	}{
		{r + "bootstrap/journals/bootkube.log", Member{Kind: Text, Root: r, Unit: "bootkube"}},
		{r + "bootstrap/journals/kubelet.log", Member{Kind: Journal, Root: r, Unit: "kubelet"}},
		{r + "control-plane/10.0.0.11/journals/crio.log", Member{Kind: Journal, Root: r, Node: "10.0.0.11", Unit: "crio"}},
		{r + "bootstrap/containers/etcd-5d2c8e1f0a9b.log", Member{Kind: ContainerLog, Root: r, Container: "etcd"}},
		{r + "bootstrap/containers/etcd-5d2c8e1f0a9b.inspect", Member{Kind: Inspect, Root: r}},
		// A control plane host's inspect file: its path names no bootstrap/
		// (a public RHCOS bundle of a failed install; it ended the run with a
		// slice bounds panic).
		{r + "control-plane/172.16.1.11/containers/etcd-5d2c8e1f0a9b.inspect", Member{Kind: Inspect, Root: r, Node: "172.16.1.11"}},
		{r + "resources/csr.json", Member{Kind: Resource, Root: r, Name: "csr.json"}},
		{r + "rendered-assets/openshift/manifests/cluster-config.yaml", Member{Kind: Other}},
	} {
		if diff := cmp.Diff(tc.want, Classify(tc.path)); diff != "" {
			t.Errorf("Classify(%q) (-want +got):\n%s", tc.path, diff)
		}
		if root, ok := Root(tc.path); !ok || root != r {
			t.Errorf("Root(%q) = %q, %v", tc.path, root, ok)
		}
	}
}

func FuzzInstallText(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "bundles", "install-log-bundle/log-bundle-20261120085830/bootstrap/journals/bootkube.log")); err == nil {
		f.Add(b, "bootkube")
	}
	f.Add([]byte("Nov 20 08:30:12 h release-image-download.sh[1]: Pull failed. Retrying\n"), "release-image")
	f.Add([]byte("No masters found!\n\x00\xff"), "gather")
	f.Fuzz(func(t *testing.T, data []byte, unit string) {
		r := NewReader(testLoad{})
		_ = r.ReadText("b/bootstrap/journals/x.log", Member{Kind: Text, Root: "b/", Unit: unit}, bytes.NewReader(data))
		ib := r.Bundle("b/")
		counts := map[string]int{}
		for _, s := range ib.Steps {
			counts[s.Stage]++
			if s.Count < 1 || s.Source.Line < 1 || len(s.Text) > testCut+len("…") {
				t.Errorf("bad step %+v", s)
			}
		}
		for stage, n := range counts {
			if n > maxSteps {
				t.Errorf("%d groups of stage %s", n, stage)
			}
		}
	})
}

// maybe is only a prefilter: it must pass every path the marker
// expression matches.
func TestInstallMaybePassesEveryMarkerMatch(t *testing.T) {
	for _, p := range []string{
		"log-bundle-20261120/bootstrap/journals/bootkube.log", "bootstrap/containers/etcd-1.log", "x/control-plane/10.0.0.5/journals/kubelet.log",
		"log-bundle-1/resources/pods.json", "resources/masters.list", "log-bundle-1/failed-units.txt", "a/unit-status/x", "a/rendered-assets/y",
		"gather.log", "log-bundle-1/gather.log",
		"must-gather/cluster-scoped-resources/core/nodes/n.yaml", "must-gather/namespaces/a/pods/p/p.yaml", "foo/bar",
	} {
		if markerRe.MatchString(p) && !maybe(p) {
			t.Errorf("maybe(%q) = false, but the marker expression matches", p)
		}
	}
}

// The same over every path of the project's fixtures.
func TestInstallMaybeOnFixturePaths(t *testing.T) {
	root := filepath.Join("..", "..", "fixtures")
	n := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		n++
		if markerRe.MatchString(rel) && !maybe(rel) {
			t.Errorf("maybe(%q) = false, but the marker expression matches", rel)
		}
		return nil
	})
	if n < 100 {
		t.Fatalf("only %d fixture paths walked", n)
	}
}

// FuzzClassify: any member path is classified without a panic, and a
// member it places lies under the root it names.
func FuzzClassify(f *testing.F) {
	for _, p := range []string{
		"log-bundle-1/bootstrap/journals/kubelet.log",
		"log-bundle/control-plane/172.16.1.11/containers/x.inspect",
		"log-bundle/control-plane/172.16.1.11/containers/x.log",
		"control-plane/a/containers/b-0123456789ab.log",
		"x/containers/y.inspect",
		"resources/csr.json",
		"gather.log",
	} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		m := Classify(p)
		if m.Kind != Other && !strings.HasPrefix(p, m.Root) {
			t.Errorf("Classify(%q) = %+v: the root does not lead the path", p, m)
		}
	})
}
