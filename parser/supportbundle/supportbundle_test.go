package supportbundle

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/load"
	"github.com/mgtriage/mgtriage/parser/model"
)

func TestRoot(t *testing.T) {
	for _, tc := range []struct {
		path, root, layout string
	}{
		{"support-bundle-x/cluster-resources/pods/shop.json", "support-bundle-x/", Layout},
		{"cluster-resources/nodes.json", "", Layout},
		{"pods/a.json", "", LayoutPodCaptures},
		{"x/events/a.json", "x/", LayoutPodCaptures},
		{"x/nodes.json", "x/", LayoutPodCaptures},
		{"x/mynodes.json", "", ""},
		{"pods/a/b.json", "", ""},
		{"pods/a.yaml", "", ""},
		{"events/a.log", "", ""},
	} {
		root, layout, ok := Root(tc.path)
		if ok != (tc.layout != "") || root != tc.root || layout != tc.layout {
			t.Errorf("Root(%q) = %q, %q, %v; want %q, %q", tc.path, root, layout, ok, tc.root, tc.layout)
		}
	}
}

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		path, layout string
		want         Member
	}{
		{"sb/cluster-resources/pods/shop.json", Layout, Member{Kind: PodList, Root: "sb/", Namespace: "shop"}},
		{"sb/cluster-resources/pods/logs/shop/web-1/web-previous.log", Layout, Member{Kind: ContainerLog, Root: "sb/", Namespace: "shop", Pod: "web-1", Container: "web", Previous: true}},
		{"sb/cluster-resources/pods/logs/shop/web-1/web.log", Layout, Member{Kind: ContainerLog, Root: "sb/", Namespace: "shop", Pod: "web-1", Container: "web"}},
		{"sb/cluster-resources/pods/logs/shop/web-1/-previous.log", Layout, Member{Kind: ContainerLog, Root: "sb/", Namespace: "shop", Pod: "web-1", Container: "-previous"}},
		{"sb/cluster-resources/events/shop.json", Layout, Member{Kind: Events, Root: "sb/", Namespace: "shop"}},
		{"sb/cluster-resources/nodes.json", Layout, Member{Kind: NodeList, Root: "sb/"}},
		{"sb/cluster-resources/deployments/shop.json", Layout, Member{Kind: ObjectList, Root: "sb/", Object: model.Deployments, Namespace: "shop"}},
		{"sb/cluster-resources/pvs.json", Layout, Member{Kind: ObjectList, Root: "sb/", Object: model.PersistentVolumes}},
		{"sb/cluster-resources/custom-resource-definitions.json", Layout, Member{}},
		{"pods/pending.json", LayoutPodCaptures, Member{Kind: PodCaptures, Filtered: model.Pods}},
		{"c/events/pending.json", LayoutPodCaptures, Member{Kind: Events, Root: "c/", Filtered: model.Events}},
		{"nodes.json", LayoutPodCaptures, Member{Kind: NodeList}},
		{"pods/pending.json", Layout, Member{}},
		{"pods/pending.json", "insights archive", Member{}},
	} {
		if diff := cmp.Diff(tc.want, Classify(tc.path, tc.layout)); diff != "" {
			t.Errorf("Classify(%q, %q) (-want +got):\n%s", tc.path, tc.layout, diff)
		}
	}
}

// handed records what the Reader hands back to the load.
type handed struct {
	load.Load
	path string
	o    load.Objects
}

func (h *handed) ReadObjects(p string, o load.Objects, _ []byte) error {
	h.path, h.o = p, o
	return nil
}

func TestReadHandsBackToTheLoad(t *testing.T) {
	h := &handed{}
	r := NewReader(h)
	for _, tc := range []struct {
		path, layout string
		want         load.Objects
	}{
		{"sb/cluster-resources/events/shop.json", Layout, load.Objects{Content: load.Events, Root: "sb/", Namespace: "shop"}},
		{"c/events/x.json", LayoutPodCaptures, load.Objects{Content: load.Events, Root: "c/"}},
		{"c/pods/x.json", LayoutPodCaptures, load.Objects{Content: load.PodCaptures, Root: "c/"}},
	} {
		m := Classify(tc.path, tc.layout)
		if !m.Kind.ReadsItself() {
			t.Fatalf("%s: %+v is not the reader's", tc.path, m)
		}
		r.Count(m.Kind)
		if err := r.Read(tc.path, m, nil); err != nil {
			t.Fatal(err)
		}
		if h.path != tc.path || h.o != tc.want {
			t.Errorf("%s handed back as %q %+v", tc.path, h.path, h.o)
		}
	}
	want := []model.FileCount{{What: EventListsLabel, Files: 2}, {What: PodCapturesLabel, Files: 1}}
	if diff := cmp.Diff(want, r.Used()); diff != "" {
		t.Errorf("Used (-want +got):\n%s", diff)
	}
	if err := r.Read("sb/cluster-resources/nodes.json", Classify("sb/cluster-resources/nodes.json", Layout), nil); err == nil {
		t.Error("Read of a member the load reads: no error")
	}
}

// FuzzClassify: every member claimed lies in its gather's folder, which
// Root finds, and its names are single path elements of its path.
func FuzzClassify(f *testing.F) {
	for _, p := range []string{"sb/cluster-resources/pods/shop.json", "cluster-resources/pods/logs/a/b/c-previous.log",
		"cluster-resources/pvs.json", "x/pods/a.json", "events/e.json", "nodes.json"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		root, layout, ok := Root(p)
		if !ok {
			return
		}
		if !strings.HasPrefix(p, root) || root != "" && !strings.HasSuffix(root, "/") {
			t.Fatalf("Root(%q) = %q", p, root)
		}
		m := Classify(p, layout)
		if m.Kind == Other {
			if m != (Member{}) {
				t.Errorf("Other with fields: %+v", m)
			}
			return
		}
		if !strings.HasPrefix(p, m.Root) {
			t.Errorf("Classify(%q): root %q", p, m.Root)
		}
		for _, s := range []string{m.Namespace, m.Pod, m.Container} {
			if strings.Contains(s, "/") || !strings.Contains(p, s) {
				t.Errorf("Classify(%q): name %q is not a path element", p, s)
			}
		}
		if m.Kind == ObjectList && m.Object.Resource == "" {
			t.Errorf("Classify(%q): objects of no kind", p)
		}
	})
}
