package parser

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// sameAsLibrary checks that, where unmarshalYAML takes its fast path, it
// decodes doc as sigs.k8s.io/yaml does, into a Pod and an Event (lean, so
// without managedFields) and into a generic map. It returns whether the fast
// path applied.
func sameAsLibrary(t testing.TB, name string, doc []byte) bool {
	t.Helper()
	fastPod, okPod := fastOnly[corev1.Pod](doc, true)
	var libPod corev1.Pod
	checkSame(t, name, doc, okPod, fastPod, &libPod, yaml.Unmarshal(doc, &libPod), func() { libPod.ManagedFields = nil })
	fastEvent, okEvent := fastOnly[corev1.Event](doc, true)
	var libEvent corev1.Event
	checkSame(t, name, doc, okEvent, fastEvent, &libEvent, yaml.Unmarshal(doc, &libEvent), func() { libEvent.ManagedFields = nil })
	fastAny, okAny := fastOnly[any](doc, false)
	var libAny any
	checkSame(t, name, doc, okAny, fastAny, &libAny, yaml.Unmarshal(doc, &libAny), func() {})
	return okPod || okEvent
}

// fastOnly is unmarshalYAML's fast path alone.
func fastOnly[T any](doc []byte, lean bool) (*T, bool) {
	if !fastDecodable(reflect.TypeFor[T](), lean) {
		return nil, false
	}
	j, ok := yamlToJSON(doc, lean, loadMem{})
	if !ok {
		return nil, false
	}
	obj := new(T)
	if jsonUnmarshal(j, obj) != nil {
		return nil, false
	}
	return obj, true
}

// unleanJSON decodes doc through yamlToJSON without lean mode, ignoring
// fastDecodable: an error says the document is broken outside the skipped
// managedFields too.
func unleanJSON[T any](doc []byte) (*T, error) {
	j, ok := yamlToJSON(doc, false, loadMem{})
	if !ok {
		return nil, errors.New("not converted")
	}
	obj := new(T)
	return obj, jsonUnmarshal(j, obj)
}

func checkSame[T any](t testing.TB, name string, doc []byte, ok bool, fast, lib *T, libErr error, lean func()) {
	t.Helper()
	if !ok {
		return
	}
	if libErr != nil {
		if _, err := unleanJSON[T](doc); err != nil {
			return // only what lean mode skips unread (metadata.managedFields) is broken
		}
		t.Errorf("%s: library fails (%v) where the fast path decodes", name, libErr)
		return
	}
	lean()
	if diff := cmp.Diff(lib, fast); diff != "" {
		t.Errorf("%s: fast path differs (-library +fast):\n%s", name, diff)
	}
}

func TestFastDecodable(t *testing.T) {
	for _, ty := range []reflect.Type{reflect.TypeFor[corev1.Pod](), reflect.TypeFor[corev1.Event](), reflect.TypeFor[corev1.Node]()} {
		if !fastDecodable(ty, true) {
			t.Errorf("%v: no fast path in lean mode", ty)
		}
		if fastDecodable(ty, false) {
			t.Errorf("%v: fast path although managedFields keep raw JSON", ty)
		}
	}
}

func TestFastYAMLCases(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		fast bool
	}{
		{"mapping", "a: b\nc: 1\nd: true\ne:\nf: ~\n", true},
		{"nested", "metadata:\n  name: x\n  labels:\n    app: web\nspec:\n  containers:\n  - name: c\n    image: i:1\n    ports:\n    - containerPort: 80\n      protocol: TCP\n", true},
		{"seq at key indent", "items:\n- a\n- b\nnext: c\n", true},
		{"quoted", "a: \"x\\ty \\u00e9\"\nb: 'it''s'\nc: \"\"\n", true},
		{"folded quoted", "message: \"first part\n  second part\n\n  after a blank\"\n", true},
		{"escaped break", "m: \"abc\\\n  def\"\n", true},
		{"single folded", "m: 'one\n  two'\n", true},
		{"plain folded", "m: one two\n  three\n", true},
		{"literal", "script: |\n  line 1\n\n    indented\n  last\n", true},
		{"literal strip", "s: |-\n  a\n  b\nnum: 1\n", true},
		{"empty flow", "a: {}\nb: []\n", true},
		{"ip and dates", "podIP: 10.128.2.14\nt: 2021-09-14T14:43:46Z\nv: 1.22.0\n", true},
		{"doc start", "---\na: b\n", true},
		{"string-looking plain", "a: -foo\nb: .x\nc: 12abc\nd: 0.0.0.0/0\n", true},
		{"managed fields kept", "metadata:\n  managedFields:\n  - manager: m\n    fieldsV1:\n      f:status: {}\n  name: p\n", true},
		{"yes is not fast", "a: yes\n", false},
		{"float is not fast", "a: 1.5\n", false},
		{"hex is not fast", "a: 0x1f\n", false},
		{"octal is not fast", "a: 012\n", false},
		{"uid that starts 0b", "uid: 0bf7def6-68de-46a9-be87-4ec479ba5c46\nb: 0b\nc: 0b12\n", true},
		{"binary is not fast", "a: 0b1010\n", false},
		{"signed binary is not fast", "a: -0b11\n", false},
		{"anchor", "a: &x 1\nb: *x\n", false},
		{"flow", "a: [1, 2]\n", false},
		{"comment after value", "a: b # c\n", false},
		{"duplicate", "a: 1\na: 2\n", false},
		{"duplicate folded", "name: 1\nName: 2\n", false},
		{"folded block", "a: >\n  x\n", false},
		{"keep block", "a: |+\n  x\n\n", false},
		{"tab", "a:\n\tb: c\n", false},
		{"cr", "a: b\r\n", false},
		{"bool key", "true: x\n", false},
		{"scalar doc", "just text\n", false},
		{"two docs", "a: 1\n---\nb: 2\n", false},
		{"bad indent", "a:\n    b: 1\n  c: 2\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sameAsLibrary(t, tt.name, []byte(tt.doc)); got != tt.fast {
				j, _ := yamlToJSON([]byte(tt.doc), true, loadMem{})
				t.Errorf("fast path used = %v, want %v (json %s)", got, tt.fast, j)
			}
		})
	}
}

func TestFastYAMLLeanDropsManagedFields(t *testing.T) {
	doc := "metadata:\n  managedFields:\n  - manager: m\n    fieldsV1:\n      f:status: {}\n  name: p\n  uid: u\nspec:\n  a: 1\n"
	j, ok := yamlToJSON([]byte(doc), true, loadMem{})
	if !ok || string(j) != `{"metadata":{"name":"p","uid":"u"},"spec":{"a":1}}` {
		t.Errorf("got %s, %v", j, ok)
	}
	if j, ok := yamlToJSON([]byte("spec:\n  managedFields: x\n"), true, loadMem{}); ok {
		t.Errorf("managedFields outside metadata converted: %s", j)
	}
	j, ok = yamlToJSON([]byte("metadata:\n  name: p\n  managedFields:\n  - a: b\n"), true, loadMem{})
	if !ok || string(j) != `{"metadata":{"name":"p"}}` {
		t.Errorf("managedFields last: got %s, %v", j, ok)
	}
}

// TestFastYAMLCorpus compares the fast path with the library on every
// YAML file and list item of the shared corpus, and reports how many it took.
func TestFastYAMLCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus: not in -short")
	}
	root := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("corpus absent: %v", err)
	}
	docs, fast := 0, 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") ||
			!strings.Contains(p, "/core/") && !strings.Contains(p, "/pods/") {
			return err // the fast path serves pods, events and nodes
		}
		data, err := os.ReadFile(p)
		if err != nil || len(data) > 8<<20 {
			return err
		}
		parts := [][]byte{data}
		if items, _, ok := SplitList(data); ok {
			parts = parts[:0]
			for _, it := range items {
				parts = append(parts, it.Data)
			}
		}
		for _, doc := range parts {
			docs++
			if sameAsLibrary(t, p, doc) {
				fast++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d of %d corpus documents took the fast path", fast, docs)
	if fast < docs/2 {
		t.Errorf("only %d of %d corpus documents took the fast path", fast, docs)
	}
}

// FuzzFastYAML checks on any bytes that where the fast path decodes a
// document, the YAML library decodes it to the same Pod and Event.
func FuzzFastYAML(f *testing.F) {
	for _, s := range []string{
		"a: b\nc: 1\nd: true\ne:\nf: ~\n",
		"metadata:\n  name: x\n  managedFields:\n  - manager: m\n  labels:\n    app: web\nspec:\n  containers:\n  - name: c\n    ports:\n    - containerPort: 80\n",
		"message: \"first part\n  second \\x41 part\n\n  after a blank\"\nm2: 'it''s\n  two'\n",
		"script: |\n  line 1\n\n    indented\n  last\ns2: |-\n  a\n",
		"status:\n  podIP: 10.128.2.14\n  startTime: 2021-09-14T14:43:46Z\n  phase: Running\n",
		"---\nitems:\n- a\n- b\nnext: c\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		sameAsLibrary(t, "fuzz input", data)
	})
}

// yamlBytesOKByByte is fastYAMLBytesOK as it was before it read words: one
// byte at a time, then utf8.Valid. The word-wise one must agree with it.
func yamlBytesOKByByte(data []byte) bool {
	for i := 0; i < len(data); i++ {
		b := data[i]
		switch {
		case b < 0x20:
			if b != '\n' && b != '\t' {
				return false
			}
		case b == 0x7f:
			return false
		case b == 0xc2:
			if i+1 < len(data) && data[i+1] >= 0x80 && data[i+1] <= 0x9f {
				return false
			}
		case b == 0xef:
			if i+2 < len(data) && (data[i+1] == 0xbb && data[i+2] == 0xbf || data[i+1] == 0xbf && data[i+2] >= 0xbe) {
				return false
			}
		case b == 0xe2:
			if i+2 < len(data) && data[i+1] == 0x80 && (data[i+2] == 0xa8 || data[i+2] == 0xa9) {
				return false
			}
		}
	}
	return utf8.Valid(data)
}

// TestYAMLBytesOKAtEveryOffset puts each byte or sequence the YAML library
// treats specially, and some it does not, at every offset of a text longer
// than two words, so each lands at every position within a word and across
// a word's end.
func TestYAMLBytesOKAtEveryOffset(t *testing.T) {
	for _, tt := range []struct {
		name string
		seq  string
		want bool
	}{
		{"newline", "\n", true},
		{"tab", "\t", true},
		{"line breaks and tabs", "\n\t\n\n\t\t\n\t\n", true},
		{"CR between line breaks", "\n\t\r\n", false},
		{"NUL after a tab", "\t\x00", false},
		{"vertical tab beside a newline", "\n\x0b", false},
		{"line break in a multi-byte text", "\xc3\xa9\n\xc3\xa9\t", true},
		{"space", " ", true},
		{"tilde", "~", true},
		{"NUL", "\x00", false},
		{"carriage return", "\r", false},
		{"unit separator", "\x1f", false},
		{"DEL", "\x7f", false},
		{"C1 control", "\xc2\x85", false},
		{"NBSP", "\xc2\xa0", true},
		{"BOM", "\xef\xbb\xbf", false},
		{"U+FFFE", "\xef\xbf\xbe", false},
		{"U+FFFD", "\xef\xbf\xbd", true},
		{"line separator", "\xe2\x80\xa8", false},
		{"paragraph separator", "\xe2\x80\xa9", false},
		{"en dash", "\xe2\x80\x93", true},
		{"é", "\xc3\xa9", true},
		{"emoji", "\xf0\x9f\x99\x82", true},
		{"lone continuation byte", "\x80", false},
		{"cut sequence", "\xe2\x80", false},
		{"0xff", "\xff", false},
	} {
		for at := 0; at <= 24; at++ {
			data := []byte(strings.Repeat("a", at) + tt.seq + strings.Repeat("b", 24-at))
			for _, d := range [][]byte{data, data[:at+len(tt.seq)]} {
				if got := fastYAMLBytesOK(d); got != tt.want || got != yamlBytesOKByByte(d) {
					t.Errorf("%s at %d of %q: got %v, want %v (byte by byte %v)", tt.name, at, d, got, tt.want, yamlBytesOKByByte(d))
				}
			}
		}
	}
}

// FuzzYAMLBytesOK: the word-wise check agrees with the byte-wise one on any
// bytes.
func FuzzYAMLBytesOK(f *testing.F) {
	for _, s := range []string{"", "apiVersion: v1\nkind: Pod\n", "a\x7fb", "x: \"\xe2\x80\xa8\"\n", "\xef\xbb\xbfkind: List\n", "é\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := fastYAMLBytesOK(data), yamlBytesOKByByte(data); got != want {
			t.Fatalf("fastYAMLBytesOK(%q) = %v, byte by byte %v", data, got, want)
		}
	})
}

// BenchmarkYAMLBytesOK compares the word-wise fastYAMLBytesOK with the
// byte-wise check it replaced on the YAML files of the corpus metal gather
// (pods, events, ConfigMaps and the rest; MB/s over all of them).
func BenchmarkYAMLBytesOK(b *testing.B) {
	dir := corpusDir(b, "mg-metal-ocp49")
	var files [][]byte
	var total int64
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".yaml") {
			if data, err := os.ReadFile(p); err == nil {
				files = append(files, data)
				total += int64(len(data))
			}
		}
		return nil
	})
	for _, bc := range []struct {
		name string
		ok   func([]byte) bool
	}{{"bytewise", yamlBytesOKByByte}, {"wordwise", fastYAMLBytesOK}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(total)
			for b.Loop() {
				for _, f := range files {
					bc.ok(f)
				}
			}
		})
	}
}
