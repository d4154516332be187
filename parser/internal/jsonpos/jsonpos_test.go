package jsonpos

import (
	"bytes"
	"testing"
)

const inspect = `{
  "status": {
    "id": "74bf20f8",
    "metadata": {
      "attempt": 14,
      "name": "kube-apiserver"
    },
    "state": "CONTAINER_EXITED",
    "exitCode": 1,
    "labels": {"io.kubernetes.pod.name": "kube-apiserver-0", "id": "not this one"}
  },
  "info": {"id": "nor this"}
}
`

func TestKeyLine(t *testing.T) {
	data := []byte(inspect)
	for _, tt := range []struct {
		path []string
		want int
	}{
		{[]string{"status", "id"}, 3},
		{[]string{"status", "metadata", "name"}, 6},
		{[]string{"status", "exitCode"}, 9},
		{[]string{"status", "labels", "id"}, 10},
		{[]string{"info", "id"}, 12},
		{[]string{"status", "missing"}, 0},
		{nil, 0},
	} {
		if got := KeyLine(data, tt.path...); got != tt.want {
			t.Errorf("KeyLine(%q) = %d, want %d", tt.path, got, tt.want)
		}
	}
	// Not well formed after the key: the key before the break still counts.
	if got := KeyLine([]byte("{\n\"a\": 1,\n\"b\": [1, 2,,"), "b"); got != 3 {
		t.Errorf("KeyLine before a break = %d, want 3", got)
	}
}

func TestWalkEvents(t *testing.T) {
	data := []byte(`{"items":[{"a":"x\"y"},7,[]],"kind":"List"}`)
	var got []string
	end := Walk(data, 0, func(ev *Event) bool {
		s := ""
		for _, p := range ev.Path {
			s += p + "/"
		}
		if ev.Key != "" {
			s += ev.Key
		} else {
			s += "#"
		}
		if ev.Open != 0 {
			s += "=" + string(ev.Open)
		} else {
			s += "=" + String(ev.Value)
		}
		got = append(got, s)
		return true
	})
	want := []string{"items=[", "items/#={", "items/[1]/a=x\"y", "items/#=7", "items/#=[", "kind=List"}
	if len(got) != len(want) {
		t.Fatalf("events %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d = %q, want %q", i, got[i], want[i])
		}
	}
	if end != len(data) {
		t.Errorf("end %d, want %d", end, len(data))
	}
}

// FuzzWalk feeds hostile bytes to Walk and KeyLine: they must end, never
// panic, and report only offsets and lines inside the input.
func FuzzWalk(f *testing.F) {
	f.Add([]byte(inspect), 0)
	f.Add([]byte(`{"a":`), 0)
	f.Add([]byte(`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[`), 3)
	f.Add([]byte(`{"a":"\\\"","b":[{},{"c":tru}]}`), 1)
	f.Fuzz(func(t *testing.T, data []byte, off int) {
		end := Walk(data, off, func(ev *Event) bool {
			if ev.Off < 0 || ev.Off >= len(data) {
				t.Fatalf("offset %d outside %d bytes", ev.Off, len(data))
			}
			return true
		})
		if end > len(data) {
			t.Fatalf("end %d past %d bytes", end, len(data))
		}
		if n := KeyLine(data, "status", "id"); n < 0 || n > bytes.Count(data, []byte{'\n'})+1 {
			t.Fatalf("line %d outside the input", n)
		}
	})
}
