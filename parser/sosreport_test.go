package parser

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/nodelog"
)

// loadFixture loads a folder of the project's fixtures/.
func loadFixture(t *testing.T, dir string) *model.Gather {
	t.Helper()
	g, err := Load(context.Background(), "../fixtures/"+dir)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The RHCOS sosreport of a master that never registered: no kubectl output,
// the runtime's view, the whole journal three times over (whole, this boot,
// the crio unit) and a manifest in the host's local zone (+01:00).
func TestLoadRHCOSSosreport(t *testing.T) {
	g := loadFixture(t, "sos/rhcos-master-unregistered")
	if len(g.Layouts) != 1 || g.Layouts[0].Kind != model.LayoutSosreport || g.Layouts[0].Node != "localhost.localdomain" {
		t.Fatalf("layouts %+v", g.Layouts)
	}
	if g.KubernetesVersion != "v1.27.8+4fab27b" {
		t.Errorf("Kubernetes version %q, want the kubelet's start line", g.KubernetesVersion)
	}
	// manifest 10:28:41.123456 .. 10:33:05.654321 local, date file 09:30:00 UTC.
	if want := time.Date(2026, 11, 20, 9, 28, 41, 123456000, time.UTC); !g.CollectedAt.Equal(want) {
		t.Errorf("collected %v, want %v", g.CollectedAt, want)
	}
	if d := g.FinishedAt.Sub(g.CollectedAt); d != 4*time.Minute+24*time.Second+530865*time.Microsecond {
		t.Errorf("took %v", d)
	}
	type row struct{ Pod, Ready, Status, Restarts, Age string }
	var got []row
	for _, p := range g.Pods {
		if p.Runtime == nil || p.Object.Spec.NodeName != "localhost.localdomain" {
			t.Errorf("pod %s: not a runtime-view pod of the host", p.Key())
		}
		got = append(got, row{p.Key(), p.Columns.Ready, p.Columns.Status, p.Columns.Restarts, p.Columns.Age})
	}
	want := []row{
		{"openshift-etcd/etcd-localhost.localdomain", "2/2", "Running", "0", "38m"},
		{"openshift-kube-apiserver/kube-apiserver-localhost.localdomain", "1/2", "Exited (Error, 1)", "14", "38m"},
		{"openshift-kube-controller-manager/kube-controller-manager-localhost.localdomain", "1/2", "Exited (OOMKilled, 137)", "5", "38m"},
		{"openshift-kube-scheduler/openshift-kube-scheduler-localhost.localdomain", "1/1", "Running", "0", "38m"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("runtime pods (-want +got)\n%s", d)
	}
	kas := g.Pods[1]
	st := kas.Object.Status.ContainerStatuses[0]
	if st.Name != "kube-apiserver" || st.State.Terminated == nil || st.State.Terminated.ExitCode != 1 ||
		st.LastTerminationState.Terminated == nil || st.LastTerminationState.Terminated.ExitCode != 1 || st.RestartCount != 14 {
		t.Errorf("kube-apiserver status %+v", st)
	}
	if len(kas.Runtime.Containers) != 3 || kas.Runtime.Sandbox.UID != "1c8e7d2f-66bb-4d2c-8f80-2a3b4c5d6e72" || string(kas.Object.UID) != kas.Runtime.Sandbox.UID {
		t.Errorf("runtime view %+v", kas.Runtime)
	}
	// The host has no Node object: it stands as a journal node, and its
	// journal lines are kept, each once although three files repeat them.
	if len(g.Nodes) != 0 || len(g.JournalNodes) != 1 || g.JournalNodes[0].Object.Name != "localhost.localdomain" || !g.JournalNodes[0].JournalOnly {
		t.Fatalf("nodes %v journal nodes %v", g.Nodes, g.JournalNodes)
	}
	counts := map[nodelog.Class]int{}
	for _, lg := range g.NodeLog["localhost"] {
		counts[lg.Class] += lg.Count
	}
	if want := map[nodelog.Class]int{nodelog.ClassAPI: 457, nodelog.ClassNetworkNotReady: 456, nodelog.ClassCertificate: 35, nodelog.ClassOOMKill: 2, nodelog.ClassNodeNotReady: 456}; !cmp.Equal(want, counts) {
		t.Errorf("node-log classes %v, want %v", counts, want)
	}
	if !slices.Contains(g.KubeletLogNodes, "localhost") || len(g.Health.NodesWithoutLogs) != 0 || len(g.Problems) != 0 {
		t.Errorf("kubelet log nodes %v, without logs %v, problems %v", g.KubeletLogNodes, g.Health.NodesWithoutLogs, g.Problems)
	}
}

// A storage gather's ceph_logs journals and a virtualization gather's
// nodes/<node>/ journals count for their hosts, with or without the node's YAML.
func TestLoadJournalsByContent(t *testing.T) {
	ceph := loadFixture(t, "journals/mg-odf-ceph-journals")
	for _, n := range []string{"worker-0.ocp4.example.com", "worker-1.ocp4.example.com"} {
		if !slices.Contains(ceph.KubeletLogNodes, n) {
			t.Errorf("ceph_logs journal of %s not credited: %v", n, ceph.KubeletLogNodes)
		}
	}
	if len(ceph.Health.NodesWithoutLogs) != 0 {
		t.Errorf("nodes without kubelet logs %v", ceph.Health.NodesWithoutLogs)
	}
	if len(ceph.JournalNodes) != 1 || ceph.JournalNodes[0].Object.Name != "worker-1.ocp4.example.com" {
		t.Errorf("journal nodes %v", ceph.JournalNodes)
	}
	if groups := ceph.NodeLog["worker-1.ocp4.example.com"]; len(groups) != 1 || groups[0].Class != nodelog.ClassNetworkNotReady || groups[0].Count != 12 {
		t.Errorf("worker-1 node log %+v", groups)
	}
	var rbd *model.Pod
	for _, p := range ceph.Pods {
		if p.Object.Name == "csi-rbdplugin-m4n8p" {
			rbd = p
		}
	}
	if rbd == nil || len(rbd.NodeLog) != 1 || rbd.NodeLog[0].Count != 12 {
		t.Errorf("the pod's kubelet lines from the ceph_logs journal: %+v", rbd)
	}

	cnv := loadFixture(t, "journals/mg-cnv-node-journals")
	if len(cnv.Nodes) != 0 || len(cnv.JournalNodes) != 1 || cnv.JournalNodes[0].Object.Name != "worker-2.ocp4.example.com" {
		t.Fatalf("nodes %v journal nodes %v", cnv.Nodes, cnv.JournalNodes)
	}
	counts := map[nodelog.Class]int{}
	for _, lg := range cnv.NodeLog["worker-2.ocp4.example.com"] {
		counts[lg.Class] += lg.Count
	}
	if counts[nodelog.ClassPLEG] != 8 {
		t.Errorf("worker-2 node log %v", counts)
	}
	if len(cnv.Problems) != 0 {
		t.Errorf("problems %v", cnv.Problems)
	}
}

func TestLooksLikeJournal(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
		want bool
	}{
		{"short-precise with header", "-- Logs begin at Fri 2026-11-20 06:01:10 UTC, end at Fri 2026-11-20 09:12:30 UTC. --\nNov 20 06:01:10.000123 worker-0 kernel: Linux version 5.14\n", true},
		{"short form, no header", "Nov 20 06:01:10 worker-0 systemd[1]: Started CRI-O.\nNov 20 06:01:11 worker-0 crio[2201]: time=\"x\" level=info msg=\"y\"\n", true},
		{"no entries", "-- No entries --\n", false},
		{"ceph status", "  cluster:\n    id:     1b2c\n    health: HEALTH_WARN\n", false},
		{"container log", "2026-11-20T09:01:02.123456789Z stdout F hello\n2026-11-20T09:01:03.1Z stdout F world\n", false},
		{"mostly other lines", "Nov 20 06:01:10 h k: m\nx\ny\nz\n", false},
		{"empty", "", false},
	} {
		if got := LooksLikeJournal([]byte(tc.text)); got != tc.want {
			t.Errorf("%s: got %v", tc.name, got)
		}
	}
}

func TestJournalHostFromPath(t *testing.T) {
	for p, want := range map[string]string{
		"mg/img/ceph_logs/journal_worker-1.ocp4.example.com/journal_worker-1.ocp4.example.com.gz": "worker-1.ocp4.example.com",
		"ceph_logs/journal_w0/journal_w0":                      "w0",
		"mg/img/nodes/worker-2/worker-2_logs_crio.gz":          "worker-2",
		"mg/img/host_service_logs/workers/kubelet_service.log": "",
		"nodes/x.log":                                 "",
		"mg/img/ceph_logs/journal_a b/j.gz":           "",
		"sos/sos_commands/logs/journalctl_--no-pager": "",
	} {
		if got := journalHostFromPath(p); got != want {
			t.Errorf("%s: got %q, want %q", p, got, want)
		}
	}
}

func TestJournalCandidate(t *testing.T) {
	for p, want := range map[string]bool{
		"mg/img/ceph_logs/journal_w0/journal_w0.gz":                        true,
		"mg/img/host_service_logs/workers/kubelet_service.log":             true,
		"mg/img/nodes/w2/w2_logs_crio.gz":                                  true,
		"sos/var/log/messages":                                             true,
		"mg/img/namespaces/shop/pods/web/app/app/logs/current.log":         false,
		"mg/img/ceph_logs/ceph_status.json":                                false,
		"mg/img/cluster-scoped-resources/core/nodes/w0.yaml":               false,
		"mg/img/monitoring/prometheus/status/tsdb.json":                    false,
		"mg/img/network_logs/ovnkube-node-x/ovn-controller-journal.tar.gz": false,
	} {
		if got := journalCandidate(p); got != want {
			t.Errorf("%s: got %v, want %v", p, got, want)
		}
	}
}

func TestJournalOtherOutput(t *testing.T) {
	for p, want := range map[string]bool{
		"sos/sos_commands/logs/journalctl_-o_export":                   true,
		"sos/sos_commands/logs/journalctl_--disk-usage":                true,
		"sos/sos_commands/logs/journalctl_--no-pager_--catalog_--boot": false,
		"sos/sos_commands/crio/journalctl_--no-pager_--unit_crio":      false,
		"sos/sos_commands/logs/journalctl_--no-pager_-o_short-precise": false,
	} {
		if got := journalOtherOutput(p); got != want {
			t.Errorf("%s: got %v", p, got)
		}
		if c := classify(p, nil); (c.Kind == kindServiceLog) == want {
			t.Errorf("%s: classified %v", p, c.Kind)
		}
	}
}

// FuzzLooksLikeJournal: no panic on any head of a member.
func FuzzLooksLikeJournal(f *testing.F) {
	f.Add([]byte("-- Logs begin at Mon 2024-03-04 10:00:00 UTC. --\nMar 04 10:00:01 host kubelet[1]: I0304 started\n"))
	f.Add([]byte("\x00\xff\n-- No entries --\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = LooksLikeJournal(data)
	})
}
