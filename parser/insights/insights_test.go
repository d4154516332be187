package insights

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/load"
	"github.com/mgtriage/mgtriage/parser/model"
)

func TestRoot(t *testing.T) {
	for _, tc := range []struct {
		path, root string
		ok         bool
	}{
		{"config/pod/shop/api-1.json", "", true},
		{"insights-2026/config/node/w-0.json", "insights-2026/", true},
		{"config/id", "", true},
		{"x/config/id", "x/", true},
		{"config/identity.json", "", false},
		{"config/id/more", "", false},
		{"insights-operator/gathers.json", "", true},
		{"a/myconfig/pod/x.json", "", false},
		{"config/machineconfigpools/worker.json", "", false}, // ObjectRoot's
	} {
		root, ok := Root(tc.path)
		if ok != tc.ok || root != tc.root {
			t.Errorf("Root(%q) = %q, %v; want %q, %v", tc.path, root, ok, tc.root, tc.ok)
		}
	}
}

func TestObjectRoot(t *testing.T) {
	for _, tc := range []struct {
		path, root string
		ok         bool
	}{
		{"a/config/machineconfigpools/worker.json", "a/", true},
		{"config/pdbs/openshift-etcd/guard.json", "", true},
		{"config/pdbs/guard.json", "", true}, // the folder is the archive's; Classify reads no such object
		{"config/machineconfigpools/x/worker.json", "", false},
		{"config/version.json", "", true},
		{"config/infrastructure.json", "", true},
		{"config/unknown/x.json", "", false},
	} {
		root, ok := ObjectRoot(tc.path)
		if ok != tc.ok || root != tc.root {
			t.Errorf("ObjectRoot(%q) = %q, %v; want %q, %v", tc.path, root, ok, tc.root, tc.ok)
		}
	}
}

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		path string
		want Member
	}{
		{"config/pod/shop/api-1.json", Member{Kind: Pod, Namespace: "shop", Pod: "api-1", Filtered: model.Pods}},
		{"config/pod/shop/logs/api-1/wait-db_previous.log", Member{Kind: ContainerLog, Namespace: "shop", Pod: "api-1", Container: "wait-db", Previous: true}},
		{"config/pod/shop/logs/api-1/web_current.log", Member{Kind: ContainerLog, Namespace: "shop", Pod: "api-1", Container: "web"}},
		{"config/pod/shop/logs/api-1/errors.log", Member{Kind: ContainerLog, Namespace: "shop", Pod: "api-1"}},
		{"config/node/w-0.json", Member{Kind: Node, Node: "w-0"}},
		{"config/node/logs/w-0.log", Member{Kind: NodeLog, Node: "w-0"}},
		{"a/config/clusteroperator/ingress.json", Member{Kind: ClusterOperator, Root: "a/", Name: "ingress"}},
		{"config/clusteroperator/operator.openshift.io/etcd/cluster.json", Member{}},
		{"config/version.json", Member{Kind: ClusterVersion}},
		{"config/infrastructure.json", Member{Kind: Infrastructure}},
		{"events/openshift-ingress.json", Member{}}, // the pod captures' (package doc)
		{"config/events/x.json", Member{}},
		{"config/machineconfigpools/worker.json", Member{Kind: Object, Object: model.MachineConfigPools, Name: "worker", Filtered: model.MachineConfigPools}},
		{"config/storage/storageclasses/gp3.json", Member{Kind: Object, Object: model.StorageClasses, Name: "gp3", Filtered: model.StorageClasses}},
		{"config/pdbs/openshift-etcd/guard.json", Member{Kind: Object, Object: model.Kind{Group: "policy", Resource: "poddisruptionbudgets"}, Namespace: "openshift-etcd", Name: "guard", Filtered: model.Kind{Group: "policy", Resource: "poddisruptionbudgets"}}},
		{"config/pdbs/guard.json", Member{}},                                                    // namespaced: needs its namespace folder
		{"config/machineconfigpools/x/worker.json", Member{}},                                   // cluster-scoped: no namespace folder
		{"conditional/namespaces/mon/pods/am-0/containers/am/logs/last-50-lines.log", Member{}}, // ClassifyConditional's
	} {
		if diff := cmp.Diff(tc.want, Classify(tc.path)); diff != "" {
			t.Errorf("Classify(%q) (-want +got):\n%s", tc.path, diff)
		}
	}
}

func TestClassifyConditional(t *testing.T) {
	got := ClassifyConditional("arch/conditional/namespaces/mon/pods/am-0/containers/am/logs/last-50-lines.log")
	want := Member{Kind: ContainerLog, Root: "arch/", Namespace: "mon", Pod: "am-0", Container: "am"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ClassifyConditional (-want +got):\n%s", diff)
	}
	if m := ClassifyConditional("config/pod/shop/logs/api-1/errors.log"); m.Kind != Other {
		t.Errorf("ClassifyConditional of a config/pod log: %+v", m)
	}
}

// handed records what the Reader hands back to the load.
type handed struct {
	load.Load
	path string
	o    load.Objects
	data []byte
}

func (h *handed) ReadObjects(p string, o load.Objects, data []byte) error {
	h.path, h.o, h.data = p, o, data
	return nil
}

func TestReadHandsBackToTheLoad(t *testing.T) {
	h := &handed{}
	r := NewReader(h)
	data := []byte(`{"items":[]}`)
	for _, tc := range []struct {
		path string
		want load.Objects
	}{
		{"a/config/clusteroperator/dns.json", load.Objects{Content: load.ClusterOperator, Root: "a/", Name: "dns"}},
	} {
		m := Classify(tc.path)
		if !m.Kind.ReadsItself() {
			t.Fatalf("%s: %+v is not the reader's", tc.path, m)
		}
		r.Count(m.Kind)
		if err := r.Read(tc.path, m, data); err != nil {
			t.Fatal(err)
		}
		if h.path != tc.path || h.o != tc.want || string(h.data) != string(data) {
			t.Errorf("%s handed back as %q %+v", tc.path, h.path, h.o)
		}
	}
	want := []model.FileCount{{What: ClusterOperatorLabel, Files: 1}}
	if diff := cmp.Diff(want, r.Used()); diff != "" {
		t.Errorf("Used (-want +got):\n%s", diff)
	}
	if err := r.Read("config/pod/a/b.json", Classify("config/pod/a/b.json"), data); err == nil {
		t.Error("Read of a member the load reads: no error")
	}
}

// FuzzClassify: every member claimed lies in its archive's folder, and its
// names are single path elements of its path.
func FuzzClassify(f *testing.F) {
	for _, p := range []string{"config/pod/shop/api-1.json", "x/config/pod/shop/logs/api-1/web_previous.log", "config/node/logs/w.log",
		"config/pdbs/ns/a.json", "config/clusteroperator/dns.json", "config/version.json",
		"a/conditional/namespaces/n/pods/p/containers/c/logs/l.log", "config/id"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		for _, m := range []Member{Classify(p), ClassifyConditional(p)} {
			if m.Kind == Other {
				if m != (Member{}) {
					t.Errorf("Other with fields: %+v", m)
				}
				continue
			}
			if !strings.HasPrefix(p, m.Root) || m.Root != "" && !strings.HasSuffix(m.Root, "/") {
				t.Errorf("Classify(%q): root %q", p, m.Root)
			}
			for _, s := range []string{m.Namespace, m.Pod, m.Container, m.Node, m.Name} {
				if strings.Contains(s, "/") || s != "" && !strings.Contains(p, s) {
					t.Errorf("Classify(%q): name %q is not a path element", p, s)
				}
			}
			if m.Kind == Object && m.Object.Resource == "" {
				t.Errorf("Classify(%q): object of no kind", p)
			}
		}
		if root, ok := Root(p); ok && !strings.HasPrefix(p, root) {
			t.Errorf("Root(%q) = %q", p, root)
		}
		if root, ok := ObjectRoot(p); ok && !strings.HasPrefix(p, root) {
			t.Errorf("ObjectRoot(%q) = %q", p, root)
		}
	})
}
