package parser

import (
	"encoding"
	"encoding/json"
	"reflect"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// unmarshalYAML decodes one YAML document into obj with the result
// sigs.k8s.io/yaml.Unmarshal gives: through yamlToJSON and encoding/json where
// the document is in the subset it converts and T holds no field that keeps
// raw JSON, else (or when encoding/json fails) through the library. With lean,
// metadata.managedFields may be left out, and an Event is first tried by
// decodeEventYAML, whose result differs only in what EventObjectOf drops.
// lm is the load's memory the fast paths use (its strings, its buffers).
func unmarshalYAML[T any](data []byte, lean bool, lm loadMem) (*T, error) {
	return unmarshalYAMLChecked[T](data, lean, false, lm)
}

// unmarshalYAMLChecked is unmarshalYAML; bytesOK says that data is already
// known to pass fastYAMLBytesOK (an item of a file that passed it: SplitList
// only removes indentation and line ends), so the fast paths skip that scan.
func unmarshalYAMLChecked[T any](data []byte, lean, bytesOK bool, lm loadMem) (*T, error) {
	if lean {
		if _, isEvent := any((*T)(nil)).(*corev1.Event); isEvent {
			if e, ok := decodeEvent(data, bytesOK, lm); ok {
				return any(e).(*T), nil
			}
		}
	}
	if fastDecodable(reflect.TypeFor[T](), lean) {
		if j, ok := yamlToJSONChecked(data, lean, bytesOK, lm); ok {
			obj := new(T)
			err := json.Unmarshal(j, obj) // obj holds copies of j's text
			lm.bufs.Put(j)
			if err == nil {
				return obj, nil
			}
		}
	}
	obj := new(T)
	if err := yaml.Unmarshal(data, obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// valueUnmarshalers are the types with their own UnmarshalJSON that read a
// value (a string or number) rather than keep the raw JSON text, whose
// result therefore does not depend on how the JSON was laid out.
var valueUnmarshalers = map[string]bool{
	"k8s.io/apimachinery/pkg/apis/meta/v1.Time":       true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime":  true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.Duration":   true,
	"k8s.io/apimachinery/pkg/api/resource.Quantity":   true,
	"k8s.io/apimachinery/pkg/util/intstr.IntOrString": true,
}

// fieldsV1 keeps its JSON text; it only appears under managedFields, which
// yamlToJSON leaves out in lean mode (and refuses anywhere else).
const fieldsV1 = "k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1"

type fastKey struct {
	t    reflect.Type
	lean bool
}

var fastTypes sync.Map // fastKey → bool

var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// fastDecodable reports whether every type reachable from t decodes from
// JSON by value: no json.RawMessage, runtime.RawExtension or other custom
// unmarshaler that could keep the text (whose key order and escaping
// differ between yamlToJSON and the library). With lean, managedFields'
// FieldsV1 does not count.
func fastDecodable(t reflect.Type, lean bool) bool {
	k := fastKey{t, lean}
	if v, ok := fastTypes.Load(k); ok {
		return v.(bool)
	}
	ok := walkDecodable(t, lean, map[reflect.Type]bool{})
	fastTypes.Store(k, ok)
	return ok
}

func walkDecodable(t reflect.Type, lean bool, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return true
	}
	seen[t] = true
	if t.Kind() == reflect.Pointer {
		return walkDecodable(t.Elem(), lean, seen)
	}
	if name := t.PkgPath() + "." + t.Name(); t.PkgPath() != "" && (valueUnmarshalers[name] || lean && name == fieldsV1) {
		return true
	}
	if t.Implements(jsonUnmarshalerType) || reflect.PointerTo(t).Implements(jsonUnmarshalerType) ||
		t.Implements(textUnmarshalerType) || reflect.PointerTo(t).Implements(textUnmarshalerType) {
		return false
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return walkDecodable(t.Elem(), lean, seen)
	case reflect.Map:
		return walkDecodable(t.Key(), lean, seen) && walkDecodable(t.Elem(), lean, seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if !walkDecodable(t.Field(i).Type, lean, seen) {
				return false
			}
		}
	case reflect.Chan, reflect.Func, reflect.UnsafePointer, reflect.Complex64, reflect.Complex128:
		return false
	}
	return true
}

// jsonUnmarshal is encoding/json's Unmarshal (a seam for tests).
func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
