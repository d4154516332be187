package parser

import (
	"strings"
	"testing"
)

// TestVisitTurnsAPanicIntoAProblem: a reader's panic on one member (here a
// builder whose table of roots is gone) becomes a gather problem naming the
// member, and the pass goes on to the next member.
func TestVisitTurnsAPanicIntoAProblem(t *testing.T) {
	b := newBuilder("in")
	b.roots = nil // writing to it panics
	const p = "must-gather.local.1/quay-io-img/namespaces/shop/core/pods.yaml"
	if err := b.visit(Member{Path: p}); err != nil {
		t.Fatalf("visit = %v, want nil (the pass goes on)", err)
	}
	probs := b.problemList()
	if len(probs) != 1 || probs[0].Path != p || !strings.Contains(probs[0].Error, "mgtriage failed while reading this file") {
		t.Fatalf("problems = %+v, want one naming %s", probs, p)
	}
}
