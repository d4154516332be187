package model

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

func TestScanMeta(t *testing.T) {
	for _, tt := range []struct {
		name string
		doc  string
		keys bool
		want Meta
		ok   bool
	}{
		{"configmap with block and quoted keys", `apiVersion: v1
data:
  Corefile: |
    .:5353 {
        errors
    }
  "app.properties": x=1
  'with space': "v"
kind: ConfigMap
metadata:
  annotations:
    a: "b"
  labels:
    app: dns
    tier: 'core'
  name: dns-default
  namespace: openshift-dns
  ownerReferences:
  - apiVersion: operator.openshift.io/v1
    controller: true
    kind: DNS
    name: default
    uid: 5e0c1a2b-7f3d-4c1e-9a2b-1c3d5e7f9a0b
  uid: 7a1c
`, true, Meta{Name: "dns-default", Namespace: "openshift-dns", UID: "7a1c", Labels: map[string]string{"app": "dns", "tier": "core"},
			Keys: []string{"Corefile", "app.properties", "with space"}, Owners: []Owner{{Kind: "DNS", Name: "default", UID: "5e0c1a2b-7f3d-4c1e-9a2b-1c3d5e7f9a0b", Controller: true}}}, true},
		{"keys not asked for", "data:\n  a: b\nmetadata:\n  name: x\n", false, Meta{Name: "x"}, true},
		{"sequence at its key's indentation", "finalizers:\n- a\nmetadata:\n  finalizers:\n  - b\n  name: web\n", false, Meta{Name: "web"}, true},
		{"flow style", `{"metadata": {"name": "x"}}`, false, Meta{}, false},
		{"escaped name", "metadata:\n  name: \"a\\\"b\"\n", false, Meta{}, false},
		{"flow labels", "metadata:\n  labels: {a: b}\n  name: x\n", false, Meta{}, false},
		{"no name", "metadata:\n  namespace: x\n", false, Meta{}, false},
		{"number-like name", "metadata:\n  name: 010\n", false, Meta{}, false},
		{"number with an underscore", "metadata:\n  name: 0_\n", false, Meta{}, false},
		{"number-like key", "data:\n  1_000: x\nmetadata:\n  name: a\n", true, Meta{}, false},
		{"uid starting with a digit", "metadata:\n  name: a\n  uid: 0b2e5c4a-1d3f-4e5a-8b7c-9d0e1f2a3b4c\n", false, Meta{Name: "a", UID: "0b2e5c4a-1d3f-4e5a-8b7c-9d0e1f2a3b4c"}, true},
		{"tab indentation", "metadata:\n\tname: x\n", false, Meta{}, false},
		{"data keys one space in", "metadata:\n  name: a\ndata:\n 00:\n  A: b\n", true, Meta{}, false},
		{"labels three spaces in", "metadata:\n  labels:\n   app: web\n  name: a\n", false, Meta{}, false},
		{"owner references indented under their key", "metadata:\n  name: a\n  ownerReferences:\n    - kind: ReplicaSet\n      name: r\n", false, Meta{}, false},
		{"carriage return inside a line", "metadata:\n  name: 0\r#0\n", false, Meta{}, false},
		{"line separator inside a name", "metadata:\n  name: a\u2028b\n", false, Meta{}, false},
		{"CRLF line ends", "metadata:\r\n  name: a\r\n", false, Meta{Name: "a"}, true},
		{"empty data", "data:\nmetadata:\n  name: a\n", true, Meta{Name: "a"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ScanMeta([]byte(tt.doc), tt.keys)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzScanMeta checks that ScanMeta never panics and that whatever it reads
// agrees with a full YAML decode of the same document.
func FuzzScanMeta(f *testing.F) {
	f.Add([]byte("metadata:\n  name: a\n  namespace: b\n  uid: c\n  labels:\n    k: v\ndata:\n  key: |\n    x\n"))
	f.Add([]byte("metadata:\n  name: 'it''s'\n  ownerReferences:\n  - kind: ReplicaSet\n    name: r\n    controller: true\n"))
	f.Add([]byte("data:\n  \"q\": 1\nmetadata:\n  name: \"123\"\n"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		m, ok := ScanMeta(doc, true)
		if !ok {
			return
		}
		var full struct {
			Metadata metav1.ObjectMeta `json:"metadata"`
			Data     map[string]any    `json:"data"`
		}
		if err := yaml.Unmarshal(doc, &full); err != nil {
			return // the library rejects it; the reader would report it
		}
		if full.Metadata.Name != "" && full.Metadata.Name != m.Name {
			t.Fatalf("name %q, library %q", m.Name, full.Metadata.Name)
		}
		for _, k := range m.Keys {
			if _, has := full.Data[k]; !has && full.Data != nil {
				t.Fatalf("key %q not in the library's data %v", k, full.Data)
			}
		}
	})
}

func TestCoverage(t *testing.T) {
	s := New()
	s.MarkGathered(ConfigMaps, "shop")
	s.Add(&Object{Kind: ConfigMaps, Namespace: "shop", Name: "b", Source: Source{Path: "z.yaml"}})
	s.Add(&Object{Kind: ConfigMaps, Namespace: "shop", Name: "b", Source: Source{Path: "a.yaml"}})
	s.MarkFiltered(Pods, "*")
	s.Freeze()
	for _, tt := range []struct {
		kind     Kind
		ns, name string
		want     Coverage
	}{
		{ConfigMaps, "shop", "b", Found},
		{ConfigMaps, "shop", "missing", Absent},
		{ConfigMaps, "other", "b", NotGathered},
		{Secrets, "shop", "b", NotGathered},
		{Pods, "shop", "web", Filtered},
	} {
		if _, got := s.Get(tt.kind, tt.ns, tt.name); got != tt.want {
			t.Errorf("Get(%s, %s, %s) coverage %s, want %s", tt.kind, tt.ns, tt.name, got, tt.want)
		}
	}
	if o, _ := s.Get(ConfigMaps, "shop", "b"); o.Source.Path != "a.yaml" {
		t.Errorf("kept %s, want the first path in lexical order", o.Source.Path)
	}
	if _, cov := s.List(ConfigMaps, "shop"); cov != Found {
		t.Errorf("List coverage %s, want found", cov)
	}
}

func TestFacts(t *testing.T) {
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "m0", Labels: map[string]string{"kubernetes.io/hostname": "m0", "role": "master"}},
		Spec: corev1.NodeSpec{Taints: []corev1.Taint{{Key: "node-role.kubernetes.io/master", Effect: corev1.TaintEffectNoSchedule}, {Key: "soft", Effect: corev1.TaintEffectPreferNoSchedule}}}}
	if got := UntoleratedTaints(nil, node); len(got) != 1 || TaintText(got[0]) != "node-role.kubernetes.io/master:NoSchedule" {
		t.Errorf("UntoleratedTaints = %v", got)
	}
	tol := []corev1.Toleration{{Key: "node-role.kubernetes.io/master", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute}}
	if got := UntoleratedTaints(tol, node); len(got) != 1 {
		t.Errorf("a NoExecute toleration must not tolerate a NoSchedule taint: %v", got)
	}
	tol[0].Effect = ""
	if got := UntoleratedTaints(tol, node); len(got) != 0 {
		t.Errorf("Exists with no effect tolerates the key: %v", got)
	}
	spec := &corev1.PodSpec{NodeSelector: map[string]string{"role": "worker"}}
	if ok, why := SelectorMatch(spec, node); ok || why != "nodeSelector role=worker" {
		t.Errorf("SelectorMatch = %v, %q", ok, why)
	}
	spec = &corev1.PodSpec{Affinity: &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
		NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "role", Operator: corev1.NodeSelectorOpIn, Values: []string{"master", "infra"}}}}}}}}}
	if ok, _ := SelectorMatch(spec, node); !ok {
		t.Error("affinity role In (master, infra) must match")
	}
	for _, tt := range []struct {
		name  string
		cands []string
		want  string
	}{
		{"tuner-config-key", []string{"tuner-config", "other"}, "tuner-config"},
		{"app-setings", []string{"app-settings", "db"}, "app-settings"},
		{"redis", []string{"postgres", "kafka"}, ""},
	} {
		if got := NearestName(tt.name, tt.cands); got != tt.want {
			t.Errorf("NearestName(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestIndexByHashedKey: objects that differ in one part of their kind,
// namespace or name (or only where one part ends and the next begins) are
// apart; Get returns each; of duplicates the first path wins in either
// order; ByUID is made at Freeze, the same whatever order objects arrived
// in, and a UID shared by two kinds names the first kind.
func TestIndexByHashedKey(t *testing.T) {
	objs := []*Object{
		{Kind: ConfigMaps, Namespace: "shop", Name: "web", UID: "u1", Source: Source{Path: "b.yaml"}},
		{Kind: Secrets, Namespace: "shop", Name: "web", UID: "u2"},
		{Kind: ConfigMaps, Namespace: "sho", Name: "pweb", UID: "u3"},
		{Kind: ConfigMaps, Namespace: "", Name: "shopweb", UID: "u4"},
		{Kind: Kind{Group: "a", Resource: "b"}, Namespace: "shop", Name: "web", UID: "shared"},
		{Kind: Kind{Group: "", Resource: "ab"}, Namespace: "shop", Name: "web", UID: "shared"},
	}
	dup := &Object{Kind: ConfigMaps, Namespace: "shop", Name: "web", UID: "u1-copy", Source: Source{Path: "a.yaml"}}
	for _, order := range [][]int{{0, 1, 2, 3, 4, 5, 6}, {6, 5, 4, 3, 2, 1, 0}} {
		s := New()
		for _, i := range order {
			if i == 6 {
				s.Add(dup)
			} else {
				s.Add(objs[i])
			}
		}
		s.Freeze()
		if s.Len() != len(objs) {
			t.Errorf("order %v: %d objects, want %d", order, s.Len(), len(objs))
		}
		for _, o := range objs[1:] {
			if got, cov := s.Get(o.Kind, o.Namespace, o.Name); got != o || cov != Found {
				t.Errorf("order %v: Get(%s, %q, %q) = %v, %s", order, o.Kind, o.Namespace, o.Name, got, cov)
			}
		}
		if got, _ := s.Get(ConfigMaps, "shop", "web"); got != dup {
			t.Errorf("order %v: kept %v, want the object of the first path", order, got)
		}
		if s.ByUID("u1") != nil || s.ByUID("u1-copy") != dup || s.ByUID("u3") != objs[2] {
			t.Errorf("order %v: ByUID does not follow the objects kept", order)
		}
		if got := s.ByUID("shared"); got != objs[5] {
			t.Errorf("order %v: ByUID(shared) = %v, want the core-group kind's", order, got)
		}
	}
}
