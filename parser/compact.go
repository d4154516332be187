package parser

import (
	"reflect"
	"unique"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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

// compactEvent prepares a decoded Event for the model, which keeps every
// event until the end: the event's own identity (name, UID, resourceVersion,
// labels, annotations, owner references), which no reader uses and which is
// unique per event, is dropped, and the other strings are interned.
func compactEvent(e *corev1.Event) {
	e.ObjectMeta = metav1.ObjectMeta{Namespace: intern(e.Namespace), CreationTimestamp: e.CreationTimestamp}
	e.Kind, e.APIVersion = intern(e.Kind), intern(e.APIVersion)
	io := &e.InvolvedObject
	io.Kind, io.Namespace, io.Name, io.APIVersion, io.FieldPath = intern(io.Kind), intern(io.Namespace), intern(io.Name), intern(io.APIVersion), intern(io.FieldPath)
	io.ResourceVersion = ""
	e.Reason, e.Message, e.Type = intern(e.Reason), intern(e.Message), intern(e.Type)
	e.Source.Component, e.Source.Host = intern(e.Source.Component), intern(e.Source.Host)
	e.Action, e.ReportingController, e.ReportingInstance = intern(e.Action), intern(e.ReportingController), intern(e.ReportingInstance)
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
