package parser

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/model"
)

func TestClassifyInstall(t *testing.T) {
	const r = "log-bundle-1/"
	for _, tc := range []struct {
		path string
		want classified
	}{
		{r + "bootstrap/journals/bootkube.log", classified{Kind: kindInstallText, Root: r, Unit: "bootkube"}},
		{r + "bootstrap/journals/kubelet.log", classified{Kind: kindServiceLog, Root: r, Unit: "kubelet"}},
		{r + "control-plane/10.0.0.11/journals/kubelet.log", classified{Kind: kindServiceLog, Root: r, Node: "10.0.0.11", Unit: "kubelet"}},
		{r + "control-plane/10.0.0.11/journals/machine-config-daemon-firstboot.log", classified{Kind: kindInstallText, Root: r, Node: "10.0.0.11", Unit: "machine-config-daemon-firstboot"}},
		{r + "bootstrap/containers/etcd-5d2c8e1f0a9b.log", classified{Kind: kindInstallContainerLog, Root: r, Container: "etcd"}},
		{r + "bootstrap/containers/etcd-5d2c8e1f0a9b.inspect", classified{Kind: kindInstallInspect, Root: r}},
		{r + "resources/pods.json", classified{Kind: kindInstallResource, Root: r, Name: "pods.json"}},
		{r + "resources/masters.list", classified{Kind: kindInstallResource, Root: r, Name: "masters.list"}},
		{r + "gather.log", classified{Kind: kindInstallText, Root: r, Unit: "gather"}},
		{r + "failed-units.txt", classified{Kind: kindInstallText, Root: r, Unit: "failed-units"}},
		{r + "rendered-assets/openshift/manifests/cluster-config.yaml", classified{Kind: kindOther}},
	} {
		got, layout := classifyOther(tc.path)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("classifyOther(%q) (-want +got):\n%s", tc.path, diff)
		}
		if layout != model.LayoutInstallBundle {
			t.Errorf("classifyOther(%q): layout %q", tc.path, layout)
		}
	}
	for _, p := range []string{"gather.log/x", "x/gather.log", "mg/namespaces/a/resources/pods.json"} {
		if root, layout, ok := bundleRoot(p); ok && layout == model.LayoutInstallBundle {
			t.Errorf("bundleRoot(%q) = %q, %q: not an install log bundle", p, root, layout)
		}
	}
}

// TestLoadInstallBundle reads the fixture log bundle of an install whose API
// never came up.
func TestLoadInstallBundle(t *testing.T) {
	g, err := Load(context.Background(), filepath.Join(bundleFixtures, "install-log-bundle"))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Layouts) != 1 || g.Layouts[0].Kind != model.LayoutInstallBundle || len(g.Installs) != 1 {
		t.Fatalf("layouts %+v, %d install bundles", g.Layouts, len(g.Installs))
	}
	ib := g.Installs[0]
	if ib.APIAnswered() || len(ib.Resources) != 20 || len(ib.Empty) != 20 || ib.MastersListed != 0 {
		t.Errorf("resources %d, empty %d, masters listed %d; API answered %v", len(ib.Resources), len(ib.Empty), ib.MastersListed, ib.APIAnswered())
	}
	stages := map[string]int{}
	for _, s := range ib.Steps {
		stages[s.Stage] += s.Count
		if !s.First.IsZero() && s.First.Year() != 2026 {
			t.Errorf("step %s:%d dated %s: the journal year comes from the inspect files", s.Source.Path, s.Source.Line, s.First)
		}
	}
	want := map[string]int{model.StageEtcd: 8, model.StageAPIWait: 12, model.StageBootkube: 6, model.StageMasters: 1}
	if diff := cmp.Diff(want, stages); diff != "" {
		t.Errorf("lines per stage (-want +got):\n%s", diff)
	}
	if ib.Reached(model.StageComplete) {
		t.Error("the bootstrap did not complete")
	}
	names := []string{}
	for _, c := range ib.Containers {
		names = append(names, c.Host+"/"+c.Name)
	}
	if strings.Join(names, ",") != "bootstrap/etcd,bootstrap/kube-apiserver" {
		t.Errorf("container logs %v", names)
	}
	if got := g.CollectedAt.Format("2006-01-02T15:04"); got != "2026-11-20T08:56" {
		t.Errorf("gather time %s, want the latest container time", got)
	}
	if len(g.NodeLog["bootstrap.ocp4.example.com"]) == 0 {
		t.Error("the bootstrap kubelet journal is not credited to its host")
	}
}

func FuzzInstallText(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join(bundleFixtures, "install-log-bundle/log-bundle-20261120085830/bootstrap/journals/bootkube.log")); err == nil {
		f.Add(b, "bootkube")
	}
	f.Add([]byte("Nov 20 08:30:12 h release-image-download.sh[1]: Pull failed. Retrying\n"), "release-image")
	f.Add([]byte("No masters found!\n\x00\xff"), "gather")
	f.Fuzz(func(t *testing.T, data []byte, unit string) {
		b := newBuilder("x")
		_ = b.readInstallText("b/bootstrap/journals/x.log", classified{Kind: kindInstallText, Root: "b/", Unit: unit}, bytes.NewReader(data))
		ib := b.installs["b/"]
		counts := map[string]int{}
		for _, s := range ib.Steps {
			counts[s.Stage]++
			if s.Count < 1 || s.Source.Line < 1 || len(s.Text) > MaxProblemBytes+len("…") {
				t.Errorf("bad step %+v", s)
			}
		}
		for stage, n := range counts {
			if n > maxInstallSteps {
				t.Errorf("%d groups of stage %s", n, stage)
			}
		}
	})
}

// installMaybe is only a prefilter: it must pass every path the marker
// expression matches.
func TestInstallMaybePassesEveryMarkerMatch(t *testing.T) {
	for _, p := range []string{
		"log-bundle-20261120/bootstrap/journals/bootkube.log", "bootstrap/containers/etcd-1.log", "x/control-plane/10.0.0.5/journals/kubelet.log",
		"log-bundle-1/resources/pods.json", "resources/masters.list", "log-bundle-1/failed-units.txt", "a/unit-status/x", "a/rendered-assets/y",
		"gather.log", "log-bundle-1/gather.log",
		"must-gather/cluster-scoped-resources/core/nodes/n.yaml", "must-gather/namespaces/a/pods/p/p.yaml", "foo/bar",
	} {
		if installMarkerRe.MatchString(p) && !installMaybe(p) {
			t.Errorf("installMaybe(%q) = false, but the marker expression matches", p)
		}
	}
}

// The same over every path of the project's fixtures.
func TestInstallMaybeOnFixturePaths(t *testing.T) {
	root := filepath.Join("..", "fixtures")
	n := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		n++
		if installMarkerRe.MatchString(rel) && !installMaybe(rel) {
			t.Errorf("installMaybe(%q) = false, but the marker expression matches", rel)
		}
		return nil
	})
	if n < 100 {
		t.Fatalf("only %d fixture paths walked", n)
	}
}
