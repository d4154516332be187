package parser

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// eventViaJSON is the general path an Event item takes when
// decodeEventYAML refuses it: yamlToJSON and encoding/json, else the YAML
// library.
func eventViaJSON(data []byte) (*corev1.Event, bool) {
	e := new(corev1.Event)
	if j, ok := yamlToJSON(data, true, loadMem{}); ok && json.Unmarshal(j, e) == nil {
		return e, true
	}
	e = new(corev1.Event)
	if yaml.Unmarshal(data, e) != nil {
		return nil, false
	}
	return e, true
}

// sameEvent reports whether decodeEventYAML took data, and fails t when
// what it made differs from the general path in anything the model keeps
// (both are compared after EventObjectOf), or when it took an item the
// general path refuses.
func sameEvent(t *testing.T, what string, data []byte) bool {
	t.Helper()
	fast, ok := decodeEventYAML(data, loadMem{})
	if !ok {
		return false
	}
	want, wok := eventViaJSON(data)
	if !wok {
		t.Errorf("%s: the direct decoder took an item the general path refuses:\n%s", what, data)
		return true
	}
	if d := cmp.Diff(EventObjectOf(want), EventObjectOf(fast), cmp.AllowUnexported(model.EventObject{})); d != "" {
		t.Errorf("%s: direct decoder differs from the general path (-want +got):\n%s\ninput:\n%s", what, d, data)
	}
	return true
}

const eventItem = `apiVersion: v1
count: 3
eventTime: null
firstTimestamp: "2026-11-20T08:10:00Z"
involvedObject:
  apiVersion: v1
  fieldPath: spec.containers{cart}
  kind: Pod
  name: cart-7d9f8b6c5d-x2x9k
  namespace: shop
  resourceVersion: "48213"
  uid: 5f0c1c1e-2b7a-4c0e-9d6a-0a1b2c3d4e5f
kind: Event
lastTimestamp: "2026-11-20T08:12:00Z"
message: 'Back-off restarting failed container cart in pod cart-7d9f8b6c5d-x2x9k_shop(5f0c1c1e-2b7a-4c0e-9d6a-0a1b2c3d4e5f)'
metadata:
  creationTimestamp: "2026-11-20T08:10:00Z"
  managedFields:
  - apiVersion: v1
    fieldsV1:
      f:count: {}
    manager: kubelet
  name: cart-7d9f8b6c5d-x2x9k.17a1b2c3d4e5f607
  namespace: shop
  resourceVersion: "48290"
  uid: 9b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0
reason: BackOff
reportingComponent: ""
reportingInstance: ""
source:
  component: kubelet
  host: worker-1
type: Warning
`

func TestEventYAML(t *testing.T) {
	tests := []struct {
		name, doc string
		fast      bool
	}{
		{"as oc writes it", eventItem, true},
		{"folded message", "message: Readiness probe failed: Get \"http://10.128.2.14:8080/healthz\":\n  dial tcp 10.128.2.14:8080: connect: connection refused\nreason: Unhealthy\n", false},
		{"folded quoted message", "message: 'Readiness probe failed: Get \"http://10.128.2.14:8080/healthz\":\n  dial tcp: connect: connection refused'\nreason: Unhealthy\n", true},
		{"literal message", "message: |\n  line one\n  line two\ntype: Normal\n", true},
		{"series", "series:\n  count: 12\n  lastObservedTime: \"2026-11-20T08:12:00.123456Z\"\neventTime: \"2026-11-20T08:00:00.000001Z\"\nreportingComponent: kubelet\n", true},
		{"empty series", "series: {}\n", true},
		{"null related", "related: null\ninvolvedObject:\n  kind: Node\n  name: worker-1\n", true},
		{"related", "related:\n  kind: Pod\n  name: p\n", true},
		{"labels", "metadata:\n  labels:\n    a: b\n    c: null\n  annotations: {}\n  namespace: x\n", true},
		{"metadata null", "metadata:\ntype: Normal\n", true},
		{"escaped", "message: \"tab\\there \\u00e9\"\n", true},
		{"item marker", "---\nreason: x\n", true},
		{"count too big", "count: 4294967296\n", false},
		{"count as string", "count: \"3\"\n", false},
		{"number as reason", "reason: 12\n", false},
		{"bool as message", "message: true\n", false},
		{"label is a number", "metadata:\n  labels:\n    a: 1\n", false},
		{"unknown key", "reason: x\nspec: {}\n", false},
		{"key in other case", "Reason: x\n", false},
		{"duplicate in other case", "reason: x\nReason: y\n", false},
		{"duplicate nested", "source:\n  host: a\n  host: b\n", false},
		{"mapping for a string", "reason:\n  a: b\n", false},
		{"sequence for a mapping", "source:\n- a\n", false},
		{"sequence at key indent", "source:\n- a\nreason: x\n", false},
		{"flow mapping", "source: {component: kubelet}\n", false},
		{"bad time", "lastTimestamp: \"yesterday\"\n", false},
		{"time as number", "lastTimestamp: 12\n", false},
		{"managedFields elsewhere", "involvedObject:\n  managedFields:\n  - a: b\n", false},
		{"anchor", "reason: &a x\nmessage: *a\n", false},
		{"sequence document", "- reason: x\n", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sameEvent(t, tt.name, []byte(tt.doc)); got != tt.fast {
				t.Errorf("direct decoder used = %v, want %v", got, tt.fast)
			}
		})
	}
}

// TestEventYAMLFields checks the values read from an item as oc writes it,
// so that a decoder that refused nothing and read nothing could not pass.
func TestEventYAMLFields(t *testing.T) {
	e, ok := decodeEventYAML([]byte(eventItem), loadMem{})
	if !ok {
		t.Fatal("refused")
	}
	got := []string{e.Reason, e.Type, e.InvolvedObject.Kind, e.InvolvedObject.Namespace, e.InvolvedObject.Name,
		e.InvolvedObject.FieldPath, string(e.InvolvedObject.UID), e.Source.Component, e.Source.Host, e.Namespace,
		e.LastTimestamp.UTC().Format("15:04"), e.CreationTimestamp.UTC().Format("15:04")}
	want := []string{"BackOff", "Warning", "Pod", "shop", "cart-7d9f8b6c5d-x2x9k", "spec.containers{cart}",
		"5f0c1c1e-2b7a-4c0e-9d6a-0a1b2c3d4e5f", "kubelet", "worker-1", "shop", "08:12", "08:10"}
	if d := cmp.Diff(want, got); d != "" || e.Count != 3 || !strings.HasPrefix(e.Message, "Back-off restarting") {
		t.Errorf("fields (-want +got):\n%s\ncount %d message %q", d, e.Count, e.Message)
	}
}

// TestEventYAMLCorpus runs the direct decoder over every event of the
// shared corpus: each item it takes must equal the general path, and it must
// take most of them (else the speed it exists for is gone).
func TestEventYAMLCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus: not in -short")
	}
	root := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("corpus absent: %v", err)
	}
	items, fast := 0, 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(p) != "events.yaml" {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil || len(data) > 32<<20 {
			return err
		}
		list, _, ok := SplitList(data)
		if !ok {
			return nil
		}
		for _, it := range list {
			items++
			if sameEvent(t, p, it.Data) {
				fast++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d of %d corpus events took the direct decoder", fast, items)
	if items > 0 && fast < items*9/10 {
		t.Errorf("only %d of %d corpus events took the direct decoder", fast, items)
	}
}

// FuzzEventYAML checks on any bytes that where the direct decoder takes an
// item, the general path gives the same Event.
func FuzzEventYAML(f *testing.F) {
	f.Add([]byte(eventItem))
	f.Add([]byte("series:\n  count: 2\n  lastObservedTime: \"2026-11-20T08:12:00.123456Z\"\nrelated: {}\n"))
	f.Add([]byte("message: 'a\n  b'\nmetadata:\n  labels:\n    x: \"y\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		sameEvent(t, "fuzz input", data)
	})
}

// BenchmarkDecodeEvents decodes an events.yaml the way the pass does: the
// biggest of the corpus metal gather when present, else eventItem repeated.
func BenchmarkDecodeEvents(b *testing.B) {
	data := []byte("apiVersion: v1\nitems:\n" + strings.Repeat("- "+strings.ReplaceAll(strings.TrimSuffix(eventItem, "\n"), "\n", "\n  ")+"\n", 500) + "kind: List\nmetadata:\n  resourceVersion: \"\"\n")
	if p := os.Getenv("BENCH_EVENTS"); p != "" {
		if d, err := os.ReadFile(p); err == nil {
			data = d
		}
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		decodeItemsLean(data, loadMem{}, func(o *corev1.Event, line int, _ bool) bool {
			_ = EventObjectOf(o)
			n++
			return true
		})
	}
}
