package parser

import (
	"testing"
	"unsafe"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/nodelog"
)

// groupKeyReference is the key node-log groups had as a string: lines share
// a group exactly when these strings are equal.
func groupKeyReference(e *nodelog.Entry) string {
	return string(e.Class) + "\x00" + string(rune(e.Severity)) + e.Host + "\x00" + nodelog.Signature(e.Message+" "+e.Detail)
}

// TestGroupKeyGroupsAsTheText: two node-log lines share a groupKey exactly
// when their class, severity, host and signature (digits collapsed) agree,
// including where the message ends and the detail begins.
func TestGroupKeyGroupsAsTheText(t *testing.T) {
	base := nodelog.Entry{Class: nodelog.ClassProbe, Severity: 'E', Host: "worker-0", Message: "Probe failed", Detail: "HTTP probe failed with statuscode: 500"}
	with := func(f func(e *nodelog.Entry)) nodelog.Entry {
		e := base
		f(&e)
		return e
	}
	entries := []nodelog.Entry{
		base,
		with(func(e *nodelog.Entry) { e.Detail = "HTTP probe failed with statuscode: 503" }), // same signature
		with(func(e *nodelog.Entry) { e.Severity = 'W' }),
		with(func(e *nodelog.Entry) { e.Host = "worker-1" }),
		with(func(e *nodelog.Entry) { e.Host = "worker-" }),
		with(func(e *nodelog.Entry) { e.Class = nodelog.ClassSandbox }),
		with(func(e *nodelog.Entry) {
			e.Message = "Probe failed HTTP"
			e.Detail = "probe failed with statuscode: 500"
		}), // same text across the split
		with(func(e *nodelog.Entry) { e.Message = ""; e.Detail = "" }),
		with(func(e *nodelog.Entry) { e.Severity = 0 }),
		with(func(e *nodelog.Entry) { e.Host = "worker-0\x00E" }),
	}
	b := newBuilder("in")
	for i := range entries {
		for j := range entries {
			a, c := &entries[i], &entries[j]
			same := b.groupKeyOf(a, "") == b.groupKeyOf(c, "")
			if want := groupKeyReference(a) == groupKeyReference(c); same != want {
				t.Errorf("entries %d and %d: same key %v, want %v (%+v, %+v)", i, j, same, want, *a, *c)
			}
		}
	}
}

// TestLogGroupDetailIsTheEndOfItsText: a group keeps its text as the
// message and the detail (the words events use for a probe), and its detail
// as the end of that same copy when the text ends with it.
func TestLogGroupDetailIsTheEndOfItsText(t *testing.T) {
	tests := []struct {
		e                nodelog.Entry
		wantText, detail string
		shared           bool
	}{
		{nodelog.Entry{Class: nodelog.ClassVolume, Pod: "shop/web-1", Message: "MountVolume.SetUp failed for volume \"config\"", Detail: "configmap \"web-config\" not found"},
			"MountVolume.SetUp failed for volume \"config\": configmap \"web-config\" not found", "configmap \"web-config\" not found", true},
		{nodelog.Entry{Class: nodelog.ClassProbe, Pod: "shop/web-2", Probe: "Readiness", Message: "Probe failed", Detail: "HTTP probe failed with statuscode: 500"},
			"Readiness probe failed: HTTP probe failed with statuscode: 500", "HTTP probe failed with statuscode: 500", true},
		{nodelog.Entry{Class: nodelog.ClassSandbox, Pod: "shop/web-3", Message: "Failed to create pod sandbox"},
			"Failed to create pod sandbox", "", false},
		{nodelog.Entry{Class: nodelog.ClassProbe, Pod: "shop/web-4", Probe: "Liveness", Message: "Probe failed", Detail: "Probe failed"},
			"Liveness probe failed", "Probe failed", false},
	}
	b := newBuilder("in")
	for _, tt := range tests {
		b.addLogEntry(model.Source{Path: "journal", Line: 1}, &tt.e, false, "")
		var g *model.LogGroup
		for _, g = range b.nodeLog[tt.e.Pod] {
		}
		if g == nil {
			t.Fatalf("%s: no group", tt.e.Pod)
		}
		if g.Text != tt.wantText || g.Detail != tt.detail {
			t.Errorf("%s: text %q detail %q, want %q and %q", tt.e.Pod, g.Text, g.Detail, tt.wantText, tt.detail)
		}
		end := unsafe.StringData(g.Text[len(g.Text)-len(g.Detail):])
		if shared := g.Detail != "" && unsafe.StringData(g.Detail) == end; shared != tt.shared {
			t.Errorf("%s: detail shares the text's copy: %v, want %v", tt.e.Pod, shared, tt.shared)
		}
	}
}
