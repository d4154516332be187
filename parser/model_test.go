package parser

import (
	"math"
	"testing"
	"time"
	"unsafe"

	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestStamp(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   time.Time
		want time.Time
	}{
		{"zero", time.Time{}, time.Time{}},
		{"seconds", time.Date(2026, 11, 20, 9, 12, 33, 0, time.UTC), time.Date(2026, 11, 20, 9, 12, 33, 0, time.UTC)},
		{"microseconds kept", time.Date(2026, 11, 20, 9, 12, 33, 123456000, time.UTC), time.Date(2026, 11, 20, 9, 12, 33, 123456000, time.UTC)},
		{"nanoseconds dropped", time.Date(2026, 11, 20, 9, 12, 33, 123456789, time.UTC), time.Date(2026, 11, 20, 9, 12, 33, 123456000, time.UTC)},
		{"other zone read as UTC", time.Date(2026, 11, 20, 10, 12, 33, 0, time.FixedZone("CET", 3600)), time.Date(2026, 11, 20, 9, 12, 33, 0, time.UTC)},
		{"before the epoch", time.Date(1960, 1, 2, 3, 4, 5, 0, time.UTC), time.Date(1960, 1, 2, 3, 4, 5, 0, time.UTC)},
		{"year 9999", time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := model.StampOf(tt.in)
			if got := s.Time(); !got.Equal(tt.want) || got.Location() != time.UTC && !got.IsZero() {
				t.Errorf("StampOf(%v).Time() = %v, want %v", tt.in, got, tt.want)
			}
			if s.IsZero() != tt.want.IsZero() {
				t.Errorf("IsZero = %v, want %v", s.IsZero(), tt.want.IsZero())
			}
		})
	}
}

// TestEventAt checks Event.At's order of preference and EventObjectOf's
// times and series count, field by field.
func TestEventAt(t *testing.T) {
	at := func(min int) time.Time { return time.Date(2026, 11, 20, 9, min, 0, 0, time.UTC) }
	for _, tt := range []struct {
		name  string
		ev    corev1.Event
		want  time.Time
		count int
	}{
		{"series last observed first", corev1.Event{Series: &corev1.EventSeries{Count: 7, LastObservedTime: metav1.NewMicroTime(at(5))},
			LastTimestamp: metav1.NewTime(at(4)), EventTime: metav1.NewMicroTime(at(3))}, at(5), 7},
		{"lastTimestamp", corev1.Event{LastTimestamp: metav1.NewTime(at(4)), EventTime: metav1.NewMicroTime(at(3)), Count: 3}, at(4), 3},
		{"eventTime", corev1.Event{EventTime: metav1.NewMicroTime(at(3)), FirstTimestamp: metav1.NewTime(at(2))}, at(3), 1},
		{"firstTimestamp", corev1.Event{FirstTimestamp: metav1.NewTime(at(2)), ObjectMeta: metav1.ObjectMeta{CreationTimestamp: metav1.NewTime(at(1))}}, at(2), 1},
		{"creationTimestamp", corev1.Event{ObjectMeta: metav1.ObjectMeta{CreationTimestamp: metav1.NewTime(at(1))}}, at(1), 1},
		{"no time", corev1.Event{}, time.Time{}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := &model.Event{Object: EventObjectOf(&tt.ev), At: model.StampOf(eventTime(&tt.ev))}
			if got := e.When(); !got.Equal(tt.want) {
				t.Errorf("When() = %v, want %v", got, tt.want)
			}
			if got := e.Count(); got != tt.count {
				t.Errorf("Count() = %d, want %d", got, tt.count)
			}
			o := e.Object
			for _, f := range []struct {
				name      string
				got, want time.Time
			}{
				{"firstTimestamp", o.FirstTimestamp.Time(), tt.ev.FirstTimestamp.Time},
				{"eventTime", o.EventTime.Time(), tt.ev.EventTime.Time},
			} {
				if !f.got.Equal(f.want) {
					t.Errorf("%s = %v, want %v", f.name, f.got, f.want)
				}
			}
		})
	}
}

// TestEventSize keeps an Event within its allocation size class: a gather
// holds hundreds of thousands of them, and every 8 bytes past 112 costs a
// whole size class (128).
func TestEventSize(t *testing.T) {
	if got := unsafe.Sizeof(model.Event{}); got > 112 {
		t.Errorf("Event is %d bytes, want at most 112", got)
	}
}

// TestEventMessageLine: what SetMessageLine is given, MessageLine returns;
// a line that does not fit is unknown.
func TestEventMessageLine(t *testing.T) {
	for _, tt := range []struct{ set, want int }{{0, 0}, {1, 1}, {123456, 123456}, {math.MaxInt32, math.MaxInt32}, {math.MaxInt32 + 1, 0}, {-5, 0}} {
		var e model.Event
		e.SetMessageLine(tt.set)
		if got := e.MessageLine(); got != tt.want {
			t.Errorf("SetMessageLine(%d): MessageLine() = %d, want %d", tt.set, got, tt.want)
		}
	}
}

// TestEventsShareTheirInvolvedObject: the events of one object in one
// events.yaml share one InvolvedObject, equal to what each names; events of
// another object, or of another file, have their own.
func TestEventsShareTheirInvolvedObject(t *testing.T) {
	item := func(name, pod, uid, fieldPath, reason string) string {
		ref := "{kind: Pod, namespace: shop, name: " + pod + ", uid: " + uid
		if fieldPath != "" {
			ref += `, fieldPath: "` + fieldPath + `"`
		}
		return "- involvedObject: " + ref + "}\n  metadata: {name: " + name + ", namespace: shop}\n  reason: " + reason + "\n  type: Normal\n"
	}
	events := "apiVersion: v1\nkind: List\nitems:\n" +
		item("a", "web-1", "u1", "spec.containers{web}", "Pulling") +
		item("b", "web-1", "u1", "spec.containers{web}", "Started") +
		item("c", "web-1", "u1", "", "Scheduled") +
		item("d", "web-2", "u2", "spec.containers{web}", "Pulling")
	b := newBuilder("in")
	for _, p := range []string{"mg/img/namespaces/shop/core/events.yaml", "mg/img2/namespaces/shop/core/events.yaml"} {
		if err := b.decodeHeavy(p, classify(p, nil), []byte(events)); err != nil {
			t.Fatal(err)
		}
	}
	got := b.g.Events
	if len(got) != 8 {
		t.Fatalf("%d events, want 8", len(got))
	}
	want := model.EventReference{Kind: "Pod", Namespace: "shop", Name: "web-1", UID: "u1", FieldPath: "spec.containers{web}"}
	if *got[0].Object.InvolvedObject != want {
		t.Errorf("first event's involved object %+v, want %+v", *got[0].Object.InvolvedObject, want)
	}
	same := func(i, j int) bool { return got[i].Object.InvolvedObject == got[j].Object.InvolvedObject }
	for _, c := range []struct {
		i, j  int
		share bool
	}{{0, 1, true}, {0, 2, false}, {0, 3, false}, {0, 4, false}, {4, 5, true}} {
		if same(c.i, c.j) != c.share {
			t.Errorf("events %d and %d share their involved object: %v, want %v", c.i, c.j, same(c.i, c.j), c.share)
		}
	}
}
