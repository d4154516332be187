package parser

// Fuzz targets for the parsers of untrusted bytes that had none: member
// paths, YAML/JSON objects (with the kubectl columns derived from them), log
// lines and tails, sosreport dates, Kubernetes versions, the small files of a
// gather, and whole archives. Seeds come from the bundled sample where it
// has the kind of input. Run them with `make fuzz` (FUZZTIME each).

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/openshift"
	"github.com/mgtriage/mgtriage/parser/podstatus"
	"github.com/mholt/archives"
	corev1 "k8s.io/api/core/v1"
)

// sampleFiles returns up to n files of the bundled sample whose slash path
// relative to the image folder satisfies keep, with their paths.
func sampleFiles(f *testing.F, n int, keep func(rel string) bool) (paths []string, data [][]byte) {
	f.Helper()
	filepath.WalkDir(sampleGather, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || len(paths) >= n {
			return nil
		}
		rel, _ := filepath.Rel(sampleGather, p)
		rel = filepath.ToSlash(rel)
		if !keep(rel) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err == nil {
			paths = append(paths, rel)
			data = append(data, b)
		}
		return nil
	})
	return paths, data
}

func FuzzMemberPath(f *testing.F) {
	paths, _ := sampleFiles(f, 200, func(string) bool { return true })
	for _, p := range paths {
		f.Add(p)
	}
	for _, s := range []string{"../x", "/etc/passwd", `..\..\x`, "C:/x", "a/./b/../../..", "a\x00b", "namespaces/", "x/namespaces/a/pods/b/b.yaml",
		"sos_commands/kubernetes/kubectl_--kubeconfig_get_-o_json_--namespace_a_pods", "nodes/n/kubelet.json", "must-gather.local.1/x/timestamp",
		"a.tar.gz", "x/y.ZIP", "namespaces/\xff/core/pods.yaml"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		clean, ok := CleanMemberName(name)
		if ok {
			if clean == "" || strings.HasPrefix(clean, "/") || strings.ContainsRune(clean, 0) || strings.Contains(clean, "\\") {
				t.Fatalf("CleanMemberName(%q) = %q", name, clean)
			}
			for _, part := range strings.Split(clean, "/") {
				if part == ".." || part == "." || part == "" {
					t.Fatalf("CleanMemberName(%q) = %q keeps %q", name, clean, part)
				}
			}
			if again, ok2 := CleanMemberName(clean); !ok2 || again != clean {
				t.Fatalf("CleanMemberName not idempotent: %q → %q → %q %v", name, clean, again, ok2)
			}
			name = clean
		}
		c := classify(name, nil)
		if c.Kind != kindOther && !strings.HasPrefix(name, c.Root) {
			t.Fatalf("classify(%q).Root = %q is not a prefix", name, c.Root)
		}
		if root, ok := gatherRoot(name); ok && (!strings.HasPrefix(name, root) || (root != "" && !strings.HasSuffix(root, "/"))) {
			t.Fatalf("gatherRoot(%q) = %q", name, root)
		}
		_ = looksLikeArchive(name)
		_ = sosDir(name)
		_ = rootOf(name)
	})
}

func FuzzDecodeItems(f *testing.F) {
	_, data := sampleFiles(f, 40, func(rel string) bool {
		return strings.HasSuffix(rel, "/core/pods.yaml") || strings.HasSuffix(rel, "/core/events.yaml") ||
			strings.Contains(rel, "/core/nodes/") || strings.Contains(rel, "config.openshift.io/") ||
			(strings.Contains(rel, "/pods/") && strings.HasSuffix(rel, ".yaml"))
	})
	for _, d := range data {
		if len(d) < 64<<10 {
			f.Add(d)
		}
	}
	f.Add([]byte(miniPodList))
	f.Add([]byte(`{"apiVersion":"v1","kind":"PodList","items":[{"metadata":{"name":"a","creationTimestamp":"9999-12-31T23:59:59Z"},"status":{"containerStatuses":[{"name":"c","restartCount":2147483647,"lastState":{"terminated":{"exitCode":-2147483648,"finishedAt":"0001-01-01T00:00:00Z"}}}]}}]}`))
	f.Add([]byte("items:\n- &a {metadata: {name: *a}}\n"))
	f.Add([]byte(redumpedPodList))
	f.Add([]byte("%TAG !k! tag:k8s.example,2026:\n---\nitems:\n- metadata: !k!meta\n    name: b\n"))
	f.Add([]byte("a: &a [x,x]\nb: &b [*a,*a]\nc: [*b,*b]\n"))
	now := time.Date(2026, 11, 20, 9, 12, 33, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<20 {
			return
		}
		_ = decodeItemsPartial(data, loadMem{}, func(p *corev1.Pod, line int, _ bool) bool {
			podstatus.Compute(p, now, podstatus.Version{Major: 1, Minor: 31})
			podstatus.Compute(p, time.Time{}, podstatus.Version{})
			podstatus.StartupStage(p)
			podstatus.Containers(p)
			return true
		})
		_ = decodeItems(data, loadMem{}, func(e *corev1.Event, _ int) {
			ev := &model.Event{Object: EventObjectOf(e), At: model.StampOf(eventTime(e))}
			_ = ev.Count()
		})
		_ = decodeItems(data, loadMem{}, func(n *corev1.Node, _ int) {})
		_ = decodeItems(data, loadMem{}, func(o *openshift.ClusterOperator, line int) {
			operatorSummary(o, model.Source{Line: line}, data, &lineIndex{})
		})
		if p, err := decodeObject[corev1.Pod](data, loadMem{}); err == nil {
			podstatus.Compute(p, now, podstatus.Version{Major: 1, Minor: 29})
			podstatus.StartupStage(p)
			podstatus.Containers(p)
		}
		if cv, err := decodeObject[openshift.ClusterVersion](data, loadMem{}); err == nil {
			_ = cv.CurrentVersion()
		}
		if in, err := decodeObject[openshift.Infrastructure](data, loadMem{}); err == nil {
			_ = in.PlatformType()
		}
	})
}

func FuzzReadTail(f *testing.F) {
	_, data := sampleFiles(f, 20, func(rel string) bool { return strings.HasSuffix(rel, ".log") })
	for _, d := range data {
		if len(d) < 64<<10 {
			f.Add(d, true)
		}
	}
	f.Add([]byte("2026-11-20T09:10:32.000000000Z stdout F panic: boom\nE1120 09:01:02.000000 x\n\xff\xfe\r\n"), true)
	f.Add(append(bytes.Repeat([]byte("x"), 3*MaxLineBytes), '\n'), false)
	f.Fuzz(func(t *testing.T, data []byte, keep bool) {
		n, prev := 0, 0
		var all [][]byte
		err := scanLines(bytes.NewReader(data), func(i int, line []byte) {
			all = append(all, bytes.Clone(line))
			n++
			if i != prev+1 {
				t.Fatalf("line %d after %d", i, prev)
			}
			prev = i
			if len(line) > MaxLineBytes+len(" …[cut]") || bytes.IndexByte(line, '\n') >= 0 {
				t.Fatalf("line %d: %d bytes", i, len(line))
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		want := bytes.Count(data, []byte("\n"))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			want++
		}
		if n != want {
			t.Fatalf("%d lines, want %d", n, want)
		}
		// readTail reads in blocks: with the default block, and with a
		// small block and reads of odd sizes, it must keep what a
		// line-by-line read keeps.
		var l model.ContainerLog
		filter := newLineFilter([]model.Literal{{Text: "panic"}, {Text: "ab"}})
		_, err = readTail(bytes.NewReader(data), &l, keep, filter, nil)
		if err != nil && !strings.HasPrefix(err.Error(), "line too long") {
			t.Fatal(err)
		}
		var small model.ContainerLog
		chunk := 1 + len(data)%977
		_, err2 := readTail(&chunkReader{data: data, n: chunk}, &small, keep, filter, &scratchPools{tailBlock: 2*MaxLineBytes + len(data)%5000})
		if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
			t.Fatalf("errors differ by block size: %v / %v", err, err2)
		}
		if small.Lines != l.Lines || small.ErrorCount != l.ErrorCount {
			t.Fatalf("small blocks: %d lines, %d errors; default: %d, %d", small.Lines, small.ErrorCount, l.Lines, l.ErrorCount)
		}
		if st, se := small.Kept(); keep {
			wt, we := tailReference(all)
			if d := cmp.Diff(wt, st); d != "" {
				t.Fatalf("small blocks: tail (-reference +readTail):\n%s", d)
			}
			if d := cmp.Diff(we, se); d != "" {
				t.Fatalf("small blocks: errors (-reference +readTail):\n%s", d)
			}
		}
		if want, ok := matchedReference(data, filter); ok {
			if d := cmp.Diff(want, l.Matched(), cmpopts.EquateEmpty()); d != "" {
				t.Fatalf("matched lines (-reference +readTail):\n%s", d)
			}
		}
		tail, errs := l.Kept()
		if l.Lines != n || len(tail) > TailLines || len(errs) > ErrorLines || l.ErrorCount < len(errs) {
			t.Fatalf("lines %d/%d tail %d errors %d/%d", l.Lines, n, len(tail), len(errs), l.ErrorCount)
		}
		if !keep && (len(tail) > 0 || len(errs) > 0) {
			t.Fatal("lines kept with keep=false")
		}
		last := 0
		for _, ll := range tail {
			if ll.Line <= last || ll.Line > n || !utf8.ValidString(ll.Text) {
				t.Fatalf("tail line %d after %d (of %d), valid %v", ll.Line, last, n, utf8.ValidString(ll.Text))
			}
			last = ll.Line
		}
		for _, ll := range errs {
			if !utf8.ValidString(ll.Text) {
				t.Fatal("error line not UTF-8")
			}
		}
		if keep {
			wantTail, wantErrs := tailReference(all)
			if d := cmp.Diff(wantTail, tail); d != "" {
				t.Fatalf("tail (-reference +readTail):\n%s", d)
			}
			if d := cmp.Diff(wantErrs, errs); d != "" {
				t.Fatalf("errors (-reference +readTail):\n%s", d)
			}
		}
	})
}

// matchedReference is what readTail keeps apart for filter (SetMatched),
// made line by line: of the lines that end in the last MatchedWindow bytes,
// those with a literal, the first and last MatchedLines/2. ok is false when
// a line is longer than a quarter block (the window then reaches back no
// further than the last two blocks, which the reference does not model).
func matchedReference(data []byte, filter *lineFilter) ([]model.LogLine, bool) {
	var slots []tailSlot
	from := len(data) - MatchedWindow
	var low []byte
	for n, at := 1, 0; at < len(data); n++ {
		end := bytes.IndexByte(data[at:], '\n')
		next := at + end + 1
		if end < 0 {
			end, next = len(data)-at, len(data)
		}
		if end > tailBlockBytes/4 {
			return nil, false
		}
		raw := data[at : at+end]
		at = next
		if at <= from {
			continue
		}
		text := bytes.TrimRight(raw, "\r\n")
		if len(text) > MaxLineBytes {
			text = append(bytes.Clone(text[:MaxLineBytes]), " …[cut]"...)
		}
		if filter.match(afterTimestamp(text), &low) {
			slots = append(slots, tailSlot{n: n, text: bytes.Clone(text)})
		}
	}
	if len(slots) > MatchedLines {
		slots = append(slots[:MatchedLines/2], slots[len(slots)-MatchedLines/2:]...)
	}
	if len(slots) == 0 {
		return nil, true
	}
	return slotLines(slots), true
}

// tailReference is what readTail keeps of a log's lines (as scanLines
// returns them), made line by line: the last TailLines lines, and the first
// and last ErrorLines/2 of the error-looking lines.
func tailReference(lines [][]byte) (tail, errs []model.LogLine) {
	line := func(i int) model.LogLine {
		ll := model.LogLine{Line: i + 1}
		text := lines[i]
		if sp := bytes.IndexByte(text, ' '); sp > 0 && sp <= 40 {
			if at, err := time.Parse(time.RFC3339Nano, string(text[:sp])); err == nil {
				ll.Time = at
				text, _ = criStreamPrefix(text[sp+1:])
			}
		}
		ll.Text = string(bytes.ToValidUTF8(text, []byte("\uFFFD")))
		return ll
	}
	for i := max(0, len(lines)-TailLines); i < len(lines); i++ {
		tail = append(tail, line(i))
	}
	var errLines []int
	for i, l := range lines {
		if looksLikeError(afterTimestamp(l)) {
			errLines = append(errLines, i)
		}
	}
	if len(errLines) > ErrorLines {
		errLines = append(errLines[:ErrorLines/2], errLines[len(errLines)-ErrorLines/2:]...)
	}
	for _, i := range errLines {
		errs = append(errs, line(i))
	}
	return tail, errs
}

func FuzzParseKubeVersion(f *testing.F) {
	for _, s := range []string{"v1.22.0-rc.0+75ee307", "v1.31.6", "4.18.12", "4.9.0-0.okd-2022-02-12-140851", "", "v", "v99999999999999999999.1", "1.-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v := ParseKubeVersion(s); v.Major < 0 || v.Minor < 0 {
			t.Fatalf("ParseKubeVersion(%q) = %+v", s, v)
		}
		if v := kubeVersionOfOpenShift(s); v.Major < 0 || v.Minor < 0 {
			t.Fatalf("kubeVersionOfOpenShift(%q) = %+v", s, v)
		}
	})
}

// FuzzSmallFiles decodes arbitrary bytes as each of the small files of a
// gather (timestamp, version, must-gather.logs, sosreport host name and date,
// cluster version, infrastructure).
func FuzzSmallFiles(f *testing.F) {
	names := []string{"mg/x/timestamp", "mg/x/version", "mg/must-gather.logs", "sos/sos_commands/host/hostname", "sos/sos_commands/date/date",
		"mg/x/cluster-scoped-resources/config.openshift.io/clusterversions.yaml", "mg/x/cluster-scoped-resources/config.openshift.io/infrastructures.yaml"}
	_, data := sampleFiles(f, 10, func(rel string) bool {
		base := path.Base(rel)
		return base == "timestamp" || base == "version" || strings.Contains(rel, "clusterversions") || strings.Contains(rel, "infrastructures")
	})
	for _, d := range data {
		f.Add(d)
	}
	f.Add([]byte("[must-gather-abc] OUT gather output\n[must-gather-abc] POD error: x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<20 {
			return
		}
		b := newBuilder("in")
		for _, n := range names {
			c := classify(n, nil)
			if c.Kind == kindOther {
				t.Fatalf("%s not classified", n)
			}
			if c.Kind == kindMustGather {
				_ = b.mustgather.Read(n, c.MustGather, data)
				continue
			}
			if err := b.decode(n, c, data); err != nil {
				t.Fatal(err)
			}
		}
		b.settleTime()
	})
}

// FuzzLoadArchive runs the whole pass on arbitrary bytes as an input file
// (archive formats, nested archives, member decoding), under small limits.
// The seeds are a must-gather in each archive format, a tar of each layout
// the load reads (fuzzLayouts: must-gather, sosreport, Insights archive,
// support bundle, pod captures, install log bundles of both layouts), all of
// them in one .tar.gz (a case upload) and the install bundle members of
// issue 29. No reader may panic: the guard would make it a problem, which
// this target fails on.
func FuzzLoadArchive(f *testing.F) {
	dir := f.TempDir()
	writeTree(f, filepath.Join(dir, "g"), map[string]string{
		"mg/q/timestamp":                         "2026-11-20 09:12:33.000000000 +0000 UTC m=+0.01\n",
		"mg/q/namespaces/shop/core/pods.yaml":    miniPodList,
		"mg/q/namespaces/shop/core/events.yaml":  "apiVersion: v1\nitems: []\nkind: EventList\n",
		"mg/q/cluster-scoped-resources/core/x.y": "x",
	})
	for name, format := range map[string]archives.Archiver{
		"g.tar": archives.Tar{}, "g.tar.gz": compressedTar(archives.Gz{}), "g.tar.zst": compressedTar(archives.Zstd{}),
		"g.tar.xz": compressedTar(archives.Xz{}), "g.zip": archives.Zip{},
	} {
		data, err := os.ReadFile(archiveOf(f, filepath.Join(dir, "g", "mg"), name, format))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	var upload []fuzzMember
	for _, l := range fuzzLayouts {
		f.Add(fuzzTar(f, l.members, false))
		for _, m := range l.members {
			upload = append(upload, fuzzMember{"upload/" + strings.ReplaceAll(l.name, " ", "-") + "/" + m.path, m.body})
		}
	}
	f.Add(fuzzTar(f, upload, true))
	f.Add(fuzzTar(f, []fuzzMember{
		{"log-bundle/control-plane/172.16.1.11/containers/x.inspect", fuzzInspect},
		{"log-bundle/control-plane/172.16.1.11/containers/x.log", fuzzCRILog},
	}, true))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "input")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		g, err := LoadWith(ctx, p, Options{MaxReadBytes: 64 << 20, MaxMembers: 10_000})
		if ctx.Err() != nil {
			t.Fatalf("the pass did not end: %v", ctx.Err())
		}
		if err == nil && g == nil {
			t.Fatal("no gather and no error")
		}
		if g != nil && len(g.Problems) > MaxProblems+2 {
			t.Fatalf("%d problems", len(g.Problems))
		}
		noReaderPanic(t, g, err)
	})
}

// noReaderPanic fails t when a problem of the load (of the gather g, or of
// the error when nothing was analysable) is a reader's panic that the guard
// caught (readerPanic, guardSettle).
func noReaderPanic(t *testing.T, g *model.Gather, err error) {
	t.Helper()
	var probs []model.Problem
	if g != nil {
		probs = g.Problems
	}
	var nothing *NothingError
	if errors.As(err, &nothing) {
		probs = append(probs, nothing.Problems...)
	}
	for _, p := range probs {
		if strings.Contains(p.Error, " reader: panic: ") {
			t.Fatalf("a reader panicked on %s: %s", p.Path, p.Error)
		}
	}
}

// FuzzReadMember reads one member of a gather of each layout (fuzzLayouts)
// with arbitrary bytes, or at an arbitrary path, among the layout's other
// members, through the whole load (a tar, LoadWith): what each format's
// reader and the load's readers of the documents handed back do with
// hostile bytes at real paths. No reader panics, nothing read cites a path
// that is not a member of the input, and problems name members or folders
// of the input only.
func FuzzReadMember(f *testing.F) {
	for i, l := range fuzzLayouts {
		for _, m := range l.members {
			f.Add(uint8(i), m.path, []byte(m.body))
		}
	}
	f.Add(uint8(6), "log-bundle/control-plane/172.16.1.11/containers/y.inspect", []byte(`{"status":{"createdAt":"0000-01-01T00:00:00Z"}}`))
	f.Add(uint8(1), fuzzSos+"sos_commands/crio/crictl_ps", []byte("CONTAINER ID\n\n"))
	f.Fuzz(func(t *testing.T, layout uint8, name string, data []byte) {
		if len(data) > 256<<10 || len(name) > 512 {
			return
		}
		l := fuzzLayouts[int(layout)%len(fuzzLayouts)]
		clean, ok := CleanMemberName(name)
		if !ok {
			return
		}
		members := []fuzzMember{}
		inInput := map[string]bool{}
		for _, m := range l.members {
			if m.path != clean {
				members = append(members, m)
				inInput[m.path] = true
			}
		}
		members = append(members, fuzzMember{clean, string(data)})
		inInput[clean] = true
		p := filepath.Join(t.TempDir(), "input.tar")
		if err := os.WriteFile(p, fuzzTar(t, members, false), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		g, err := LoadWith(ctx, p, Options{MaxReadBytes: 64 << 20, MaxMembers: 1000})
		if ctx.Err() != nil {
			t.Fatalf("the pass did not end: %v", ctx.Err())
		}
		noReaderPanic(t, g, err)
		if g == nil {
			return
		}
		inside := func(what, path string) {
			t.Helper()
			if path == "" || inInput[path] {
				return
			}
			for m := range inInput {
				if strings.HasPrefix(m, strings.TrimSuffix(path, "/")+"/") {
					return // a folder of the input
				}
			}
			t.Fatalf("%s cites %q, not a member or folder of the input (problems %+v)", what, path, g.Problems)
		}
		for _, pr := range g.Problems {
			// The input's name, and "timestamp" for a gather time that
			// no file gave (settleTime), name no member.
			if pr.Path != "input.tar" && pr.Path != "timestamp" {
				inside("a problem", pr.Path)
			}
		}
		for _, pod := range g.Pods {
			inside("pod "+pod.Key(), pod.Source.Path)
			for _, lg := range pod.Logs {
				inside("a log of pod "+pod.Key(), lg.Path())
			}
		}
		for _, e := range g.Events {
			inside("an event", e.Source.Path)
		}
		for _, n := range g.Nodes {
			inside("node "+n.Object.Name, n.Source.Path)
		}
		for _, ib := range g.Installs {
			for _, s := range ib.Steps {
				inside("an install step", s.Source.Path)
			}
		}
	})
}

// FuzzObjectFiles reads arbitrary bytes as the object files the store and the
// cluster signals read: a namespaced list, a per-object file, a cluster-scoped
// list, the Prometheus rules dump and etcd's reports. Nothing may panic, and
// the store must stay consistent (Freeze, lookups) whatever was read.
func FuzzObjectFiles(f *testing.F) {
	names := []string{"mg/x/namespaces/shop/core/configmaps.yaml", "mg/x/namespaces/shop/apps/daemonsets/agent.json",
		"mg/x/cluster-scoped-resources/machineconfiguration.openshift.io/kubeletconfigs.yaml",
		"mg/x/namespaces/shop/networking.k8s.io/networkpolicies.yaml",
		"mg/x/monitoring/prometheus/rules.json", "mg/x/etcd_info/endpoint_health.json", "mg/x/etcd_info/alarm_list.json"}
	f.Add([]byte("apiVersion: v1\nitems:\n- apiVersion: v1\n  data:\n    a: b\n  kind: ConfigMap\n  metadata:\n    name: c\n    namespace: shop\nkind: List\n"))
	f.Add([]byte(`{"kind":"DaemonSetList","items":[{"metadata":{"name":"d","namespace":"shop"},"spec":{"template":{"spec":{"tolerations":[{"operator":"Exists"}]}}}}]}`))
	f.Add([]byte(`{"status":"success","data":{"groups":[{"rules":[{"type":"alerting","name":"A","alerts":[{"state":"firing","labels":{"severity":"critical"}}]}]}]}}`))
	f.Add([]byte(`[{"endpoint":"https://10.0.0.1:2379","health":false,"error":"x"}]`))
	f.Add([]byte(`{"alarms":[{"memberID":1,"alarm":"NOSPACE"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<20 {
			return
		}
		b := newBuilder("in")
		b.startWorkers(1)
		for _, n := range names {
			c := classify(n, nil)
			if c.Kind == kindOther {
				t.Fatalf("%s not classified", n)
			}
			_ = b.decodeHeavy(n, c, data)
		}
		b.stopWorkers()
		b.objects.Freeze()
		for _, k := range TypedKinds() {
			objs, _ := b.objects.List(k, "*")
			for _, o := range objs {
				if o.Name == "" {
					t.Fatalf("object without a name indexed: %+v", o)
				}
				b.objects.Get(k, o.Namespace, o.Name)
			}
		}
	})
}
