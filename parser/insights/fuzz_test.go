package insights

import (
	"strings"
	"testing"

	"github.com/mgtriage/mgtriage/parser/load"
)

// FuzzRead claims a member path as the load does (Root, ObjectRoot, then
// Classify or ClassifyConditional) and reads arbitrary bytes as it: no
// panic; a member claimed lies in the archive's folder that Root or
// ObjectRoot finds; the Reader reads only its own kind, handing the bytes
// back to the load unchanged as one ClusterOperator named for its file;
// the count of what it read matches. (The load's reading of the documents
// handed back is fuzzed in package parser, FuzzReadMember.)
func FuzzRead(f *testing.F) {
	for _, s := range []struct{ p, data string }{
		{"insights-2026-11-20-091233/config/clusteroperator/dns.json", `{"apiVersion":"config.openshift.io/v1","kind":"ClusterOperator","metadata":{"name":"dns"},"status":{"conditions":[{"type":"Degraded","status":"True","reason":"DNSDegraded","message":"DNS default is degraded","lastTransitionTime":"2026-11-20T08:12:00Z"}]}}`},
		{"config/clusteroperator/ingress.json", `{"metadata":{},"status":{}}`},
		{"insights-2026-11-20-091233/config/pod/openshift-ingress/router-default-5d8f7c6b9-x2x4q.json", `{"metadata":{"name":"router-default-5d8f7c6b9-x2x4q","namespace":"openshift-ingress"},"status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable","message":"0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports."}]}}`},
		{"config/pod/shop/logs/catalog-1/catalog_previous.log", "2026-11-20T09:10:32.000000000Z panic: boom\n"},
		{"config/node/logs/worker-0.log", "Nov 20 09:01:02 worker-0 kubenswrapper[2101]: E1120 09:01:02.000000 2101 pod_workers.go:1298] \"Error syncing pod, skipping\" err=\"back-off 5m0s restarting failed container\"\n"},
		{"config/node/worker-0.json", `{"metadata":{"name":"worker-0"}}`},
		{"config/version.json", `{"spec":{"clusterID":"0b6c9a6e"},"status":{"desired":{"version":"4.18.12"}}}`},
		{"config/pdbs/shop/catalog.json", `{"metadata":{"name":"catalog","namespace":"shop"}}`},
		{"config/machineconfigpools/worker.json", `{"metadata":{"name":"worker"}}`},
		{"x/conditional/namespaces/shop/pods/catalog-1/containers/catalog/logs/last-100-lines.log", "E1120 x\n"},
		{"events/openshift-ingress.json", `{"items":[{"namespace":"openshift-ingress","lastTimestamp":"2026-11-20T09:00:00Z","reason":"FailedScheduling","message":"x","type":"Warning"}]}`},
	} {
		f.Add(s.p, []byte(s.data))
	}
	f.Fuzz(func(t *testing.T, p string, data []byte) {
		root, ok := Root(p)
		if !ok {
			root, ok = ObjectRoot(p)
		}
		m := Classify(p)
		if m.Kind == Other {
			m = ClassifyConditional(p)
		}
		if !ok && m.Kind != Other && m.Kind != ContainerLog {
			t.Fatalf("Classify(%q) = %+v, but neither Root nor ObjectRoot claims the path", p, m)
		}
		if ok && !strings.HasPrefix(p, root) {
			t.Fatalf("root %q does not lead %q", root, p)
		}
		if m.Kind != Other && !strings.HasPrefix(p, m.Root) {
			t.Fatalf("Classify(%q): root %q", p, m.Root)
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
		want := load.Objects{Content: load.ClusterOperator, Root: m.Root, Name: m.Name}
		if err != nil || h.path != p || h.o != want || string(h.data) != string(data) {
			t.Fatalf("%q handed back as %q %+v (error %v), want %+v", p, h.path, h.o, err, want)
		}
		if u := r.Used(); len(u) != 1 || u[0].Files != 1 || u[0].What != ClusterOperatorLabel {
			t.Fatalf("Used = %+v", u)
		}
	})
}
