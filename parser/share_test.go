package parser

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
)

const sharedPodYAML = `apiVersion: v1
kind: Pod
metadata:
  name: %[1]s
  namespace: shop
  labels:
    app: web
    pod-template-hash: 7d9f
  ownerReferences:
  - apiVersion: apps/v1
    kind: ReplicaSet
    name: web-7d9f
    uid: 1111
    controller: true
spec:
  nodeName: %[2]s
  containers:
  - name: app
    image: quay.io/shop/web:1.2
    args: ["--port=8080"]
    env:
    - name: MODE
      value: %[3]s
    resources:
      limits:
        memory: %[4]s
      requests:
        cpu: 100m
    readinessProbe:
      httpGet:
        path: /healthz
        port: 8080
    volumeMounts:
    - name: config
      mountPath: /etc/web
    - name: %[5]s
      mountPath: /var/run/secrets/kubernetes.io/serviceaccount
  volumes:
  - name: config
    configMap:
      name: web-config
      defaultMode: 420
  - name: %[5]s
    projected:
      defaultMode: 420
      sources:
      - serviceAccountToken:
          expirationSeconds: 3607
          path: token
      - configMap:
          name: kube-root-ca.crt
          items:
          - key: ca.crt
            path: ca.crt
  tolerations:
  - key: node.kubernetes.io/not-ready
    operator: Exists
    effect: NoExecute
    tolerationSeconds: 300
status:
  phase: Running
  podIP: %[6]s
`

func sharedTestPod(t *testing.T, name, node, mode, memory, token, ip string) *corev1.Pod {
	t.Helper()
	p, err := decodeObjectLean[corev1.Pod]([]byte(fmt.Sprintf(sharedPodYAML, name, node, mode, memory, token, ip)), loadMem{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func podJSON(t *testing.T, p *corev1.Pod) string {
	t.Helper()
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// addUnchanged adds pods to pp in order and fails when adding changed what
// any of them reads (their JSON, before and after).
func addUnchanged(t *testing.T, pp *podParts, pods ...*corev1.Pod) {
	t.Helper()
	want := make([]string, len(pods))
	for i, p := range pods {
		want[i] = podJSON(t, p)
	}
	for _, p := range pods {
		pp.add(p)
	}
	for i, p := range pods {
		if diff := cmp.Diff(want[i], podJSON(t, p)); diff != "" {
			t.Errorf("pod %s changed (-want +got):\n%s", p.Name, diff)
		}
	}
}

// TestPodPartsShareEqualParts: replicas that differ in their names, node,
// token volume and status share every other part of their spec, and each
// pod still reads exactly as it was decoded.
func TestPodPartsShareEqualParts(t *testing.T) {
	pp := newPodParts(newInterner())
	a := sharedTestPod(t, "web-7d9f-a", "node-1", "prod", "512Mi", "kube-api-access-aaaaa", "10.128.0.5")
	b := sharedTestPod(t, "web-7d9f-b", "node-2", "prod", "512Mi", "kube-api-access-bbbbb", "10.128.0.6")
	addUnchanged(t, pp, a, b)
	ca, cb := &a.Spec.Containers[0], &b.Spec.Containers[0]
	same := func(what string, x, y any) {
		t.Helper()
		if reflect.ValueOf(x).UnsafePointer() != reflect.ValueOf(y).UnsafePointer() {
			t.Errorf("%s is not shared", what)
		}
	}
	same("env", ca.Env, cb.Env)
	same("args", ca.Args, cb.Args)
	same("resource limits", ca.Resources.Limits, cb.Resources.Limits)
	same("readiness probe", ca.ReadinessProbe, cb.ReadinessProbe)
	same("configMap volume source", a.Spec.Volumes[0].ConfigMap, b.Spec.Volumes[0].ConfigMap)
	same("projected volume source", a.Spec.Volumes[1].Projected, b.Spec.Volumes[1].Projected)
	same("tolerations", a.Spec.Tolerations, b.Spec.Tolerations)
	same("labels", a.Labels, b.Labels)
	same("owner references", a.OwnerReferences, b.OwnerReferences)
	// The volume lists and mounts differ in the token volume's name.
	if reflect.ValueOf(a.Spec.Volumes).UnsafePointer() == reflect.ValueOf(b.Spec.Volumes).UnsafePointer() {
		t.Error("volume lists with different names are shared")
	}
	if pp.shared == 0 {
		t.Error("shared count not kept")
	}
}

// TestPodPartsKeepDifferences: parts that differ in one value (an env value,
// a memory limit) stay apart.
func TestPodPartsKeepDifferences(t *testing.T) {
	pp := newPodParts(newInterner())
	a := sharedTestPod(t, "a", "n", "prod", "512Mi", "tok", "10.0.0.1")
	b := sharedTestPod(t, "b", "n", "test", "1Gi", "tok", "10.0.0.2")
	addUnchanged(t, pp, a, b)
	if a.Spec.Containers[0].Env[0].Value != "prod" || b.Spec.Containers[0].Env[0].Value != "test" {
		t.Errorf("env values %q and %q", a.Spec.Containers[0].Env[0].Value, b.Spec.Containers[0].Env[0].Value)
	}
	la, lb := a.Spec.Containers[0].Resources.Limits, b.Spec.Containers[0].Resources.Limits
	if la.Memory().String() != "512Mi" || lb.Memory().String() != "1Gi" {
		t.Errorf("memory limits %s and %s", la.Memory(), lb.Memory())
	}
	// Everything else is shared still.
	if a.Spec.Volumes[1].Projected != b.Spec.Volumes[1].Projected {
		t.Error("projected volume source not shared")
	}
}

// TestPodPartsConcurrent adds pods from several workers at once (run with
// -race); every pod reads as decoded.
func TestPodPartsConcurrent(t *testing.T) {
	pp := newPodParts(newInterner())
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 25 {
				p := sharedTestPod(t, fmt.Sprintf("p-%d-%d", w, i), "n", []string{"a", "b"}[i%2], "1Gi", fmt.Sprintf("tok-%d", i%3), "10.0.0.1")
				addUnchanged(t, pp, p)
			}
		})
	}
	wg.Wait()
}

// corpusPods decodes every pods.yaml of the corpus metal gather (skipping
// when the corpus is absent), once per call.
func corpusPods(b *testing.B, files [][]byte) []*corev1.Pod {
	var pods []*corev1.Pod
	for _, data := range files {
		_ = decodeItemsLean(data, loadMem{}, func(o *corev1.Pod, _ int, _ bool) bool {
			pods = append(pods, o)
			return true
		})
	}
	return pods
}

// BenchmarkPodParts compares interning a real gather's pods alone with
// interning and sharing their parts (ns/op and B/op per gather's pods; the
// decode is outside the timer).
func BenchmarkPodParts(b *testing.B) {
	dir := corpusDir(b, "mg-metal-ocp49")
	var files [][]byte
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "pods.yaml" {
			if data, err := os.ReadFile(p); err == nil {
				files = append(files, data)
			}
		}
		return nil
	})
	for _, bc := range []struct {
		name  string
		parts func() *podParts
	}{{"copy", func() *podParts { return nil }}, {"intern+share", func() *podParts { return newPodParts(newInterner()) }}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				pods := corpusPods(b, files)
				pp := bc.parts()
				b.StartTimer()
				for _, p := range pods {
					pp.add(p)
				}
			}
		})
	}
}

// TestPodPartsHashCollision: two different parts under one hash stay apart
// (the deep-equality check, not the hash, decides).
func TestPodPartsHashCollision(t *testing.T) {
	pp := newPodParts(newInterner())
	a := sharedTestPod(t, "a", "n", "prod", "512Mi", "tok", "10.0.0.1")
	b := sharedTestPod(t, "b", "n", "test", "1Gi", "tok", "10.0.0.2")
	va := reflect.ValueOf(&a.Spec.Containers[0].Env).Elem()
	vb := reflect.ValueOf(&b.Spec.Containers[0].Env).Elem()
	pp.share(va, 42)
	pp.share(vb, 42)
	if got := b.Spec.Containers[0].Env[0].Value; got != "test" {
		t.Errorf("env value %q after a hash collision, want test", got)
	}
	pp.share(reflect.ValueOf(&b.Spec.Tolerations).Elem(), 7)
	c := sharedTestPod(t, "c", "n", "prod", "512Mi", "tok", "10.0.0.3")
	pp.share(reflect.ValueOf(&c.Spec.Tolerations).Elem(), 7)
	if reflect.ValueOf(b.Spec.Tolerations).UnsafePointer() != reflect.ValueOf(c.Spec.Tolerations).UnsafePointer() {
		t.Error("equal tolerations under one hash not shared")
	}
}

// TestPodPartsClipSpareCapacity: after add, the slices a pod keeps (its
// status conditions, its volumes, volume mounts and arguments) hold no spare
// capacity from decoding, however little (a reader's append must copy), and
// the pod reads as decoded.
func TestPodPartsClipSpareCapacity(t *testing.T) {
	p := sharedTestPod(t, "web-7d9f-a", "node-1", "prod", "512Mi", "kube-api-access-aaaaa", "10.128.0.5")
	for i := range 5 {
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodConditionType(fmt.Sprint("C", i)), Status: corev1.ConditionTrue})
	}
	p.Spec.Volumes = append(make([]corev1.Volume, 0, 16), p.Spec.Volumes...)
	p.Spec.Containers[0].Args = append(make([]string, 0, 2), p.Spec.Containers[0].Args...) // one spare string
	p.Spec.Containers[0].VolumeMounts = append(make([]corev1.VolumeMount, 0, 16), p.Spec.Containers[0].VolumeMounts...)
	if cap(p.Status.Conditions) == len(p.Status.Conditions) {
		t.Fatal("test pod has no spare capacity to clip")
	}
	addUnchanged(t, newPodParts(newInterner()), p)
	for what, s := range map[string]reflect.Value{
		"status conditions": reflect.ValueOf(p.Status.Conditions),
		"volumes":           reflect.ValueOf(p.Spec.Volumes),
		"volume mounts":     reflect.ValueOf(p.Spec.Containers[0].VolumeMounts),
		"args":              reflect.ValueOf(p.Spec.Containers[0].Args),
	} {
		if s.Cap() != s.Len() {
			t.Errorf("%s: capacity %d for %d", what, s.Cap(), s.Len())
		}
	}
}
