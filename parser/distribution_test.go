package parser

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/mgtriage/mgtriage/parser/model"
)

// TestDistribution: the platform is decided from OpenShift's own facts; a
// must-gather-shaped folder counts as OpenShift unless its runtimes (nodes
// and container IDs) are all containerd or Docker and nothing else says
// OpenShift.
func TestDistribution(t *testing.T) {
	const stamp = "2026-11-20 09:00:00.0 +0000 UTC m=+0.1\n2026-11-20 09:01:00.0 +0000 UTC m=+60.1\n"
	node := func(name, runtime string, labels string) string {
		return "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name + "\n  labels: {" + labels + "}\nstatus:\n  nodeInfo:\n    containerRuntimeVersion: " + runtime + "\n"
	}
	pods := func(ns, containerID string) string {
		return "apiVersion: v1\nkind: PodList\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: web-1, namespace: " + ns + ", uid: u1, creationTimestamp: \"2026-11-20T08:00:00Z\"}\n" +
			"  spec: {nodeName: n1, containers: [{name: web, image: web:1}]}\n" +
			"  status:\n    phase: Running\n    containerStatuses:\n    - {name: web, image: web:1, imageID: \"\", ready: true, restartCount: 0, containerID: \"" + containerID + "\", state: {running: {startedAt: \"2026-11-20T08:00:05Z\"}}}\n"
	}
	for _, tt := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"must-gather of OpenShift (ClusterVersion)", map[string]string{
			"cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml": "apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata: {name: version}\nstatus:\n  desired: {version: 4.16.3}\n",
			"namespaces/shop/core/pods.yaml":                                            pods("shop", "cri-o://abc"),
		}, model.DistributionOpenShift},
		{"must-gather without nodes or runtimes", map[string]string{
			"namespaces/shop/core/pods.yaml": pods("shop", ""),
		}, model.DistributionOpenShift},
		{"must-gather with CRI-O nodes", map[string]string{
			"cluster-scoped-resources/core/nodes/n1.yaml": node("n1", "cri-o://1.29.1", ""),
			"namespaces/shop/core/pods.yaml":              pods("shop", "cri-o://abc"),
		}, model.DistributionOpenShift},
		{"must-gather-shaped Kubernetes, containerd nodes", map[string]string{
			"cluster-scoped-resources/core/nodes/n1.yaml": node("n1", "containerd://1.7.24", "cloud.google.com/gke-nodepool: pool-1"),
			"namespaces/shop/core/pods.yaml":              pods("shop", "containerd://abc"),
		}, model.DistributionKubernetes},
		{"must-gather-shaped Kubernetes, Docker container IDs only", map[string]string{
			"namespaces/shop/core/pods.yaml": pods("shop", "docker://abc"),
		}, model.DistributionKubernetes},
		{"containerd nodes but an openshift-* namespace", map[string]string{
			"cluster-scoped-resources/core/nodes/n1.yaml":           node("n1", "containerd://1.7.24", ""),
			"namespaces/shop/core/pods.yaml":                        pods("shop", "containerd://abc"),
			"namespaces/openshift-multus/openshift-multus.yaml":     "apiVersion: v1\nkind: Namespace\nmetadata: {name: openshift-multus}\n",
			"namespaces/openshift-multus/core/configmaps.yaml":      "apiVersion: v1\nkind: ConfigMapList\nitems: []\n",
			"namespaces/openshift-multus/core/serviceaccounts.yaml": "apiVersion: v1\nkind: ServiceAccountList\nitems: []\n",
		}, model.DistributionOpenShift},
		{"containerd nodes but an RHCOS label", map[string]string{
			"cluster-scoped-resources/core/nodes/n1.yaml": node("n1", "containerd://1.7.24", "node.openshift.io/os_id: rhcos"),
			"namespaces/shop/core/pods.yaml":              pods("shop", "containerd://abc"),
		}, model.DistributionOpenShift},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "must-gather.local.1")
			files := map[string]string{"timestamp": stamp}
			for k, v := range tt.files {
				files[k] = v
			}
			writeTree(t, dir, files)
			g, err := Load(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			if g.Distribution != tt.want {
				t.Errorf("Distribution = %q, want %q (layouts %+v)", g.Distribution, tt.want, g.Layouts)
			}
		})
	}
}
