package parser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/fixtures/gen/synth"
	"github.com/mgtriage/mgtriage/parser/model"
)

const (
	uploadPieces = "../fixtures/upload"
	sampleID     = "e0666b73-33c5-437e-b12f-04c2a6eb05d9"
)

// buildUpload writes one folder holding the sample must-gather (without its
// host_service_logs, so that node journals come only from the sosreport),
// a sosreport of its node worker-0 and an inspect of the customer's
// namespace payments, and returns it packed as a .tar.gz.
func buildUpload(t *testing.T) string {
	return buildUploadWith(t, nil, "inspect.local.4471230658313042291")
}

func TestUploadOfOneClusterIsReadTogether(t *testing.T) {
	g, err := Load(context.Background(), buildUpload(t))
	if err != nil {
		t.Fatal(err)
	}
	const top = "case-04471230/"
	sos := top + "sosreport-worker-0-04471230-2026-11-20-kqzvbnw/"
	pods := map[string]*model.Pod{}
	for _, p := range g.Pods {
		if pods[p.Key()] != nil {
			t.Errorf("pod %s twice", p.Key())
		}
		pods[p.Key()] = p
	}
	if len(pods) != 31 {
		t.Errorf("%d pods, want the sample's 29 and the inspect's 2", len(pods))
	}
	// The inspected namespace adds its pods.
	for _, k := range []string{"payments/ledger-api-5b7c9d8e6-m3n5p", "payments/ledger-worker-7c9d8f6b5-q2w4e"} {
		if p := pods[k]; p == nil || !strings.HasPrefix(p.Source.Path, top+"inspect.local.4471230658313042291/") {
			t.Errorf("%s not read from the inspect: %+v", k, p)
		}
	}
	// The sosreport's kubelet lines are the node-log evidence of worker-0's pods.
	for _, k := range []string{"shop/cart-5f7b9c6d8-x2x9q", "shop/catalog-84b6d9c7f-k8m2p"} {
		p := pods[k]
		if p == nil || len(p.NodeLog) == 0 {
			t.Fatalf("%s has no node-log lines", k)
		}
		for _, l := range p.NodeLog {
			if !strings.HasPrefix(l.Source.Path, sos) {
				t.Errorf("%s: node-log line from %s", k, l.Source.Path)
			}
		}
	}
	if !contains(g.KubeletLogNodes, "worker-0.sample.example.com") {
		t.Errorf("kubelet journal hosts %v lack worker-0", g.KubeletLogNodes)
	}
	// The gather time stays the must-gather's; the sosreport's date is later.
	if got := g.CollectedAt.Format("15:04:05"); got != "09:12:33" {
		t.Errorf("gathered at %s, want the must-gather's 09:12:33", got)
	}
	want := []string{
		top + "must-gather.local.5049263173451366137/ (must-gather, gathered 2026-11-20T09:12:33Z, cluster " + sampleID + ")",
		top + "inspect.local.4471230658313042291/ (inspect, gathered 2026-11-20T09:25:40Z, cluster unknown): read with " + top + "must-gather.local.5049263173451366137/, names the same nodes (worker-0.sample.example.com, worker-1.sample.example.com)",
		sos + " (sosreport of host worker-0.sample.example.com, gathered 2026-11-20T09:31:02Z, machine-id 6394e6ffd38647479b66709a7220f173): host is node worker-0.sample.example.com (same machine-id)",
	}
	// Each pod's columns are those of its own gather's time.
	if p := pods["payments/ledger-worker-7c9d8f6b5-q2w4e"]; p == nil || p.Columns.Restarts != "19 (3m53s ago)" {
		t.Errorf("inspected pod's RESTARTS at the inspect's time: %+v", p.Columns)
	}
	if diff := cmp.Diff(want, g.Coverage.Combined); diff != "" {
		t.Errorf("combined (-want +got):\n%s", diff)
	}
}

// buildUploadWith packs the sample must-gather (without its
// host_service_logs) and the sosreport of worker-0, its files changed by
// edit (member path relative to the sosreport → new content; "" deletes),
// and the other pieces of fixtures/upload that more names.
func buildUploadWith(t *testing.T, edit map[string]string, more ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "case-04471230")
	mg := filepath.Join(dir, filepath.Base(sampleGather))
	copyTree(t, sampleGather, mg)
	imgs, _ := filepath.Glob(filepath.Join(mg, "quay-io-*"))
	if err := os.RemoveAll(filepath.Join(imgs[0], "host_service_logs")); err != nil {
		t.Fatal(err)
	}
	const piece = "sosreport-worker-0-04471230-2026-11-20-kqzvbnw"
	for _, p := range append([]string{piece}, more...) {
		copyTree(t, filepath.Join(uploadPieces, p), filepath.Join(dir, p))
	}
	for rel, content := range edit {
		p := filepath.Join(dir, piece, rel)
		if content == "" {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return archiveOf(t, dir, "upload.tar.gz", synth.Formats[".tar.gz"])
}

// describeNode is `kubectl describe node NAME` output with the node's
// machine ID, trimmed to what identifies it.
func describeNode(name, machineID string) string {
	return "Name:               " + name + "\nRoles:              worker\nCreationTimestamp:  Fri, 13 Nov 2026 08:00:12 +0000\nConditions:\n  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message\n  ----             ------  -----------------                 ------------------                ------                       -------\n  Ready            True    Fri, 20 Nov 2026 12:30:02 +0000   Fri, 13 Nov 2026 08:05:51 +0000   KubeletReady                 kubelet is posting ready status\nSystem Info:\n  Machine ID:                 " + machineID + "\n  Kubelet Version:            v1.31.6\n"
}

// A node sosreport joins the must-gather of its cluster when a machine fact
// proves its host is the node (whatever the time between them), and only
// within the hour when nothing proves or contradicts it; a host of the same
// name on another machine, or one running a Kubernetes minor no node runs,
// never joins.
func TestSosreportIdentity(t *testing.T) {
	const (
		threeHoursLater = "Fri Nov 20 12:31:02 UTC 2026\n"
		otherMachine    = "0123456789abcdef0123456789abcdef\n"
		hostnamectl     = "sos_commands/host/hostnamectl_status"
		bootID          = "proc/sys/kernel/random/boot_id"
	)
	tests := []struct {
		name    string
		edit    map[string]string
		joined  string // the sosreport's line in Combined, "" when refused
		refused string // a part of the refusal's reason
	}{
		{"same machine-id, 3 hours later", map[string]string{"date": threeHoursLater},
			"host is node worker-0.sample.example.com (same machine-id)", ""},
		{"same boot ID only, 3 hours later", map[string]string{"date": threeHoursLater, "etc/machine-id": "", hostnamectl: ""},
			"host is node worker-0.sample.example.com (same boot ID)", ""},
		{"no machine fact, within the hour", map[string]string{"etc/machine-id": "", hostnamectl: "", bootID: ""},
			"host is node worker-0.sample.example.com (by name; no machine fact to compare, gathered within 1h0m0s)", ""},
		{"no machine fact, 3 hours later", map[string]string{"date": threeHoursLater, "etc/machine-id": "", hostnamectl: "", bootID: ""},
			"", "no machine fact proves it the same machine and it was gathered 3h18m apart"},
		{"same name, another machine, within the hour", map[string]string{"etc/machine-id": otherMachine, hostnamectl: "", bootID: ""},
			"", "another machine (its machine-id differs)"},
		{"another Kubernetes minor", map[string]string{"etc/machine-id": "", hostnamectl: "", bootID: "",
			"sos_commands/kubernetes/kubectl_version": "Client Version: v1.23.3\nServer Version: v1.23.3\n"},
			"", "it runs Kubernetes v1.23.3, which no node of case-04471230/must-gather.local.5049263173451366137/ runs (v1.31)"},
		{"a newer client only: the cluster's version is not known", map[string]string{"etc/machine-id": "", hostnamectl: "", bootID: "",
			"sos_commands/kubernetes/kubectl_version": "Client Version: v1.23.3\n"},
			"host is node worker-0.sample.example.com (by name; no machine fact to compare, gathered within 1h0m0s)", ""},
		{"a bastion host, 3 hours later, describing a node that is the same machine", map[string]string{"date": threeHoursLater,
			"hostname": "bastion-1\n", "sos_commands/host/hostname": "bastion-1\n", "etc/machine-id": "0123456789abcdef0123456789abcdef\n", hostnamectl: "", bootID: "",
			"sos_commands/kubernetes/nodes/kubectl_describe_node_worker-1.sample.example.com": describeNode("worker-1.sample.example.com", "dc03934179a9f9becbb7156e17019e3f")},
			"its host bastion-1, of the cluster whose node worker-1.sample.example.com it describes (same machine-id)", ""},
		{"a bastion host within the hour, describing a node of that name on another machine", map[string]string{
			"hostname": "bastion-1\n", "sos_commands/host/hostname": "bastion-1\n", "etc/machine-id": "0123456789abcdef0123456789abcdef\n", hostnamectl: "", bootID: "",
			"sos_commands/kubernetes/nodes/kubectl_describe_node_worker-1.sample.example.com": describeNode("worker-1.sample.example.com", "ffffffffffffffffffffffffffffffff")},
			"", "the node worker-1.sample.example.com it describes is another machine than the node of that name"},
		{"named like a node, within the hour, but its own node list is another cluster's", map[string]string{"etc/machine-id": "", hostnamectl: "", bootID: "",
			"sos_commands/kubernetes/kubectl_get_nodes": "NAME                    STATUS   ROLES    AGE     VERSION\njuju-110cc2-k8stest-5   Ready    <none>   6m31s   v1.31.6\njuju-110cc2-k8stest-6   Ready    <none>   6m42s   v1.31.6\n"},
			"", "the nodes its own kubectl/oc output lists (juju-110cc2-k8stest-5, juju-110cc2-k8stest-6) are none of the nodes of case-04471230/must-gather.local.5049263173451366137/"},
		{"named like a node, within the hour, its own node list names the cluster's nodes", map[string]string{"etc/machine-id": "", hostnamectl: "", bootID: "",
			"sos_commands/kubernetes/kubectl_get_nodes": "NAME                          STATUS   ROLES    AGE   VERSION\nmaster-0.sample.example.com   Ready    master   7d    v1.31.6\nworker-0.sample.example.com   Ready    worker   7d    v1.31.6\n"},
			"host is node worker-0.sample.example.com (by name; no machine fact to compare, gathered within 1h0m0s)", ""},
		{"a host that is no node, six months later", map[string]string{"date": "Fri May 21 09:31:02 UTC 2027\n",
			"hostname": "juju-7f3a1c-k8s-4\n", "sos_commands/host/hostname": "juju-7f3a1c-k8s-4\n", "etc/machine-id": "", hostnamectl: "", bootID: ""},
			"", "host is not a node of case-04471230/must-gather.local.5049263173451366137/ and it was gathered 182 days apart"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := Load(context.Background(), buildUploadWith(t, tt.edit))
			if tt.refused != "" {
				var several *SeveralGathersError
				if !errors.As(err, &several) {
					t.Fatalf("err = %v, want a refusal", err)
				}
				if !strings.Contains(err.Error(), tt.refused) {
					t.Errorf("refusal lacks %q:\n%v", tt.refused, err)
				}
				if len(several.Parts) != 2 || len(several.Gathers) != 2 {
					t.Errorf("parts %+v, gathers %q: want the must-gather and the sosreport apart", several.Parts, several.Gathers)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			last := g.Coverage.Combined[len(g.Coverage.Combined)-1]
			if !strings.HasSuffix(last, ": "+tt.joined) {
				t.Errorf("sosreport line %q, want it to end %q", last, tt.joined)
			}
		})
	}
}

// Each part of a refused upload is read alone with Options.Part, and is
// then one cluster.
func TestSplitPartsLoadAlone(t *testing.T) {
	in := buildUploadWith(t, map[string]string{"etc/machine-id": "0123456789abcdef0123456789abcdef\n", "sos_commands/host/hostnamectl_status": "", "proc/sys/kernel/random/boot_id": ""})
	_, err := Load(context.Background(), in)
	var several *SeveralGathersError
	if !errors.As(err, &several) || len(several.Parts) != 2 {
		t.Fatalf("err = %v", err)
	}
	var names []string
	for _, p := range several.Parts {
		names = append(names, p.Name)
		g, err := LoadWith(context.Background(), in, Options{Part: &p, PartOf: several.Tops})
		if err != nil {
			t.Fatalf("part %s: %v", p.Name, err)
		}
		for _, l := range g.Layouts {
			if !slices.ContainsFunc(p.Tops, func(top string) bool { return strings.HasPrefix(l.Root, top+"/") }) {
				t.Errorf("part %s read layout %s outside its gathers %v", p.Name, l.Root, p.Tops)
			}
		}
	}
	if diff := cmp.Diff([]string{"1-must-gather.local.5049263173451366137", "2-sosreport-worker-0-04471230-2026-11-20-kqzvbnw"}, names); diff != "" {
		t.Errorf("part names (-want +got):\n%s", diff)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestTwoClustersAreRefusedNamingBoth(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, sampleGather, filepath.Join(dir, "must-gather.local.1"))
	other := filepath.Join(dir, "must-gather.local.2")
	copyTree(t, sampleGather, other)
	const otherID = "7b1d0c2e-4f6a-4e8b-9c3d-5a7f9e1b2c4d"
	err := filepath.WalkDir(other, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(p, "clusterversions") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(p, []byte(strings.ReplaceAll(string(data), sampleID, otherID)), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Load(context.Background(), archiveOf(t, dir, "two.tar.gz", synth.Formats[".tar.gz"]))
	var several *SeveralGathersError
	if !errors.As(err, &several) {
		t.Fatalf("err = %v", err)
	}
	msg := err.Error()
	for _, w := range []string{"different cluster IDs", "must-gather.local.1/ (must-gather", "cluster " + sampleID, "must-gather.local.2/ (must-gather", "cluster " + otherID} { // both named, and why
		if !strings.Contains(msg, w) {
			t.Errorf("message lacks %q:\n%s", w, msg)
		}
	}
}

func TestCombineLinks(t *testing.T) {
	ts := func(hm string) string { return "2026-11-20 " + hm + ":00.0 +0000 UTC m=+0.1\n" }
	podOn := func(ns, name, uid, node string) string {
		return strings.Replace(podList(ns, name, uid), "  spec:\n", "  spec:\n    nodeName: "+node+"\n", 1)
	}
	tests := []struct {
		name    string
		files   map[string]string
		refused string // "" when read together
	}{
		{"inspect naming the same nodes, 40 minutes later", map[string]string{
			"a/timestamp":                                   ts("09:00"),
			"a/namespaces/shop/core/pods.yaml":              podOn("shop", "web-1", "u1", "w1.example.com"),
			"inspect.local.1/timestamp":                     ts("09:40"),
			"inspect.local.1/namespaces/pay/core/pods.yaml": podOn("pay", "api-1", "u2", "w1"),
		}, ""},
		{"no cluster ID and different nodes", map[string]string{
			"a/timestamp":                                   ts("09:00"),
			"a/namespaces/shop/core/pods.yaml":              podOn("shop", "web-1", "u1", "w1"),
			"inspect.local.1/timestamp":                     ts("09:10"),
			"inspect.local.1/namespaces/pay/core/pods.yaml": podOn("pay", "api-1", "u2", "x7"),
		}, "no cluster ID or node name links"},
		{"same nodes, a day apart", map[string]string{
			"a/timestamp":                                   ts("09:00"),
			"a/namespaces/shop/core/pods.yaml":              podOn("shop", "web-1", "u1", "w1"),
			"inspect.local.1/timestamp":                     "2026-11-21 09:00:00.0 +0000 UTC m=+0.1\n",
			"inspect.local.1/namespaces/pay/core/pods.yaml": podOn("pay", "api-1", "u2", "w1"),
		}, "one cluster gathered 24h0m apart"},
		{"no node names, within the hour", map[string]string{
			"a/timestamp":                                   ts("09:00"),
			"a/namespaces/shop/core/pods.yaml":              podList("shop", "web-1", "u1"),
			"inspect.local.1/timestamp":                     ts("09:20"),
			"inspect.local.1/namespaces/pay/core/pods.yaml": podList("pay", "api-1", "u2"),
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, tt.files)
			g, err := Load(context.Background(), dir)
			if tt.refused == "" {
				if err != nil {
					t.Fatal(err)
				}
				if len(g.Pods) != 2 || len(g.Coverage.Combined) != 2 {
					t.Errorf("pods %d, combined %q", len(g.Pods), g.Coverage.Combined)
				}
				return
			}
			var several *SeveralGathersError
			if !errors.As(err, &several) || !strings.Contains(err.Error(), tt.refused) || len(several.Gathers) != 2 {
				t.Errorf("want refusal naming %q, got %v", tt.refused, err)
			}
		})
	}
}

func TestSamePodInTwoGathersKeepsTheNewerCopy(t *testing.T) {
	withRV := func(rv, restarts string) string {
		s := podList("shop", "web-1", "11111111-0000-0000-0000-000000000001")
		s = strings.Replace(s, "    uid:", "    resourceVersion: \""+rv+"\"\n    uid:", 1)
		return strings.Replace(s, "restartCount: 0", "restartCount: "+restarts, 1)
	}
	ts := "2026-11-20 09:00:00.0 +0000 UTC m=+0.1\n"
	for _, order := range []struct{ a, b, want string }{{"100", "250", "3"}, {"250", "100", "0"}} {
		dir := t.TempDir()
		writeTree(t, dir, map[string]string{
			"a/timestamp":                                    ts,
			"a/namespaces/shop/core/pods.yaml":               withRV(order.a, "0"),
			"inspect.local.1/timestamp":                      ts,
			"inspect.local.1/namespaces/shop/core/pods.yaml": withRV(order.b, "3"),
		})
		g, err := Load(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Pods) != 1 {
			t.Fatalf("%d pods, want one", len(g.Pods))
		}
		newer := "a/"
		if order.b > order.a {
			newer = "inspect.local.1/"
		}
		p := g.Pods[0]
		if !strings.HasPrefix(p.Source.Path, newer) {
			t.Errorf("resourceVersions %s and %s: kept the copy of %s", order.a, order.b, p.Source.Path)
		}
	}
}

func TestManyGathersAreBounded(t *testing.T) {
	files := map[string]string{}
	for i := range maxGathers + 1 {
		files[fmt.Sprintf("inspect-%04d/namespaces/ns/core/pods.yaml", i)] = podList("ns", fmt.Sprintf("p-%d", i), fmt.Sprintf("u-%d", i))
	}
	dir := t.TempDir()
	writeTree(t, dir, files)
	_, err := Load(context.Background(), dir)
	var several *SeveralGathersError
	if !errors.As(err, &several) || len(several.Gathers) != maxListedGathers+1 || !strings.Contains(several.Why, "at most 256") {
		t.Fatalf("err = %v", err)
	}
}

// A gather that names no nodes (an install log bundle whose API never
// answered) links weakly to anything; it must not chain gathers that name
// different nodes into one cluster.
func TestCombineWeakLinkDoesNotChainClusters(t *testing.T) {
	_, err := Load(context.Background(), filepath.Join("..", "fixtures", "bundles"))
	var several *SeveralGathersError
	if !errors.As(err, &several) {
		t.Fatalf("Load(fixtures/bundles) = %v, want a SeveralGathersError", err)
	}
	for _, want := range []string{"insights-archive/", "support-bundle/", "pod-captures/"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal does not name %s:\n%v", want, err)
		}
	}
}

// Two must-gathers of one cluster, 20 minutes apart, hold the same events:
// each is counted once.
func TestEventsOfTwoGathersAreCountedOnce(t *testing.T) {
	one, err := Load(context.Background(), sampleGather)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	copyTree(t, sampleGather, filepath.Join(dir, "must-gather.local.1"))
	later := filepath.Join(dir, "must-gather.local.2")
	copyTree(t, sampleGather, later)
	err = filepath.WalkDir(later, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(p) != "timestamp" {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(p, []byte(strings.ReplaceAll(string(data), "09:1", "09:3")), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	two, err := Load(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(two.Events) != len(one.Events) {
		t.Errorf("%d events, want the sample's %d once", len(two.Events), len(one.Events))
	}
	for _, p := range two.Pods {
		seen := map[string]bool{}
		for _, e := range p.Events {
			k := e.Object.Reason + "|" + e.Object.Message + "|" + e.Object.InvolvedObject.FieldPath
			if seen[k] && e.Object.FirstTimestamp != 0 {
				t.Errorf("%s: event %s twice", p.Key(), k)
			}
			seen[k] = true
		}
	}
}

// --split analyses every part, however many the refusal lists.
func TestEveryPartIsSplitBeyondTheListed(t *testing.T) {
	files := map[string]string{}
	const n = maxListedGathers + 10
	for i := range n {
		pod := strings.Replace(podList("ns", fmt.Sprintf("p-%d", i), fmt.Sprintf("u-%d", i)), "  spec:\n", fmt.Sprintf("  spec:\n    nodeName: node-%02d\n", i), 1)
		files[fmt.Sprintf("inspect-%02d/namespaces/ns/core/pods.yaml", i)] = pod
	}
	dir := t.TempDir()
	writeTree(t, dir, files)
	_, err := Load(context.Background(), dir)
	var several *SeveralGathersError
	if !errors.As(err, &several) {
		t.Fatalf("err = %v", err)
	}
	if len(several.Parts) != n || several.Total != n || len(several.Gathers) != maxListedGathers+1 {
		t.Errorf("parts %d, total %d, listed %d: want %d parts of %d gathers, %d listed", len(several.Parts), several.Total, len(several.Gathers), n, n, maxListedGathers+1)
	}
	if !strings.Contains(err.Error(), fmt.Sprintf("the input holds %d parts", n)) {
		t.Errorf("message: %v", err)
	}
}

// Two sosreports ten hours apart, with nothing to link them, are two parts
// and the refusal says why.
func TestSosreportsApartSayWhy(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"sosreport-a/hostname": "a\n", "sosreport-a/date": "Fri Nov 20 09:00:00 UTC 2026\n",
		"sosreport-a/sos_commands/logs/journalctl_--no-pager_--unit_kubelet": "Nov 20 08:45:05.394575 a kubenswrapper[2201]: E1120 08:45:05.394501    2201 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"connection refused\" node=\"a\"\n",
		"sosreport-b/hostname": "b\n", "sosreport-b/date": "Fri Nov 20 19:00:00 UTC 2026\n",
		"sosreport-b/sos_commands/logs/journalctl_--no-pager_--unit_kubelet": "Nov 20 18:45:05.394575 b kubenswrapper[2201]: E1120 18:45:05.394501    2201 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"connection refused\" node=\"b\"\n",
	})
	_, err := Load(context.Background(), dir)
	var several *SeveralGathersError
	if !errors.As(err, &several) || len(several.Parts) != 2 || !strings.Contains(several.Why, "more than an hour apart") {
		t.Fatalf("err = %v", err)
	}
}
