package parser

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
)

func TestSplitList(t *testing.T) {
	tests := []struct {
		name       string
		in         string
		wantLines  []int
		wantClosed bool
		wantOK     bool
	}{
		{"oc layout, items at column 0", "---\napiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n- apiVersion: v1\n  kind: Pod\nkind: PodList\n", []int{4, 6}, true, true},
		{"items indented", "apiVersion: v1\nitems:\n  - kind: Pod\n    metadata: {name: a}\nkind: PodList\n", []int{3}, true, true},
		{"empty list", "apiVersion: v1\nitems: []\nkind: PodList\n", nil, true, true},
		{"truncated mid item", "apiVersion: v1\nitems:\n- kind: Pod\n  metadata:\n    name: a\n- kind: Pod\n  metadata:\n    na", []int{3, 6}, false, true},
		{"json", `{"apiVersion":"v1","items":[{"kind":"Pod"}]}`, nil, false, false},
		{"no items", "apiVersion: v1\nkind: Pod\n", nil, false, false},
		{"block scalar inside item", "items:\n- kind: Pod\n  data: |\n    line one\n\n    line three\nkind: List\n", []int{2}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items, closed, ok := SplitList([]byte(tt.in))
			var lines []int
			for _, it := range items {
				lines = append(lines, it.Line)
			}
			if diff := cmp.Diff(tt.wantLines, lines); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
			if ok != tt.wantOK || (ok && closed != tt.wantClosed) {
				t.Errorf("ok=%v closed=%v, want ok=%v closed=%v", ok, closed, tt.wantOK, tt.wantClosed)
			}
		})
	}
}

func TestDecodeItemsKeepsGoodItemsAndLines(t *testing.T) {
	in := "---\napiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: a\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: [unclosed\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: c\nkind: PodList\n"
	type got struct {
		Name string
		Line int
	}
	var pods []got
	errs := decodeItems(in2b(in), func(p *corev1.Pod, line int) { pods = append(pods, got{p.Name, line}) })
	if diff := cmp.Diff([]got{{"a", 4}, {"c", 12}}, pods); diff != "" {
		t.Errorf("decoded pods (-want +got):\n%s", diff)
	}
	if len(errs) != 1 {
		t.Fatalf("want 1 error for the broken item, got %v", errs)
	}
}

func TestDecodeItemsJSONList(t *testing.T) {
	var names []string
	errs := decodeItems(in2b(`{"apiVersion":"v1","kind":"PodList","items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"}}]}`),
		func(p *corev1.Pod, _ int) { names = append(names, p.Name) })
	if len(errs) != 0 || !cmp.Equal([]string{"a", "b"}, names) {
		t.Errorf("names=%v errs=%v", names, errs)
	}
}

func in2b(s string) []byte { return []byte(s) }

func FuzzSplitList(f *testing.F) {
	f.Add([]byte("---\napiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\nkind: PodList\n"))
	f.Add([]byte("items:\n  - a: 1\n  - b: 2\n"))
	f.Add([]byte("items:\n-\n- x\n"))
	f.Add([]byte("{\"items\":[]}"))
	f.Add([]byte(redumpedPodList))
	f.Add([]byte("items:\n- metadata: {name: b,\n labels: {app: x}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		items, _, ok := SplitList(data)
		if !ok && len(items) > 0 {
			t.Fatal("items returned with ok=false")
		}
		prev := 0
		for _, it := range items {
			if it.Line <= prev {
				t.Fatalf("lines not increasing: %d after %d", it.Line, prev)
			}
			prev = it.Line
		}
		_ = decodeItems(data, func(*corev1.Pod, int) {})
	})
}
