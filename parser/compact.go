package parser

import (
	"reflect"
	"unique"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// intern returns s from a process-wide table of canonical strings, so that
// the many repeats of one string in a gather (reasons, kinds, namespaces,
// images, messages of the same event on every replica) share their bytes.
func intern(s string) string {
	if s == "" {
		return ""
	}
	return unique.Make(s).Value()
}

// EventObjectOf returns the part of a decoded Event the model keeps
// (EventObject), with its strings interned and its InvolvedObject its own;
// see EventObject for what is dropped and why.
func EventObjectOf(e *corev1.Event) EventObject {
	return eventObjectOf(e, nil)
}

// eventRefs shares the InvolvedObject of the events of one object among the
// events read from one file: a namespace's events name each object about ten
// times (Scheduled, Pulling, Pulled, Created, Started, ...), and a shared
// reference costs an event 8 bytes instead of 80 (Event is 160 bytes where it
// was 224, about 16 MB less for the 258,550 events of the corpus metal
// gather scaled ×50). A nil eventRefs shares nothing.
type eventRefs map[EventReference]*EventReference

// of returns the shared copy of ref, adding ref when it is the first.
func (r eventRefs) of(ref EventReference) *EventReference {
	if p := r[ref]; p != nil {
		return p
	}
	p := &ref
	if r != nil {
		r[ref] = p
	}
	return p
}

// eventObjectOf is EventObjectOf with the involved object taken from refs.
func eventObjectOf(e *corev1.Event, refs eventRefs) EventObject {
	io := e.InvolvedObject
	return EventObject{
		Namespace:         intern(e.Namespace),
		CreationTimestamp: StampOf(e.CreationTimestamp.Time),
		InvolvedObject: refs.of(EventReference{Kind: intern(io.Kind), Namespace: intern(io.Namespace), Name: intern(io.Name),
			UID: types.UID(intern(string(io.UID))), FieldPath: intern(io.FieldPath)}),
		Reason:         intern(e.Reason),
		Message:        intern(e.Message),
		Type:           intern(e.Type),
		FirstTimestamp: StampOf(e.FirstTimestamp.Time),
		LastTimestamp:  StampOf(e.LastTimestamp.Time),
		EventTime:      StampOf(e.EventTime.Time),
		SeriesCount:    seriesCount(e.Series),
		Count:          e.Count,
	}
}

func seriesCount(s *corev1.EventSeries) int32 {
	if s == nil {
		return 0
	}
	return s.Count
}

// internAll interns every string reachable from v (fields, slice elements,
// map keys and values), in place.
func internAll(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() && v.Len() > 0 {
			v.SetString(intern(v.String()))
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			internAll(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				internAll(f)
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := range v.Len() {
			internAll(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() || v.Type().Key().Kind() != reflect.String || v.Type().Elem().Kind() != reflect.String {
			return
		}
		m := reflect.MakeMapWithSize(v.Type(), v.Len())
		iter := v.MapRange()
		for iter.Next() {
			k, e := iter.Key(), iter.Value()
			m.SetMapIndex(reflect.ValueOf(intern(k.String())).Convert(k.Type()), reflect.ValueOf(intern(e.String())).Convert(e.Type()))
		}
		v.Set(m)
	}
}
