package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// wholeJSON is what writeIndentedJSON must equal: the whole document encoded
// at once by encoding/json, then escapeHidden.
func wholeJSON(t *testing.T, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(true)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return string(escapeHidden(buf.Bytes()))
}

type ptrMarshaler struct{ N int }

func (p *ptrMarshaler) MarshalJSON() ([]byte, error) { return json.Marshal(map[string]int{"ptr": p.N}) }

type inner struct {
	A string `json:"a"`
	B []int  `json:"b,omitempty"`
}

type embedded struct{ E string }

// streamShapes covers each way a top-level field can be written.
type streamShapes struct {
	Plain      string            `json:"plain"`
	Empty      string            `json:"empty,omitempty"`
	Zero       int               `json:"zero,omitempty"`
	Skipped    string            `json:"-"`
	unexported string            //nolint:unused // json leaves it out
	Untagged   bool              // json names it Untagged
	Bytes      []byte            `json:"bytes"`
	NilSlice   []inner           `json:"nilSlice"`
	EmptySlice []inner           `json:"emptySlice"`
	Omitted    []inner           `json:"omitted,omitempty"`
	Items      []inner           `json:"items"`
	Ptrs       []ptrMarshaler    `json:"ptrs"`
	Nested     [][]string        `json:"nested"`
	Map        map[string]int    `json:"map"`
	Pointer    *inner            `json:"pointer"`
	NilPointer *inner            `json:"nilPointer"`
	Struct     inner             `json:"struct"`
	Time       time.Time         `json:"time"`
	Any        any               `json:"any"`
	Hostile    map[string]string `json:"hostile"`
}

func TestWriteIndentedJSONMatchesEncoder(t *testing.T) {
	hostile := "<script>&\u2028\u202e\u0085\ufeff\x01\"\\"
	shapes := &streamShapes{
		Plain: "p", Skipped: "s", unexported: "u", Untagged: true, Bytes: []byte("bytes"),
		EmptySlice: []inner{},
		Items:      []inner{{A: hostile, B: []int{1, 2}}, {A: "two"}},
		Ptrs:       []ptrMarshaler{{1}, {2}},
		Nested:     [][]string{{"a", "b"}, {}, nil},
		Map:        map[string]int{"z": 1, "a": 2},
		Pointer:    &inner{A: "x"},
		Struct:     inner{A: hostile},
		Time:       time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
		Any:        []any{1, "two", nil},
		Hostile:    map[string]string{hostile: hostile},
	}
	report := loadReport(t)
	report.Normalize()
	empty := &Report{}
	diff := &Diff{Notes: []string{hostile}, Findings: []FindingChange{{Subject: hostile}}, Operators: []OperatorChange{{}}}
	diff.Normalize()
	cases := []struct {
		name string
		v    any
	}{
		{"every field shape", shapes},
		{"the same by value (no pointer methods)", *shapes},
		{"report testdata", report},
		{"empty report", empty},
		{"diff", diff},
		{"struct without fields", &struct{}{}},
		{"struct with an embedded field (written whole)", &struct {
			embedded
			X []int
		}{embedded{"e"}, []int{1}}},
		{"slice (written whole)", []inner{{A: "a"}}},
		{"omitzero (written whole)", &struct {
			T time.Time `json:"t,omitzero"`
			X []int     `json:"x"`
		}{X: []int{1}}},
		{"string option (written whole)", &struct {
			N int   `json:"n,string"`
			X []int `json:"x"`
		}{N: 3, X: []int{1}}},
		{"a name json rejects (written whole)", taggedStruct(`json:"a b\"c"`, `json:"x"`)},
		{"two fields of one name (written whole)", taggedStruct(`json:"x"`, `json:"x"`)},
		{"nil pointer", (*Report)(nil)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got bytes.Buffer
			if err := writeIndentedJSON(&got, c.v); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(wholeJSON(t, c.v), got.String()); d != "" {
				t.Errorf("streamed JSON differs from encoding/json's (-want +got):\n%s", d)
			}
		})
	}
}

// taggedStruct returns a pointer to a struct of []int fields with the given
// tags, field i holding {i}: made at run time, since vet and staticcheck
// reject such tags in source.
func taggedStruct(tags ...string) any {
	var fields []reflect.StructField
	for i, tag := range tags {
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: reflect.TypeFor[[]int](), Tag: reflect.StructTag(tag)})
	}
	v := reflect.New(reflect.StructOf(fields))
	for i := range tags {
		v.Elem().Field(i).Set(reflect.ValueOf([]int{i}))
	}
	return v.Interface()
}

type failingMarshaler struct{}

func (failingMarshaler) MarshalJSON() ([]byte, error) { return nil, errors.New("refused") }

type shortWriter struct{ left int }

func (w *shortWriter) Write(p []byte) (int, error) {
	if len(p) > w.left {
		return 0, errors.New("disk full")
	}
	w.left -= len(p)
	return len(p), nil
}

// TestWriteIndentedJSONErrors: an element that cannot be encoded and a writer
// that fails both end the write with their error.
func TestWriteIndentedJSONErrors(t *testing.T) {
	v := &struct {
		Items []failingMarshaler `json:"items"`
	}{Items: []failingMarshaler{{}}}
	if err := writeIndentedJSON(&bytes.Buffer{}, v); err == nil || !bytes.Contains([]byte(err.Error()), []byte("refused")) {
		t.Errorf("error of an element: got %v, want one naming \"refused\"", err)
	}
	r := loadReport(t)
	if err := writeIndentedJSON(&shortWriter{left: 100}, r); err == nil || err.Error() != "disk full" {
		t.Errorf("error of the writer: got %v, want disk full", err)
	}
}

// FuzzWriteIndentedJSON puts hostile text (any bytes) in every kind of place
// of a report, top-level fields and slice elements, and wants the streamed
// JSON to equal the whole-document encoding.
func FuzzWriteIndentedJSON(f *testing.F) {
	for _, s := range []string{"", "<b>&amp;</b>", "\u2028\u202e\ufeff\u0085", "\xff\xfe\x00", "\"\\\n\t", "{\"a\": [1, 2]}"} {
		f.Add(s, 1)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		r := loadReport(t)
		r.Gather.Path = s
		r.Gather.Roots = append(r.Gather.Roots, s)
		for i := range r.Pods {
			r.Pods[i].Name += s
		}
		for i := range r.Findings {
			r.Findings[i].Hint = s
		}
		if n%3 == 0 {
			r.Nodes = nil
		}
		if n%2 == 0 {
			r.Problems = append(r.Problems, Problem{Path: s, Error: s})
		}
		var got bytes.Buffer
		if err := writeIndentedJSON(&got, r); err != nil {
			t.Fatal(err)
		}
		if want := wholeJSON(t, r); got.String() != want {
			t.Errorf("streamed JSON differs from encoding/json's:\n%s", cmp.Diff(want, got.String()))
		}
	})
}
