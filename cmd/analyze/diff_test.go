package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/fixtures/gen/synth"
	"github.com/mgtriage/mgtriage/report"
	"sigs.k8s.io/yaml"
)

const (
	changesOld = "../../fixtures/diff/changes/old"
	changesNew = "../../fixtures/diff/changes/new"
	churnOld   = "../../fixtures/diff/churn/old"
	churnNew   = "../../fixtures/diff/churn/new"
)

// runDiffJSON runs `analyze diff OLD NEW` and decodes diff.json.
func runDiffJSON(t *testing.T, old, cur string) *report.Diff {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := run(t, "diff", old, cur, "-o", out)
	if code != 0 {
		t.Fatalf("diff %s %s: exit %d: %s", old, cur, code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "diff.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d report.Diff
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"diff.md", "diff.html"} {
		if fi, err := os.Stat(filepath.Join(out, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	return &d
}

// findingStates lists "state rule subject" of every finding change.
func findingStates(d *report.Diff) []string {
	var out []string
	for _, f := range d.Findings {
		out = append(out, f.State+" "+f.RuleID+" "+f.Subject)
	}
	return out
}

func podRows(rows []report.PodChange) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Workload+": "+r.OldPod+" "+r.OldStatus+" → "+r.NewPod+" "+r.NewStatus)
	}
	return out
}

// TestDiffChangesPair: a Deployment that starts failing after a rollout (its
// image tag moved), one that recovers, a StatefulSet pod that kept restarting
// while both gathers show it Running, a node NotReady then Ready and an
// upgrade between the gathers give exactly those differences.
func TestDiffChangesPair(t *testing.T) {
	d := runDiffJSON(t, changesOld, changesNew)
	want := []string{
		"new crashloop-back-off Deployment/shop/cart",
		"still-failing container-restarted Pod/shop/queue-worker-0",
		"resolved node-not-ready node/worker-2",
		"resolved container-oom-killed Deployment/shop/search",
	}
	if diff := cmp.Diff(want, findingStates(d)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if d.Swapped || d.SameCluster != "cluster ID" || d.IntervalSeconds != 6*3600 {
		t.Errorf("swapped %v, same cluster by %q, interval %ds", d.Swapped, d.SameCluster, d.IntervalSeconds)
	}
	cart := d.Findings[0]
	wantConfig := []report.ConfigChange{{Kind: "Workload images", Ref: "Deployment/shop/cart", Change: "changed",
		Old: "app=registry.example.com/shop/cart:1.4.2", New: "app=registry.example.com/shop/cart:1.5.0"}}
	if diff := cmp.Diff(wantConfig, cart.Config); diff != "" {
		t.Errorf("config on the new finding's chain (-want +got):\n%s", diff)
	}
	if cart.Old != nil || cart.New == nil {
		t.Errorf("a new finding has only its NEW side: old %v new %v", cart.Old, cart.New)
	}
	if sf := d.Findings[1]; sf.FailingSeconds < 6*3600 || sf.Since == nil {
		t.Errorf("still failing without how long: %+v", sf)
	}
	if diff := cmp.Diff([]string{"Deployment/shop/cart: cart-6f8b9c7d5-x2k4p Running → cart-7d4c5b9f8-q9w7z CrashLoopBackOff"}, podRows(d.Pods.NewlyUnhealthy)); diff != "" {
		t.Errorf("newly unhealthy (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Deployment/shop/search: search-5c7f8d9b6-m3n8r CrashLoopBackOff → search-8b6d7f5c4-t5v2w Running"}, podRows(d.Pods.Recovered)); diff != "" {
		t.Errorf("recovered (-want +got):\n%s", diff)
	}
	wantRestarts := []report.RestartChange{{Namespace: "shop", Pod: "queue-worker-0", Container: "app", Old: 3, New: 9, Delta: 6, PerHour: 1, Status: "Running"}}
	if diff := cmp.Diff(wantRestarts, d.Pods.Restarts); diff != "" {
		t.Errorf("restarts (-want +got):\n%s", diff)
	}
	if len(d.Pods.Gone) != 0 {
		t.Errorf("gone: %v", podRows(d.Pods.Gone))
	}
	var worker2 []string
	for _, n := range d.Nodes {
		if n.Name == "worker-2" {
			worker2 = n.Changes
		}
	}
	if len(worker2) == 0 || !strings.HasPrefix(worker2[0], "Ready Unknown → True") {
		t.Errorf("worker-2 changes: %q", worker2)
	}
	if d.Cluster.Old != "4.14.10" || d.Cluster.New != "4.14.12" || len(d.Cluster.Updates) != 1 || d.Cluster.Updates[0].Version != "4.14.12" {
		t.Errorf("cluster version: %+v", d.Cluster)
	}
	if len(d.Operators) != 0 || len(d.Pools) != 0 {
		t.Errorf("operators %v, pools %v: none changed", d.Operators, d.Pools)
	}
	if d.Events.UnseenSeconds != 72*60 || len(d.Events.Groups) == 0 || d.Events.Groups[0].Type != "Warning" {
		t.Errorf("events: unseen %ds, groups %+v", d.Events.UnseenSeconds, d.Events.Groups)
	}
}

// TestDiffTimeOrder: NEW given first is put after OLD, and the report says so.
func TestDiffTimeOrder(t *testing.T) {
	forward := runDiffJSON(t, changesOld, changesNew)
	backward := runDiffJSON(t, changesNew, changesOld)
	if !backward.Swapped || len(backward.Notes) == 0 || !strings.Contains(backward.Notes[0], "collected before") {
		t.Fatalf("swapped %v notes %q", backward.Swapped, backward.Notes)
	}
	if diff := cmp.Diff(findingStates(forward), findingStates(backward)); diff != "" {
		t.Errorf("findings depend on the argument order (-forward +backward):\n%s", diff)
	}
	if backward.Old.Path != changesOld {
		t.Errorf("OLD is %s", backward.Old.Path)
	}
	// Each view says so, not only diff.md: diff.json by swapped and its note.
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := run(t, "diff", changesNew, changesOld, "-o", out); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, name := range []string{"diff.md", "diff.html", "diff.json"} {
		b, err := os.ReadFile(filepath.Join(out, name))
		must(t, err)
		if !strings.Contains(string(b), "was collected before the first") || !strings.Contains(string(b), "compared in time order") {
			t.Errorf("%s does not say the gathers were swapped", name)
		}
	}
}

// TestDiffQuietPairs: healthy churn (a static pod re-created, installer and
// pruner pods of a new revision, a DaemonSet pod replaced, a CronJob run)
// and every gather against itself give no new, resolved or changed finding
// and no pod that became unhealthy, recovered or is gone.
func TestDiffQuietPairs(t *testing.T) {
	pairs := map[string][2]string{
		"churn":             {churnOld, churnNew},
		"changes/old twice": {changesOld, changesOld},
		"changes/new twice": {changesNew, changesNew},
		"sample twice":      {sampleGather, sampleGather},
	}
	for name, p := range pairs {
		t.Run(name, func(t *testing.T) {
			d := runDiffJSON(t, p[0], p[1])
			s := d.Summary
			if s.New+s.Resolved+s.Changed+s.NotComparable != 0 {
				t.Errorf("findings: %q", findingStates(d))
			}
			if s.NewlyUnhealthy+s.Recovered+s.Gone != 0 {
				t.Errorf("pods: unhealthy %q recovered %q gone %q", podRows(d.Pods.NewlyUnhealthy), podRows(d.Pods.Recovered), podRows(d.Pods.Gone))
			}
			if p[0] == p[1] && (s.Replaced+s.Restarted+s.NodeChanges+s.ConfigChanges != 0 || len(d.Cluster.Updates) != 0) {
				t.Errorf("a gather against itself: %+v", s)
			}
		})
	}
	d := runDiffJSON(t, churnOld, churnNew)
	if diff := cmp.Diff([]string{
		"Pod/openshift-kube-apiserver/kube-apiserver-master-0: kube-apiserver-master-0 Running → kube-apiserver-master-0 Running",
		"DaemonSet/openshift-dns/dns-default on worker-1: dns-default-k4d9p Running → dns-default-q7m2x Running",
		"CronJob/ops/nightly-report: nightly-report-29395080-b2xkn Completed → nightly-report-29395440-w8zrt Completed",
	}, podRows(d.Pods.Replaced)); diff != "" {
		t.Errorf("churn replaced (-want +got):\n%s", diff)
	}
	if d.Pods.CompletedGone != 2 || d.Pods.Appeared != 2 {
		t.Errorf("installer and pruner pods: %d left, %d appeared; want 2 and 2", d.Pods.CompletedGone, d.Pods.Appeared)
	}
}

// TestDiffArchiveForms: the changes pair as folders, .tar.gz and .zip (and
// mixed) gives the same diff, paths of the inputs aside.
func TestDiffArchiveForms(t *testing.T) {
	dir := t.TempDir()
	archive := func(src, name, suffix string) string {
		p := filepath.Join(dir, name+suffix)
		if err := synth.WriteArchive(src, p, synth.Formats[suffix]); err != nil {
			t.Fatal(err)
		}
		return p
	}
	strip := func(d *report.Diff) *report.Diff {
		d.Old.Path, d.New.Path = "", ""
		return d
	}
	want := strip(runDiffJSON(t, changesOld, changesNew))
	for name, in := range map[string][2]string{
		".tar.gz":        {archive(changesOld, "old", ".tar.gz"), archive(changesNew, "new", ".tar.gz")},
		".zip":           {archive(changesOld, "old", ".zip"), archive(changesNew, "new", ".zip")},
		"folder and zip": {changesOld, filepath.Join(dir, "new.zip")},
	} {
		t.Run(name, func(t *testing.T) {
			got := strip(runDiffJSON(t, in[0], in[1]))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("diff differs from the folders' (-folders +%s):\n%s", name, diff)
			}
		})
	}
}

// TestDiffRefusesDifferentClusters: two gathers with different cluster IDs
// are refused with exit 2, naming both.
func TestDiffRefusesDifferentClusters(t *testing.T) {
	other := filepath.Join(t.TempDir(), "other")
	copyTree(t, changesNew, other)
	cv := filepath.Join(other, "cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml")
	b, err := os.ReadFile(cv)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(cv, []byte(strings.Replace(string(b), "5b0e2c7a-4f1d-4c3e-9a8b-2d6f1e7c9a40", "0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f", 1)), 0o644)
	code, _, stderr := run(t, "diff", changesOld, other, "-o", t.TempDir())
	if code != exitInput || !strings.Contains(stderr, "different clusters") || !strings.Contains(stderr, changesOld) || !strings.Contains(stderr, other) ||
		!strings.Contains(stderr, "0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

// TestDiffCorpusClustersRefused: the corpus's AWS and bare-metal gathers are
// two clusters.
func TestDiffCorpusClustersRefused(t *testing.T) {
	aws, metal := corpusDir(t, "mg-aws-ocp48"), corpusDir(t, "mg-metal-ocp49")
	code, _, stderr := run(t, "diff", aws, metal, "-o", t.TempDir(), "--format", "json")
	if code != exitInput || !strings.Contains(stderr, "different clusters") || !strings.Contains(stderr, aws) || !strings.Contains(stderr, metal) {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

func corpusDir(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(corpusRoot, name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("corpus %s not present", name)
	}
	return p
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if e.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !e.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDiffCorpusOneCrashLoop: the corpus's bare-metal gather against a copy
// of it in which one healthy Deployment pod was edited into CrashLoopBackOff
// names that pod's workload as new, and nothing else.
func TestDiffCorpusOneCrashLoop(t *testing.T) {
	if testing.Short() {
		t.Skip("copies the corpus gather")
	}
	metal := corpusDir(t, "mg-metal-ocp49")
	copyDir := filepath.Join(t.TempDir(), "mg-metal-copy")
	copyTree(t, metal, copyDir)
	var lists []string
	filepath.WalkDir(copyDir, func(p string, e os.DirEntry, err error) error {
		if err == nil && e.Name() == "pods.yaml" && filepath.Base(filepath.Dir(p)) == "core" {
			lists = append(lists, p)
		}
		return nil
	})
	sort.Strings(lists)
	var ns, name, workload, list string
	for _, list = range lists {
		if ns, name, workload = crashOnePod(t, list); name != "" {
			break
		}
	}
	if name == "" {
		t.Fatal("no healthy single-container Deployment pod in the corpus gather")
	}
	// The per-pod file (pods/<pod>/<pod>.yaml) says the same as the list.
	t.Logf("edited %s/%s (%s) into CrashLoopBackOff", ns, name, workload)
	perPod, _ := filepath.Glob(filepath.Join(filepath.Dir(filepath.Dir(list)), "pods", name, name+".yaml"))
	for _, p := range perPod {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var obj map[string]any
		if err := yaml.Unmarshal(b, &obj); err != nil {
			t.Fatal(err)
		}
		makeCrashLoop(obj)
		out, _ := yaml.Marshal(obj)
		os.WriteFile(p, out, 0o644)
	}
	d := runDiffJSON(t, metal, copyDir)
	var news []string
	for _, f := range d.Findings {
		switch f.State {
		case report.StateNew:
			news = append(news, f.Subject)
		case report.StateResolved, report.StateChanged, report.StateNotComparable:
			t.Errorf("unexpected %s finding: %s %s", f.State, f.RuleID, f.Subject)
		}
	}
	if len(news) == 0 {
		t.Fatalf("no new finding for %s/%s (%s)", ns, name, workload)
	}
	t.Logf("new findings: %q", news)
	for _, s := range news {
		if s != workload {
			t.Errorf("new finding on %s; only %s changed", s, workload)
		}
	}
	if got := podRows(d.Pods.NewlyUnhealthy); len(got) != 1 || !strings.HasPrefix(got[0], workload+": "+name) {
		t.Errorf("newly unhealthy: %q", got)
	}
}

// crashOnePod edits, in the pod list at path, the first Running pod of a
// ReplicaSet with one ready container and no restart into CrashLoopBackOff,
// and returns its namespace, name and workload ("" when there is none).
func crashOnePod(t *testing.T, path string) (ns, name, workload string) {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var list map[string]any
	if err := yaml.Unmarshal(b, &list); err != nil {
		return "", "", ""
	}
	items, _ := list["items"].([]any)
	for _, it := range items {
		pod, _ := it.(map[string]any)
		meta, _ := pod["metadata"].(map[string]any)
		status, _ := pod["status"].(map[string]any)
		owners, _ := meta["ownerReferences"].([]any)
		statuses, _ := status["containerStatuses"].([]any)
		labels, _ := meta["labels"].(map[string]any)
		hash, _ := labels["pod-template-hash"].(string)
		if status["phase"] != "Running" || len(owners) != 1 || len(statuses) != 1 || hash == "" {
			continue
		}
		owner, _ := owners[0].(map[string]any)
		cs, _ := statuses[0].(map[string]any)
		rsName, _ := owner["name"].(string)
		if owner["kind"] != "ReplicaSet" || cs["ready"] != true || cs["restartCount"] != float64(0) || !strings.HasSuffix(rsName, "-"+hash) {
			continue
		}
		makeCrashLoop(pod)
		out, err := yaml.Marshal(list)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		ns, name = meta["namespace"].(string), meta["name"].(string)
		return ns, name, "Deployment/" + ns + "/" + strings.TrimSuffix(rsName, "-"+hash)
	}
	return "", "", ""
}

// makeCrashLoop sets a pod object's only container to CrashLoopBackOff after
// six failed runs, not ready.
func makeCrashLoop(pod map[string]any) {
	status := pod["status"].(map[string]any)
	cs := status["containerStatuses"].([]any)[0].(map[string]any)
	started := ""
	if st, ok := cs["state"].(map[string]any)["running"].(map[string]any); ok {
		started, _ = st["startedAt"].(string)
	}
	cs["ready"], cs["started"], cs["restartCount"] = false, false, 6
	cs["state"] = map[string]any{"waiting": map[string]any{"reason": "CrashLoopBackOff", "message": "back-off 5m0s restarting failed container"}}
	cs["lastState"] = map[string]any{"terminated": map[string]any{"exitCode": 1, "reason": "Error", "startedAt": started, "finishedAt": started}}
	conds, _ := status["conditions"].([]any)
	for _, c := range conds {
		m := c.(map[string]any)
		if m["type"] == "Ready" || m["type"] == "ContainersReady" {
			m["status"], m["reason"] = "False", "ContainersNotReady"
		}
	}
}

// TestDiffGolden: diff.md, diff.html and diff.json of the changes pair match
// testdata/diff-changes.* (refresh with -update and review the diff).
func TestDiffGolden(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := run(t, "diff", changesOld, changesNew, "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, ext := range []string{"md", "html", "json"} {
		t.Run(ext, func(t *testing.T) {
			got, err := os.ReadFile(filepath.Join(out, "diff."+ext))
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "diff-changes."+ext)
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./cmd/analyze -run DiffGolden -update)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("diff.%s differs from %s (-want +got):\n%s", ext, golden, diff)
			}
		})
	}
}

// TestDiffConfigOnTheChain: along the new finding's chain (its namespace,
// its node, the node's pool and KubeletConfig, its workload) the diff names
// a NetworkPolicy created, a taint added, a KubeletConfig changed, the pool
// rendered anew and the image tag that moved; a NetworkPolicy of another
// namespace is listed among all changes but not on the chain.
func TestDiffConfigOnTheChain(t *testing.T) {
	dir := t.TempDir()
	old, cur := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	copyTree(t, changesOld, old)
	copyTree(t, changesNew, cur)
	write := func(root, rel, text string) {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const emptyList = "---\napiVersion: v1\nitems: []\nkind: NetworkPolicyList\nmetadata:\n  resourceVersion: ''\n"
	pool := func(rendered string) string {
		return `---
apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfigPool
metadata:
  labels:
    pools.operator.machineconfiguration.openshift.io/worker: ''
  name: worker
  uid: 6d1c1f0e-1111-4a7b-9c55-0a6c7e0d2f11
spec:
  configuration:
    name: ` + rendered + `
  nodeSelector:
    matchLabels:
      node-role.kubernetes.io/worker: ''
status:
  configuration:
    name: ` + rendered + `
  machineCount: 2
  updatedMachineCount: 2
`
	}
	kubelet := func(maxPods string) string {
		return `---
apiVersion: machineconfiguration.openshift.io/v1
kind: KubeletConfig
metadata:
  name: set-max-pods
  uid: 0b7e2f7a-2222-4c1e-8d1f-5e4f3a2b1c0d
spec:
  kubeletConfig:
    maxPods: ` + maxPods + `
  machineConfigPoolSelector:
    matchLabels:
      pools.operator.machineconfiguration.openshift.io/worker: ''
`
	}
	for root, v := range map[string][2]string{old: {"rendered-worker-3f1a", "250"}, cur: {"rendered-worker-9c2e", "500"}} {
		write(root, "cluster-scoped-resources/machineconfiguration.openshift.io/machineconfigpools/worker.yaml", pool(v[0]))
		write(root, "cluster-scoped-resources/machineconfiguration.openshift.io/kubeletconfigs/set-max-pods.yaml", kubelet(v[1]))
		write(root, "namespaces/shop/networking.k8s.io/networkpolicies.yaml", emptyList)
	}
	write(cur, "namespaces/shop/networking.k8s.io/networkpolicies.yaml", `---
apiVersion: v1
items:
- apiVersion: networking.k8s.io/v1
  kind: NetworkPolicy
  metadata:
    name: default-deny-egress
    namespace: shop
    uid: 3a9d8c7b-3333-4e5f-a6b7-c8d9e0f1a2b3
  spec:
    podSelector: {}
    policyTypes:
    - Egress
kind: NetworkPolicyList
metadata:
  resourceVersion: ''
`)
	write(cur, "namespaces/billing/networking.k8s.io/networkpolicies.yaml", strings.ReplaceAll(strings.ReplaceAll(
		readText(t, filepath.Join(cur, "namespaces/shop/networking.k8s.io/networkpolicies.yaml")), "shop", "billing"), "3a9d8c7b", "4b0e9d8c"))
	write(old, "namespaces/billing/networking.k8s.io/networkpolicies.yaml", emptyList)
	for _, root := range []string{old, cur} {
		write(root, "namespaces/billing/billing.yaml", "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: billing\n  uid: 5c1f0e9d-4444-4a6b-8c7d-9e0f1a2b3c4d\n")
	}
	node := filepath.Join(cur, "cluster-scoped-resources/core/nodes/worker-1.yaml")
	b := readText(t, node)
	b = strings.Replace(b, "spec: {}\n", "spec:\n  taints:\n  - effect: NoSchedule\n    key: dedicated\n    value: batch\n", 1)
	if err := os.WriteFile(node, []byte(b), 0o644); err != nil {
		t.Fatal(err)
	}

	d := runDiffJSON(t, old, cur)
	var cart *report.FindingChange
	for i, f := range d.Findings {
		if f.State == report.StateNew && f.Subject == "Deployment/shop/cart" {
			cart = &d.Findings[i]
		}
	}
	if cart == nil {
		t.Fatalf("no new finding on Deployment/shop/cart: %q", findingStates(d))
	}
	var got []string
	for _, c := range cart.Config {
		got = append(got, c.Kind+" "+c.Ref+" "+c.Change+": "+c.Old+" → "+c.New)
	}
	want := []string{
		"KubeletConfig kubeletconfig/set-max-pods changed: maxPods 250 → maxPods 500",
		"MachineConfigPool machineconfigpool/worker changed: rendered rendered-worker-3f1a → rendered rendered-worker-9c2e",
		"NetworkPolicy networkpolicy/shop/default-deny-egress added:  → policyTypes Egress, 0 ingress and 0 egress rules",
		"Node taints node/worker-1 changed: none → dedicated=batch:NoSchedule",
		"Workload images Deployment/shop/cart changed: app=registry.example.com/shop/cart:1.4.2 → app=registry.example.com/shop/cart:1.5.0",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("config on the chain (-want +got):\n%s", diff)
	}
	all := map[string]bool{}
	for _, c := range d.Config {
		all[c.Ref] = true
	}
	if !all["networkpolicy/billing/default-deny-egress"] {
		t.Errorf("the other namespace's NetworkPolicy is not among all changes: %+v", d.Config)
	}
	var pools []string
	for _, p := range d.Pools {
		pools = append(pools, p.Name+": "+strings.Join(p.Changes, "; "))
	}
	if diff := cmp.Diff([]string{"worker: rendered rendered-worker-3f1a → rendered-worker-9c2e"}, pools); diff != "" {
		t.Errorf("pools (-want +got):\n%s", diff)
	}
}

// readText returns the file's text or fails the test.
func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDiffUsageErrors: wrong arguments exit 64, a missing input 2, each with
// one message, and nothing is written.
func TestDiffUsageErrors(t *testing.T) {
	badRules := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(badRules, []byte("schemaVersion: 1\nrules:\n- id: x\n  nonsense: true\n"), 0o644)
	for name, tt := range map[string]struct {
		args []string
		code int
	}{
		"one argument":   {[]string{"diff", changesOld}, exitUsage},
		"three":          {[]string{"diff", changesOld, changesNew, churnOld}, exitUsage},
		"unknown format": {[]string{"diff", changesOld, changesNew, "--format", "pdf"}, exitUsage},
		"no such OLD":    {[]string{"diff", "/nonexistent/gather", changesNew}, exitInput},
		"no such NEW":    {[]string{"diff", changesOld, "/nonexistent/gather"}, exitInput},
		"invalid rules":  {[]string{"diff", changesOld, changesNew, "--rules", badRules}, exitUsage},
	} {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			code, _, stderr := run(t, append(tt.args, "-o", out)...)
			if code != tt.code || strings.Count(stderr, "analyze:") != 1 {
				t.Errorf("exit %d, stderr %q", code, stderr)
			}
			if _, err := os.Stat(filepath.Join(out, "diff.json")); err == nil {
				t.Error("a diff was written")
			}
		})
	}
}
