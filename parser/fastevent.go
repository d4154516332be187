package parser

import (
	"bytes"
	"strconv"
	"time"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// decodeEventYAML decodes one Event item in the block YAML that oc writes
// straight into a corev1.Event, with no JSON in between: the keys are
// walked by the same line model and scalars are read by the same rules as
// yamlToJSON, so each value is what sigs.k8s.io/yaml would give. It is the
// events' share of the decoding cost (tens of thousands of events per
// gather), which the route through JSON and reflection made the largest.
//
// Like the model's compact form (EventObjectOf), it keeps of the event's own
// metadata only the namespace and creationTimestamp, and reads labels,
// annotations and managedFields only to check their shape. It returns
// ok=false for anything else: a key the Event type does not have under
// exactly that name, a value of the wrong kind, any YAML outside
// yamlToJSON's subset. The caller then decodes the item the general way, so
// the result never depends on which path ran (FuzzEventYAML, TestEventYAMLCorpus).
//
// Its strings are interned in lm.strs (copied when it is nil), and its
// scratch comes from lm.scratch.
func decodeEventYAML(data []byte, lm loadMem) (*corev1.Event, bool) {
	return decodeEvent(data, false, lm)
}

// decodeEvent is decodeEventYAML that skips the byte scan when bytesOK.
func decodeEvent(data []byte, bytesOK bool, lm loadMem) (*corev1.Event, bool) {
	if !bytesOK && !fastYAMLBytesOK(data) {
		return nil, false
	}
	w := lm.scratch.getYAMLWork(data)
	c := &yconv{lines: w.lines, lean: true, raw: true, scratch: w.scratch, out: w.out[:0]}
	defer func() { lm.scratch.putYAMLWork(w, c.scratch, c.out) }()
	c.skipBlank()
	if c.i < len(c.lines) && c.lines[c.i].indent == 0 && string(c.lines[c.i].text) == "---" {
		c.i++
		c.skipBlank()
	}
	if c.i >= len(c.lines) {
		return nil, false
	}
	var e *corev1.Event
	if lm.scratch != nil {
		e, _ = lm.scratch.events.Get().(*corev1.Event)
	}
	if e == nil {
		e = new(corev1.Event)
	}
	*e = corev1.Event{}
	d := eventDecoder{c: c, strs: lm.strs}
	if isSeqItem(c.lines[c.i].text) || !d.event(c.lines[c.i].indent, e) {
		return nil, false
	}
	c.skipBlank()
	if c.bad || c.i < len(c.lines) {
		return nil, false
	}
	return e, true
}

// releaseEvent hands e, which decodeEvent returned, back to sp for the
// next decode to fill again: a gather has hundreds of thousands of events,
// and the model keeps each as an EventObject, not as the 650-byte Event.
// The caller keeps nothing of it but its strings (which decodeEvent
// interns, so they are never slices of a reused buffer).
func (sp *scratchPools) releaseEvent(e *corev1.Event) {
	if sp != nil {
		sp.events.Put(e)
	}
}

// internBytes returns t.intern(string(b)) without making that string first:
// intern is given a view of b, and it copies a string it has not seen before
// keeping it, so the view never outlives the call
// (TestRecycledBuffersAreNotKept overwrites the buffers such views point
// into).
func (t *interner) internBytes(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return t.intern(unsafe.String(unsafe.SliceData(b), len(b)))
}

// eventDecoder reads typed values out of a yconv's lines.
type eventDecoder struct {
	c    *yconv
	strs *interner // the load's strings, or nil
}

// keys walks one block mapping: next returns its keys in turn.
type keys struct {
	n    int
	seen [24][]byte // an Event has 17 fields; more keys cannot all be known
	len  int
}

// next moves to the next key of the block mapping at indent k.n and returns
// it with the text after "key:" on its line; more=false at the mapping's end
// or, with d.c.bad set, on anything that is not a plain key line. The value
// must be read (moving c.i past it) before next is called again. Duplicate
// keys (compared without case, as encoding/json matches them) are refused.
func (d eventDecoder) next(k *keys) (key, rest []byte, more bool) {
	c := d.c
	if c.bad {
		return nil, nil, false
	}
	c.skipBlank()
	if c.i >= len(c.lines) || c.lines[c.i].indent < k.n {
		return nil, nil, false
	}
	ln := c.lines[c.i]
	if ln.indent > k.n || isSeqItem(ln.text) || docMarker(ln) {
		c.bad = true
		return nil, nil, false
	}
	key, rest, ok := splitKey(ln.text)
	if !ok || k.len == len(k.seen) {
		c.bad = true
		return nil, nil, false
	}
	for _, s := range k.seen[:k.len] {
		if bytes.EqualFold(s, key) {
			c.bad = true
			return nil, nil, false
		}
	}
	k.seen[k.len] = key
	k.len++
	c.i++
	return key, rest, true
}

// nested starts reading the value of a key at indent n that must be a
// mapping: present=false for null or nothing, and for {} an empty mapping
// (child.n is then past every line, so next ends at once). ok=false for
// anything else.
func (d eventDecoder) nested(rest []byte, n int) (child keys, present, ok bool) {
	c := d.c
	child.n = 1 << 30
	switch string(rest) {
	case "{}":
		return child, true, true
	case "", "~", "null", "Null", "NULL":
	default:
		return child, false, false
	}
	c.skipBlank()
	if c.i >= len(c.lines) || c.lines[c.i].indent < n {
		return child, false, true
	}
	ln := c.lines[c.i]
	if ln.indent == n {
		return child, false, !isSeqItem(ln.text) // a sequence at the key's indent is not a mapping
	}
	if len(rest) > 0 || isSeqItem(ln.text) {
		return child, false, false
	}
	child.n = ln.indent
	return child, true, true
}

// scalar converts the scalar value of a key at indent n: null, true/false
// or an integer as JSON text, a string as '"' and its raw bytes (yconv.raw);
// ok=false for a mapping, a sequence or anything yamlToJSON would refuse.
func (d eventDecoder) scalar(rest []byte, n int) ([]byte, bool) {
	c := d.c
	if len(rest) == 0 {
		c.skipBlank()
		if c.i < len(c.lines) && (c.lines[c.i].indent > n || c.lines[c.i].indent == n && isSeqItem(c.lines[c.i].text)) {
			return nil, false
		}
		return []byte("null"), true
	}
	if rest[0] == '[' || rest[0] == '{' {
		return nil, false
	}
	c.out = c.out[:0]
	c.value(rest, n, 2, false, true)
	return c.out, !c.bad
}

// text reads a string value: its bytes (nil for null); ok is false for a
// non-string (as encoding/json fails on a number for a string field).
func (d eventDecoder) text(rest []byte, n int) ([]byte, bool) {
	js, ok := d.scalar(rest, n)
	switch {
	case !ok:
		return nil, false
	case string(js) == "null":
		return nil, true
	case js[0] != '"':
		return nil, false
	}
	return js[1:], true
}

// str reads a string value into *dst, interned: null leaves it empty.
func (d eventDecoder) str(dst *string, rest []byte, n int) bool {
	b, ok := d.text(rest, n)
	if ok {
		*dst = d.strs.internBytes(b)
	}
	return ok
}

// skipStr reads a string value and drops it.
func (d eventDecoder) skipStr(rest []byte, n int) bool {
	js, ok := d.scalar(rest, n)
	return ok && (js[0] == '"' || string(js) == "null")
}

// int32 reads an integer value (null is 0).
func (d eventDecoder) int32(dst *int32, rest []byte, n int) bool {
	js, ok := d.scalar(rest, n)
	if !ok {
		return false
	}
	if string(js) == "null" {
		*dst = 0
		return true
	}
	v, err := strconv.ParseInt(string(js), 10, 32)
	if err != nil {
		return false
	}
	*dst = int32(v)
	return true
}

// timeValue reads a time in layout into *dst as metav1.Time and MicroTime
// decode their JSON: null is zero, else the parsed time in the local zone.
func (d eventDecoder) timeValue(dst *time.Time, layout string, rest []byte, n int) bool {
	js, ok := d.scalar(rest, n)
	if !ok {
		return false
	}
	if string(js) == "null" {
		*dst = time.Time{}
		return true
	}
	if js[0] != '"' {
		return false
	}
	t, err := time.Parse(layout, string(js[1:]))
	if err != nil {
		return false
	}
	*dst = t.Local()
	return true
}

// stringMap checks that a map[string]string value (labels, annotations)
// holds only strings or nulls, without keeping it.
func (d eventDecoder) stringMap(rest []byte, n int) bool {
	k, _, ok := d.nested(rest, n)
	if !ok {
		return false
	}
	for {
		_, rest, more := d.next(&k)
		if !more {
			return !d.c.bad
		}
		if !d.skipStr(rest, k.n) {
			return false
		}
	}
}

// event reads the Event mapping at indent n into e.
func (d eventDecoder) event(n int, e *corev1.Event) bool {
	k := keys{n: n}
	for {
		key, rest, more := d.next(&k)
		if !more {
			return !d.c.bad
		}
		ok := false
		switch string(key) {
		case "apiVersion":
			ok = d.str(&e.APIVersion, rest, n)
		case "kind":
			ok = d.str(&e.Kind, rest, n)
		case "metadata":
			ok = d.meta(rest, n, &e.ObjectMeta)
		case "involvedObject":
			_, ok = d.reference(rest, n, &e.InvolvedObject)
		case "related":
			var r corev1.ObjectReference
			var present bool
			present, ok = d.reference(rest, n, &r)
			e.Related = nil
			if present {
				e.Related = &r
			}
		case "reason":
			ok = d.str(&e.Reason, rest, n)
		case "message":
			ok = d.str(&e.Message, rest, n)
		case "type":
			ok = d.str(&e.Type, rest, n)
		case "action":
			ok = d.str(&e.Action, rest, n)
		case "reportingComponent":
			ok = d.str(&e.ReportingController, rest, n)
		case "reportingInstance":
			ok = d.str(&e.ReportingInstance, rest, n)
		case "count":
			ok = d.int32(&e.Count, rest, n)
		case "firstTimestamp":
			ok = d.timeValue(&e.FirstTimestamp.Time, time.RFC3339, rest, n)
		case "lastTimestamp":
			ok = d.timeValue(&e.LastTimestamp.Time, time.RFC3339, rest, n)
		case "eventTime":
			ok = d.timeValue(&e.EventTime.Time, metav1.RFC3339Micro, rest, n)
		case "source":
			ok = d.source(rest, n, &e.Source)
		case "series":
			ok = d.series(rest, n, e)
		}
		if !ok {
			d.c.bad = true
			return false
		}
	}
}

func (d eventDecoder) source(rest []byte, n int, s *corev1.EventSource) bool {
	k, _, ok := d.nested(rest, n)
	for ok {
		key, rest, more := d.next(&k)
		if !more {
			return !d.c.bad
		}
		switch string(key) {
		case "component":
			ok = d.str(&s.Component, rest, k.n)
		case "host":
			ok = d.str(&s.Host, rest, k.n)
		default:
			ok = false
		}
	}
	return false
}

func (d eventDecoder) series(rest []byte, n int, e *corev1.Event) bool {
	k, present, ok := d.nested(rest, n)
	e.Series = nil
	if !ok || !present {
		return ok
	}
	s := &corev1.EventSeries{}
	e.Series = s
	for ok {
		key, rest, more := d.next(&k)
		if !more {
			return !d.c.bad
		}
		switch string(key) {
		case "count":
			ok = d.int32(&s.Count, rest, k.n)
		case "lastObservedTime":
			ok = d.timeValue(&s.LastObservedTime.Time, metav1.RFC3339Micro, rest, k.n)
		default:
			ok = false
		}
	}
	return false
}

// meta reads the event's own metadata: the namespace and creationTimestamp
// are kept (as EventObjectOf keeps them), the identity fields are read and
// dropped, labels and annotations only checked.
func (d eventDecoder) meta(rest []byte, n int, m *metav1.ObjectMeta) bool {
	k, _, ok := d.nested(rest, n)
	for ok {
		key, rest, more := d.next(&k)
		if !more {
			return !d.c.bad
		}
		switch string(key) {
		case "namespace":
			ok = d.str(&m.Namespace, rest, k.n)
		case "creationTimestamp":
			ok = d.timeValue(&m.CreationTimestamp.Time, time.RFC3339, rest, k.n)
		case "name", "generateName", "uid", "resourceVersion", "selfLink":
			ok = d.skipStr(rest, k.n)
		case "labels", "annotations":
			ok = d.stringMap(rest, k.n)
		case "managedFields":
			ok = len(rest) == 0
			d.c.skipBlock(k.n) // as yamlToJSON's lean mode skips it
		default:
			ok = false
		}
	}
	return false
}

// reference reads an ObjectReference (involvedObject, related); its
// resourceVersion is dropped as EventObjectOf drops it.
func (d eventDecoder) reference(rest []byte, n int, r *corev1.ObjectReference) (present, ok bool) {
	k, present, ok := d.nested(rest, n)
	for ok {
		key, rest, more := d.next(&k)
		if !more {
			return present, !d.c.bad
		}
		switch string(key) {
		case "apiVersion":
			ok = d.str(&r.APIVersion, rest, k.n)
		case "kind":
			ok = d.str(&r.Kind, rest, k.n)
		case "name":
			ok = d.str(&r.Name, rest, k.n)
		case "namespace":
			ok = d.str(&r.Namespace, rest, k.n)
		case "uid":
			// Interned too: the events of one object repeat its UID
			// (about ten events per involved object in a real gather).
			ok = d.str((*string)(&r.UID), rest, k.n)
		case "fieldPath":
			ok = d.str(&r.FieldPath, rest, k.n)
		case "resourceVersion":
			ok = d.skipStr(rest, k.n)
		default:
			ok = false
		}
	}
	return present, false
}
