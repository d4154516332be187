package parser

import (
	"context"
	"strings"
	"testing"
)

// TestMixedGather: a gather whose Node objects are of one cluster and whose
// pods and kubelet journals are of another (the shape of a fragment put
// together from two clusters) is flagged; a gather of one cluster with the
// journal of a host that never registered, or with only some of its nodes
// gathered, is not.
func TestMixedGather(t *testing.T) {
	node := func(name string) string {
		return "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: " + name + "\n  uid: 0b6d3c1e-" + name[:4] + "\nstatus:\n  conditions:\n  - type: Ready\n    status: \"True\"\n    lastHeartbeatTime: \"2026-11-20T09:00:00Z\"\n  nodeInfo:\n    kubeletVersion: v1.31.6\n"
	}
	podOn := func(name, uid, nodeName string) string {
		return strings.Replace(podList("kube-system", name, uid), "  spec:\n", "  spec:\n    nodeName: "+nodeName+"\n", 1)
	}
	journal := func(host string) string {
		return "Nov 20 08:59:01.000001 " + host + " kubenswrapper[2201]: I1120 08:59:01.000000    2201 kubelet.go:2449] \"SyncLoop ADD\" source=\"api\" pods=[\"kube-system/csi-1\"]\n" +
			"Nov 20 08:59:02.000001 " + host + " kubenswrapper[2201]: E1120 08:59:02.000000    2201 pod_workers.go:1301] \"Error syncing pod, skipping\" err=\"failed\" pod=\"kube-system/csi-1\"\n"
	}
	const ts = "2026-11-20 09:00:00.0 +0000 UTC m=+0.1\n"
	tests := []struct {
		name  string
		files map[string]string
		mixed string // a part of the message, "" when not mixed
	}{
		{"Node objects of one cluster, pods and journals of another", map[string]string{
			"timestamp": ts,
			"cluster-scoped-resources/core/nodes/red-7xk2p-master-0.yaml":            node("red-7xk2p-master-0"),
			"cluster-scoped-resources/core/nodes/red-7xk2p-worker-0-abcde.yaml":      node("red-7xk2p-worker-0-abcde"),
			"namespaces/kube-system/core/pods.yaml":                                  podOn("csi-1", "u1", "blue-9qz4t-worker-0-fghij"),
			"nodes/blue-9qz4t-worker-0-fghij/blue-9qz4t-worker-0-fghij_logs_kubelet": journal("blue-9qz4t-worker-0-fghij"),
		}, "its 2 Node objects (red-7xk2p-master-0, red-7xk2p-worker-0-abcde; domain red-7xk2p) carry none of its pods or journals, while its 1 pods and 1 kubelet journals name 1 other nodes (blue-9qz4t-worker-0-fghij; domain blue-9qz4t)"},
		{"FQDN nodes of two domains", map[string]string{
			"timestamp": ts,
			"cluster-scoped-resources/core/nodes/w1.red.example.com.yaml": node("w1.red.example.com"),
			"namespaces/kube-system/core/pods.yaml":                       podOn("csi-1", "u1", "w1.blue.example.org"),
		}, "domain red.example.com"},
		{"one Node object of another cluster among the cluster's own", map[string]string{
			"timestamp": ts,
			"cluster-scoped-resources/core/nodes/red-7xk2p-worker-0-abcde.yaml": node("red-7xk2p-worker-0-abcde"),
			"cluster-scoped-resources/core/nodes/red-7xk2p-worker-0-fghij.yaml": node("red-7xk2p-worker-0-fghij"),
			"cluster-scoped-resources/core/nodes/blue-9qz4t-master-0.yaml":      node("blue-9qz4t-master-0"),
			"namespaces/kube-system/core/pods.yaml":                             podOn("csi-1", "u1", "red-7xk2p-worker-0-abcde"),
		}, "1 of its Node objects (blue-9qz4t-master-0; domain blue-9qz4t) carry none of its pods or journals and are of another domain than the 1 nodes that do (domain red-7xk2p)"},
		{"near miss: a Node of the cluster's domain that runs nothing", map[string]string{
			"timestamp": ts,
			"cluster-scoped-resources/core/nodes/red-7xk2p-worker-0-abcde.yaml": node("red-7xk2p-worker-0-abcde"),
			"cluster-scoped-resources/core/nodes/red-7xk2p-worker-0-fghij.yaml": node("red-7xk2p-worker-0-fghij"),
			"namespaces/kube-system/core/pods.yaml":                             podOn("csi-1", "u1", "red-7xk2p-worker-0-abcde"),
		}, ""},
		{"near miss: a host with a journal and no Node object, pods on gathered nodes", map[string]string{
			"timestamp": ts,
			"cluster-scoped-resources/core/nodes/red-7xk2p-worker-0-abcde.yaml":    node("red-7xk2p-worker-0-abcde"),
			"namespaces/kube-system/core/pods.yaml":                                podOn("csi-1", "u1", "red-7xk2p-worker-0-abcde"),
			"nodes/red-7xk2p-worker-0-zzzzz/red-7xk2p-worker-0-zzzzz_logs_kubelet": journal("red-7xk2p-worker-0-zzzzz"),
		}, ""},
		{"near miss: only the control plane's Node objects, pods on workers of the same cluster", map[string]string{
			"timestamp": ts,
			"cluster-scoped-resources/core/nodes/red-7xk2p-master-0.yaml": node("red-7xk2p-master-0"),
			"namespaces/kube-system/core/pods.yaml":                       podOn("csi-1", "u1", "red-7xk2p-worker-0-abcde"),
		}, ""},
		{"short names with no domain: Node objects that carry none of the pods", map[string]string{
			"timestamp": ts,
			"cluster-scoped-resources/core/nodes/node1.yaml": node("node1"),
			"namespaces/kube-system/core/pods.yaml":          podOn("csi-1", "u1", "minikube"),
		}, "its 1 Node objects (node1; no domain in the names) carry none of its pods or journals, while its 1 pods name 1 other nodes (minikube; no domain in the names)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, tt.files)
			g, err := Load(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			if tt.mixed == "" {
				if g.Mixed != "" {
					t.Errorf("flagged as mixed: %s", g.Mixed)
				}
				return
			}
			if !strings.Contains(g.Mixed, tt.mixed) {
				t.Errorf("Mixed = %q, want it to hold %q", g.Mixed, tt.mixed)
			}
		})
	}
}

// The corpus gathers put together from several clusters are flagged: the
// fragment of two QE clusters, and the pod captures whose nodes.json is of
// other clusters than the minikube their pods ran on.
func TestMixedCorpusFragment(t *testing.T) {
	dir := corpusDir(t, "mg-fragment-ocp418")
	g, err := Load(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(g.Mixed, "domain infd-vrf-418t2-2lnlk") || !strings.Contains(g.Mixed, "domain qemtv-05-s8dvn") {
		t.Errorf("Mixed = %q", g.Mixed)
	}
	// The other cluster's nodes lack no journal this upload should hold.
	for _, n := range g.Health.NodesWithoutLogs {
		if strings.HasPrefix(n, "infd-vrf-418t2") {
			t.Errorf("node of the other cluster %s listed without a kubelet journal", n)
		}
	}
	g, err = Load(context.Background(), corpusDir(t, "k8s-failing-pods/analyze-files"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(g.Mixed, "chart-testing-control-plane, minikube") {
		t.Errorf("Mixed = %q", g.Mixed)
	}
	// The healthy real gathers are not.
	for _, name := range []string{"mg-metal-ocp49", "mg-aws-ocp48", "insights-archive-sample", "sos-ubuntu-k8s123", "k8s-failing-pods/k3s-support-bundle"} {
		g, err := Load(context.Background(), corpusDir(t, name))
		if err != nil {
			t.Fatal(err)
		}
		if g.Mixed != "" {
			t.Errorf("%s flagged as mixed: %s", name, g.Mixed)
		}
	}
}
