package parser

import (
	"hash/maphash"
	"reflect"
	"strings"
	"sync"

	"github.com/mgtriage/mgtriage/parser/internal/bufpool"
	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// interner is one load's table of canonical strings (the builder's, made
// with the load and dropped with it), so that the many repeats of one
// string in a gather (reasons, kinds, namespaces, images, messages of the
// same event on every replica) share their bytes. It is safe for concurrent
// use: its shards are locked apart. A nil *interner interns nothing (intern
// returns a copy of s).
//
// The table is a plain map that lives as long as the load: a string
// interned once is the same copy for the rest of the load, and dropping the
// map leaves the model's strings as they are. The loads used unique.Make
// with its handles held in a set before: at ×50 of the corpus metal gather
// its trie, weak pointers and that set cost about 15 MB over the strings'
// own bytes at the highest point of memory, the map about half as much.
type interner struct {
	seed   maphash.Seed // spreads strings over the shards
	shards [16]internTable
}

// internTable is one shard of an interner: each string is its own key and
// value.
type internTable struct {
	sync.Mutex
	m map[string]string
	_ [40]byte // one shard per cache line
}

// loadMem is the memory of one load that its free decoding functions draw
// on, passed down to them explicitly: its string table, its pool of read
// buffers and its pools of scratch (the builder's). The zero loadMem interns
// nothing and pools nothing, for a decode outside a load.
type loadMem struct {
	strs    *interner
	bufs    *bufpool.Pool
	scratch *scratchPools
	// cut says that the data decoded is a List read only up to the file
	// limit (readListPrefix): its last item, cut there, is not read.
	cut bool
}

// mem returns the load's memory for the free decoding functions.
func (b *builder) mem() loadMem { return loadMem{strs: b.strs, bufs: b.bufs, scratch: b.scratch} }

// newInterner returns an empty table for one load.
func newInterner() *interner {
	t := &interner{seed: maphash.MakeSeed()}
	for i := range t.shards {
		t.shards[i].m = map[string]string{}
	}
	return t
}

// intern returns the table's copy of s, adding a copy of s when it is the
// first. The result never keeps s's bytes alive (s may be a slice of a
// larger buffer, or a view of a buffer that is reused).
func (t *interner) intern(s string) string {
	if s == "" {
		return ""
	}
	if t == nil {
		return strings.Clone(s)
	}
	sh := &t.shards[maphash.String(t.seed, s)%uint64(len(t.shards))]
	sh.Lock()
	c, ok := sh.m[s]
	if !ok {
		c = strings.Clone(s)
		sh.m[c] = c
	}
	sh.Unlock()
	return c
}

// EventObjectOf returns the part of a decoded Event the model keeps
// (EventObject), with its strings copied (not interned: there is no load's
// table to share them through) and its InvolvedObject its own; see
// EventObject for what is dropped and why.
func EventObjectOf(e *corev1.Event) model.EventObject {
	return eventObjectOf(e, nil, nil)
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

// eventObjectOf is EventObjectOf with the strings interned in in and the
// involved object taken from refs.
func eventObjectOf(e *corev1.Event, in *interner, refs eventRefs) model.EventObject {
	io := e.InvolvedObject
	return model.EventObject{
		InvolvedObject: refs.of(model.EventReference{Kind: in.intern(io.Kind), Namespace: in.intern(io.Namespace), Name: in.intern(io.Name),
			UID: types.UID(in.intern(string(io.UID))), FieldPath: in.intern(io.FieldPath)}),
		Reason:         in.intern(e.Reason),
		Message:        in.intern(e.Message),
		Type:           in.intern(e.Type),
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
// map keys and values) in t, in place.
func (t *interner) internAll(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() && v.Len() > 0 {
			v.SetString(t.intern(v.String()))
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			t.internAll(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				t.internAll(f)
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		clipSlice(v)
		for i := range v.Len() {
			t.internAll(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() || v.Type().Key().Kind() != reflect.String || v.Type().Elem().Kind() != reflect.String {
			return
		}
		m := reflect.MakeMapWithSize(v.Type(), v.Len())
		iter := v.MapRange()
		for iter.Next() {
			k, e := iter.Key(), iter.Value()
			m.SetMapIndex(reflect.ValueOf(t.intern(k.String())).Convert(k.Type()), reflect.ValueOf(t.intern(e.String())).Convert(e.Type()))
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
