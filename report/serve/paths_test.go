package serve

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestGatherPath(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{"namespaces/shop/core/pods.yaml", "namespaces/shop/core/pods.yaml", ""},
		{"./namespaces//shop/./core/pods.yaml", "namespaces/shop/core/pods.yaml", ""},
		{"", "", "empty"},
		{"/etc/passwd", "", "absolute"},
		{"\\\\server\\share", "", "absolute"},
		{"C:/Windows/win.ini", "", "drive"},
		{"namespaces\\shop", "", "'\\'"},
		{"namespaces/../../etc/passwd", "", "'..'"},
		{"..", "", "'..'"},
		{"a/\x00/b", "", "control"},
		{"a/\x1b[2J", "", "control"},
		{"a/\xff\xfe", "", "invalid UTF-8"},
		{"./.", "", "names no file"},
		{strings.Repeat("a", MaxPathBytes+1), "", "at most"},
	} {
		got, err := gatherPath(tc.in)
		if tc.err == "" {
			if err != nil || got != tc.want {
				t.Errorf("gatherPath(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("gatherPath(%q) = %q, %v; want an error saying %q", tc.in, got, err, tc.err)
		}
	}
}

func TestObjectSpan(t *testing.T) {
	list := splitLines([]byte(`apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: a
  # a comment

  status:
    phase: Running
- apiVersion: v1
  kind: Pod
  metadata:
    name: b
kind: PodList
`))
	json := splitLines([]byte(`{
  "items": [
    {
      "kind": "Pod",
      "metadata": {"name": "a}{"},
      "x": "\"}"
    },
    {
      "kind": "Pod"
    }
  ]
}`))
	for _, tc := range []struct {
		name     string
		lines    []string
		start    int
		from, to int
		ok       bool
	}{
		{"first YAML item, blank and comment lines inside", list, 3, 3, 10, true},
		{"last YAML item ends before the list's own key", list, 11, 11, 14, true},
		{"a line inside an item begins no object", list, 4, 0, 0, false},
		{"a whole file", list, 1, 1, 15, true},
		{"a JSON item, braces inside strings", json, 3, 3, 7, true},
		{"the next JSON item", json, 8, 8, 10, true},
		{"past the end", list, 99, 0, 0, false},
		{"zero", list, 0, 0, 0, false},
	} {
		from, to, ok := objectSpan(tc.lines, tc.start)
		if diff := cmp.Diff([]any{tc.from, tc.to, tc.ok}, []any{from, to, ok}); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

func TestPage(t *testing.T) {
	items := make([]string, 10)
	for i := range items {
		items[i] = strings.Repeat("x", 100)
	}
	got, next, err := page(items, "", 0, 350)
	if err != nil || len(got) != 3 || next != "p3" {
		t.Fatalf("page within 350 bytes: %d items, next %q, %v", len(got), next, err)
	}
	got, next, _ = page(items, next, 0, 350)
	if len(got) != 3 || next != "p6" {
		t.Fatalf("second page: %d items, next %q", len(got), next)
	}
	if got, next, _ := page(items, "p9", 5, 1<<20); len(got) != 1 || next != "" {
		t.Fatalf("last page: %d items, next %q", len(got), next)
	}
	if got, _, _ := page(items, "", 0, 10); len(got) != 1 {
		t.Errorf("an item over the budget alone: %d items, want 1", len(got))
	}
	for _, bad := range []string{"x", "p-1", "p", "p99999999999999", "../p1"} {
		if _, _, err := page(items, bad, 0, 100); err == nil {
			t.Errorf("cursor %q accepted", bad)
		}
	}
	if _, _, err := page(items, "p11", 0, 100); err == nil {
		t.Error("a cursor past the end accepted")
	}
}

func TestRanges(t *testing.T) {
	if got := ranges([]int{9, 1, 2, 3, 7, 10, 11}); got != "1-3, 7, 9-11" {
		t.Errorf("ranges = %q", got)
	}
	if got := ranges(nil); got != "none" {
		t.Errorf("ranges(nil) = %q", got)
	}
}

// FuzzObjectSpan: any file's bytes and any start line give a span inside
// the file, or none, and never a panic.
func FuzzObjectSpan(f *testing.F) {
	f.Add([]byte("items:\n- a: 1\n  b: 2\n- c: 3\n"), 2)
	f.Add([]byte("{\"items\":[\n{\"a\":\"}\\\"\"}\n]}"), 2)
	f.Add([]byte("- \n-\n"), 1)
	f.Fuzz(func(t *testing.T, data []byte, start int) {
		lines := splitLines(data)
		from, to, ok := objectSpan(lines, start)
		if ok && (from != start || to < from || to > len(lines)) {
			t.Fatalf("span %d-%d of %d lines from %d", from, to, len(lines), start)
		}
	})
}

// FuzzGatherPath: an accepted path is relative, clean, printable and
// bounded.
func FuzzGatherPath(f *testing.F) {
	for _, s := range []string{"a/b", "../x", "/abs", "a//./b", "a\\b", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got, err := gatherPath(p)
		if err != nil {
			return
		}
		if got == "" || strings.HasPrefix(got, "/") || strings.Contains(got, "\\") || len(got) > MaxPathBytes || !utf8.ValidString(got) {
			t.Fatalf("gatherPath(%q) = %q", p, got)
		}
		for _, e := range strings.Split(got, "/") {
			if e == "" || e == "." || e == ".." {
				t.Fatalf("gatherPath(%q) = %q holds %q", p, got, e)
			}
		}
	})
}
