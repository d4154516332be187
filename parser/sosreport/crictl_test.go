package sosreport

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/mgtriage/mgtriage/parser/model"
)

var crictlNow = time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)

func TestParseCrictlPods(t *testing.T) {
	// Newer crictl: RUNTIME column; a deprecation warning before the header.
	table := `WARN[0000] runtime connect using default endpoints: [unix:///var/run/crio/crio.sock]. As the default settings are now deprecated, you should set the endpoint instead.
POD ID              CREATED              STATE               NAME                                   NAMESPACE                  ATTEMPT             RUNTIME
3f2b8c91d04e7       41 minutes ago       Ready               etcd-localhost.localdomain             openshift-etcd             0                   (default)
9a8b7c6d5e4f3       About an hour ago    NotReady            installer-3-localhost.localdomain      openshift-kube-apiserver   2                   (default)
`
	got, err := ParseCrictlPods([]byte(table), "p", crictlNow)
	if err != nil {
		t.Fatal(err)
	}
	want := []model.RuntimeSandbox{
		{ID: "3f2b8c91d04e7", Name: "etcd-localhost.localdomain", Namespace: "openshift-etcd", State: "Ready", Created: crictlNow.Add(-41 * time.Minute), Source: model.Source{Path: "p", Line: 3}},
		{ID: "9a8b7c6d5e4f3", Name: "installer-3-localhost.localdomain", Namespace: "openshift-kube-apiserver", State: "NotReady", Attempt: 2, Created: crictlNow.Add(-time.Hour), Source: model.Source{Path: "p", Line: 4}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
	// Older crictl: no RUNTIME column; a row cut short is skipped and counted.
	old := "POD ID              CREATED             STATE               NAME                NAMESPACE           ATTEMPT\n" +
		"0a1b2c3d4e5f6       3 days ago          Ready               web-1               shop                0\n" +
		"bad\n"
	got, err = ParseCrictlPods([]byte(old), "p", time.Time{})
	if len(got) != 1 || got[0].Name != "web-1" || !got[0].Created.IsZero() || err == nil || !strings.Contains(err.Error(), "1 rows") {
		t.Errorf("old table: %+v, %v", got, err)
	}
	if _, err := ParseCrictlPods([]byte("no table here\n"), "p", crictlNow); err == nil {
		t.Error("a file without the header must be an error")
	}
}

func TestParseCrictlPs(t *testing.T) {
	for _, tc := range []struct {
		name, table string
	}{
		{"newer crictl (CONTAINER, POD)", `CONTAINER           IMAGE                                                                 CREATED              STATE               NAME                ATTEMPT             POD ID              POD
74bf20f876ffc       quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:2222            About a minute ago   Exited              kube-apiserver      14                  9a8b7c6d5e4f3       kube-apiserver-m0
`},
		{"older crictl (CONTAINER ID)", `CONTAINER ID        IMAGE                                                                 CREATED              STATE               NAME                ATTEMPT             POD ID
74bf20f876ffc       quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:2222            About a minute ago   Exited              kube-apiserver      14                  9a8b7c6d5e4f3
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseCrictlPs([]byte(tc.table), "ps", crictlNow)
			if err != nil {
				t.Fatal(err)
			}
			want := []model.RuntimeContainer{{ID: "74bf20f876ffc", PodID: "9a8b7c6d5e4f3", Name: "kube-apiserver", Image: "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:2222",
				State: "Exited", Attempt: 14, Created: crictlNow.Add(-time.Minute), Source: model.Source{Path: "ps", Line: 2}}}
			if strings.Contains(tc.table, " POD\n") {
				want[0].PodName = "kube-apiserver-m0"
			}
			if d := cmp.Diff(want, got, cmpopts.IgnoreFields(model.RuntimeContainer{}, "Inspected", "CreatedFromTable")); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
		})
	}
}

func TestParseCrictlInspect(t *testing.T) {
	doc := `{
  "status": {
    "id": "a4c123b1612dd9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4",
    "metadata": {"attempt": 5, "name": "cluster-policy-controller"},
    "state": "CONTAINER_EXITED",
    "createdAt": "2026-11-20T09:26:44.000000001Z",
    "startedAt": "2026-11-20T09:26:44.332211009Z",
    "finishedAt": "2026-11-20T09:27:51.908070605Z",
    "exitCode": 137,
    "image": {"image": "quay.io/x/y@sha256:4444"},
    "reason": "OOMKilled",
    "message": "",
    "labels": {"io.kubernetes.container.name": "cluster-policy-controller", "io.kubernetes.pod.name": "kcm-m0", "io.kubernetes.pod.namespace": "openshift-kube-controller-manager", "io.kubernetes.pod.uid": "2d9f8e30"}
  },
  "info": {"sandboxID": "5c4d3e2f1a0b9"}
}`
	got, err := ParseCrictlInspect([]byte(doc), "i")
	if err != nil {
		t.Fatal(err)
	}
	code := int32(137)
	want := model.RuntimeContainer{ID: "a4c123b1612dd9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4", Name: "cluster-policy-controller", Attempt: 5,
		PodName: "kcm-m0", PodNamespace: "openshift-kube-controller-manager", PodUID: "2d9f8e30", Image: "quay.io/x/y@sha256:4444",
		State: "Exited", ExitCode: &code, Reason: "OOMKilled",
		Created:  time.Date(2026, 11, 20, 9, 26, 44, 1, time.UTC),
		Started:  time.Date(2026, 11, 20, 9, 26, 44, 332211009, time.UTC),
		Finished: time.Date(2026, 11, 20, 9, 27, 51, 908070605, time.UTC),
		// Cited at its metadata.name and, the inspect file, at its status.id.
		Source: model.Source{Path: "i", Line: 4}, Inspect: model.Source{Path: "i", Line: 3}}
	if d := cmp.Diff(want, got, cmpopts.IgnoreFields(model.RuntimeContainer{}, "Inspected", "CreatedFromTable")); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
	// Times as nanoseconds, labels under info.config (containerd), a running
	// container's exit code 0 dropped, a zero finishedAt.
	doc2 := `{"status": {"id": "c1", "metadata": {"attempt": 0, "name": ""}, "state": "CONTAINER_RUNNING", "createdAt": "1795338000000000000",
	  "startedAt": 1795338001000000000, "finishedAt": "0", "exitCode": 0},
	  "info": {"config": {"labels": {"io.kubernetes.container.name": "app", "io.kubernetes.pod.name": "web", "io.kubernetes.pod.namespace": "shop"}}}}`
	got, err = ParseCrictlInspect([]byte(doc2), "i2")
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "app" || got.PodName != "web" || got.State != "Running" || got.ExitCode != nil ||
		!got.Created.Equal(time.Unix(0, 1795338000000000000)) || !got.Started.Equal(time.Unix(1795338001, 0)) || !got.Finished.IsZero() {
		t.Errorf("containerd form: %+v", got)
	}
	for _, bad := range []string{"", "[]", `{"status": {}}`, `{"status": {"id": "x"}}`, "not json"} {
		if _, err := ParseCrictlInspect([]byte(bad), "b"); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

func TestParseCrictlInspectp(t *testing.T) {
	doc := `{"status": {"id": "3f2b8c91d04e7a6b", "metadata": {"attempt": 1, "name": "etcd-m0", "namespace": "openshift-etcd", "uid": "0b7d"},
	  "state": "SANDBOX_NOTREADY", "createdAt": "2026-11-20T08:49:50.246813579Z"}}`
	got, err := ParseCrictlInspectp([]byte(doc), "p")
	if err != nil {
		t.Fatal(err)
	}
	want := model.RuntimeSandbox{ID: "3f2b8c91d04e7a6b", Name: "etcd-m0", Namespace: "openshift-etcd", UID: "0b7d", State: "NotReady", Attempt: 1,
		Created: time.Date(2026, 11, 20, 8, 49, 50, 246813579, time.UTC), Source: model.Source{Path: "p", Line: 1}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
}

func TestParseHumanAgo(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"Less than a second ago": 0, "About a minute ago": time.Minute, "34 minutes ago": 34 * time.Minute,
		"About an hour ago": time.Hour, "2 hours ago": 2 * time.Hour, "3 days ago": 72 * time.Hour,
		"2 weeks ago": 14 * 24 * time.Hour, "5 months ago": 150 * 24 * time.Hour, "1 year ago": 365 * 24 * time.Hour,
		"12 seconds ago": 12 * time.Second,
	} {
		if got, ok := parseHumanAgo(in); !ok || got != want {
			t.Errorf("%q: got %v %v, want %v", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", "ago", "soon", "x minutes ago", "-3 days ago", "3 fortnights ago", "99999999 years ago"} {
		if _, ok := parseHumanAgo(bad); ok {
			t.Errorf("%q: want not ok", bad)
		}
	}
}

// FuzzCrictl runs the crictl parsers over arbitrary bytes: no panic, and
// every record they return names what a pod or container needs.
func FuzzCrictl(f *testing.F) {
	f.Add([]byte("POD ID   CREATED   STATE   NAME   NAMESPACE   ATTEMPT\n0a1b   3 days ago   Ready   web   shop   0\n"))
	f.Add([]byte("CONTAINER   IMAGE   CREATED   STATE   NAME   ATTEMPT   POD ID   POD\n74bf   img   About a minute ago   Exited   app   14   9a8b   web\n"))
	f.Add([]byte(`{"status": {"id": "c1", "metadata": {"name": "app", "attempt": 3}, "state": "CONTAINER_EXITED", "exitCode": 1, "createdAt": 17}}`))
	f.Add([]byte("POD ID\nCONTAINER ID IMAGE STATE NAME POD ID\n\x00\xff   "))
	f.Fuzz(func(t *testing.T, data []byte) {
		if pods, _ := ParseCrictlPods(data, "p", crictlNow); len(pods) > maxRuntimeRows {
			t.Fatalf("%d rows", len(pods))
		} else {
			for _, p := range pods {
				if p.ID == "" || p.Name == "" {
					t.Fatalf("pod without id or name: %+v", p)
				}
			}
		}
		cs, _ := ParseCrictlPs(data, "ps", crictlNow)
		for _, c := range cs {
			if c.ID == "" || c.Name == "" || c.PodID == "" {
				t.Fatalf("container without id, name or pod: %+v", c)
			}
		}
		if c, err := ParseCrictlInspect(data, "i"); err == nil && (c.ID == "" || c.Name == "") {
			t.Fatalf("inspect without id or name: %+v", c)
		}
		if s, err := ParseCrictlInspectp(data, "i"); err == nil && (s.ID == "" || s.Name == "") {
			t.Fatalf("inspectp without id or name: %+v", s)
		}
		_, _ = parseKubeVersionOutput(data)
		if m, err := parseSosManifest(data, "m"); err == nil {
			_ = HealthLines("", &m.run)
		}
		if nodes, _ := ParseNodeTable(data, "t", crictlNow); len(nodes) > maxNodeRows {
			t.Fatalf("%d node rows", len(nodes))
		}
		if n, err := ParseNodeDescribe(data, "d"); err == nil && n.Object.Name == "" {
			t.Fatal("describe without a name")
		}
		for _, local := range []bool{false, true} {
			if f, _, ok := parseDateFile(data, "date", local); ok {
				s := sosRuntime{dates: f}
				if c, ok := s.clock(); ok && c.UTC.Location() != time.UTC {
					t.Fatal("clock not UTC")
				}
			}
		}
	})
}
