package model

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Merge is the union of both declarations: kinds sorted by Kind.String and
// each once, literals in first-seen order and each once; its inputs stay as
// they were.
func TestNeedsMerge(t *testing.T) {
	a := Needs{Decode: []Kind{Nodes, ReplicaSets}, KeepLines: []Literal{{Text: "volume"}, {Text: "mount", Fold: true}}}
	b := Needs{Decode: []Kind{Jobs, ReplicaSets}, KeepLines: []Literal{{Text: "mount", Fold: true}, {Text: "mount"}}}
	got := a.Merge(b)
	want := Needs{Decode: []Kind{Jobs, Nodes, ReplicaSets}, KeepLines: []Literal{{Text: "volume"}, {Text: "mount", Fold: true}, {Text: "mount"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Merge (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Kind{Nodes, ReplicaSets}, a.Decode); diff != "" {
		t.Errorf("Merge changed its receiver (-want +got):\n%s", diff)
	}
	if got := (Needs{}).Merge(Needs{}); len(got.Decode) != 0 || len(got.KeepLines) != 0 {
		t.Errorf("zero Merge zero = %+v, want nothing", got)
	}
}
