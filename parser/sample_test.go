package parser

import (
	"context"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sampleGather is the bundled sample written for this project (fixtures/README.md).
const sampleGather = "../fixtures/sample/must-gather.local.5049263173451366137"

// TestSampleColumns pins the kubectl columns of every pod of the bundled
// sample at its gather time. The expected rows were computed independently of
// this package (fixtures/README.md lists them with the symptom of each pod).
func TestSampleColumns(t *testing.T) {
	if _, err := os.Stat(sampleGather); err != nil {
		t.Fatalf("bundled sample missing: %v", err)
	}
	g, err := Load(context.Background(), sampleGather)
	if err != nil {
		t.Fatal(err)
	}
	want := []podRow{
		{"openshift-dns", "dns-default-4kq2x", "2/2", "Running", "0", "13d"},
		{"openshift-dns", "dns-default-9vzrt", "2/2", "Running", "0", "13d"},
		{"openshift-dns", "dns-default-tn6fd", "2/2", "Running", "0", "13d"},
		{"openshift-etcd", "etcd-master-0.sample.example.com", "5/5", "Running", "0", "13d"},
		{"openshift-etcd", "installer-7-master-0.sample.example.com", "0/1", "Completed", "0", "13d"},
		{"openshift-ingress", "router-default-7f8c9d6b5-2xk4q", "1/1", "Running", "0", "13d"},
		{"openshift-ingress", "router-default-7f8c9d6b5-9pl7m", "1/1", "Running", "0", "13d"},
		{"openshift-marketplace", "marketplace-operator-6d5f7b8c9-hz2qv", "1/1", "Running", "0", "13d"},
		{"openshift-monitoring", "alertmanager-main-0", "6/6", "Running", "0", "13d"},
		{"openshift-monitoring", "prometheus-k8s-0", "6/6", "Running", "1 (6d5h ago)", "13d"},
		{"shop", "analytics-6f7d8c9b5-hh2jk", "0/1", "Pending", "0", "145m"},
		{"shop", "billing-7f8e9d6c5-mn4bv", "0/1", "ImagePullBackOff", "0", "15h"},
		{"shop", "cache-5d4c3b2a1-ev1ct", "0/1", "ContainerStatusUnknown", "0", "45h"},
		{"shop", "cache-5d4c3b2a1-w7p2k", "1/1", "Running", "0", "3m28s"},
		{"shop", "cart-5f7b9c6d8-x2x9q", "0/1", "ImagePullBackOff", "0", "40m"},
		{"shop", "catalog-84b6d9c7f-k8m2p", "0/1", "CrashLoopBackOff", "12 (4m19s ago)", "47m"},
		{"shop", "db-migrate-28870530-q7w2x", "0/1", "Init:Error", "0", "12m"},
		{"shop", "exporter-5c7d9f8b6-t6y7u", "0/1", "Pending", "0", "11h"},
		{"shop", "frontend-7d9c8b6f4-abcde", "1/1", "Running", "0", "114m"},
		{"shop", "inventory-7b8c9d6f5-v4n7s", "0/1", "Init:CrashLoopBackOff", "9 (3m31s ago)", "33m"},
		{"shop", "legacy-api-5f6e7d8c9-old01", "1/1", "Terminating", "0", "10d"},
		{"shop", "nightly-export-28870500-abcd9", "0/1", "Error", "0", "162m"},
		{"shop", "orders-6b8c9d7f4-r5t6y", "2/2", "Running", "3 (3h20m ago)", "3d23h"},
		{"shop", "payments-6c8d7f5b9-qwert8", "0/1", "ErrImagePull", "0", "10m"},
		{"shop", "recommender-5d6f7c8b9-pl3mn", "0/1", "Running", "0", "40m"},
		{"shop", "reports-28870440-zzk2l", "0/1", "Completed", "0", "72m"},
		{"shop", "search-0", "0/1", "CrashLoopBackOff", "7 (4m44s ago)", "30m"},
		{"shop", "uploader-6d7e8f9a0-cr8t1", "0/1", "ContainerCreating", "0", "22m"},
		{"shop", "worker-config-6b7c8d9e0-zx8cv", "0/1", "CreateContainerConfigError", "0", "92m"},
	}
	if diff := cmp.Diff(want, podRows(g)); diff != "" {
		t.Errorf("kubectl columns (-want +got):\n%s", diff)
	}
	if g.ClusterVersion != "4.18.12" || g.KubernetesVersion != "v1.31.6" || g.Platform == "" || len(g.Nodes) != 3 {
		t.Errorf("cluster %q k8s %q platform %q nodes %d", g.ClusterVersion, g.KubernetesVersion, g.Platform, len(g.Nodes))
	}
	if len(g.Problems) != 1 {
		t.Errorf("want exactly the truncated marketplace events file as a problem, got %v", g.Problems)
	}
}
