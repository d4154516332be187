package parser

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/store"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// TestControllersDecodedWithoutTemplate: the store keeps a ReplicaSet,
// StatefulSet or Job with what the joins read (metadata, replicas, status)
// and without its pod template, which is most of the object.
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
      containers:
      - name: web
        image: quay.io/shop/web:1
status:
  replicas: 2
  readyReplicas: 1
  conditions:
  - type: ReplicaFailure
    status: "True"
    reason: FailedCreate
    message: 'pods "web-5d9c-" is forbidden: exceeded quota'
`
	o, err := typedKinds[store.ReplicaSets]([]byte(rs))
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
	if len(got.Spec.Template.Spec.Containers) != 0 || got.Spec.Selector != nil {
		t.Errorf("template kept: %+v", got.Spec)
	}

	ss := "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db\nspec:\n  replicas: 2\n  template:\n    spec:\n      containers:\n      - name: db\nstatus:\n  replicas: 1\n"
	o, err = typedKinds[store.StatefulSets]([]byte(ss))
	if err != nil {
		t.Fatal(err)
	}
	if s := o.(*appsv1.StatefulSet); *s.Spec.Replicas != 2 || s.Status.Replicas != 1 || len(s.Spec.Template.Spec.Containers) != 0 {
		t.Errorf("statefulset: %+v", s)
	}

	job := `{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"backup-1"},"spec":{"template":{"spec":{"containers":[{"name":"b"}]}}},"status":{"active":1,"failed":2}}`
	o, err = typedKinds[store.Jobs]([]byte(job))
	if err != nil {
		t.Fatal(err)
	}
	if j := o.(*batchv1.Job); j.Name != "backup-1" || j.Status.Active != 1 || j.Status.Failed != 2 || len(j.Spec.Template.Spec.Containers) != 0 {
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
		kind  store.Kind
		yaml  string
		wantA bool
	}{
		{store.Services, meta("Service"), false},
		{store.Endpoints, meta("Endpoints"), false},
		{store.DaemonSets, meta("DaemonSet"), false},
		{store.ReplicaSets, meta("ReplicaSet"), false},
		{store.Namespaces, meta("Namespace"), true},
		{store.StorageClasses, meta("StorageClass") + "provisioner: p\n", true},
	} {
		for _, form := range []string{"yaml", "json"} {
			data := []byte(tt.yaml)
			if form == "json" {
				var err error
				if data, err = yaml.YAMLToJSON(data); err != nil {
					t.Fatal(err)
				}
			}
			o, err := typedKinds[tt.kind](data)
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
