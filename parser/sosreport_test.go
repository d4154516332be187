package parser

import (
	"context"
	"path"
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

// A Charmed-Kubernetes-shaped sosreport of a control-plane node in
// Europe/Paris: its nodes come from kubectl get nodes and describe node
// text, its journal lines move to UTC by its own zone (not another part's),
// and its manifest's failed commands reach the gather health.
func TestLoadSosreportNodesClockManifest(t *testing.T) {
	g := loadFixture(t, "sos/k8s-control-plane-paris")
	type node struct {
		Name, Ready, Reason, Path string
		Line                      int
		Unschedulable             bool
		SystemUUID                string
	}
	var got []node
	for _, n := range g.Nodes {
		r := node{Name: n.Object.Name, Path: path.Base(n.Source.Path), Line: n.Source.Line, Unschedulable: n.Object.Spec.Unschedulable, SystemUUID: n.Object.Status.NodeInfo.SystemUUID}
		for _, c := range n.Object.Status.Conditions {
			if c.Type == "Ready" {
				r.Ready, r.Reason = string(c.Status), c.Reason
			}
		}
		got = append(got, r)
	}
	want := []node{
		{Name: "cp-1.lab.example.test", Ready: "True", Path: "kubectl_get_nodes", Line: 2, Unschedulable: true},
		{Name: "wk-1.lab.example.test", Ready: "False", Reason: "KubeletNotReady", Path: "kubectl_describe_node_wk-1.lab.example.test", Line: 1, SystemUUID: "4c4c4544-0042-3510-8052-b7c04f4e3232"},
		{Name: "wk-2.lab.example.test", Ready: "True", Path: "kubectl_get_nodes", Line: 4},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("nodes (-want +got)\n%s", d)
	}
	// The manifest's start 10:14:40.5 local, +01:00 (its commands' epoch times).
	if want := time.Date(2025, 3, 4, 9, 14, 40, 500_000_000, time.UTC); !g.CollectedAt.Equal(want) {
		t.Errorf("collected %v, want %v", g.CollectedAt, want)
	}
	// "Mar 04 10:05:12" in Europe/Paris is 09:05:12 UTC.
	var firsts []string
	for _, lg := range g.NodeLog["cp-1"] {
		firsts = append(firsts, lg.First.UTC().Format(time.RFC3339)+" "+string(lg.Class))
	}
	if want := []string{"2025-03-04T09:05:12Z network-not-ready", "2025-03-04T09:09:40Z node-not-ready"}; !slices.Equal(firsts, want) {
		t.Errorf("node-log groups %v, want %v", firsts, want)
	}
	if len(g.Layouts) != 1 || g.Layouts[0].Clock == nil || g.Layouts[0].Sos == nil {
		t.Fatalf("layouts %+v", g.Layouts)
	}
	l := g.Layouts[0]
	if c := l.Clock; c.Zone != "Europe/Paris" || c.Offset != time.Hour || !c.OffsetKnown || !c.UTC.Equal(time.Date(2025, 3, 4, 9, 15, 0, 0, time.UTC)) {
		t.Errorf("clock %+v", c)
	}
	if s := l.Sos; s.Version != "4.8.2" || s.Commands != 4 || len(s.Failed) != 3 || !slices.Equal(s.Plugins, []string{"kubernetes", "logs"}) || !slices.Equal(s.TimedOutPlugins, []string{"logs"}) {
		t.Errorf("sos run %+v", s)
	}
	root := "sosreport-cp-1-2025-03-04-xkqzvbn/: "
	wantHealth := []string{
		root + "sos plugin logs hit its timeout: files it had yet to collect are missing",
		root + "sos command journalctl --no-pager --unit kubelet returned 124 (timed out)",
		root + "output of sos command journalctl --no-pager --unit kubelet truncated at sos's size limit (sos_commands/kubernetes/journalctl_--no-pager_--unit_kubelet): only its tail was kept",
		root + "sos command kubectl describe node wk-2.lab.example.test returned 127 (command not found)",
		root + "output of sos command journalctl --no-pager truncated at sos's size limit (sos_commands/logs/journalctl_--no-pager): only its tail was kept",
	}
	if d := cmp.Diff(wantHealth, g.Health.SosCommands); d != "" {
		t.Errorf("health (-want +got)\n%s", d)
	}
}
