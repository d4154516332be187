package parser

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseJournalLine(t *testing.T) {
	ref := time.Date(2021, 9, 14, 14, 43, 46, 0, time.UTC)
	tests := []struct {
		name string
		line string
		ref  time.Time
		want JournalLine
		ok   bool
	}{
		{"kubelet", `Sep 14 14:13:43.559610 master-0.example.com hyperkube[1985]: I0914 14:13:43.559597    1985 prober.go:116] "Probe failed"`, ref,
			JournalLine{Time: time.Date(2021, 9, 14, 14, 13, 43, 559610000, time.UTC), Host: "master-0.example.com", Ident: "hyperkube", PID: 1985, Message: `I0914 14:13:43.559597    1985 prober.go:116] "Probe failed"`}, true},
		{"space padded day, no pid", `Sep  4 01:02:03.000001 node kernel: Memory cgroup out of memory`, ref,
			JournalLine{Time: time.Date(2021, 9, 4, 1, 2, 3, 1000, time.UTC), Host: "node", Ident: "kernel", Message: "Memory cgroup out of memory"}, true},
		{"new year rollover", `Dec 31 23:59:59.000000 n crio[7]: x`, time.Date(2022, 1, 1, 0, 10, 0, 0, time.UTC),
			JournalLine{Time: time.Date(2021, 12, 31, 23, 59, 59, 0, time.UTC), Host: "n", Ident: "crio", PID: 7, Message: "x"}, true},
		{"logs begin banner", `-- Logs begin at Tue 2021-09-14 14:02:58 UTC, end at Tue 2021-09-14 14:44:09 UTC. --`, ref, JournalLine{}, false},
		{"garbage", "Sep", ref, JournalLine{}, false},
		{"bad day", "Sep 99 14:13:43.559610 h x[1]: y", ref, JournalLine{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseJournalLine(tt.line, tt.ref)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if diff := cmp.Diff(tt.want, got); ok && diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseKlogAndPodRef(t *testing.T) {
	msg := `E0914 14:13:03.349622    1988 pod_workers.go:765] "Error syncing pod, skipping" err="failed to \"StartContainer\" for \"sdn-controller\" with ErrImagePull: \"rpc error: code = Unknown desc = too many requests to registry\"" pod="openshift-sdn/sdn-controller-z7sjl" podUID=1c0f3211-d560-4fba-a83a-e20d3e834a63`
	k, ok := ParseKlog(msg)
	if !ok || k.Severity != 'E' || k.File != "pod_workers.go:765" || !strings.HasPrefix(k.Message, `"Error syncing pod, skipping"`) {
		t.Fatalf("ParseKlog = %+v, %v", k, ok)
	}
	key, uid := PodRef(k.Message)
	if key != "openshift-sdn/sdn-controller-z7sjl" || uid != "1c0f3211-d560-4fba-a83a-e20d3e834a63" {
		t.Errorf("PodRef = %q, %q", key, uid)
	}
	for _, tt := range []struct{ msg, key, uid string }{
		{`"Eviction manager: pods evicted, waiting for pod to be cleaned up" pods=["shop/cache-1"]`, "shop/cache-1", ""},
		{`back-off 5m0s restarting failed container=app pod=web-1_shop(0b9f3c2a-1111-2222-3333-444455556666)`, "shop/web-1", "0b9f3c2a-1111-2222-3333-444455556666"},
		{`no pod here`, "", ""},
	} {
		key, uid := PodRef(tt.msg)
		if key != tt.key || uid != tt.uid {
			t.Errorf("PodRef(%q) = %q, %q; want %q, %q", tt.msg, key, uid, tt.key, tt.uid)
		}
	}
}

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
	l := &ContainerLog{}
	if err := readTail(strings.NewReader(b.String()), l); err != nil {
		t.Fatal(err)
	}
	if l.Lines != TailLines+15 || len(l.Tail) != TailLines || l.Tail[0].Line != 16 || l.Tail[len(l.Tail)-1].Line != TailLines+15 {
		t.Errorf("Lines=%d tail=%d first=%d last=%d", l.Lines, len(l.Tail), l.Tail[0].Line, l.Tail[len(l.Tail)-1].Line)
	}
	if l.Tail[0].Text != "line" || l.Tail[0].Time.IsZero() {
		t.Errorf("tail line = %+v", l.Tail[0])
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
		{root + "cluster-scoped-resources/core/nodes/n1.yaml", classified{Kind: kindNode, Root: root, Node: "n1"}},
		{root + "host_service_logs/masters/kubelet_service.log", classified{Kind: kindServiceLog, Root: root, Unit: "kubelet"}},
		{root + "nodes/n1/n1_logs_kubelet.gz", classified{Kind: kindNodeKubeletLog, Root: root, Node: "n1"}},
		{"namespaces/shop/core/pods.yaml", classified{Kind: kindPodList, Namespace: "shop"}},
		{root + "namespaces/shop/pods/web-1/other.yaml", classified{Kind: kindOther}},
		{root + "namespaces/shop/apps/deployments.yaml", classified{Kind: kindOther}},
	} {
		if diff := cmp.Diff(tt.want, classify(tt.path)); diff != "" {
			t.Errorf("classify(%q) (-want +got):\n%s", tt.path, diff)
		}
	}
}

func FuzzParseJournalLine(f *testing.F) {
	f.Add(`Sep 14 14:13:43.559610 master-0 hyperkube[1985]: I0914 14:13:43.559597    1985 prober.go:116] "Probe failed" pod="a/b"`)
	f.Add(`Dec 31 23:59:59.000000 n crio[7]: time="2021-09-14T14:12:34Z" level=warning msg="x"`)
	f.Add("-- Logs begin at")
	f.Fuzz(func(t *testing.T, line string) {
		j, ok := ParseJournalLine(line, time.Date(2021, 9, 14, 0, 0, 0, 0, time.UTC))
		if ok {
			if k, ok := ParseKlog(j.Message); ok && strings.IndexByte("IWEF", k.Severity) < 0 {
				t.Fatalf("bad severity %q", k.Severity)
			}
			PodRef(j.Message)
			groupKey(j.Message)
		}
	})
}

func FuzzParseGoTime(f *testing.F) {
	f.Add("2021-09-14 14:43:46.909613294 +0000 UTC m=+0.079937509")
	f.Fuzz(func(t *testing.T, s string) {
		if tm, ok := ParseGoTime(s); ok && tm.Location() != time.UTC {
			t.Fatal("not UTC")
		}
	})
}
