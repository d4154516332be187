package parser

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
	errs := decodeItems(in2b(in), loadMem{}, func(p *corev1.Pod, line int) { pods = append(pods, got{p.Name, line}) })
	if diff := cmp.Diff([]got{{"a", 4}, {"c", 12}}, pods); diff != "" {
		t.Errorf("decoded pods (-want +got):\n%s", diff)
	}
	if len(errs) != 1 {
		t.Fatalf("want 1 error for the broken item, got %v", errs)
	}
}

// TestSplitListKeepsHashLinesOfBlockScalars: a script in a container's
// command starts with "#!/bin/sh" and carries "# ..." lines; splitting the
// list must keep them, or the item's command loses them (and the fast YAML
// path refused every such pod, sending it to the slow library).
func TestSplitListKeepsHashLinesOfBlockScalars(t *testing.T) {
	in := "apiVersion: v1\nitems:\n- kind: Pod\n  # a comment of the list\n  spec:\n    containers:\n    - command:\n      - /bin/sh\n      - -c\n      - |\n        #!/bin/sh\n        set -eu\n\n        # wait for the port\n        exec sleep 1\n      name: c\n# a comment at column 0\n- kind: Pod\nkind: PodList\n"
	want := []string{"/bin/sh", "-c", "#!/bin/sh\nset -eu\n\n# wait for the port\nexec sleep 1\n"}
	var got [][]string
	errs := decodeItems(in2b(in), loadMem{}, func(p *corev1.Pod, line int) {
		var cmd []string
		if len(p.Spec.Containers) > 0 {
			cmd = p.Spec.Containers[0].Command
		}
		got = append(got, cmd)
	})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if diff := cmp.Diff([][]string{want, nil}, got); diff != "" {
		t.Errorf("commands (-want +got):\n%s", diff)
	}
	items, _, _ := SplitList(in2b(in))
	if _, ok := yamlToJSON(items[0].Data, true, loadMem{}); !ok {
		t.Errorf("the fast path refused an item whose script has # lines:\n%s", items[0].Data)
	}
}

func TestDecodeItemsJSONList(t *testing.T) {
	var names []string
	errs := decodeItems(in2b(`{"apiVersion":"v1","kind":"PodList","items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"}}]}`), loadMem{},
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
		sameSplit(t, data)
		_ = decodeItems(data, loadMem{}, func(*corev1.Pod, int) {})
	})
}

// sameSplit fails t when SplitList differs from splitListReference on data.
func sameSplit(t *testing.T, data []byte) {
	t.Helper()
	items, closed, ok := SplitList(data)
	wItems, wClosed, wOK := splitListReference(data)
	if len(items) == 0 {
		items = nil
	}
	if len(wItems) == 0 {
		wItems = nil
	}
	same := len(items) == len(wItems) && closed == wClosed && ok == wOK
	for i := 0; same && i < len(items); i++ {
		same = items[i].Line == wItems[i].Line && bytes.Equal(items[i].Data, wItems[i].Data)
	}
	if !same {
		d := cmp.Diff(wItems, items)
		t.Errorf("SplitList differs from the line-by-line reference: closed %v/%v ok %v/%v (-want +got):\n%s", closed, wClosed, ok, wOK, d)
	}
}

// TestSplitListSameAsReference runs both splitters on every YAML file of
// the shared corpus.
func TestSplitListSameAsReference(t *testing.T) {
	for _, s := range []string{"", "\n", "items:", "items:\n", "items:\n- a\n", "items:\n- a", "items:\r\n- a: 1\r\n  b: 2\r\nkind: List",
		"items:\n- a\n\n  # c\n\n- b\n", "kind: List\nitems:\n  - a: 1\n    b: |\n      x\n\n  - c\n", "items:\n- a\n x\n"} {
		sameSplit(t, []byte(s))
	}
	root := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil || testing.Short() {
		t.Skip("corpus absent or -short")
	}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return nil
		}
		if data, err := os.ReadFile(p); err == nil && len(data) < 32<<20 {
			sameSplit(t, data)
		}
		return nil
	})
}

// splitListReference is SplitList as first written, line by line with a
// copy per item: the oracle the single-buffer version is checked against.
func splitListReference(data []byte) (items []ListItem, closed, ok bool) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	inItems := false
	kindFirst := false
	indent := -1
	var cur *ListItem
	var buf bytes.Buffer
	flush := func() {
		if cur != nil {
			cur.Data = append([]byte(nil), buf.Bytes()...)
			items = append(items, *cur)
			cur = nil
			buf.Reset()
		}
	}
	for i, raw := range lines {
		line := bytes.TrimRight(raw, "\r\n")
		if !inItems {
			if bytes.HasPrefix(line, []byte("kind:")) {
				kindFirst = true
			}
			if bytes.Equal(bytes.TrimRight(line, " "), []byte("items:")) {
				inItems = true
			} else if bytes.HasPrefix(line, []byte("items: []")) {
				return nil, true, true
			}
			continue
		}
		trimmed := bytes.TrimLeft(line, " ")
		if cur != nil && len(trimmed) > 0 && trimmed[0] == '#' && len(line)-len(trimmed) >= indent+2 {
			buf.Write(line[indent+2:])
			buf.WriteByte('\n')
			continue
		}
		if len(trimmed) == 0 || trimmed[0] == '#' {
			if cur != nil {
				buf.WriteString("\n")
			}
			continue
		}
		lead := len(line) - len(trimmed)
		if indent < 0 {
			if trimmed[0] != '-' {
				return nil, false, false
			}
			indent = lead
		}
		switch {
		case lead == indent && bytes.HasPrefix(trimmed, []byte("- ")) || lead == indent && bytes.Equal(trimmed, []byte("-")):
			flush()
			cur = &ListItem{Line: i + 1}
			buf.Write(dedent(line, indent+2, true))
			buf.WriteByte('\n')
		case lead > indent && cur != nil:
			buf.Write(dedent(line, indent+2, false))
			buf.WriteByte('\n')
		case lead == 0 && indent == 0 && trimmed[0] != '-', lead < indent:
			flush()
			return items, true, true
		default:
			return nil, false, false
		}
	}
	flush()
	if !inItems {
		return nil, false, false
	}
	return items, kindFirst, true
}
