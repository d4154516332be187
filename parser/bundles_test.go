package parser

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/insights"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/supportbundle"
)

const bundleFixtures = "../fixtures/bundles"

func TestBundleRoot(t *testing.T) {
	for _, tc := range []struct {
		path, root, layout string
	}{
		{"config/pod/shop/api-1.json", "", LayoutInsights},
		{"insights-2026/config/node/w-0.json", "insights-2026/", LayoutInsights},
		{"config/id", "", LayoutInsights},
		{"config/identity.json", "", ""},
		{"insights-operator/gathers.json", "", LayoutInsights},
		{"support-bundle-x/cluster-resources/pods/shop.json", "support-bundle-x/", LayoutSupportBundle},
		{"pods/a.json", "", LayoutPodCaptures},
		{"x/events/a.json", "x/", LayoutPodCaptures},
		{"x/nodes.json", "x/", LayoutPodCaptures},
		{"pods/a/b.json", "", ""},
		{"pods/a.yaml", "", ""},
		// Never inside a must-gather or a sosreport.
		{"mg/namespaces/shop/pods/a.json", "", ""},
		{"mg/cluster-scoped-resources/config/pod/a/b.json", "", ""},
		{"sos/sos_commands/x/pods/a.json", "", ""},
	} {
		root, layout, ok := bundleRoot(tc.path)
		if ok != (tc.layout != "") || root != tc.root || layout != tc.layout {
			t.Errorf("bundleRoot(%q) = %q, %q, %v; want %q, %q", tc.path, root, layout, ok, tc.root, tc.layout)
		}
	}
}

// TestClassifyBundle checks the dispatch of the bundles' members: which
// kind of the load each format's own reckoning (insights.Classify,
// supportbundle.Classify, tested in their packages) is read as.
func TestClassifyBundle(t *testing.T) {
	for _, tc := range []struct {
		path string
		want classified
	}{
		{"config/pod/shop/api-1.json", classified{Kind: kindPod, Namespace: "shop", Pod: "api-1", Filtered: model.Pods}},
		{"config/pod/shop/logs/api-1/wait-db_previous.log", classified{Kind: kindContainerLog, Namespace: "shop", Pod: "api-1", Container: "wait-db", Previous: true}},
		{"config/pod/shop/logs/api-1/errors.log", classified{Kind: kindContainerLog, Namespace: "shop", Pod: "api-1"}},
		{"config/node/w-0.json", classified{Kind: kindNode, Node: "w-0"}},
		{"config/node/logs/w-0.log", classified{Kind: kindNodeKubeletLog, Node: "w-0"}},
		{"config/clusteroperator/ingress.json", classified{Kind: kindInsights, Insights: insights.Member{Kind: insights.ClusterOperator, Name: "ingress"}}},
		{"config/clusteroperator/operator.openshift.io/etcd/cluster.json", classified{Kind: kindOther}},
		{"config/version.json", classified{Kind: kindClusterVersion}},
		// Alone, events/<name>.json reads as a capture: trimmed Insights events name their namespace in each item.
		{"events/openshift-ingress.json", classified{Kind: kindSupportBundle, Filtered: model.Events, Bundle: supportbundle.Member{Kind: supportbundle.Events, Filtered: model.Events}}},
		{"config/machineconfigpools/worker.json", classified{Kind: kindObject, Group: "machineconfiguration.openshift.io", Resource: "machineconfigpools", Name: "worker", Filtered: model.MachineConfigPools}},
		{"config/pdbs/openshift-etcd/guard.json", classified{Kind: kindObject, Group: "policy", Resource: "poddisruptionbudgets", Namespace: "openshift-etcd", Name: "guard", Filtered: model.Kind{Group: "policy", Resource: "poddisruptionbudgets"}}},
		{"sb/cluster-resources/pods/shop.json", classified{Kind: kindPodList, Root: "sb/", Namespace: "shop"}},
		{"sb/cluster-resources/pods/logs/shop/web-1/web-previous.log", classified{Kind: kindContainerLog, Root: "sb/", Namespace: "shop", Pod: "web-1", Container: "web", Previous: true}},
		{"sb/cluster-resources/pods/logs/shop/web-1/web.log", classified{Kind: kindContainerLog, Root: "sb/", Namespace: "shop", Pod: "web-1", Container: "web"}},
		{"sb/cluster-resources/events/shop.json", classified{Kind: kindSupportBundle, Root: "sb/", Namespace: "shop", Bundle: supportbundle.Member{Kind: supportbundle.Events, Root: "sb/", Namespace: "shop"}}},
		{"sb/cluster-resources/nodes.json", classified{Kind: kindNodeList, Root: "sb/"}},
		{"sb/cluster-resources/deployments/shop.json", classified{Kind: kindObjectList, Root: "sb/", Group: "apps", Resource: "deployments", Namespace: "shop"}},
		{"sb/cluster-resources/pvs.json", classified{Kind: kindObjectList, Root: "sb/", Resource: "persistentvolumes"}},
		{"sb/cluster-resources/custom-resource-definitions.json", classified{Kind: kindOther}},
		{"pods/pending.json", classified{Kind: kindSupportBundle, Filtered: model.Pods, Bundle: supportbundle.Member{Kind: supportbundle.PodCaptures, Filtered: model.Pods}}},
		{"events/pending.json", classified{Kind: kindSupportBundle, Filtered: model.Events, Bundle: supportbundle.Member{Kind: supportbundle.Events, Filtered: model.Events}}},
		{"nodes.json", classified{Kind: kindNodeList}},
		{"conditional/namespaces/mon/pods/am-0/containers/am/logs/last-50-lines.log", classified{Kind: kindContainerLog, Root: "", Namespace: "mon", Pod: "am-0", Container: "am"}},
	} {
		got, _ := classifyOther(tc.path)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("classifyOther(%q) (-want +got):\n%s", tc.path, diff)
		}
	}
}

func TestDecodeAnyEvents(t *testing.T) {
	trimmed := `{"items":[{"namespace":"openshift-ingress","lastTimestamp":"2026-11-19T22:40:02+02:00","reason":"FailedScheduling","message":"0/2 nodes are available","type":"Warning"},
	{"lastTimestamp":"2026-11-19T22:41:02Z","reason":"Created","message":"m"}]}`
	events, errs := decodeAnyEvents("events/openshift-ingress.json", "fallback-ns", []byte(trimmed), loadMem{})
	if len(errs) > 0 || len(events) != 2 {
		t.Fatalf("got %d events, errors %v", len(events), errs)
	}
	e := events[0]
	if e.Object.Reason != "FailedScheduling" || e.Object.Type != "Warning" || e.When().Format("15:04") != "20:40" {
		t.Errorf("trimmed event read as %+v at %s", e.Object, e.When())
	}
	if e.Object.InvolvedObject.Kind != "" {
		t.Errorf("a trimmed event names no involved object, got %+v", e.Object.InvolvedObject)
	}
	if events[1].Object.Reason != "Created" || events[1].Object.Type != "" {
		t.Errorf("second trimmed event read as %+v", events[1].Object)
	}
	full := `{"kind":"EventList","items":[{"metadata":{"name":"a.1","namespace":"shop"},"involvedObject":{"kind":"Pod","name":"web-1"},"reason":"BackOff","message":"m","count":3,"lastTimestamp":"2026-11-20T08:00:00Z"}]}`
	events, errs = decodeAnyEvents("cluster-resources/events/shop.json", "shop", []byte(full), loadMem{})
	if len(errs) > 0 || len(events) != 1 {
		t.Fatalf("got %d events, errors %v", len(events), errs)
	}
	if io := events[0].Object.InvolvedObject; io.Kind != "Pod" || io.Name != "web-1" || io.Namespace != "shop" || events[0].Count() != 3 {
		t.Errorf("kubectl event read as %+v", events[0].Object)
	}
	// An event that names no namespace anywhere: its pod is in the
	// namespace the file is named for.
	bare := `{"kind":"EventList","items":[{"metadata":{"name":"a.1"},"involvedObject":{"kind":"Pod","name":"web-1"},"reason":"BackOff","message":"m"}]}`
	events, errs = decodeAnyEvents("cluster-resources/events/shop.json", "shop", []byte(bare), loadMem{})
	if len(errs) > 0 || len(events) != 1 {
		t.Fatalf("got %d events, errors %v", len(events), errs)
	}
	if io := events[0].Object.InvolvedObject; io.Namespace != "shop" {
		t.Errorf("involved object of an event without namespace: %+v, want namespace shop", io)
	}
}

// TestLoadBundles reads each fixture bundle and checks its layout, its pods
// with their kubectl STATUS, its nodes, and the coverage of pods.
func TestLoadBundles(t *testing.T) {
	for _, tc := range []struct {
		dir      string
		layout   string
		pods     map[string]string // namespace/name → STATUS
		nodes    int
		events   int
		logs     map[string]int // namespace/name → container logs
		coverage model.Coverage // of pods in namespace "shop" for a name not there
	}{
		{"insights-archive", LayoutInsights, map[string]string{
			"shop/orders-api-6d9f7c8b5-k2x4q":                  "Init:CrashLoopBackOff",
			"shop/nightly-export-29001420-x9z8w":               "Error",
			"openshift-ingress/router-default-5b6c7d8e9-q7w8e": "Pending",
		}, 2, 1, map[string]int{"shop/orders-api-6d9f7c8b5-k2x4q": 1}, model.Filtered},
		{"support-bundle", LayoutSupportBundle, map[string]string{
			"shop/web-5f7d8c9b6-p4m2n":             "ImagePullBackOff",
			"shop/reindex-28990080-7tq2d":          "OOMKilled",
			"kube-system/coredns-76f75df574-8wq9z": "Running",
		}, 2, 4, map[string]int{"shop/reindex-28990080-7tq2d": 1, "kube-system/coredns-76f75df574-8wq9z": 1}, model.Absent},
		{"pod-captures", LayoutPodCaptures, map[string]string{
			"ml/trainer-0":                   "Pending",
			"billing/ledger-7c9d8e6f5-2hk4j": "Pending",
			"ops/backup-agent-x2k9d":         "ContainerCreating",
			"ops/report-gen-6f5e4d3c2-wq7rt": "CrashLoopBackOff",
		}, 2, 2, nil, model.Filtered},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			g, err := Load(context.Background(), filepath.Join(bundleFixtures, tc.dir))
			if err != nil {
				t.Fatal(err)
			}
			if len(g.Layouts) != 1 || g.Layouts[0].Kind != tc.layout {
				t.Fatalf("layouts %+v, want one %q", g.Layouts, tc.layout)
			}
			pods := map[string]string{}
			logs := map[string]int{}
			for _, p := range g.Pods {
				pods[p.Key()] = p.Columns.Status
				if len(p.Logs) > 0 {
					logs[p.Key()] = len(p.Logs)
				}
			}
			if diff := cmp.Diff(tc.pods, pods); diff != "" {
				t.Errorf("pods (-want +got):\n%s", diff)
			}
			if tc.logs == nil {
				tc.logs = map[string]int{}
			}
			if diff := cmp.Diff(tc.logs, logs); diff != "" {
				t.Errorf("container logs (-want +got):\n%s", diff)
			}
			if len(g.Nodes) != tc.nodes || len(g.Events) != tc.events {
				t.Errorf("%d nodes, %d events; want %d, %d", len(g.Nodes), len(g.Events), tc.nodes, tc.events)
			}
			if _, cov := g.Objects.Get(model.Pods, "shop", "not-there"); cov != tc.coverage {
				t.Errorf("coverage of an absent pod: %v, want %v", cov, tc.coverage)
			}
			if h := g.Health; len(h.NamespacesWithoutPods)+len(h.PodsWithoutLogs)+len(h.NodesWithoutLogs) > 0 {
				t.Errorf("health claims what the source never holds: %+v", h)
			}
			if g.CollectedAt.IsZero() {
				t.Error("no gather time")
			}
		})
	}
}

// TestInsightsNestedCaptures: files of pod-capture shape inside an Insights
// archive (its own test data) are not objects of the cluster.
func TestInsightsNestedCaptures(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("config/id", "x")
	write("config/node/n-1.json", `{"metadata":{"name":"n-1"}}`)
	write("gatherer-testdata/nodes.json", `{"kind":"NodeList","items":[{"metadata":{"name":"elsewhere-1"}}]}`)
	g, err := Load(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range g.Nodes {
		names = append(names, n.Object.Name)
	}
	if strings.Join(names, ",") != "n-1" || len(g.Layouts) != 1 {
		t.Errorf("nodes %v, layouts %+v; want only n-1 of one insights archive", names, g.Layouts)
	}
}

func FuzzAnyEvents(f *testing.F) {
	for _, p := range []string{"insights-archive/events/openshift-ingress.json", "support-bundle/cluster-resources/events/shop.json", "pod-captures/events/ops.json"} {
		if b, err := os.ReadFile(filepath.Join(bundleFixtures, p)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"items":[{"namespace":"a","reason":"r"}]}`))
	f.Add([]byte(`{"items":[{"lastTimestamp":"bad"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		events, _ := decodeAnyEvents("events/x.json", "x", data, loadMem{})
		for _, e := range events {
			io := e.Object.InvolvedObject
			if io == nil {
				t.Fatalf("event without its involved object: %+v", e.Object)
			}
			if io.Kind != "" && io.Kind != "Node" && io.Namespace == "" {
				t.Errorf("involved object without a namespace: %+v", io)
			}
		}
	})
}

func FuzzCaptureObjects(f *testing.F) {
	for _, p := range []string{"pod-captures/pods/pending-gpu.json", "pod-captures/pods/ops.json", "support-bundle/cluster-resources/pods/shop.json"} {
		if b, err := os.ReadFile(filepath.Join(bundleFixtures, p)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"kind":"ConfigMap","metadata":{"name":"x"}}`))
	f.Add([]byte(`{"items":[{"kind":"Service","metadata":{"name":"x"}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		b := newBuilder("x")
		b.readPodCaptures("pods/x.json", "", data)
		for _, pods := range b.filePods {
			for _, p := range pods {
				if p.Object.Name == "" {
					t.Errorf("pod without a name kept: %+v", p.Object.ObjectMeta)
				}
			}
		}
	})
}

// Pod captures carry no collection time: their ages are unknown, never
// measured by a time inferred from the nodes.json beside them, and a gather
// problem says so.
func TestPodCapturesAgesUnknown(t *testing.T) {
	g, err := Load(context.Background(), filepath.Join(bundleFixtures, "pod-captures"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range g.Pods {
		if p.Columns.Age != "<unknown>" || !p.Now.IsZero() || strings.Contains(p.Columns.Restarts, "ago") {
			t.Errorf("%s: age %q restarts %q now %v", p.Key(), p.Columns.Age, p.Columns.Restarts, p.Now)
		}
	}
	found := false
	for _, pr := range g.Problems {
		found = found || strings.Contains(pr.Error, "AGE") && strings.Contains(pr.Error, "are unknown")
	}
	if !found {
		t.Errorf("no problem says the ages are unknown: %+v", g.Problems)
	}
}
