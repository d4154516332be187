package parser

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const dupPod = `apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: shop
  uid: 11111111-0000-0000-0000-000000000001
status:
  conditions:
  - lastTransitionTime: "2026-11-20T09:05:00Z"
    status: "True"
    type: Ready
  phase: Running
`

// runDedup decodes a pods.yaml and then per-pod files through the worker
// pool, as the pass does, and returns the builder.
func runDedup(t *testing.T, list string, files ...string) *builder {
	t.Helper()
	b := newBuilder("x")
	b.startWorkers(2)
	b.submit(decodeJob{path: "namespaces/shop/core/pods.yaml", c: classified{Kind: kindPodList, Namespace: "shop"}, data: []byte(list)})
	for _, f := range files {
		b.submit(decodeJob{path: "namespaces/shop/pods/web-1/web-1.yaml", c: classified{Kind: kindPod, Namespace: "shop", Pod: "web-1"}, data: []byte(f)})
	}
	b.stopWorkers()
	return b
}

func TestPerPodDuplicateNotDecoded(t *testing.T) {
	b := runDedup(t, podList("shop", "web-1", "11111111-0000-0000-0000-000000000001"), dupPod)
	if b.dedup.skipped != 1 || len(b.filePods[nsKey{"", "shop"}]) != 0 {
		t.Errorf("skipped %d, decoded %d per-pod files; want the duplicate skipped", b.dedup.skipped, len(b.filePods[nsKey{"", "shop"}]))
	}
	if want := time.Date(2026, 11, 20, 9, 5, 0, 0, time.UTC); !b.dedup.latest.Equal(want) {
		t.Errorf("latest condition time of the skipped file = %v, want %v", b.dedup.latest, want)
	}
	// Another UID, or an odd metadata block: decoded.
	other := strings.Replace(dupPod, "0001", "0002", 1)
	quoted := strings.Replace(dupPod, "name: web-1", `name: "web\u002d1"`, 1)
	b = runDedup(t, podList("shop", "web-1", "11111111-0000-0000-0000-000000000001"), other, quoted)
	if b.dedup.skipped != 0 || len(b.filePods[nsKey{"", "shop"}]) != 2 {
		t.Errorf("skipped %d; want both files decoded", b.dedup.skipped)
	}
}

func TestPerPodFileKeptForTruncatedListItem(t *testing.T) {
	list := podList("shop", "web-1", "11111111-0000-0000-0000-000000000001")
	list = list[:strings.LastIndex(list, "kind: PodList")] // the file ends inside the items
	b := runDedup(t, list, dupPod)
	if b.dedup.skipped != 0 || len(b.filePods[nsKey{"", "shop"}]) != 1 {
		t.Errorf("skipped %d; want the file decoded to replace the cut item", b.dedup.skipped)
	}
}

func TestPodIdentity(t *testing.T) {
	tests := []struct {
		doc  string
		want []string
		ok   bool
	}{
		{dupPod, []string{"shop", "web-1", "11111111-0000-0000-0000-000000000001"}, true},
		{"---\nmetadata:\n  labels:\n    name: x\n  name: 'p'\n  uid: \"u-1\"\nspec: {}\n", []string{"", "p", "u-1"}, true},
		{"metadata:\n  name: a\n  name: b\n", nil, false},
		{"metadata:\n  name: a b\n", nil, false},
		{"metadata:\n  name: a\nmetadata:\n  uid: b\n", nil, false},
		{"kind: Pod\n", []string{"", "", ""}, false},
	}
	for _, tt := range tests {
		ns, name, uid, ok := podIdentity([]byte(tt.doc))
		if ok != tt.ok || ok && !cmp.Equal([]string{ns, name, uid}, tt.want) {
			t.Errorf("%q: got %q %q %q %v", tt.doc, ns, name, uid, ok)
		}
	}
}

// FuzzPodIdentity: the metadata scanner never panics and only reports names
// made of name characters.
func FuzzPodIdentity(f *testing.F) {
	f.Add([]byte(dupPod))
	f.Add([]byte("metadata:\n  name: 'x'\n  uid: \"y\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ns, name, uid, _ := podIdentity(data)
		for _, v := range []string{ns, name, uid} {
			if strings.ContainsAny(v, " \n'\"") {
				t.Errorf("value %q", v)
			}
		}
		latestTransition(data)
	})
}
