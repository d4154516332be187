package mustgather

import (
	"path"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzRead classifies a member path and, for the gather's own files (the
// Reader's kinds), reads arbitrary bytes as that member: no panic, a member
// claimed lies under its image folder with its names path elements, and
// what the Reader keeps is bounded and cites the member (gather times in
// UTC for the member's folder, error lines of must-gather.logs, alerts
// firing or pending in name order, etcd health).
func FuzzRead(f *testing.F) {
	const img = "must-gather.local.5049263173451366137/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-b38e71bb/"
	for _, s := range []struct{ p, data string }{
		{img + "timestamp", "2026-11-20 09:12:33.412876203 +0000 UTC m=+0.079937509\n2026-11-20 09:14:05.907341126 +0000 UTC m=+92.574402432\n"},
		{"must-gather.local.5049263173451366137/timestamp", "2026-11-20 10:12:33.1 +0100 CET m=+0.01\n2026-11-20 10:14:06.2 +0100 CET m=+93.1\n"},
		{img + "version", "openshift/must-gather\n4.18.0-202511121203.p0.g1c2d3e4.assembly.stream.el9\n"},
		{"must-gather.local.5049263173451366137/must-gather.logs", "[must-gather      ] OUT Using must-gather plug-in image: quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:b38e\n[must-gather-8xk2p] POD 2026-11-20T09:13:01.000Z error: no space left on device\n"},
		{img + "monitoring/prometheus/rules.json", `{"status":"success","data":{"groups":[{"name":"kubernetes-apps","file":"/etc/prometheus/rules/x.yaml","rules":[{"state":"firing","name":"KubePodCrashLooping","query":"x","duration":900,"labels":{"severity":"warning"},"annotations":{"summary":"Pod is crash looping."},"alerts":[{"labels":{"alertname":"KubePodCrashLooping","namespace":"shop","pod":"catalog-1","severity":"warning"},"annotations":{"description":"Pod shop/catalog-1 is in waiting state (reason: \"CrashLoopBackOff\")."},"state":"firing","activeAt":"2026-11-20T08:58:03.5Z","value":"1e+00"},{"state":"inactive"}],"health":"ok","type":"alerting"},{"name":"r","query":"y","type":"recording"}]}]}}`},
		{img + "etcd_info/endpoint_health.json", `[{"endpoint":"https://192.168.111.20:2379","health":true,"took":"9.8ms"},{"endpoint":"https://192.168.111.21:2379","health":false,"took":"5s","error":"context deadline exceeded"},{"endpoint":"unixs://localhost:0","health":false}]`},
		{img + "etcd_info/alarm_list.json", `{"header":{"cluster_id":1,"member_id":2,"revision":3,"raft_term":4},"alarms":[{"memberID":7387674336221325927,"alarm":"NOSPACE"},{"memberID":1,"alarm":2}]}`},
		{img + "etcd_info/endpoint_status.json", `[{"Endpoint":"https://192.168.111.20:2379","Status":{"header":{"cluster_id":1,"member_id":2},"version":"3.5.16","dbSize":88825856,"leader":3,"raftIndex":32239,"dbSizeInUse":69812224}}]`},
		{img + "etcd_info/member_list.json", `{"members":[]}`},
		{"timestamp", "garbage\n"},
	} {
		f.Add(s.p, []byte(s.data))
	}
	f.Fuzz(func(t *testing.T, p string, data []byte) {
		if len(data) > 1<<20 || len(p) > 4096 {
			return
		}
		m := Classify(p)
		if m.Kind == Other {
			return
		}
		if !strings.HasPrefix(p, m.Root) || m.Root != "" && !strings.HasSuffix(m.Root, "/") {
			t.Fatalf("Classify(%q): root %q does not lead the path", p, m.Root)
		}
		for _, s := range []string{m.Namespace, m.Pod, m.Container, m.Node, m.Unit, m.Name} {
			if strings.Contains(s, "/") || !strings.Contains(p[len(m.Root):], s) {
				t.Fatalf("Classify(%q): name %q is not in a path element", p, s)
			}
		}
		if m.Kind.Common() {
			return
		}
		l := &fakeLoad{times: map[string][]time.Time{}}
		r := NewReader(l)
		r.Note(p)
		r.Count(m.Kind)
		if u := r.Used(); len(u) != 1 || u[0].Files != 1 {
			t.Fatalf("Used after one %v member = %+v", m.Kind, u)
		}
		err := r.Read(p, m, data)
		for dir, ts := range l.times {
			if dir != path.Dir(p) || len(ts) == 0 {
				t.Fatalf("gather times %v for %q from %q", ts, dir, p)
			}
			for _, tm := range ts {
				if tm.Location() != time.UTC {
					t.Fatalf("gather time %s not in UTC", tm)
				}
			}
		}
		if image, ok := r.Layout(m.Root, len(l.times) > 0); ok && len(image) > len(p)+len(data) {
			t.Fatalf("image %q longer than the path and the file", image)
		}
		errs := r.Errors()
		if len(errs) > MaxLogErrors || m.Kind != Logs && len(errs) > 0 {
			t.Fatalf("%d error lines from a %v member", len(errs), m.Kind)
		}
		for _, e := range errs {
			if !utf8.ValidString(e) || strings.Contains(e, "\n") {
				t.Fatalf("error line %q", e)
			}
		}
		alerts := r.Alerts()
		if len(alerts) > 2*maxAlerts || m.Kind != Alerts && len(alerts) > 0 {
			t.Fatalf("%d alerts from a %v member", len(alerts), m.Kind)
		}
		if !sort.SliceIsSorted(alerts, func(i, j int) bool { return alerts[i].Name < alerts[j].Name }) {
			t.Fatal("alerts not in name order")
		}
		for _, a := range alerts {
			if a.Source.Path != p || a.State != "firing" && a.State != "pending" {
				t.Fatalf("alert %+v from %q", a, p)
			}
		}
		if e := r.Etcd(); e != nil {
			if m.Kind != Etcd || e.Endpoints < 0 || len(e.Unhealthy) > e.Endpoints || len(e.Sources) > 1 {
				t.Fatalf("etcd health %+v from a %v member", e, m.Kind)
			}
			if len(e.Sources) == 1 && (e.Sources[0].Path != p || err != nil) {
				t.Fatalf("etcd health cites %+v after reading %q (error %v)", e.Sources, p, err)
			}
		}
	})
}
