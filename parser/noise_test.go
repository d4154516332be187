package parser

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGatherNoise: placeholder per-pod files of pods that core/pods.yaml
// holds are not problems; identical problems collapse into one with a count;
// namespaces without pods.yaml are gaps only when something there runs pods;
// a product gather's namespaces/all/ folder is not a namespace.
func TestGatherNoise(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "must-gather.local.9")
	files := map[string]string{
		"timestamp":                      "2026-11-20 09:00:00.0 +0000 UTC m=+0.1\n2026-11-20 09:01:00.0 +0000 UTC m=+60.1\n",
		"namespaces/shop/core/pods.yaml": podList("shop", "web-1", "11111111-0000-0000-0000-000000000001"),
		// a placeholder where the per-pod file would be: the pod is in pods.yaml
		"namespaces/shop/pods/web-1/web-1.yaml": "placeholder\n",
		// per-pod files of pods that pods.yaml lacks, all broken the same way
		"namespaces/cart/core/pods.yaml":           podList("cart", "api-1", "11111111-0000-0000-0000-000000000002"),
		"namespaces/cart/pods/api-2/api-2.yaml":    "placeholder\n",
		"namespaces/cart/pods/api-3/api-3.yaml":    "placeholder\n",
		"namespaces/cart/pods/api-4/api-4.yaml":    "placeholder\n",
		"namespaces/cart/pods/api-5/api-5.yaml":    "placeholder\n",
		"namespaces/cart/pods/api-6/api-6.yaml":    "placeholder\n",
		"namespaces/cart/pods/api-7/api-7.yaml":    "placeholder\n",
		"namespaces/cart/pods/api-8/api-8.yaml":    "placeholder\n",
		"namespaces/cart/pods/api-9/api-9.yaml":    "placeholder\n",
		"namespaces/cart/pods/api-10/api-10.yaml":  "placeholder\n",
		"namespaces/cart/pods/api-11/api-11.yaml":  "placeholder\n",
		"namespaces/kube-public/kube-public.yaml":  "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: kube-public\n",
		"namespaces/billing/billing.yaml":          "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: billing\n",
		"namespaces/billing/apps/deployments.yaml": "apiVersion: v1\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: invoicer\n    namespace: billing\n  spec:\n    replicas: 2\nkind: DeploymentList\n",
		"namespaces/all/summary.txt":               "product gather summary\n",
	}
	writeTree(t, dir, files)
	g, err := Load(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	var problems []string
	for _, p := range g.Problems {
		problems = append(problems, p.Path+": "+p.Error)
	}
	if len(problems) != 1 || !strings.HasPrefix(problems[0], "namespaces/cart/pods/api-10/api-10.yaml: ") ||
		!strings.Contains(problems[0], "(the same in 9 more files, e.g. namespaces/cart/pods/api-11/api-11.yaml, namespaces/cart/pods/api-2/api-2.yaml, namespaces/cart/pods/api-3/api-3.yaml, …)") {
		t.Errorf("problems:\n%s", strings.Join(problems, "\n"))
	}
	if d := cmp.Diff([]string{"namespaces/billing"}, g.Health.NamespacesWithoutPods); d != "" {
		t.Errorf("namespaces without pods (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"namespaces/kube-public"}, g.Health.NamespacesWithoutWorkloads); d != "" {
		t.Errorf("namespaces without workloads (-want +got):\n%s", d)
	}
}
