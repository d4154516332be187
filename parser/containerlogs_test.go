package parser

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/model"
)

// gzipBytes is data gzipped.
func gzipBytes(t testing.TB, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// gzipContainerLogs replaces every container log under dir of at least
// minBytes bytes by its gzipped copy NAME.gz, as must-gather's
// REDUCE_LOGS=compress_logs does (with 10 MB); it returns how many it
// gzipped.
func gzipContainerLogs(t testing.TB, dir string, minBytes int64) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".log") || !strings.Contains(filepath.ToSlash(p), "/logs/") {
			return err
		}
		info, err := d.Info()
		if err != nil || info.Size() < minBytes {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(p+".gz", gzipBytes(t, data), 0o644); err != nil {
			return err
		}
		n++
		return os.Remove(p)
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// logRow is what the model holds of one container log, its path without
// the ".gz" a compressed copy adds.
type logRow struct {
	Pod, Container, Rotated, Path string
	Previous                      bool
	Lines, ErrorCount             int
	Tail, Errs, Matched           []model.LogLine
}

func logRows(g *model.Gather) []logRow {
	var rows []logRow
	for _, p := range g.Pods {
		for _, l := range p.Logs {
			tail, errs := l.Kept()
			rows = append(rows, logRow{Pod: p.Key(), Container: l.Container, Rotated: l.Rotated, Path: strings.TrimSuffix(l.Path(), ".gz"),
				Previous: l.Previous, Lines: l.Lines, ErrorCount: l.ErrorCount, Tail: tail, Errs: errs, Matched: l.Matched()})
		}
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Path < rows[j].Path })
	return rows
}

// TestGzippedContainerLogsReadAsPlain: the bundled sample with its
// container logs gzipped as NAME.gz (all of them, empty ones included, or
// those of at least 1 KiB) reads as the sample itself: the same logs with
// the same line counts, error counts, tails, error and matched lines, the
// same coverage (all counted as container logs, none as recognised and
// not used) and the same problems.
func TestGzippedContainerLogsReadAsPlain(t *testing.T) {
	want, err := Load(context.Background(), sampleGather)
	if err != nil {
		t.Fatal(err)
	}
	if want.Coverage.ContainerLogs == 0 {
		t.Fatal("the sample holds no container log")
	}
	for _, tc := range []struct {
		name     string
		minBytes int64
	}{{"all", 0}, {"over 1 KiB", 1024}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), filepath.Base(sampleGather))
			copyTree(t, sampleGather, dir)
			if n := gzipContainerLogs(t, dir, tc.minBytes); n == 0 {
				t.Fatal("no container log gzipped")
			}
			got, err := Load(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(logRows(want), logRows(got)); d != "" {
				t.Errorf("container logs (-plain +gzipped):\n%s", d)
			}
			if d := cmp.Diff(want.Coverage, got.Coverage); d != "" {
				t.Errorf("coverage (-plain +gzipped):\n%s", d)
			}
			if d := cmp.Diff(want.Problems, got.Problems); d != "" {
				t.Errorf("problems (-plain +gzipped):\n%s", d)
			}
		})
	}
}

// TestRotatedContainerLogs: the files the kubelet rotated out of a
// container's log (logs/rotated/, plain or gzipped, in the kubelet's own
// line form with the stream and tag after the time) are that container's
// logs: counted as container logs, their error lines counted and kept,
// listed after the previous and current run's logs by restart count, and
// never returned as the current or previous log by Pod.Log. A container
// that never failed keeps only the line count of its rotated files too.
func TestRotatedContainerLogs(t *testing.T) {
	const root = "must-gather.local.1/quay-io-img/"
	logs := root + "namespaces/shop/pods/web-1/app/app/logs/"
	quietLogs := root + "namespaces/shop/pods/web-1/quiet/quiet/logs/"
	cri := "2026-11-20T08:30:00.000000001Z stdout F starting\n" +
		"2026-11-20T08:30:01.000000001Z stderr F E1120 08:30:01.000000       1 main.go:9] dial tcp 10.0.0.1:5432: connect: connection refused\n" +
		"2026-11-20T08:30:02.000000001Z stdout F retrying\n"
	dir := filepath.Join(t.TempDir(), "in")
	writeTree(t, dir, map[string]string{
		root + "timestamp": "2026-11-20 09:12:33.000000000 +0000 UTC m=+0.01\n",
		root + "namespaces/shop/core/pods.yaml": `apiVersion: v1
kind: List
items:
- metadata: {name: web-1, namespace: shop, uid: u1, creationTimestamp: "2026-11-20T08:00:00Z"}
  spec:
    containers: [{name: app}, {name: quiet}]
  status:
    phase: Running
    containerStatuses:
    - name: app
      ready: false
      restartCount: 12
      state: {waiting: {reason: CrashLoopBackOff}}
      lastState: {terminated: {exitCode: 1, reason: Error}}
    - {name: quiet, ready: true, restartCount: 0, state: {running: {startedAt: "2026-11-20T08:00:00Z"}}}
`,
		logs + "current.log":                        "2026-11-20T09:10:00.000000001Z current run\n",
		logs + "previous.log":                       "2026-11-20T09:05:00.000000001Z previous run\n2026-11-20T09:05:01.000000001Z panic: boom\n",
		logs + "rotated/2.log.20261120-083000":      cri,
		logs + "rotated/12.log.20261120-090000":     cri,
		logs + "rotated/notes.txt":                  "not a log\n",
		quietLogs + "rotated/0.log.20261120-083000": cri,
	})
	gz := filepath.Join(dir, filepath.FromSlash(logs+"rotated/11.log.20261120-084500.gz"))
	if err := os.WriteFile(gz, gzipBytes(t, []byte(cri)), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := Load(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Pods) != 1 {
		t.Fatalf("%d pods, want 1", len(g.Pods))
	}
	p := g.Pods[0]
	type row struct {
		Container, File, Rotated string
		Previous                 bool
		Lines, ErrorCount        int
		Kept                     bool
	}
	var got []row
	for _, l := range p.Logs {
		got = append(got, row{l.Container, strings.TrimPrefix(l.Path(), root+"namespaces/shop/pods/web-1/"), l.Rotated, l.Previous, l.Lines, l.ErrorCount, l.HasKept()})
	}
	want := []row{
		{"app", "app/app/logs/previous.log", "", true, 2, 1, true},
		{"app", "app/app/logs/current.log", "", false, 1, 0, true},
		{"app", "app/app/logs/rotated/2.log.20261120-083000", "2.log.20261120-083000", false, 3, 1, true},
		{"app", "app/app/logs/rotated/11.log.20261120-084500.gz", "11.log.20261120-084500.gz", false, 3, 1, true},
		{"app", "app/app/logs/rotated/12.log.20261120-090000", "12.log.20261120-090000", false, 3, 1, true},
		{"quiet", "quiet/quiet/logs/rotated/0.log.20261120-083000", "0.log.20261120-083000", false, 3, 0, false},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("logs of the pod (-want +got):\n%s", d)
	}
	if l := p.Log("app", false); l == nil || !strings.HasSuffix(l.Path(), "/current.log") {
		t.Errorf("Log(app, current) = %+v, want current.log", l)
	}
	if l := p.Log("app", true); l == nil || !strings.HasSuffix(l.Path(), "/previous.log") {
		t.Errorf("Log(app, previous) = %+v, want previous.log", l)
	}
	for _, previous := range []bool{false, true} {
		if l := p.Log("quiet", previous); l != nil {
			t.Errorf("Log(quiet, previous=%v) = %s: a rotated file is no run's log", previous, l.Path())
		}
	}
	// The kubelet's stream and tag are not part of a kept line; its klog
	// error header is an error line.
	_, errs := p.Logs[2].Kept()
	if d := cmp.Diff([]string{"E1120 08:30:01.000000       1 main.go:9] dial tcp 10.0.0.1:5432: connect: connection refused"}, lineTexts(errs)); d != "" {
		t.Errorf("error lines of a rotated file (-want +got):\n%s", d)
	}
	if g.Coverage.ContainerLogs != 6 {
		t.Errorf("coverage counts %d container logs, want 6", g.Coverage.ContainerLogs)
	}
	if d := cmp.Diff([]model.FileCount{{What: root + "namespaces/*/pods/", Files: 1}}, g.Coverage.Unused); d != "" {
		t.Errorf("recognised, not used (-want +got):\n%s", d)
	}
}

func lineTexts(lines []model.LogLine) []string {
	var out []string
	for _, l := range lines {
		out = append(out, l.Text)
	}
	return out
}

// TestCompareLogs: a pod's logs are ordered by container, the previous
// run's, the current run's, then the rotated files by restart count (as a
// number) and name; two logs of one run compare equal.
func TestCompareLogs(t *testing.T) {
	logs := []*model.ContainerLog{
		{Container: "b"},
		{Container: "a", Rotated: "10.log.20261120-090000"},
		{Container: "a", Rotated: "9.log.20261120-090000.gz"},
		{Container: "a"},
		{Container: "a", Rotated: "9.log.20261120-080000"},
		{Container: "a", Rotated: "99999999999999999999999.log.x"},
		{Container: "a", Previous: true},
	}
	sorted := append([]*model.ContainerLog(nil), logs...)
	sort.SliceStable(sorted, func(i, j int) bool { return model.CompareLogs(sorted[i], sorted[j]) < 0 })
	var got []string
	for _, l := range sorted {
		what := l.Container + " " + l.Rotated
		if l.Previous {
			what += "previous"
		}
		got = append(got, what)
	}
	want := []string{"a previous", "a ", "a 9.log.20261120-080000", "a 9.log.20261120-090000.gz", "a 10.log.20261120-090000", "a 99999999999999999999999.log.x", "b "}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("order (-want +got):\n%s", d)
	}
	if c := model.CompareLogs(&model.ContainerLog{Container: "a"}, &model.ContainerLog{Container: "a"}); c != 0 {
		t.Errorf("two current logs of one container compare %d, want 0", c)
	}
}

// TestLargeGzippedLogsInflatedApart: compressed container logs of more than
// a MiB are inflated apart, by the worker pool (submitLog), or as they are
// read, by a read-ahead; either way each reads as the plain log, and a
// pod's logs keep the order of the plain gather's.
func TestLargeGzippedLogsInflatedApart(t *testing.T) {
	plain := filepath.Join(t.TempDir(), filepath.Base(sampleGather))
	copyTree(t, sampleGather, plain)
	var grown int
	err := filepath.WalkDir(plain, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(p) != "current.log" || grown >= 6 {
			return err
		}
		grown++
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		r := rand.New(rand.NewPCG(uint64(grown), 7))
		w := bufio.NewWriter(f)
		for i := range 80_000 { // about 5 MB, over 2 MB gzipped
			switch {
			case i%9973 == 0:
				fmt.Fprintf(w, "2026-11-20T09:%02d:%02d.000000000Z E1120 09:00:00.000000 1 x.go:1] failed: %016x\n", i/1000%60, i%60, r.Uint64())
			case i == 79_990:
				fmt.Fprintf(w, "2026-11-20T09:59:59.000000000Z x509: certificate signed by unknown authority (%016x)\n", r.Uint64())
			default:
				fmt.Fprintf(w, "2026-11-20T09:%02d:%02d.000000000Z I1120 request %016x%016x done\n", i/1000%60, i%60, r.Uint64(), r.Uint64())
			}
		}
		return w.Flush()
	})
	if err != nil || grown == 0 {
		t.Fatalf("grown %d logs: %v", grown, err)
	}
	want, err := Load(context.Background(), plain)
	if err != nil {
		t.Fatal(err)
	}
	zipped := filepath.Join(t.TempDir(), filepath.Base(sampleGather))
	copyTree(t, plain, zipped)
	gzipContainerLogs(t, zipped, 1<<20)
	large := 0
	filepath.WalkDir(zipped, func(p string, d fs.DirEntry, err error) error {
		if fi, ierr := d.Info(); err == nil && ierr == nil && strings.HasSuffix(p, ".gz") && fi.Size() > aheadMemberBytes {
			large++
		}
		return nil
	})
	if large == 0 {
		t.Fatal("no gzipped log over aheadMemberBytes: the test reads none apart")
	}
	order := func(g *model.Gather) (paths []string) {
		for _, p := range g.Pods {
			for _, l := range p.Logs {
				paths = append(paths, strings.TrimSuffix(l.Path(), ".gz"))
			}
		}
		return paths
	}
	for _, tc := range []struct {
		name  string
		apart int64
	}{{"worker pool", 0}, {"read-ahead", -1}} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := LoadWith(context.Background(), zipped, Options{inflateApart: tc.apart})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(logRows(want), logRows(got)); d != "" {
				t.Errorf("container logs (-plain +gzipped):\n%s", d)
			}
			if d := cmp.Diff(order(want), order(got)); d != "" {
				t.Errorf("order of the pods' logs (-plain +gzipped):\n%s", d)
			}
			if d := cmp.Diff(want.Coverage, got.Coverage); d != "" {
				t.Errorf("coverage (-plain +gzipped):\n%s", d)
			}
		})
	}
}
