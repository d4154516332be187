package parser

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/model"
)

func TestScanLinesBoundsLongLines(t *testing.T) {
	long := strings.Repeat("x", 200_000)
	var got []int
	err := scanLines(strings.NewReader("a\n"+long+"\nb"), func(n int, line []byte) {
		got = append(got, len(line))
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []int{1, MaxLineBytes + len(" …[cut]"), 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("line lengths (-want +got):\n%s", diff)
	}
}

func TestReadTailKeepsLastLines(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= TailLines+15; i++ {
		b.WriteString("2026-11-20T09:01:02.123456789Z line\n")
	}
	l := &model.ContainerLog{}
	if _, err := readTail(strings.NewReader(b.String()), l, true, nil, nil); err != nil {
		t.Fatal(err)
	}
	if l.Lines != TailLines+15 || len(keptTail(l)) != TailLines || keptTail(l)[0].Line != 16 || keptTail(l)[len(keptTail(l))-1].Line != TailLines+15 {
		t.Errorf("Lines=%d tail=%d first=%d last=%d", l.Lines, len(keptTail(l)), keptTail(l)[0].Line, keptTail(l)[len(keptTail(l))-1].Line)
	}
	if keptTail(l)[0].Text != "line" || keptTail(l)[0].Time.IsZero() {
		t.Errorf("tail line = %+v", keptTail(l)[0])
	}
}

func TestCleanMemberName(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		ok       bool
	}{
		{"must-gather/ns/a.yaml", "must-gather/ns/a.yaml", true},
		{"./a//b/", "a/b", true},
		{"../etc/passwd", "", false},
		{"a/../../b", "", false},
		{"/etc/passwd", "", false},
		{`a\..\..\b`, "", false},
		{"C:/x", "", false},
		{"", "", false},
	} {
		got, ok := CleanMemberName(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("CleanMemberName(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestClassify(t *testing.T) {
	root := "mg/quay-io-x/"
	for _, tt := range []struct {
		path string
		want classified
	}{
		{root + "namespaces/shop/core/pods.yaml", classified{Kind: kindPodList, Root: root, Namespace: "shop"}},
		{root + "namespaces/shop/core/events.yaml", classified{Kind: kindEventList, Root: root, Namespace: "shop"}},
		{root + "namespaces/shop/pods/web-1/web-1.yaml", classified{Kind: kindPod, Root: root, Namespace: "shop", Pod: "web-1"}},
		{root + "namespaces/shop/pods/web-1/app/app/logs/previous.log", classified{Kind: kindContainerLog, Root: root, Namespace: "shop", Pod: "web-1", Container: "app", Previous: true}},
		{root + "namespaces/shop/pods/web-1/app/app/logs/current.insecure.log.gz", classified{Kind: kindContainerLog, Root: root, Namespace: "shop", Pod: "web-1", Container: "app"}},
		{root + "namespaces/shop/pods/web-1/app/app/logs/rotated/3.log.20211027-082023.gz", classified{Kind: kindContainerLog, Root: root, Namespace: "shop", Pod: "web-1", Container: "app", Rotated: "3.log.20211027-082023.gz"}},
		{root + "namespaces/shop/pods/web-1/app/app/logs/rotated/notes.txt", classified{Kind: kindOther}},
		{root + "cluster-scoped-resources/core/nodes/n1.yaml", classified{Kind: kindNode, Root: root, Node: "n1"}},
		{root + "host_service_logs/masters/kubelet_service.log", classified{Kind: kindServiceLog, Root: root, Unit: "kubelet"}},
		{root + "nodes/n1/n1_logs_kubelet.gz", classified{Kind: kindNodeKubeletLog, Root: root, Node: "n1"}},
		{"namespaces/shop/core/pods.yaml", classified{Kind: kindPodList, Namespace: "shop"}},
		{root + "namespaces/shop/pods/web-1/other.yaml", classified{Kind: kindOther}},
		{root + "namespaces/shop/apps/deployments.yaml", classified{Kind: kindObjectList, Root: root, Namespace: "shop", Group: "apps", Resource: "deployments"}},
		{root + "namespaces/shop/core/configmaps.yaml", classified{Kind: kindObjectList, Root: root, Namespace: "shop", Resource: "configmaps"}},
		{root + "namespaces/shop/core/configmaps/app.json", classified{Kind: kindObject, Root: root, Namespace: "shop", Resource: "configmaps", Name: "app"}},
		{root + "namespaces/shop/shop.yaml", classified{Kind: kindObject, Root: root, Resource: "namespaces", Name: "shop"}},
		{root + "namespaces/shop/other.yaml", classified{Kind: kindOther}},
		{root + "cluster-scoped-resources/storage.k8s.io/csinodes/n1.yaml", classified{Kind: kindObject, Root: root, Group: "storage.k8s.io", Resource: "csinodes", Name: "n1"}},
		{root + "cluster-scoped-resources/config.openshift.io/proxies.yaml", classified{Kind: kindObjectList, Root: root, Group: "config.openshift.io", Resource: "proxies"}},
	} {
		if diff := cmp.Diff(tt.want, classify(tt.path, nil)); diff != "" {
			t.Errorf("classify(%q) (-want +got):\n%s", tt.path, diff)
		}
	}
}

// TestAfterTimestamp: the text of a container-log line after its time, and
// after the stream and tag of the kubelet's own files (rotated logs).
func TestAfterTimestamp(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{"2026-11-20T09:01:02.123456789Z E1120 09:01:02.1 1 x.go:1] boom", "E1120 09:01:02.1 1 x.go:1] boom"},
		{"2026-11-20T09:01:02.123456789Z stderr F E1120 09:01:02.1 1 x.go:1] boom", "E1120 09:01:02.1 1 x.go:1] boom"},
		{"2026-11-20T09:01:02.123456789+00:00 stdout P part", "part"},
		{"2026-11-20T09:01:02.123456789Z stdout", "stdout"},
		{"E1120 09:01:02.1 1 x.go:1] stderr F boom", "E1120 09:01:02.1 1 x.go:1] stderr F boom"},
		{"", ""},
	} {
		if got := string(afterTimestamp([]byte(tt.line))); got != tt.want {
			t.Errorf("afterTimestamp(%q) = %q, want %q", tt.line, got, tt.want)
		}
		if strings.HasPrefix(tt.want, "E1120") && !looksLikeError(afterTimestamp([]byte(tt.line))) {
			t.Errorf("%q: no error line", tt.line)
		}
	}
}

func TestReadTailKeepsErrorLines(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 500; i++ {
		switch {
		case i%50 == 0:
			fmt.Fprintf(&b, "2026-11-20T09:01:02.000000000Z E1120 09:01:02.000000 1 main.go:%d] failed %d\n", i, i)
		case i == 7:
			b.WriteString("2026-11-20T09:01:02.000000000Z panic: runtime error: invalid memory address\n")
		default:
			b.WriteString("2026-11-20T09:01:02.000000000Z all good\n")
		}
	}
	l := &model.ContainerLog{}
	if _, err := readTail(strings.NewReader(b.String()), l, true, nil, nil); err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, e := range keptErrs(l) {
		lines = append(lines, e.Line)
	}
	if diff := cmp.Diff([]int{7, 50, 100, 150, 200, 250, 300, 350, 400, 450, 500}, lines); diff != "" || l.ErrorCount != 11 {
		t.Errorf("error lines (-want +got):\n%s (count %d)", diff, l.ErrorCount)
	}
}

// errorMarkersReference is the marker list hasErrorMarker must agree with,
// searched one marker at a time.
var errorMarkersReference = []string{"panic:", "fatal error:", "Exception", "Traceback (most recent call last)",
	"level=error", "level=fatal", `"level":"error"`, `"level":"fatal"`, "ERROR", "FATAL", "Error:", "error:"}

func hasErrorMarkerReference(text []byte) bool {
	for _, m := range errorMarkersReference {
		if strings.Contains(string(text), m) {
			return true
		}
	}
	return false
}

func TestHasErrorMarkerSameAsReference(t *testing.T) {
	lines := []string{
		"", "error", "error:", "Error: x", "fatal error: all goroutines are asleep", "mirror: ok", "Mirror: ok",
		"terror: x", "rror:", "eRROR:", "ERROR", "level=error msg=x", "level=info msg=error", "level=fatal",
		`{"level":"error","msg":"x"}`, `{"level":"info","msg":"error"}`, `level":"error"`, `{ "level": "error" }`,
		"levellevel=error", "level", "level=", `"level":"fata`, "panic: runtime error", "java.lang.NullPointerException",
		"Traceback (most recent call last):", "FATAL", "fatal", "Exceptional", "rror:rror: error:",
		"no errors: none", "I1120 09:01:02.123456 all fine", "loglevel=errors",
	}
	for _, l := range lines {
		if got, want := hasErrorMarker([]byte(l)), hasErrorMarkerReference([]byte(l)); got != want {
			t.Errorf("%q: hasErrorMarker = %v, the marker list says %v", l, got, want)
		}
	}
}

func FuzzHasErrorMarker(f *testing.F) {
	for _, s := range []string{"x error: y", "mirror:", `{"level":"fatal"}`, "level=error", "Exception"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := hasErrorMarker(b), hasErrorMarkerReference(b); got != want {
			t.Fatalf("%q: hasErrorMarker = %v, the marker list says %v", b, got, want)
		}
	})
}

// BenchmarkHasErrorMarker runs the marker search over the container-log
// lines of the corpus metal gather (skipped when absent).
func BenchmarkHasErrorMarker(b *testing.B) {
	lines := corpusLines(func(p string) bool { return strings.HasSuffix(p, ".log") && strings.Contains(p, "/logs/") },
		afterTimestamp, 100000)
	benchLineFuncs(b, lines, lineFunc{"index", hasErrorMarker}, lineFunc{"reference", hasErrorMarkerReference})
}

// corpusLines returns up to max lines, each passed through cut, of the
// files of the corpus metal gather whose path want accepts; nil when the
// corpus is absent.
func corpusLines(want func(path string) bool, cut func([]byte) []byte, max int) [][]byte {
	var lines [][]byte
	filepath.WalkDir("../../shared/corpus/mg-metal-ocp49", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !want(p) || len(lines) >= max {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		for _, l := range bytes.Split(data, []byte("\n")) {
			if len(lines) < max {
				lines = append(lines, cut(l))
			}
		}
		return nil
	})
	return lines
}

// lineFunc is a named test of one line, for benchLineFuncs.
type lineFunc struct {
	name string
	f    func([]byte) bool
}

// benchLineFuncs runs each function over lines in a sub-benchmark of its
// name, in bytes per second; skipped when lines is empty (corpus absent).
func benchLineFuncs(b *testing.B, lines [][]byte, fs ...lineFunc) {
	if len(lines) == 0 {
		b.Skip("corpus absent")
	}
	var n int64
	for _, l := range lines {
		n += int64(len(l))
	}
	for _, lf := range fs {
		b.Run(lf.name, func(b *testing.B) {
			b.SetBytes(n)
			for b.Loop() {
				for _, l := range lines {
					lf.f(l)
				}
			}
		})
	}
}

// keptTail and keptErrs return the tail and the error lines l keeps.
func keptTail(l *model.ContainerLog) []model.LogLine { t, _ := l.Kept(); return t }
func keptErrs(l *model.ContainerLog) []model.LogLine { _, e := l.Kept(); return e }

// TestMatchedWindow: in a log longer than MatchedWindow, only the lines of
// its last MatchedWindow bytes are searched for the literals of
// model.Needs.LogLines, whether its size is known or not (a gzipped log), and
// whatever sizes its reader hands the bytes in.
func TestMatchedWindow(t *testing.T) {
	var b strings.Builder
	b.WriteString("2026-11-20T09:00:00Z x509: certificate is valid for a, not b (early)\n")
	for b.Len() < 3*tailBlockBytes {
		b.WriteString("2026-11-20T09:00:01Z serving requests, all well\n")
	}
	b.WriteString("2026-11-20T09:10:00Z x509: certificate is valid for a, not b (late)\n")
	for b.Len() < 3*tailBlockBytes+MatchedWindow/2 {
		b.WriteString("2026-11-20T09:10:01Z serving requests, all well\n")
	}
	filter := newLineFilter([]model.Literal{{Text: "x509: certificate is "}})
	for _, chunk := range []int{1 << 20, 4096, 7} {
		l := &model.ContainerLog{Container: "app"}
		if _, err := readTail(&chunkReader{data: []byte(b.String()), n: chunk}, l, false, filter, nil); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, ll := range l.Matched() {
			got = append(got, strings.TrimSuffix(ll.Text[strings.LastIndex(ll.Text, "(")+1:], ")"))
		}
		if !slices.Equal(got, []string{"late"}) {
			t.Errorf("read %d bytes at a time: matched lines %v, want [late]", chunk, got)
		}
	}
}

// chunkReader hands data at most n bytes per Read.
type chunkReader struct {
	data []byte
	n    int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.data)
	c.data = c.data[k:]
	return k, nil
}
