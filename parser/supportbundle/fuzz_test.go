package supportbundle

import (
	"strings"
	"testing"

	"github.com/mgtriage/mgtriage/parser/load"
)

// FuzzRead claims a member path as the load does (Root, then Classify in
// the layout Root found) and reads arbitrary bytes as it: no panic; a member
// claimed lies in the gather's folder; the Reader reads only its own kinds,
// handing each back to the load as the document it is (an event list with
// the namespace its file is named for, pod captures), under the gather's
// root; the counts of what it read match. (The load's reading of the
// documents handed back is fuzzed in package parser, FuzzReadMember.)
func FuzzRead(f *testing.F) {
	for _, s := range []struct{ p, data string }{
		{"support-bundle-2026-11-20T09_12_33/cluster-resources/events/shop.json", `{"kind":"EventList","apiVersion":"v1","metadata":{},"items":[{"metadata":{"name":"catalog-1.187a","namespace":"shop"},"involvedObject":{"kind":"Pod","namespace":"shop","name":"catalog-1"},"reason":"BackOff","message":"Back-off restarting failed container catalog in pod catalog-1_shop","count":41,"type":"Warning","lastTimestamp":"2026-11-20T09:10:40Z"}]}`},
		{"support-bundle-2026-11-20T09_12_33/cluster-resources/pods/shop.json", `{"kind":"PodList","items":[]}`},
		{"support-bundle-2026-11-20T09_12_33/cluster-resources/pods/logs/shop/catalog-1/catalog-previous.log", "panic: boom\n"},
		{"support-bundle-2026-11-20T09_12_33/cluster-resources/nodes.json", `{"kind":"NodeList","items":[]}`},
		{"support-bundle-2026-11-20T09_12_33/cluster-resources/deployments/shop.json", `{"kind":"DeploymentList","items":[]}`},
		{"support-bundle-2026-11-20T09_12_33/cluster-resources/pvs.json", `{"kind":"PersistentVolumeList","items":[]}`},
		{"captures/pods/pending-gpu.json", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"gpu-job-7x2kq","namespace":"ml"},"status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable","message":"0/3 nodes are available: 3 Insufficient nvidia.com/gpu."}]}}`},
		{"captures/events/ml.json", `{"items":[]}`},
		{"nodes.json", `{"items":[]}`},
	} {
		f.Add(s.p, []byte(s.data))
	}
	f.Fuzz(func(t *testing.T, p string, data []byte) {
		root, layout, ok := Root(p)
		if !ok {
			return
		}
		if !strings.HasPrefix(p, root) {
			t.Fatalf("Root(%q) = %q", p, root)
		}
		m := Classify(p, layout)
		if m.Kind != Other && (!strings.HasPrefix(p, m.Root) || m.Root != root) {
			t.Fatalf("Classify(%q, %q) = %+v, Root %q", p, layout, m, root)
		}
		h := &handed{}
		r := NewReader(h)
		err := r.Read(p, m, data)
		if !m.Kind.ReadsItself() {
			if err == nil || h.path != "" {
				t.Fatalf("Read of a %v member: error %v, handed back %q", m.Kind, err, h.path)
			}
			return
		}
		r.Count(m.Kind)
		want := load.Objects{Content: load.Events, Root: m.Root, Namespace: m.Namespace}
		label := EventListsLabel
		if m.Kind == PodCaptures {
			want, label = load.Objects{Content: load.PodCaptures, Root: m.Root}, PodCapturesLabel
		}
		if err != nil || h.path != p || h.o != want {
			t.Fatalf("%q handed back as %q %+v (error %v), want %+v", p, h.path, h.o, err, want)
		}
		if u := r.Used(); len(u) != 1 || u[0].Files != 1 || u[0].What != label {
			t.Fatalf("Used = %+v", u)
		}
	})
}
