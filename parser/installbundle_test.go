package parser

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/installbundle"
	"github.com/mgtriage/mgtriage/parser/model"
)

func TestClassifyInstall(t *testing.T) {
	const r = "log-bundle-1/"
	for _, tc := range []struct {
		path string
		want classified
	}{
		{r + "bootstrap/journals/bootkube.log", classified{Kind: kindInstall, Root: r, Install: installbundle.Member{Kind: installbundle.Text, Root: r, Unit: "bootkube"}}},
		{r + "bootstrap/journals/kubelet.log", classified{Kind: kindServiceLog, Root: r, Unit: "kubelet"}},
		{r + "control-plane/10.0.0.11/journals/kubelet.log", classified{Kind: kindServiceLog, Root: r, Node: "10.0.0.11", Unit: "kubelet"}},
		{r + "control-plane/10.0.0.11/journals/machine-config-daemon-firstboot.log", classified{Kind: kindInstall, Root: r, Install: installbundle.Member{Kind: installbundle.Text, Root: r, Node: "10.0.0.11", Unit: "machine-config-daemon-firstboot"}}},
		{r + "bootstrap/containers/etcd-5d2c8e1f0a9b.log", classified{Kind: kindInstall, Root: r, Install: installbundle.Member{Kind: installbundle.ContainerLog, Root: r, Container: "etcd"}}},
		{r + "bootstrap/containers/etcd-5d2c8e1f0a9b.inspect", classified{Kind: kindInstall, Root: r, Install: installbundle.Member{Kind: installbundle.Inspect, Root: r}}},
		{r + "resources/pods.json", classified{Kind: kindInstall, Root: r, Install: installbundle.Member{Kind: installbundle.Resource, Root: r, Name: "pods.json"}}},
		{r + "resources/masters.list", classified{Kind: kindInstall, Root: r, Install: installbundle.Member{Kind: installbundle.Resource, Root: r, Name: "masters.list"}}},
		{r + "gather.log", classified{Kind: kindInstall, Root: r, Install: installbundle.Member{Kind: installbundle.Text, Root: r, Unit: "gather"}}},
		{r + "failed-units.txt", classified{Kind: kindInstall, Root: r, Install: installbundle.Member{Kind: installbundle.Text, Root: r, Unit: "failed-units"}}},
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
