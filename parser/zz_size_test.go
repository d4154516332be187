package parser

import (
	"context"
	"os"
	"reflect"
	"sort"
	"testing"
)

func deepSize(v reflect.Value, seen map[uintptr]bool) (n int64) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return 0
		}
		seen[v.Pointer()] = true
		return int64(v.Elem().Type().Size()) + deepSize(v.Elem(), seen)
	case reflect.Slice:
		if v.IsNil() {
			return 0
		}
		n = int64(v.Cap()) * int64(v.Type().Elem().Size())
		for i := 0; i < v.Len(); i++ {
			n += deepSize(v.Index(i), seen)
		}
		return n
	case reflect.Map:
		if v.IsNil() {
			return 0
		}
		n = 48 + int64(v.Len())*int64(v.Type().Key().Size()+v.Type().Elem().Size()+8)
		it := v.MapRange()
		for it.Next() {
			n += deepSize(it.Key(), seen) + deepSize(it.Value(), seen)
		}
		return n
	case reflect.String:
		if os.Getenv("STR") != "" {
			return int64(v.Len())
		}
		return 0
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			n += deepSize(v.Field(i), seen)
		}
		return n
	case reflect.Interface:
		if v.IsNil() {
			return 0
		}
		return deepSize(v.Elem(), seen)
	}
	return 0
}

func TestZZPodSizes(t *testing.T) {
	in := os.Getenv("PROF_IN")
	if in == "" {
		t.Skip()
	}
	g, err := LoadWith(context.Background(), in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	parts := map[string]int64{}
	var total int64
	for _, p := range g.Pods {
		seen := map[uintptr]bool{}
		total += int64(reflect.TypeOf(*p).Size())
		o := reflect.ValueOf(&p.Object).Elem()
		add := func(name string, v reflect.Value) {
			s := deepSize(v, seen)
			parts[name] += s
			total += s
		}
		meta := o.FieldByName("ObjectMeta")
		for i := 0; i < meta.NumField(); i++ {
			add("meta."+meta.Type().Field(i).Name, meta.Field(i))
		}
		spec := o.FieldByName("Spec")
		for i := 0; i < spec.NumField(); i++ {
			f := spec.Type().Field(i).Name
			if f == "Containers" {
				cs := spec.Field(i)
				parts["spec.Containers.arr"] += int64(cs.Cap()) * int64(cs.Type().Elem().Size())
				total += int64(cs.Cap()) * int64(cs.Type().Elem().Size())
				for j := 0; j < cs.Len(); j++ {
					c := cs.Index(j)
					for k := 0; k < c.NumField(); k++ {
						add("spec.Containers."+c.Type().Field(k).Name, c.Field(k))
					}
				}
				continue
			}
			add("spec."+f, spec.Field(i))
		}
		add("status", o.FieldByName("Status"))
		pv := reflect.ValueOf(p).Elem()
		for i := 0; i < pv.NumField(); i++ {
			if pv.Type().Field(i).Name != "Object" {
				add("Pod."+pv.Type().Field(i).Name, pv.Field(i))
			}
		}
	}
	t.Logf("pods %d, total %d B, per pod %d, struct Pod %d", len(g.Pods), total, total/int64(len(g.Pods)), reflect.TypeOf(Pod{}).Size())
	keys := make([]string, 0, len(parts))
	for k := range parts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return parts[keys[i]] > parts[keys[j]] })
	for _, k := range keys[:25] {
		t.Logf("%-40s %8d B  %5d/pod", k, parts[k], parts[k]/int64(len(g.Pods)))
	}
}
