package nodelog

import (
	"bufio"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// classOfReference is classOf the plain way: each rule of classOrder in
// turn, each substring with strings.Contains, in the message or the error.
func classOfReference(msg, errText string) Class {
	has := func(s string, subs []string) bool {
		for _, sub := range subs {
			if strings.Contains(s, sub) {
				return true
			}
		}
		return false
	}
	for _, r := range classOrder {
		if has(msg, r.any) || (errText != "" && has(errText, r.any)) {
			return r.class
		}
	}
	return ClassOther
}

func TestClassOf(t *testing.T) {
	for _, tc := range []struct {
		msg, err string
		want     Class
	}{
		{"", "", ClassOther},
		{"Started Kubernetes Kubelet.", "", ClassOther},
		{`"Probe failed" probeType="Readiness" pod="ns/p"`, "", ClassProbe},
		// The error names an earlier class than the message.
		{`"Error syncing pod, skipping"`, `failed to "CreatePodSandbox" for "p_ns"`, ClassSandbox},
		// The message names an earlier class than the error.
		{`"PLEG is not healthy"`, `ErrImagePull`, ClassPLEG},
		{`"Error syncing pod, skipping"`, `back-off 5m0s restarting failed container="c"`, ClassCrashLoop},
		{`"Error syncing pod, skipping"`, "", ClassSyncError},
		{"", `Back-off pulling image "quay.io/x"`, ClassImagePull},
		{"the node \"", "", ClassNodeNotReady}, // a substring at the very end
	} {
		if got, ref := classOf(tc.msg, tc.err), classOfReference(tc.msg, tc.err); got != tc.want || ref != tc.want {
			t.Errorf("classOf(%q, %q) = %s, reference %s, want %s", tc.msg, tc.err, got, ref, tc.want)
		}
	}
}

// FuzzClassOf checks classOf against the plain loop it replaces.
func FuzzClassOf(f *testing.F) {
	f.Add(`"Error syncing pod, skipping"`, `failed to "CreatePodSandbox"`)
	f.Add("PLEG is not healthy", "ErrImagePull")
	f.Add("node \"", "")
	f.Fuzz(func(t *testing.T, msg, errText string) {
		if got, want := classOf(msg, errText), classOfReference(msg, errText); got != want {
			t.Fatalf("classOf(%q, %q) = %s, reference %s", msg, errText, got, want)
		}
	})
}

// corpusJournalLines returns up to max parsed journal entries (message and
// err field) of the kubelet and CRI-O journals of the shared corpus and of
// the repository's fixtures; nil when none is found.
func corpusJournalLines(tb testing.TB, max int) [][2]string {
	var files []string
	for _, root := range []string{"../../../shared/corpus", "../../fixtures"} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.Contains(d.Name(), "kubelet") || strings.Contains(d.Name(), "crio")) &&
				(strings.HasSuffix(p, ".log") || strings.HasSuffix(p, ".gz")) {
				files = append(files, p)
			}
			return nil
		})
	}
	var out [][2]string
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		var r io.Reader = f
		if strings.HasSuffix(p, ".gz") {
			if zr, err := gzip.NewReader(f); err == nil {
				r = zr
			}
		}
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() && len(out) < max {
			j, ok := ParseJournal(sc.Bytes(), now)
			if !ok {
				continue
			}
			e := FromJournal(j)
			out = append(out, [2]string{e.Message, Get(e.Fields, "err")})
		}
		f.Close()
	}
	return out
}

// TestClassOfCorpus compares classOf with the plain loop on every journal
// line of the corpus and fixtures (skipped when none is found).
func TestClassOfCorpus(t *testing.T) {
	lines := corpusJournalLines(t, 1<<30)
	if len(lines) == 0 {
		t.Skip("no kubelet or CRI-O journal found")
	}
	classes := map[Class]int{}
	for _, l := range lines {
		got, want := classOf(l[0], l[1]), classOfReference(l[0], l[1])
		if got != want {
			t.Fatalf("classOf(%q, %q) = %s, reference %s", l[0], l[1], got, want)
		}
		classes[got]++
	}
	t.Logf("%d lines: %v", len(lines), classes)
}

// BenchmarkClassOf measures the class of real journal lines, against the
// plain loop it replaced (sub-benchmark reference).
func BenchmarkClassOf(b *testing.B) {
	lines := corpusJournalLines(b, 20000)
	if len(lines) == 0 {
		b.Skip("no kubelet or CRI-O journal found")
	}
	for _, bc := range []struct {
		name string
		f    func(msg, errText string) Class
	}{{"index", classOf}, {"reference", classOfReference}} {
		b.Run(bc.name, func(b *testing.B) {
			var n int64
			for _, l := range lines {
				n += int64(len(l[0]) + len(l[1]))
			}
			b.SetBytes(n)
			for b.Loop() {
				for _, l := range lines {
					bc.f(l[0], l[1])
				}
			}
		})
	}
}
