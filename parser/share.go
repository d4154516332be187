package parser

import (
	"hash/maphash"
	"math"
	"reflect"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// podParts keeps one copy of each distinct part of the pods' specs and
// metadata labels and owners, shared by every pod that holds an equal one:
// the replicas of a Deployment and the pods of a DaemonSet differ in their
// names and statuses, not in their containers' resources, environment,
// probes and security contexts, their volumes' sources, their tolerations or
// affinity. A part is a pointer, slice or map (never a status, whose times
// differ from pod to pod); it is shared only when it is deeply equal to the
// one kept (a 64-bit hash finds the candidate), so no pod ever reads
// another's content. Pointers to scalars and empty slices and maps are not
// kept: a table entry would cost more than it saves. The model treats decoded pods as read-only, which is
// what makes the sharing safe.
//
// It is safe for concurrent use; the table lives as long as the load.
type podParts struct {
	strs  *interner // the load's strings, which the parts' are
	seed  maphash.Seed
	mu    sync.Mutex
	table map[partKey]reflect.Value
	// shared counts the parts replaced by a kept one, for tests and profiles.
	shared int
}

type partKey struct {
	t reflect.Type
	h uint64
}

func newPodParts(strs *interner) *podParts {
	return &podParts{strs: strs, seed: maphash.MakeSeed(), table: map[partKey]reflect.Value{}}
}

// add interns pod's strings (as internAll does) and replaces the parts of
// its spec, labels and owner references that equal a kept part with that
// part. A nil podParts only copies the strings (there is no load's table).
func (pp *podParts) add(pod *corev1.Pod) {
	if pp == nil {
		(*interner)(nil).internAll(reflect.ValueOf(pod).Elem())
		return
	}
	// walk interns as it goes: each field is interned once, by one or the other.
	meta := reflect.ValueOf(&pod.ObjectMeta).Elem()
	for i := range meta.NumField() {
		switch meta.Type().Field(i).Name {
		case "Labels", "OwnerReferences":
			pp.walk(meta.Field(i))
		default:
			pp.strs.internAll(meta.Field(i))
		}
	}
	pp.strs.internAll(reflect.ValueOf(&pod.Status).Elem())
	pp.walk(reflect.ValueOf(&pod.Spec).Elem())
}

// addObject interns the strings of obj, a pointer to a typed object of the
// store, and shares its parts that equal a kept part, as add does for pods
// (its status included: the store's objects are read-only too). A nil
// podParts only copies the strings (there is no load's table).
func (pp *podParts) addObject(obj any) {
	v := reflect.ValueOf(obj)
	if pp == nil {
		(*interner)(nil).internAll(v)
		return
	}
	if v.Kind() != reflect.Pointer || v.IsNil() {
		pp.strs.internAll(v)
		return
	}
	pp.walk(v.Elem())
}

var (
	timeType     = reflect.TypeFor[time.Time]()
	quantityType = reflect.TypeFor[resource.Quantity]()
)

// walk returns the hash of v's content, after interning its strings and
// sharing its parts bottom-up; ok is false when v holds something the walk
// cannot read (an unexported field), and then neither v nor what holds it is
// shared.
func (pp *podParts) walk(v reflect.Value) (h uint64, ok bool) {
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		if v.CanSet() && s != "" {
			s = pp.strs.intern(s)
			v.SetString(s)
		}
		return maphash.String(pp.seed, s), true
	case reflect.Bool:
		if v.Bool() {
			return 0x51, true
		}
		return 0x50, true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return mix(uint64(v.Int())), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return mix(v.Uint() ^ 0x7f4a7c15), true
	case reflect.Float32, reflect.Float64:
		return mix(math.Float64bits(v.Float()) ^ 0x3c6ef372), true
	case reflect.Interface:
		if v.IsNil() {
			return 0x1f, true
		}
		return pp.walk(v.Elem())
	case reflect.Pointer:
		if v.IsNil() {
			return 0x2f, true
		}
		h, ok = pp.walk(v.Elem())
		h = mix(h ^ 0xa5a5a5a5)
		if v.Elem().Kind() != reflect.Struct {
			return h, ok // a *int32 or *bool: not worth a table entry
		}
	case reflect.Slice:
		if v.IsNil() {
			return 0x3f, true
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return maphash.Bytes(pp.seed, v.Bytes()), true // never shared, as internAll never interns it
		}
		h, ok = mix(uint64(v.Len())^0x9e3779b9), true
		for i := range v.Len() {
			eh, eok := pp.walk(v.Index(i))
			h = mix(h ^ eh)
			ok = ok && eok
		}
	case reflect.Map:
		if v.IsNil() {
			return 0x4f, true
		}
		if v.CanSet() {
			pp.strs.internAll(v) // a map[string]string is rebuilt with interned strings
		}
		// Entries in any order: a sum of per-entry hashes.
		var sum uint64
		ok = true
		iter := v.MapRange()
		for iter.Next() {
			kh, kok := pp.walk(iter.Key())
			vh, vok := pp.walk(iter.Value())
			sum += mix(kh ^ mix(vh))
			ok = ok && kok && vok
		}
		h = mix(sum ^ uint64(v.Len()))
	case reflect.Struct:
		return pp.walkStruct(v)
	default:
		return 0, false
	}
	if ok && (v.Kind() == reflect.Pointer || v.Len() > 0) {
		pp.share(v, h)
	}
	return h, ok
}

func (pp *podParts) walkStruct(v reflect.Value) (uint64, bool) {
	switch v.Type() {
	case timeType:
		t := v.Interface().(time.Time)
		return mix(uint64(t.UnixNano()) ^ maphash.String(pp.seed, t.Location().String())), true
	case quantityType:
		q := v.Interface().(resource.Quantity)
		return maphash.String(pp.seed, q.String()), true
	}
	h, ok := mix(uint64(v.NumField())), true
	for i := range v.NumField() {
		f := v.Field(i)
		if !f.CanInterface() {
			return 0, false // unexported
		}
		fh, fok := pp.walk(f)
		h = mix(h ^ fh)
		ok = ok && fok
	}
	return h, ok
}

// share replaces v with the kept part equal to it, or keeps v.
func (pp *podParts) share(v reflect.Value, h uint64) {
	if !v.CanSet() {
		return
	}
	k := partKey{v.Type(), h}
	pp.mu.Lock()
	defer pp.mu.Unlock()
	kept, found := pp.table[k]
	if !found {
		clipSlice(v) // the copy kept for every pod that shares it
		pp.table[k] = reflect.ValueOf(v.Interface())
		return
	}
	// The parts below v are shared already, so DeepEqual mostly compares
	// equal pointers and slice headers.
	if reflect.DeepEqual(kept.Interface(), v.Interface()) {
		v.Set(kept)
		pp.shared++
	}
}

// mix is the 64-bit finalizer of MurmurHash3.
func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb53fe1a85ec3
	x ^= x >> 33
	return x
}
