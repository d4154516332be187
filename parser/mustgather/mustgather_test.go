package mustgather

import (
	"io/fs"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/load"
	"github.com/mgtriage/mgtriage/parser/model"
)

func TestClassify(t *testing.T) {
	for _, tt := range []struct {
		p    string
		want Member
	}{
		{"must-gather.local.1/img/namespaces/shop/core/pods.yaml", Member{Kind: PodList, Root: "must-gather.local.1/img/", Namespace: "shop"}},
		{"namespaces/shop/core/events.json", Member{Kind: EventList, Namespace: "shop"}},
		{"img/namespaces/shop/pods/a-1/a-1.yaml", Member{Kind: Pod, Root: "img/", Namespace: "shop", Pod: "a-1"}},
		{"img/namespaces/shop/pods/a-1/other.yaml", Member{}},
		{"img/namespaces/shop/pods/a-1/c/c/logs/previous.insecure.log", Member{Kind: ContainerLog, Root: "img/", Namespace: "shop", Pod: "a-1", Container: "c", Previous: true}},
		// Gzipped by must-gather's REDUCE_LOGS=compress_logs: the same logs.
		{"img/namespaces/shop/pods/a-1/c/c/logs/current.log.gz", Member{Kind: ContainerLog, Root: "img/", Namespace: "shop", Pod: "a-1", Container: "c"}},
		{"img/namespaces/shop/pods/a-1/c/c/logs/previous.log.gz", Member{Kind: ContainerLog, Root: "img/", Namespace: "shop", Pod: "a-1", Container: "c", Previous: true}},
		{"img/namespaces/shop/pods/a-1/c/c/logs/current.insecure.log.gz", Member{Kind: ContainerLog, Root: "img/", Namespace: "shop", Pod: "a-1", Container: "c"}},
		{"img/namespaces/shop/pods/a-1/c/c/logs/previous.insecure.log.gz", Member{Kind: ContainerLog, Root: "img/", Namespace: "shop", Pod: "a-1", Container: "c", Previous: true}},
		// Rotated by the kubelet, gathered by oc adm inspect --rotated-pod-logs.
		{"img/namespaces/shop/pods/a-1/c/c/logs/rotated/0.log.20211027-082023", Member{Kind: ContainerLog, Root: "img/", Namespace: "shop", Pod: "a-1", Container: "c", Rotated: "0.log.20211027-082023"}},
		{"img/namespaces/shop/pods/a-1/c/c/logs/rotated/3.log.20211027-082023.gz", Member{Kind: ContainerLog, Root: "img/", Namespace: "shop", Pod: "a-1", Container: "c", Rotated: "3.log.20211027-082023.gz"}},
		// Near misses.
		{"img/namespaces/shop/pods/a-1/c/c/logs/rotated/notes.txt", Member{}},
		{"img/namespaces/shop/pods/a-1/c/c/logs/current.log.bak", Member{}},
		{"img/namespaces/shop/pods/a-1/c/c/logs/current.log.gz.gz", Member{}},
		{"img/namespaces/shop/pods/a-1/c/c/logs/rotated/0.log", Member{}},
		{"img/namespaces/shop/pods/a-1/c/c/logs/rotated/x.log.20211027-082023", Member{}},
		{"img/namespaces/shop/pods/a-1/c/c/logs/0.log.20211027-082023", Member{}},
		{"img/namespaces/shop/pods/a-1/c/c/logs/rotated/0.log.1/current.log", Member{}},
		{"img/cluster-scoped-resources/core/nodes/n1.yaml", Member{Kind: Node, Root: "img/", Node: "n1"}},
		{"img/host_service_logs/masters/kubelet_service.log.gz", Member{Kind: ServiceLog, Root: "img/", Unit: "kubelet"}},
		{"img/nodes/n1/n1_kubelet.gz", Member{Kind: NodeJournal, Root: "img/", Node: "n1"}},
		{"img/nodes/n1/kubelet.json", Member{}},
		{"timestamp", Member{Kind: Timestamp}},
		{"img/version", Member{Kind: Version, Root: "img/"}},
		{"must-gather.logs", Member{Kind: Logs}},
		{"img/monitoring/prometheus/rules.json", Member{Kind: Alerts, Root: "img/"}},
		{"img/etcd_info/endpoint_health.json", Member{Kind: Etcd, Root: "img/"}},
		{"img/namespaces/shop/shop.yaml", Member{Kind: Object, Root: "img/", Resource: "namespaces", Name: "shop"}},
		{"img/namespaces/shop/apps/deployments.yaml", Member{Kind: ObjectList, Root: "img/", Namespace: "shop", Group: "apps", Resource: "deployments"}},
		{"img/namespaces/shop/core/configmaps/x.yaml", Member{Kind: Object, Root: "img/", Namespace: "shop", Resource: "configmaps", Name: "x"}},
		{"img/cluster-scoped-resources/machineconfiguration.openshift.io/kubeletconfigs/x.yaml", Member{Kind: Object, Root: "img/", Group: "machineconfiguration.openshift.io", Resource: "kubeletconfigs", Name: "x"}},
		{"img/namespaces/shop/pods/a-1.yaml", Member{}},
	} {
		if d := cmp.Diff(tt.want, Classify(tt.p)); d != "" {
			t.Errorf("Classify(%q) (-want +got):\n%s", tt.p, d)
		}
	}
}

// TestLiteralsNeverBlind checks, on the paths the tests classify, that
// every path a rule's pattern matches contains the rule's literals.
func TestLiteralsNeverBlind(t *testing.T) {
	for _, p := range []string{
		"must-gather.local.1/img/namespaces/shop/core/pods.yaml", "namespaces/shop/core/events.json",
		"img/namespaces/shop/pods/a-1/a-1.yaml", "img/namespaces/shop/pods/a-1/c/c/logs/previous.insecure.log",
		"img/namespaces/shop/pods/a-1/c/c/logs/current.log.gz", "img/namespaces/shop/pods/a-1/c/c/logs/rotated/3.log.20211027-082023.gz",
		"img/cluster-scoped-resources/core/nodes/n1.yaml", "cluster-scoped-resources/core/nodes.json",
		"img/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml",
		"img/host_service_logs/masters/kubelet_service.log.gz", "img/nodes/n1/n1_kubelet.gz",
		"timestamp", "img/version", "must-gather.logs",
	} {
		for i := range rules.Len() {
			if rules.Pattern(i).MatchString(p) && rules.Match(i, p) == nil {
				t.Errorf("%s matches %s but lacks one of %q", p, rules.Pattern(i), rules.Literals(i))
			}
		}
		if Classify(p).Kind == Other {
			t.Errorf("%s: not classified", p)
		}
	}
}

// sameMatches fails t when the rules' Match differs from the rule's whole
// pattern on p for any rule.
func sameMatches(t *testing.T, p string) {
	t.Helper()
	for i := range rules.Len() {
		if d := cmp.Diff(rules.Pattern(i).FindStringSubmatch(p), rules.Match(i, p)); d != "" {
			t.Errorf("%q, rule %d (%s): Match differs from the pattern (-want +got):\n%s", p, i, rules.Pattern(i), d)
		}
	}
}

// TestMatchSameAsPattern checks the fast matcher against the patterns on
// paths with repeated and nested anchors (a root that itself holds
// "namespaces/", a namespace called "namespaces"), and that most rules have
// a tail (else Classify's speed is gone).
func TestMatchSameAsPattern(t *testing.T) {
	for _, p := range []string{
		"must-gather.local.1/img/namespaces/shop/core/pods.yaml",
		"a/namespaces/namespaces/core/pods.yaml",
		"namespaces/x/namespaces/y/core/events.yaml",
		"x/namespaces/a/pods/namespaces/b/pods/p/p.yaml",
		"cluster-scoped-resources/cluster-scoped-resources/core/nodes.yaml",
		"img/nodes/n1/n1_kubelet.gz", "nodes/nodes/kubelet",
		"timestamp", "a/timestamp", "/timestamp", "a//timestamp", "", "/", "//",
		"img/namespaces/shop/apps/deployments.yaml", "img/namespaces/shop/apps/deployments/web.yaml",
		"namespaces/a/pods/p/c//logs/current.log", "namespaces/a/pods/p/p.yaml/",
		"namespaces/a/pods/p/c/c/logs/previous.insecure.log.gz", "x/namespaces/a/pods/p/c/c/logs/rotated/0.log.20211027-082023",
		"namespaces/a/pods/namespaces/b/pods/p/c/c/logs/rotated/7.log.x.gz", "namespaces/a/pods/p/c/c/logs/rotated/0.log.",
		"namespaces/a\n/b\xff/c.yaml",
	} {
		sameMatches(t, p)
	}
	tails, segs := 0, 0
	for i := range rules.Len() {
		tl, sg := rules.HasTail(i)
		if tl {
			tails++
		}
		if sg {
			segs++
		}
	}
	if tails < rules.Len()*3/4 {
		t.Errorf("only %d of %d path rules have a tail matcher", tails, rules.Len())
	}
	if segs < 8 {
		t.Errorf("only %d path rules match by segments, want the 8 pathmatch knows", segs)
	}
}

// corpusPaths are the file paths under the shared corpus folder dir
// (none when absent).
func corpusPaths(dir string) []string {
	root := filepath.Join("..", "..", "..", "shared", "corpus", dir)
	var paths []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	return paths
}

// TestMatchCorpus compares the fast matcher with the patterns on every file
// path of the shared corpus.
func TestMatchCorpus(t *testing.T) {
	paths := corpusPaths("")
	if len(paths) == 0 {
		t.Skip("corpus absent")
	}
	for _, p := range paths {
		sameMatches(t, p)
	}
	t.Logf("%d corpus paths", len(paths))
}

func FuzzMatch(f *testing.F) {
	f.Add("must-gather.local.1/img/namespaces/shop/core/pods.yaml")
	f.Add("a/namespaces/namespaces/pods/p/c/c/logs/current.log")
	f.Add("img/namespaces/a/pods/p/c/c/logs/rotated/3.log.20211027-082023.gz")
	f.Fuzz(func(t *testing.T, p string) {
		if len(p) > 4096 {
			return
		}
		sameMatches(t, p)
	})
}

// BenchmarkClassify classifies every file path of the corpus metal gather
// (skipped when absent), the member classification every pass makes.
func BenchmarkClassify(b *testing.B) {
	paths := corpusPaths("mg-metal-ocp49")
	if len(paths) == 0 {
		b.Skip("corpus absent")
	}
	b.ReportMetric(float64(len(paths)), "paths/op")
	for b.Loop() {
		for _, p := range paths {
			Classify(p)
		}
	}
}

func TestParseGoTime(t *testing.T) {
	got, ok := ParseGoTime("2021-09-14 16:43:44.051395446 +0200 CEST m=+1.404430641")
	want := time.Date(2021, 9, 14, 14, 43, 44, 51395446, time.UTC)
	if !ok || !got.Equal(want) {
		t.Errorf("got %v %v, want %v", got, ok, want)
	}
	if _, ok := ParseGoTime("yesterday"); ok {
		t.Error("parsed garbage")
	}
}

func FuzzParseGoTime(f *testing.F) {
	f.Add("2021-09-14 14:43:46.909613294 +0000 UTC m=+0.079937509")
	f.Fuzz(func(t *testing.T, s string) {
		if tm, ok := ParseGoTime(s); ok && tm.Location() != time.UTC {
			t.Fatal("not UTC")
		}
		for _, tm := range ParseTimestamp([]byte(s)) {
			if tm.Location() != time.UTC {
				t.Fatal("timestamp not UTC")
			}
		}
	})
}

// fakeLoad is the load.Load of the Reader's tests: it keeps the gather
// times and cuts no text; the Reader asks nothing else of the load.
type fakeLoad struct {
	load.Load
	times map[string][]time.Time
}

func (f *fakeLoad) GatherTimes(dir string, times []time.Time) { f.times[dir] = times }
func (f *fakeLoad) CutText(s string) string                   { return s }

// TestReader reads each of the gather's own files and checks what the
// Reader keeps of them, and the layout they make.
func TestReader(t *testing.T) {
	l := &fakeLoad{times: map[string][]time.Time{}}
	r := NewReader(l)
	read := func(p, data string) error {
		t.Helper()
		m := Classify(p)
		if m.Kind.Common() || m.Kind == Other {
			t.Fatalf("%s: %v is not the Reader's", p, m.Kind)
		}
		r.Count(m.Kind)
		return r.Read(p, m, []byte(data))
	}
	r.Note("mg/b/nodes/n1/kubelet.gz")
	for _, f := range []struct{ p, data string }{
		{"mg/a/timestamp", "2026-11-20 09:00:00.0 +0000 UTC m=+0.1\n2026-11-20 09:05:00.0 +0000 UTC m=+300.1\n"},
		{"mg/a/version", "quay.io/openshift/must-gather\n4.18.0\n"},
		{"mg/must-gather.logs", "[must-gather-x] OUT gather output\n[must-gather-x] POD error: no space left\n"},
		{"mg/a/monitoring/prometheus/rules.json", `{"data":{"groups":[{"rules":[{"type":"alerting","name":"KubeNodeNotReady","labels":{"severity":"warning"},"alerts":[{"state":"firing","labels":{},"annotations":{"summary":"node down"}},{"state":"inactive"}]}]}]}}`},
		{"mg/a/etcd_info/endpoint_health.json", `[{"endpoint":"https://10.0.0.1:2379","health":false,"error":"timeout"},{"endpoint":"unixs://x","health":false}]`},
		{"mg/a/etcd_info/alarm_list.json", `{"alarms":[{"memberID":255,"alarm":1}]}`},
	} {
		if err := read(f.p, f.data); err != nil {
			t.Errorf("%s: %v", f.p, err)
		}
	}
	if err := read("mg/a/etcd_info/endpoint_status.json", "{"); err == nil {
		t.Error("a damaged etcd report is no problem")
	}
	if ts := l.times["mg/a"]; len(ts) != 2 || ts[1].Minute() != 5 {
		t.Errorf("gather times = %v", l.times)
	}
	if d := cmp.Diff([]string{"[must-gather-x] POD error: no space left"}, r.Errors()); d != "" {
		t.Errorf("Errors (-want +got):\n%s", d)
	}
	if a := r.Alerts(); len(a) != 1 || a[0].Name != "KubeNodeNotReady" || a[0].Severity != "warning" || a[0].Message != "node down" {
		t.Errorf("Alerts = %+v", a)
	}
	e := r.Etcd()
	if e == nil || e.Endpoints != 1 || len(e.Unhealthy) != 1 || len(e.Alarms) != 1 || e.Alarms[0] != "member ff: NOSPACE" ||
		len(e.Sources) != 2 || e.Sources[0].Path != "mg/a/etcd_info/alarm_list.json" {
		t.Errorf("Etcd = %+v", e)
	}
	for _, tt := range []struct {
		root, image     string
		timestamped, ok bool
	}{
		{"mg/a/", "quay.io/openshift/must-gather 4.18.0", false, true},
		{"mg/b/", "b", false, true},
		{"mg/c/", "c", true, true},
		{"mg/d/", "", false, false},
		{"", "", true, true},
	} {
		if image, ok := r.Layout(tt.root, tt.timestamped); image != tt.image || ok != tt.ok {
			t.Errorf("Layout(%q, %v) = %q, %v, want %q, %v", tt.root, tt.timestamped, image, ok, tt.image, tt.ok)
		}
	}
	want := []model.FileCount{{What: "Prometheus rules (alerts)", Files: 1}, {What: "etcd health", Files: 3}, {What: "timestamp files", Files: 1},
		{What: "version files", Files: 1}, {What: "must-gather.logs", Files: 1}}
	if d := cmp.Diff(want, r.Used()); d != "" {
		t.Errorf("Used (-want +got):\n%s", d)
	}
}
