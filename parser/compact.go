package parser

import (
	"hash/maphash"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"unique"

	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// intern returns s from a process-wide table of canonical strings, so that
// the many repeats of one string in a gather (reasons, kinds, namespaces,
// images, messages of the same event on every replica) share their bytes.
// The result never keeps s's bytes alive (s may be a slice of a larger
// buffer).
//
// While a load runs (holdInterned), the table is a plain map that lives
// until the last load running ends: a string interned once is the same copy
// for the rest of the load, and dropping the map leaves the model's strings
// as they are. Outside a load, intern falls back to unique.Make. The loads
// used unique.Make with its handles held in a set before: at ×50 of the
// corpus metal gather its trie, weak pointers and that set cost about
// 15 MB over the strings' own bytes at the highest point of memory, the map
// about half as much.
func intern(s string) string {
	if s == "" {
		return ""
	}
	if interned.loads.Load() > 0 {
		sh := internShard(s)
		sh.Lock()
		if sh.m != nil {
			c, ok := sh.m[s]
			if !ok {
				c = strings.Clone(s)
				sh.m[c] = c
			}
			sh.Unlock()
			return c
		}
		sh.Unlock()
	}
	return unique.Make(s).Value()
}

// interned is the table of the strings interned while a load runs, in
// shards that goroutines lock apart.
var interned struct {
	loads  atomic.Int32
	shards [16]internTable
}

// internTable is one shard of interned: each string is its own key and value.
type internTable struct {
	sync.Mutex
	m map[string]string
	_ [40]byte // one shard per cache line
}

// internSeed spreads strings over interned's shards.
var internSeed = maphash.MakeSeed()

func internShard(s string) *internTable {
	return &interned.shards[maphash.String(internSeed, s)%uint64(len(interned.shards))]
}

// holdInterned makes interned strings last until release is called, which
// the caller does when its load is done; loads may overlap.
func holdInterned() (release func()) {
	if interned.loads.Add(1) == 1 {
		for i := range interned.shards {
			sh := &interned.shards[i]
			sh.Lock()
			if sh.m == nil {
				sh.m = map[string]string{}
			}
			sh.Unlock()
		}
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			if interned.loads.Add(-1) == 0 {
				for i := range interned.shards {
					sh := &interned.shards[i]
					sh.Lock()
					if interned.loads.Load() == 0 {
						sh.m = nil
					}
					sh.Unlock()
				}
			}
		})
	}
}

// EventObjectOf returns the part of a decoded Event the model keeps
// (EventObject), with its strings interned and its InvolvedObject its own;
// see EventObject for what is dropped and why.
func EventObjectOf(e *corev1.Event) model.EventObject {
	return eventObjectOf(e, nil)
}

// eventRefs shares the InvolvedObject of the events of one object among the
// events read from one file: a namespace's events name each object about ten
// times (Scheduled, Pulling, Pulled, Created, Started, ...), and a shared
// reference costs an event 8 bytes instead of 80 (Event was 160 bytes where
// it had been 224, about 16 MB less for the 258,550 events of the corpus metal
// gather scaled ×50). A nil eventRefs shares nothing.
type eventRefs map[model.EventReference]*model.EventReference

// of returns the shared copy of ref, adding ref when it is the first.
func (r eventRefs) of(ref model.EventReference) *model.EventReference {
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
func eventObjectOf(e *corev1.Event, refs eventRefs) model.EventObject {
	io := e.InvolvedObject
	return model.EventObject{
		InvolvedObject: refs.of(model.EventReference{Kind: intern(io.Kind), Namespace: intern(io.Namespace), Name: intern(io.Name),
			UID: types.UID(intern(string(io.UID))), FieldPath: intern(io.FieldPath)}),
		Reason:         intern(e.Reason),
		Message:        intern(e.Message),
		Type:           intern(e.Type),
		FirstTimestamp: model.StampOf(e.FirstTimestamp.Time),
		EventTime:      model.StampOf(e.EventTime.Time),
		Count:          eventCount(e),
	}
}

// eventCount is series.count when the event has a series that counts, else
// count.
func eventCount(e *corev1.Event) int32 {
	if e.Series != nil && e.Series.Count > 0 {
		return e.Series.Count
	}
	return e.Count
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
		clipSlice(v)
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

// clipSlice replaces the settable slice v with a copy of exactly its length
// when it has spare capacity: encoding/json grows a slice by doubling as it
// decodes and never shrinks it, so a pod's five conditions sit in room for
// eight, and every pod of a gather stays in memory to the end (about 8 MB of
// spare capacity at ×50 of the corpus metal gather). A slice without spare
// capacity is also one a reader cannot append to in place: podParts shares
// slices among pods and store objects, and an append into the room of a
// shared one would write where another reader's append writes too. The
// elements are copied as they are (what they point to is shared).
func clipSlice(v reflect.Value) {
	if v.Kind() != reflect.Slice || !v.CanSet() || v.Len() == v.Cap() {
		return
	}
	c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
	reflect.Copy(c, v)
	v.Set(c)
}
