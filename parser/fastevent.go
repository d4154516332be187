package parser

import (
	"bytes"
	"encoding/json"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// decodeEventYAML decodes one Event item in the block YAML that oc writes
// straight into a corev1.Event, with no JSON in between: the keys are
// walked by the same line model and scalars are read by the same rules as
// yamlToJSON, so each value is what sigs.k8s.io/yaml would give. It is the
// events' share of the decoding cost (tens of thousands of events per
// gather), which the route through JSON and reflection made the largest.
//
// Like the model's compact form (compactEvent), it keeps of the event's own
// metadata only the namespace and creationTimestamp, and reads labels,
// annotations and managedFields only to check their shape. It returns
// ok=false for anything else: a key the Event type does not have under
// exactly that name, a value of the wrong kind, any YAML outside
// yamlToJSON's subset. The caller then decodes the item the general way, so
// the result never depends on which path ran (FuzzEventYAML, TestEventYAMLCorpus).
func decodeEventYAML(data []byte) (*corev1.Event, bool) {
	if !fastYAMLBytesOK(data) {
		return nil, false
	}
	c := &yconv{lines: splitYAMLLines(data), lean: true}
	c.skipBlank()
	if c.i < len(c.lines) && c.lines[c.i].indent == 0 && string(c.lines[c.i].text) == "---" {
		c.i++
		c.skipBlank()
	}
	if c.i >= len(c.lines) {
		return nil, false
	}
	e := new(corev1.Event)
	d := eventDecoder{c: c}
	n := c.lines[c.i].indent
	if isSeqItem(c.lines[c.i].text) || !d.fields(n, d.event(e)) {
		return nil, false
	}
	c.skipBlank()
	if c.bad || c.i < len(c.lines) {
		return nil, false
	}
	return e, true
}

// eventDecoder reads typed values out of a yconv's lines.
type eventDecoder struct {
	c *yconv
}

// fields walks the block mapping at indent n, calling field for each key
// with the text after "key:" on its line; field reads the value (moving
// c.i past it) and returns false for a key it does not know. Duplicate keys
// (compared without case, as encoding/json matches them) are refused.
func (d eventDecoder) fields(n int, field func(key, rest []byte, n int) bool) bool {
	c := d.c
	var keys [8][]byte
	seen := keys[:0]
	for !c.bad {
		c.skipBlank()
		if c.i >= len(c.lines) || c.lines[c.i].indent < n {
			break
		}
		ln := c.lines[c.i]
		if ln.indent > n || isSeqItem(ln.text) || docMarker(ln) {
			return false
		}
		key, rest, ok := splitKey(ln.text)
		if !ok {
			return false
		}
		for _, k := range seen {
			if bytes.EqualFold(k, key) {
				return false
			}
		}
		seen = append(seen, key)
		c.i++
		if !field(key, rest, n) {
			return false
		}
	}
	return !c.bad
}

// nested reads the value of a key at indent n whose value must be a mapping
// (or null, or {}): it returns present=false for null and walks the block
// mapping with field.
func (d eventDecoder) nested(rest []byte, n int, field func(key, rest []byte, n int) bool) (present, ok bool) {
	c := d.c
	switch string(rest) {
	case "{}":
		return true, true
	case "", "~", "null", "Null", "NULL":
	default:
		return false, false
	}
	c.skipBlank()
	if c.i >= len(c.lines) || c.lines[c.i].indent <= n {
		if c.i < len(c.lines) && c.lines[c.i].indent == n && isSeqItem(c.lines[c.i].text) {
			return false, false // a sequence where a mapping belongs
		}
		return false, len(rest) == 0 || rest[0] != '{'
	}
	if len(rest) > 0 || isSeqItem(c.lines[c.i].text) {
		return false, false
	}
	return true, d.fields(c.lines[c.i].indent, field)
}

// scalar converts the scalar value of a key at indent n to its JSON text
// (a string, null, true/false or an integer); ok=false for a mapping, a
// sequence or anything yamlToJSON would refuse.
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

// str reads a string value into *dst: null leaves it empty, a non-string
// fails (as encoding/json fails on a number for a string field).
func (d eventDecoder) str(dst *string, rest []byte, n int) bool {
	js, ok := d.scalar(rest, n)
	if !ok {
		return false
	}
	switch {
	case string(js) == "null":
		*dst = ""
		return true
	case js[0] != '"':
		return false
	case bytes.IndexByte(js, '\\') < 0:
		*dst = string(js[1 : len(js)-1])
		return true
	}
	return json.Unmarshal(js, dst) == nil
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

// time reads a metav1.Time through its own UnmarshalJSON (null is zero).
func (d eventDecoder) time(dst *metav1.Time, rest []byte, n int) bool {
	js, ok := d.scalar(rest, n)
	if !ok || js[0] != '"' && string(js) != "null" {
		return false
	}
	return dst.UnmarshalJSON(js) == nil
}

// microTime reads a metav1.MicroTime through its own UnmarshalJSON.
func (d eventDecoder) microTime(dst *metav1.MicroTime, rest []byte, n int) bool {
	js, ok := d.scalar(rest, n)
	if !ok || js[0] != '"' && string(js) != "null" {
		return false
	}
	return dst.UnmarshalJSON(js) == nil
}

// stringMap checks that a map[string]string value (labels, annotations)
// holds only strings or nulls, without keeping it.
func (d eventDecoder) stringMap(rest []byte, n int) bool {
	var scratch string
	_, ok := d.nested(rest, n, func(_, rest []byte, n int) bool { return d.str(&scratch, rest, n) })
	return ok
}

// skipManagedFields passes over metadata.managedFields, which yamlToJSON's
// lean mode skips the same way.
func (d eventDecoder) skipManagedFields(rest []byte, n int) bool {
	if len(rest) > 0 {
		return false
	}
	d.c.skipBlock(n)
	return true
}

func (d eventDecoder) event(e *corev1.Event) func(key, rest []byte, n int) bool {
	return func(key, rest []byte, n int) bool {
		switch string(key) {
		case "apiVersion":
			return d.str(&e.APIVersion, rest, n)
		case "kind":
			return d.str(&e.Kind, rest, n)
		case "metadata":
			_, ok := d.nested(rest, n, d.meta(&e.ObjectMeta))
			return ok
		case "involvedObject":
			_, ok := d.nested(rest, n, d.reference(&e.InvolvedObject))
			return ok
		case "related":
			var r corev1.ObjectReference
			present, ok := d.nested(rest, n, d.reference(&r))
			if present {
				e.Related = &r
			} else {
				e.Related = nil
			}
			return ok
		case "reason":
			return d.str(&e.Reason, rest, n)
		case "message":
			return d.str(&e.Message, rest, n)
		case "type":
			return d.str(&e.Type, rest, n)
		case "action":
			return d.str(&e.Action, rest, n)
		case "reportingComponent":
			return d.str(&e.ReportingController, rest, n)
		case "reportingInstance":
			return d.str(&e.ReportingInstance, rest, n)
		case "count":
			return d.int32(&e.Count, rest, n)
		case "firstTimestamp":
			return d.time(&e.FirstTimestamp, rest, n)
		case "lastTimestamp":
			return d.time(&e.LastTimestamp, rest, n)
		case "eventTime":
			return d.microTime(&e.EventTime, rest, n)
		case "source":
			_, ok := d.nested(rest, n, func(key, rest []byte, n int) bool {
				switch string(key) {
				case "component":
					return d.str(&e.Source.Component, rest, n)
				case "host":
					return d.str(&e.Source.Host, rest, n)
				}
				return false
			})
			return ok
		case "series":
			var s corev1.EventSeries
			present, ok := d.nested(rest, n, func(key, rest []byte, n int) bool {
				switch string(key) {
				case "count":
					return d.int32(&s.Count, rest, n)
				case "lastObservedTime":
					return d.microTime(&s.LastObservedTime, rest, n)
				}
				return false
			})
			if present {
				e.Series = &s
			} else {
				e.Series = nil
			}
			return ok
		}
		return false
	}
}

// meta reads the event's own metadata: the namespace and creationTimestamp
// are kept (as compactEvent keeps them), the identity fields are read and
// dropped, labels and annotations only checked.
func (d eventDecoder) meta(m *metav1.ObjectMeta) func(key, rest []byte, n int) bool {
	var scratch string
	return func(key, rest []byte, n int) bool {
		switch string(key) {
		case "namespace":
			return d.str(&m.Namespace, rest, n)
		case "creationTimestamp":
			return d.time(&m.CreationTimestamp, rest, n)
		case "name", "generateName", "uid", "resourceVersion", "selfLink":
			return d.str(&scratch, rest, n)
		case "labels", "annotations":
			return d.stringMap(rest, n)
		case "managedFields":
			return d.skipManagedFields(rest, n)
		}
		return false
	}
}

// reference reads an ObjectReference (involvedObject, related); its
// resourceVersion is dropped as compactEvent drops it.
func (d eventDecoder) reference(r *corev1.ObjectReference) func(key, rest []byte, n int) bool {
	var scratch string
	return func(key, rest []byte, n int) bool {
		switch string(key) {
		case "apiVersion":
			return d.str(&r.APIVersion, rest, n)
		case "kind":
			return d.str(&r.Kind, rest, n)
		case "name":
			return d.str(&r.Name, rest, n)
		case "namespace":
			return d.str(&r.Namespace, rest, n)
		case "uid":
			var uid string
			if !d.str(&uid, rest, n) {
				return false
			}
			r.UID = types.UID(uid)
			return true
		case "fieldPath":
			return d.str(&r.FieldPath, rest, n)
		case "resourceVersion":
			return d.str(&scratch, rest, n)
		}
		return false
	}
}
