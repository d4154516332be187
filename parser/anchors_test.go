package parser

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	"github.com/mgtriage/mgtriage/parser/model"
)

// redumpedPodList is a pod list as Python's yaml.dump writes it after loading
// a gather: objects that were equal share one anchor (&id001) and later items
// refer to it (*id001), across items.
const redumpedPodList = `apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata:
    creationTimestamp: '2026-11-20T08:00:00Z'
    labels: &id001
      app: web
    name: web-1
    namespace: shop
    uid: 11111111-0000-0000-0000-000000000001
  spec:
    containers: &id002
    - image: web:1
      name: app
  status:
    containerStatuses:
    - image: web:1
      name: app
      ready: true
      restartCount: 0
      state: &id003
        running:
          startedAt: '2026-11-20T08:00:05Z'
    phase: Running
- apiVersion: v1
  kind: Pod
  metadata:
    creationTimestamp: '2026-11-20T08:00:00Z'
    labels: *id001
    name: web-2
    namespace: shop
    uid: 11111111-0000-0000-0000-000000000002
  spec:
    containers: *id002
  status:
    containerStatuses:
    - image: web:1
      name: app
      ready: true
      restartCount: 3
      state: *id003
    phase: Running
- apiVersion: v1
  kind: Pod
  metadata:
    <<: {creationTimestamp: '2026-11-20T08:00:00Z', namespace: shop}
    labels: *id001
    name: web-3
    uid: 11111111-0000-0000-0000-000000000003
  spec:
    containers: *id002
  status:
    phase: Pending
kind: PodList
`

func TestHasAnchor(t *testing.T) {
	for in, want := range map[string]bool{
		"labels: &id001\n":                true,
		"- &a {x: 1}\n":                   true,
		"x: [&a 1, *a]\n":                 true,
		"&top\n":                          true,
		"url: http://h/?a=1&b=2\n":        false,
		"cmd: a && b >&2 2>&1\n":          false,
		"msg: \"x &y\"\n":                 false,
		"s: & not an anchor\n":            false,
		"plain: value\nother: - list&x\n": false,
		"name: a\n" + "containers: *id\n": false,
	} {
		if got := hasAnchor([]byte(in)); got != want {
			t.Errorf("hasAnchor(%q) = %v, want %v", in, got, want)
		}
	}

}

func TestDecodeItemsAnchorsAcrossItems(t *testing.T) {
	type pod struct {
		Name, Namespace, App string
		Containers, Restarts int
	}
	var got []pod
	errs := decodeItems([]byte(redumpedPodList), loadMem{}, func(p *corev1.Pod, _ int) {
		r := 0
		for _, c := range p.Status.ContainerStatuses {
			r += int(c.RestartCount)
		}
		got = append(got, pod{p.Name, p.Namespace, p.Labels["app"], len(p.Spec.Containers), r})
	})
	want := []pod{{"web-1", "shop", "web", 1, 0}, {"web-2", "shop", "web", 1, 3}, {"web-3", "shop", "web", 1, 0}}
	if d := cmp.Diff(want, got); d != "" || len(errs) != 0 {
		t.Errorf("pods (-want +got):\n%s\nerrors: %v", d, errs)
	}
}

// TestDecodeItemsFallsBackToWholeDocument: an item that does not decode on
// its own, in a document that is valid as a whole, is taken from the whole
// document; the items keep their lines.
func TestDecodeItemsFallsBackToWholeDocument(t *testing.T) {
	// A tag handle declared by a %TAG directive is unknown to the item
	// cut out of the document.
	in := "%TAG !k! tag:k8s.example,2026:\n---\napiVersion: v1\nitems:\n- metadata:\n    name: a\n- metadata: !k!meta\n    name: b\nkind: PodList\n"
	var names []string
	var lines []int
	errs := decodeItems([]byte(in), loadMem{}, func(p *corev1.Pod, line int) {
		names = append(names, p.Name)
		lines = append(lines, line)
	})
	if d := cmp.Diff([]string{"a", "b"}, names); d != "" || len(errs) != 0 {
		t.Errorf("names (-want +got):\n%s\nerrors: %v", d, errs)
	}
	if d := cmp.Diff([]int{5, 7}, lines); d != "" {
		t.Errorf("lines (-want +got):\n%s", d)
	}
}

// TestSplitListKeepsUnderIndentedContinuations: a flow mapping continued on
// a line indented less than the item's keys keeps its text.
func TestSplitListKeepsUnderIndentedContinuations(t *testing.T) {
	in := "apiVersion: v1\nitems:\n- metadata:\n    name: a\n- metadata: {name: b,\n labels: {app: x}}\nkind: PodList\n"
	var names []string
	errs := decodeItems([]byte(in), loadMem{}, func(p *corev1.Pod, _ int) { names = append(names, p.Name+"/"+p.Labels["app"]) })
	if d := cmp.Diff([]string{"a/", "b/x"}, names); d != "" || len(errs) != 0 {
		t.Errorf("names (-want +got):\n%s\nerrors: %v", d, errs)
	}
}

func TestLoadKeepsPodsSharingAnchors(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "must-gather.local.7")
	writeTree(t, dir, map[string]string{
		"timestamp":                      "2026-11-20 09:00:00.0 +0000 UTC m=+0.1\n2026-11-20 09:01:00.0 +0000 UTC m=+60.1\n",
		"namespaces/shop/core/pods.yaml": redumpedPodList,
	})
	g, err := Load(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, p := range g.Pods {
		keys = append(keys, p.Key()+" "+p.Columns.Status+" "+p.Columns.Restarts)
	}
	if d := cmp.Diff([]string{"shop/web-1 Running 0", "shop/web-2 Running 3", "shop/web-3 Pending 0"}, keys); d != "" {
		t.Errorf("pods (-want +got):\n%s", d)
	}
	for _, p := range g.Problems {
		t.Errorf("problem: %s: %s", p.Path, p.Error)
	}
	if objs, _ := g.Objects.List(model.Pods, "shop"); len(objs) != 3 {
		t.Errorf("object store holds %d pods, want 3", len(objs))
	}
}

func TestLoadKeepsObjectsSharingAnchors(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "must-gather.local.7")
	writeTree(t, dir, map[string]string{
		"timestamp": "2026-11-20 09:00:00.0 +0000 UTC m=+0.1\n",
		"namespaces/shop/core/configmaps.yaml": "apiVersion: v1\nitems:\n- apiVersion: v1\n  data: &d\n    a: \"1\"\n  kind: ConfigMap\n  metadata:\n    labels: &l {app: web}\n    name: one\n    namespace: shop\n" +
			"- apiVersion: v1\n  data: *d\n  kind: ConfigMap\n  metadata:\n    labels: *l\n    name: two\n    namespace: shop\nkind: ConfigMapList\n",
	})
	g, err := Load(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	objs, _ := g.Objects.List(model.ConfigMaps, "shop")
	var got []string
	for _, o := range objs {
		got = append(got, o.Name+" "+strings.Join(o.Keys, ","))
	}
	if d := cmp.Diff([]string{"one a", "two a"}, got); d != "" {
		t.Errorf("config maps (-want +got):\n%s", d)
	}
	for _, p := range g.Problems {
		if p.Path != "timestamp" {
			t.Errorf("problem: %s: %s", p.Path, p.Error)
		}
	}
}
