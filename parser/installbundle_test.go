package parser

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// controlPlaneBundle returns the two members of an install log bundle whose
// paths name a control plane host and no bootstrap/ (issue 29: a public RHCOS
// bundle of a failed install, on which a run died with "slice bounds out of
// range [:-1]"), plus each of extra.
func controlPlaneBundle(extra ...string) (order []string, files map[string]string) {
	const host = "log-bundle/control-plane/172.16.1.11/"
	files = map[string]string{
		host + "containers/x.inspect": `{"status":{"id":"4f1c2d","metadata":{"name":"x","attempt":0},"state":"CONTAINER_EXITED","createdAt":"2026-11-20T08:40:00.123456789Z","startedAt":"2026-11-20T08:40:00.2Z","finishedAt":"2026-11-20T08:41:00Z","exitCode":1}}`,
		host + "containers/x.log":     "2026-11-20T08:40:01.000000000+00:00 stderr F E1120 08:40:01.000000       1 server.go:42] failed to reach etcd\n",
		host + "journals/kubelet.log": "Nov 20 08:40:02 master-0 kubenswrapper[2101]: E1120 08:40:02.123456    2101 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"connection refused\" node=\"master-0\"\n",
	}
	order = []string{host + "containers/x.inspect", host + "containers/x.log"}
	for _, name := range extra {
		order = append(order, host+name)
	}
	return order, files
}

// TestLoadControlPlaneInstallBundle: the two members of the issue load
// without a panic, alone (nothing analysable: the error says what was
// looked for, and no problem is a reader's panic) and with the host's
// kubelet journal (a gather whose install bundle names the host).
func TestLoadControlPlaneInstallBundle(t *testing.T) {
	noPanic := func(t *testing.T, probs []model.Problem) {
		t.Helper()
		for _, p := range probs {
			if strings.Contains(p.Error, "panic") || strings.Contains(p.Error, "mgtriage failed") {
				t.Errorf("a reader panicked: %s: %s", p.Path, p.Error)
			}
		}
	}
	gzipped := func(data []byte) []byte {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(data)
		zw.Close()
		return buf.Bytes()
	}
	t.Run("the two members", func(t *testing.T) {
		order, files := controlPlaneBundle()
		p := filepath.Join(t.TempDir(), "bundle.tar.gz")
		if err := os.WriteFile(p, gzipped(tarOf(t, order, files)), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(context.Background(), p)
		var nothing *NothingError
		if !errors.As(err, &nothing) {
			t.Fatalf("Load = %v, want nothing analysable", err)
		}
		if nothing.Files != 2 || len(nothing.Layouts) != 1 || nothing.Layouts[0].Kind != model.LayoutInstallBundle {
			t.Errorf("files %d, layouts %+v: want the 2 files of one install log bundle", nothing.Files, nothing.Layouts)
		}
		noPanic(t, nothing.Problems)
	})
	t.Run("with the host's kubelet journal", func(t *testing.T) {
		order, files := controlPlaneBundle("journals/kubelet.log")
		g := loadArchiveBytes(t, "bundle.tar.gz", gzipped(tarOf(t, order, files)))
		noPanic(t, g.Problems)
		if len(g.Installs) != 1 || strings.Join(g.Installs[0].Masters, ",") != "172.16.1.11" {
			t.Errorf("install bundles %+v, want one naming its control plane host", g.Installs)
		}
		if got := g.CollectedAt.Format(time.RFC3339); got != "2026-11-20T08:41:00Z" {
			t.Errorf("gather time %s, want the latest time of the inspect file", got)
		}
	})
}
