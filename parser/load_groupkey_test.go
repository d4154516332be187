package parser

import (
	"testing"

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
			same := b.groupKeyOf(a) == b.groupKeyOf(c)
			if want := groupKeyReference(a) == groupKeyReference(c); same != want {
				t.Errorf("entries %d and %d: same key %v, want %v (%+v, %+v)", i, j, same, want, *a, *c)
			}
		}
	}
}
