package model

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestKeptLinesRoundTrip: what SetKept is given, Kept returns (times as the
// same instants, in UTC), whether the encoding is compressed or not, with an
// error line of the tail stored once.
func TestKeptLinesRoundTrip(t *testing.T) {
	at := time.Date(2026, 11, 20, 9, 1, 2, 123456789, time.FixedZone("", 2*3600))
	long := make([]LogLine, keptTailLines)
	for i := range long {
		long[i] = LogLine{Line: 1000 + i, Time: at.Add(time.Duration(i) * time.Millisecond), Text: fmt.Sprintf("I1120 reconcile %d of the operator's objects done", i)}
	}
	tests := []struct {
		name       string
		tail, errs []LogLine
		compressed bool
	}{
		{name: "nothing"},
		{name: "one line without time", tail: []LogLine{{Line: 1, Text: "hello"}}},
		{name: "empty text", tail: []LogLine{{Line: 7, Time: at}}},
		{name: "extreme years", tail: []LogLine{{Line: 1, Time: time.Date(0, 1, 1, 0, 0, 0, 1, time.UTC), Text: "a"}, {Line: 2, Time: time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC), Text: "b"}}},
		{name: "errors before and in the tail", tail: long[50:], errs: []LogLine{{Line: 3, Text: "E1120 early failure"}, long[52], long[59]}, compressed: true},
		{name: "long tail is compressed", tail: long, errs: []LogLine{long[0], long[10]}, compressed: true},
		{name: "error with a tail line's number but other text", tail: long[:2], errs: []LogLine{{Line: long[1].Line, Text: "other"}}},
		{name: "errors only", errs: []LogLine{{Line: 9, Text: "panic: boom"}}},
		{name: "unicode and newlines kept as given", tail: []LogLine{{Line: 1, Text: "日本語 \x00 <script>"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var l ContainerLog
			text := l.SetKept(tt.tail, tt.errs)
			want := 0
			for _, ll := range append(append([]LogLine{}, tt.tail...), tt.errs...) {
				want += len(ll.Text)
			}
			if text != want {
				t.Errorf("SetKept returned %d text bytes, want %d", text, want)
			}
			if got := l.kept != "" && l.kept[0] == keptFlate; got != tt.compressed {
				t.Errorf("compressed = %v, want %v (%d bytes)", got, tt.compressed, len(l.kept))
			}
			if l.HasKept() != (len(tt.tail)+len(tt.errs) > 0) {
				t.Errorf("HasKept = %v", l.HasKept())
			}
			tail, errs := l.Kept()
			if d := cmp.Diff(tt.tail, tail); d != "" {
				t.Errorf("tail (-given +kept):\n%s", d)
			}
			if d := cmp.Diff(tt.errs, errs); d != "" {
				t.Errorf("errors (-given +kept):\n%s", d)
			}
			for _, ll := range append(tail, errs...) {
				if !ll.Time.IsZero() && ll.Time.Location() != time.UTC {
					t.Errorf("line %d: time in %v, want UTC", ll.Line, ll.Time.Location())
				}
			}
		})
	}
}

// TestKeptLinesCompress: a failed container's usual tail, klog lines of one
// controller, is kept in a fraction of its text.
func TestKeptLinesCompress(t *testing.T) {
	var tail []LogLine
	text := 0
	for i := range keptTailLines {
		s := fmt.Sprintf(`E1120 09:01:%02d.%06d       1 reflector.go:138] k8s.io/client-go/informers/factory.go:134: Failed to watch *v1.ConfigMap: failed to list *v1.ConfigMap: Get "https://172.30.0.1:443/api/v1/configmaps?resourceVersion=%d": dial tcp 172.30.0.1:443: connect: connection refused`, i, i*7919%1000000, 40000+i*13)
		tail = append(tail, LogLine{Line: i + 1, Time: time.Date(2026, 11, 20, 9, 1, i, 0, time.UTC), Text: s})
		text += len(s)
	}
	var l ContainerLog
	l.SetKept(tail, tail[:keptErrorLines/2])
	if len(l.kept)*4 > text {
		t.Errorf("kept %d bytes for %d bytes of text, want under a quarter", len(l.kept), text)
	}
}

// TestKeptLinesCorrupt: decodeKept refuses what encodeKept cannot make
// instead of reading past it.
func TestKeptLinesCorrupt(t *testing.T) {
	good, _ := encodeKept([]LogLine{{Line: 1, Text: "hello"}}, []LogLine{{Line: 1, Text: "hello"}})
	for _, s := range []string{"", "\x07", good[:len(good)-1], good + "x", string([]byte{keptRaw, 1, 1, 1, 0, 200}), string([]byte{keptRaw, 0, 1, 5}), string([]byte{keptFlate, 1, 2, 3})} {
		if _, _, err := decodeKept(s); err == nil {
			t.Errorf("decodeKept(%q) = nil error", s)
		}
	}
}

// FuzzKeptLines: any lines SetKept is given come back from Kept.
func FuzzKeptLines(f *testing.F) {
	f.Add("a\nb\nc", int64(1700000000), uint8(3), uint8(1))
	f.Add(strings.Repeat("E1120 failed to sync\n", 70), int64(0), uint8(60), uint8(20))
	f.Fuzz(func(t *testing.T, text string, sec int64, nTail, nErrs uint8) {
		parts := strings.Split(text, "\n")
		var tail, errs []LogLine
		for i, s := range parts {
			ll := LogLine{Line: i + 1, Text: s}
			if sec != 0 && i%3 != 0 {
				ll.Time = time.Unix(sec%(1<<40), int64(i)*1e6).UTC()
			}
			if i < int(nTail) {
				tail = append(tail, ll)
			}
			if i%2 == 0 && len(errs) < int(nErrs) {
				errs = append(errs, ll)
			}
		}
		var l ContainerLog
		l.SetKept(tail, errs)
		gotTail, gotErrs := l.Kept()
		if d := cmp.Diff(tail, gotTail); d != "" {
			t.Fatalf("tail (-given +kept):\n%s", d)
		}
		if d := cmp.Diff(errs, gotErrs); d != "" {
			t.Fatalf("errors (-given +kept):\n%s", d)
		}
	})
}
