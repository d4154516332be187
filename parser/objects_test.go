package parser

import (
	"encoding/json"
	"reflect"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/model"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// TestControllersDecodedWithoutTemplate: the store keeps a ReplicaSet,
// StatefulSet or Job with what the joins read (metadata, replicas, status)
// and without most of its pod template, which is most of the object.
func TestControllersDecodedWithoutTemplate(t *testing.T) {
	const rs = `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-5d9c
  namespace: shop
  ownerReferences:
  - apiVersion: apps/v1
    controller: true
    kind: Deployment
    name: web
    uid: 1b2c
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      nodeName: worker-2
      containers:
      - name: web
        image: quay.io/shop/web:1
        resources:
          requests: {cpu: "1"}
status:
  replicas: 2
  readyReplicas: 1
  conditions:
  - type: ReplicaFailure
    status: "True"
    reason: FailedCreate
    message: 'pods "web-5d9c-" is forbidden: exceeded quota'
`
	o, err := typedKinds[model.ReplicaSets]([]byte(rs), loadMem{})
	if err != nil {
		t.Fatal(err)
	}
	got := o.(*appsv1.ReplicaSet)
	if got.Name != "web-5d9c" || len(got.OwnerReferences) != 1 || got.Spec.Replicas == nil || *got.Spec.Replicas != 3 {
		t.Errorf("metadata or replicas lost: %+v", got)
	}
	want := appsv1.ReplicaSetStatus{Replicas: 2, ReadyReplicas: 1, Conditions: []appsv1.ReplicaSetCondition{{
		Type: appsv1.ReplicaSetReplicaFailure, Status: corev1.ConditionTrue, Reason: "FailedCreate", Message: `pods "web-5d9c-" is forbidden: exceeded quota`}}}
	if d := cmp.Diff(want, got.Status); d != "" {
		t.Errorf("status (-want +got):\n%s", d)
	}
	// Of the template only nodeName and the containers' names and
	// resources stay (the nodeName and LimitRange joins read them).
	tpl := got.Spec.Template.Spec
	if got.Spec.Selector != nil || got.Spec.Template.Labels != nil || tpl.NodeName != "worker-2" || len(tpl.Containers) != 1 ||
		tpl.Containers[0].Name != "web" || tpl.Containers[0].Image != "" || tpl.Containers[0].Resources.Requests.Cpu().String() != "1" {
		t.Errorf("template not slim: %+v", got.Spec)
	}

	ss := "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db\nspec:\n  replicas: 2\n  template:\n    spec:\n      containers:\n      - name: db\n        image: quay.io/db:1\nstatus:\n  replicas: 1\n"
	o, err = typedKinds[model.StatefulSets]([]byte(ss), loadMem{})
	if err != nil {
		t.Fatal(err)
	}
	if s := o.(*appsv1.StatefulSet); *s.Spec.Replicas != 2 || s.Status.Replicas != 1 || len(s.Spec.Template.Spec.Containers) != 1 || s.Spec.Template.Spec.Containers[0].Image != "" {
		t.Errorf("statefulset: %+v", s)
	}

	job := `{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"backup-1"},"spec":{"template":{"spec":{"containers":[{"name":"b"}]}}},"status":{"active":1,"failed":2}}`
	o, err = typedKinds[model.Jobs]([]byte(job), loadMem{})
	if err != nil {
		t.Fatal(err)
	}
	if j := o.(*batchv1.Job); j.Name != "backup-1" || j.Status.Active != 1 || j.Status.Failed != 2 || len(j.Spec.Template.Spec.Containers) != 1 || j.Spec.Template.Spec.Containers[0].Name != "b" {
		t.Errorf("job: %+v", j)
	}
}

// TestTypedObjectsKeepAnnotationsOnlyWhereRead: a typed object the store
// keeps has no managedFields, and no annotations but a Namespace's and a
// StorageClass's, whether read from YAML or JSON.
func TestTypedObjectsKeepAnnotationsOnlyWhereRead(t *testing.T) {
	meta := func(kind string) string {
		return "apiVersion: v1\nkind: " + kind + "\nmetadata:\n  name: x\n  annotations:\n    a: \"1\"\n  managedFields:\n  - manager: kubectl\n    operation: Update\n"
	}
	for _, tt := range []struct {
		kind  model.Kind
		yaml  string
		wantA bool
	}{
		{model.Services, meta("Service"), false},
		{model.Endpoints, meta("Endpoints"), false},
		{model.DaemonSets, meta("DaemonSet"), false},
		{model.ReplicaSets, meta("ReplicaSet"), false},
		{model.Namespaces, meta("Namespace"), true},
		{model.StorageClasses, meta("StorageClass") + "provisioner: p\n", true},
	} {
		for _, form := range []string{"yaml", "json"} {
			data := []byte(tt.yaml)
			if form == "json" {
				var err error
				if data, err = yaml.YAMLToJSON(data); err != nil {
					t.Fatal(err)
				}
			}
			o, err := typedKinds[tt.kind](data, loadMem{})
			if err != nil {
				t.Fatalf("%s %s: %v", tt.kind, form, err)
			}
			m, ok := o.(metav1.Object)
			if !ok {
				t.Fatalf("%s: %T has no metadata", tt.kind, o)
			}
			if got := m.GetAnnotations()["a"] == "1"; got != tt.wantA {
				t.Errorf("%s %s: annotation kept %v, want %v", tt.kind, form, got, tt.wantA)
			}
			if len(m.GetManagedFields()) > 0 {
				t.Errorf("%s %s: managedFields kept", tt.kind, form)
			}
		}
	}
}

// TestStoreObjectsShareRepeatedStrings: the names, namespaces, key names and
// a typed object's strings that repeat from one object to the next are one
// copy in the store (objectOf interns them), and each object reads as written.
func TestStoreObjectsShareRepeatedStrings(t *testing.T) {
	cm := func(ns string) []byte {
		return []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kube-root-ca.crt\n  namespace: " + ns + "\n  uid: " + ns + "-uid\ndata:\n  ca.crt: |\n    x\n")
	}
	svc := func(ns string) []byte {
		return []byte("apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: " + ns + "\n  labels:\n    app.kubernetes.io/name: web\nspec:\n  type: ClusterIP\n  selector:\n    app: web\n  ports:\n  - name: https\n    port: 443\n    protocol: TCP\n")
	}
	lm := loadMem{strs: newInterner()} // as LoadWith's
	var cms, svcs []*model.Object
	for _, ns := range []string{"shop", "shop", "billing"} {
		a, err := objectOf(model.ConfigMaps, cm(ns), nil, nil, lm)
		if err != nil {
			t.Fatal(err)
		}
		cms = append(cms, a)
		b, err := objectOf(model.Services, svc(ns), typedKinds[model.Services], nil, lm)
		if err != nil {
			t.Fatal(err)
		}
		svcs = append(svcs, b)
	}
	same := func(what, x, y string) {
		t.Helper()
		if x != y || unsafe.StringData(x) != unsafe.StringData(y) {
			t.Errorf("%s: %q and %q are not one copy", what, x, y)
		}
	}
	a, b, c := cms[0], cms[1], cms[2]
	same("name", a.Name, c.Name)
	same("namespace", a.Namespace, b.Namespace)
	same("key", a.Keys[0], c.Keys[0])
	if a.UID != "shop-uid" || c.UID != "billing-uid" || c.Namespace != "billing" || len(a.Keys) != 1 || a.Keys[0] != "ca.crt" {
		t.Errorf("objects read %+v, %+v", a, c)
	}
	s0, s2 := model.Typed[corev1.Service](svcs[0]), model.Typed[corev1.Service](svcs[2])
	same("selector value", s0.Spec.Selector["app"], s2.Spec.Selector["app"])
	same("label value", s0.Labels["app.kubernetes.io/name"], s2.Labels["app.kubernetes.io/name"])
	same("port name", s0.Spec.Ports[0].Name, s2.Spec.Ports[0].Name)
	same("typed namespace", s0.Namespace, svcs[1].Namespace)
	if s2.Namespace != "billing" || s2.Spec.Ports[0].Port != 443 || s2.Spec.Type != corev1.ServiceTypeClusterIP {
		t.Errorf("service reads %+v", s2)
	}
}

// TestStoreObjectsShareEqualParts: with the load's parts table, typed
// objects share the parts that are equal (two Services' selector and ports),
// keep apart the ones that differ, and read exactly as decoded.
func TestStoreObjectsShareEqualParts(t *testing.T) {
	strs := newInterner()
	svc := func(ns, app string) []byte {
		return []byte("apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: " + ns + "\nspec:\n  selector:\n    app: " + app + "\n  ports:\n  - name: https\n    port: 443\n    protocol: TCP\n")
	}
	pp := newPodParts(strs)
	var got []*corev1.Service
	var want []string
	for _, tt := range []struct{ ns, app string }{{"shop", "web"}, {"billing", "web"}, {"admin", "api"}} {
		o, err := objectOf(model.Services, svc(tt.ns, tt.app), typedKinds[model.Services], pp, loadMem{strs: strs})
		if err != nil {
			t.Fatal(err)
		}
		plain, err := objectOf(model.Services, svc(tt.ns, tt.app), typedKinds[model.Services], nil, loadMem{})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(plain.Typed)
		want = append(want, string(b))
		got = append(got, model.Typed[corev1.Service](o))
	}
	for i, s := range got {
		b, _ := json.Marshal(s)
		if d := cmp.Diff(want[i], string(b)); d != "" {
			t.Errorf("service %d reads otherwise (-decoded +shared):\n%s", i, d)
		}
	}
	ptr := func(v any) uintptr { return reflect.ValueOf(v).Pointer() }
	if ptr(got[0].Spec.Selector) != ptr(got[1].Spec.Selector) || ptr(got[0].Spec.Ports) != ptr(got[2].Spec.Ports) {
		t.Error("equal selectors or ports are not shared")
	}
	if ptr(got[0].Spec.Selector) == ptr(got[2].Spec.Selector) {
		t.Error("different selectors are shared")
	}
}

// TestAskedKindDecodedUnstructured: a kind with no Go type that a run asks
// for is decoded into JSON values, from YAML or JSON, without managedFields
// and annotations; ConfigMaps and Secrets never are (their values stay out
// of the store).
func TestAskedKindDecodedUnstructured(t *testing.T) {
	const doc = "apiVersion: ceph.rook.io/v1\nkind: CephCluster\nmetadata:\n  name: ocs-storagecluster-cephcluster\n  namespace: openshift-storage\n  annotations:\n    a: \"1\"\n  managedFields:\n  - manager: rook\n    operation: Update\nstatus:\n  ceph:\n    health: HEALTH_ERR\n    capacity: {bytesUsed: 12}\n"
	k := model.Kind{Group: "ceph.rook.io", Resource: "cephclusters"}
	for _, form := range []string{"yaml", "json"} {
		data := []byte(doc)
		if form == "json" {
			var err error
			if data, err = yaml.YAMLToJSON(data); err != nil {
				t.Fatal(err)
			}
		}
		o, err := DecodeStoreObjectAsked(k, data)
		if err != nil {
			t.Fatalf("%s: %v", form, err)
		}
		u, ok := o.Typed.(*model.Unstructured)
		if !ok {
			t.Fatalf("%s: typed %T, want *model.Unstructured", form, o.Typed)
		}
		want := map[string]any{"apiVersion": "ceph.rook.io/v1", "kind": "CephCluster",
			"metadata": map[string]any{"name": "ocs-storagecluster-cephcluster", "namespace": "openshift-storage"},
			"status":   map[string]any{"ceph": map[string]any{"health": "HEALTH_ERR", "capacity": map[string]any{"bytesUsed": float64(12)}}}}
		if diff := cmp.Diff(want, u.Content); diff != "" {
			t.Errorf("%s (-want +got):\n%s", form, diff)
		}
		if o, _ := DecodeStoreObject(k, data); o.Typed != nil {
			t.Errorf("%s: decoded without being asked for", form)
		}
	}
	o, err := DecodeStoreObjectAsked(model.Secrets, []byte("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {password: c2VjcmV0}\n"))
	if err != nil || o.Typed != nil || !reflect.DeepEqual(o.Keys, []string{"password"}) {
		t.Errorf("a Secret asked for: %+v, %v; want its key names only", o, err)
	}
}
