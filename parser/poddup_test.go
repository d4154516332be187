package parser

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/model"
)

const dupPod = `apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: shop
  uid: 11111111-0000-0000-0000-000000000001
status:
  conditions:
  - lastTransitionTime: "2026-11-20T09:05:00Z"
    status: "True"
    type: Ready
  phase: Running
`

// runDedup decodes a pods.yaml and then per-pod files through the worker
// pool, as the pass does, and returns the builder.
func runDedup(t *testing.T, list string, files ...string) *builder {
	t.Helper()
	b := newBuilder("x")
	b.startWorkers(2)
	b.submit(decodeJob{path: "namespaces/shop/core/pods.yaml", c: classified{Kind: kindPodList, Namespace: "shop"}, data: []byte(list)})
	for _, f := range files {
		b.submit(decodeJob{path: "namespaces/shop/pods/web-1/web-1.yaml", c: classified{Kind: kindPod, Namespace: "shop", Pod: "web-1"}, data: []byte(f)})
	}
	b.stopWorkers()
	return b
}

func TestPerPodDuplicateNotDecoded(t *testing.T) {
	b := runDedup(t, podList("shop", "web-1", "11111111-0000-0000-0000-000000000001"), dupPod)
	if b.dedup.skipped != 1 || len(b.filePods[nsKey{"", "shop"}]) != 0 {
		t.Errorf("skipped %d, decoded %d per-pod files; want the duplicate skipped", b.dedup.skipped, len(b.filePods[nsKey{"", "shop"}]))
	}
	if want := time.Date(2026, 11, 20, 9, 5, 0, 0, time.UTC); !b.dedup.latest.Equal(want) {
		t.Errorf("latest condition time of the skipped file = %v, want %v", b.dedup.latest, want)
	}
	// Another UID, or an odd metadata block: decoded.
	other := strings.Replace(dupPod, "0001", "0002", 1)
	quoted := strings.Replace(dupPod, "name: web-1", `name: "web\u002d1"`, 1)
	b = runDedup(t, podList("shop", "web-1", "11111111-0000-0000-0000-000000000001"), other, quoted)
	if b.dedup.skipped != 0 || len(b.filePods[nsKey{"", "shop"}]) != 2 {
		t.Errorf("skipped %d; want both files decoded", b.dedup.skipped)
	}
}

func TestPerPodFileKeptForTruncatedListItem(t *testing.T) {
	list := podList("shop", "web-1", "11111111-0000-0000-0000-000000000001")
	list = list[:strings.LastIndex(list, "kind: PodList")] // the file ends inside the items
	b := runDedup(t, list, dupPod)
	if b.dedup.skipped != 0 || len(b.filePods[nsKey{"", "shop"}]) != 1 {
		t.Errorf("skipped %d; want the file decoded to replace the cut item", b.dedup.skipped)
	}
}

func TestPodIdentity(t *testing.T) {
	tests := []struct {
		doc  string
		want []string
		ok   bool
	}{
		{dupPod, []string{"shop", "web-1", "11111111-0000-0000-0000-000000000001"}, true},
		{"---\nmetadata:\n  labels:\n    name: x\n  name: 'p'\n  uid: \"u-1\"\nspec: {}\n", []string{"", "p", "u-1"}, true},
		{"metadata:\n  name: a\n  name: b\n", nil, false},
		{"metadata:\n  name: a b\n", nil, false},
		{"metadata:\n  name: a\nmetadata:\n  uid: b\n", nil, false},
		{"kind: Pod\n", []string{"", "", ""}, false},
	}
	for _, tt := range tests {
		ns, name, uid, ok := podIdentity([]byte(tt.doc))
		if ok != tt.ok || ok && !cmp.Equal([]string{ns, name, uid}, tt.want) {
			t.Errorf("%q: got %q %q %q %v", tt.doc, ns, name, uid, ok)
		}
	}
}

// FuzzPodIdentity: the metadata scanner never panics and only reports names
// made of name characters.
func FuzzPodIdentity(f *testing.F) {
	f.Add([]byte(dupPod))
	f.Add([]byte("metadata:\n  name: 'x'\n  uid: \"y\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ns, name, uid, _ := podIdentity(data)
		for _, v := range []string{ns, name, uid} {
			if strings.ContainsAny(v, " \n'\"") {
				t.Errorf("value %q", v)
			}
		}
		latestTransition(data)
	})
}

// TestQuietLogTailDoesNotDependOnOrder reads a container log before and
// after its pod's pods.yaml in the archive: the healthy container's log
// keeps only its line count either way (whichever the decode workers reach
// first), and the restarted container's log keeps its tail.
func TestQuietLogTailDoesNotDependOnOrder(t *testing.T) {
	pods := `apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: web-1
    namespace: shop
    uid: 11111111-0000-0000-0000-000000000001
  spec:
    containers:
    - name: web
    - name: sidecar
  status:
    containerStatuses:
    - name: web
      ready: true
      restartCount: 0
      state:
        running:
          startedAt: "2026-11-20T09:00:00Z"
    - name: sidecar
      ready: false
      restartCount: 3
      state:
        waiting:
          reason: CrashLoopBackOff
    phase: Running
kind: List
`
	const root = "must-gather.local.1/quay-io-image/"
	logOf := func(c string) string { return root + "namespaces/shop/pods/web-1/" + c + "/" + c + "/logs/current.log" }
	members := map[string]string{
		root + "timestamp":                      "2026-11-20 09:12:33.000000000 +0000 UTC m=+0.01\n",
		root + "namespaces/shop/core/pods.yaml": pods,
		logOf("web"):                            "2026-11-20T09:00:01Z serving on :8080\n2026-11-20T09:00:02Z ready\n",
		logOf("sidecar"):                        "2026-11-20T09:10:00Z panic: boom\n",
	}
	tails := map[string]string{}
	for _, logsFirst := range []bool{true, false} {
		order := []string{root + "timestamp", root + "namespaces/shop/core/pods.yaml", logOf("web"), logOf("sidecar")}
		if logsFirst {
			order = []string{root + "timestamp", logOf("web"), logOf("sidecar"), root + "namespaces/shop/core/pods.yaml"}
		}
		g := loadArchiveBytes(t, "g.tar", tarOf(t, order, members))
		if len(g.Pods) != 1 {
			t.Fatalf("%d pods", len(g.Pods))
		}
		for _, l := range g.Pods[0].Logs {
			tails[fmt.Sprintf("%s logsFirst=%v", l.Container, logsFirst)] = fmt.Sprintf("lines %d, tail %d, errors %d", l.Lines, len(keptTail(l)), l.ErrorCount)
		}
	}
	want := map[string]string{
		"web logsFirst=true":      "lines 2, tail 0, errors 0",
		"web logsFirst=false":     "lines 2, tail 0, errors 0",
		"sidecar logsFirst=true":  "lines 1, tail 1, errors 1",
		"sidecar logsFirst=false": "lines 1, tail 1, errors 1",
	}
	if d := cmp.Diff(want, tails); d != "" {
		t.Errorf("container logs (-want +got):\n%s", d)
	}
}

// TestTailsSettleWhenThePodIsDecoded: a log read before its pod's pods.yaml
// keeps its tail only until the pods.yaml is decoded, not until finish; a
// restarted container keeps it, and a pod of another root (same namespace
// and name) settles nothing.
func TestTailsSettleWhenThePodIsDecoded(t *testing.T) {
	const root = "mg/img/"
	pods := `apiVersion: v1
items:
- metadata: {name: web-1, namespace: shop, uid: u1}
  spec:
    containers: [{name: web}, {name: sidecar}]
  status:
    phase: Running
    containerStatuses:
    - {name: web, ready: true, restartCount: 0, state: {running: {startedAt: "2026-11-20T09:00:00Z"}}}
    - {name: sidecar, ready: false, restartCount: 3, state: {waiting: {reason: CrashLoopBackOff}}}
kind: List
`
	b := newBuilder("in")
	read := func(container string) *model.ContainerLog {
		p := root + "namespaces/shop/pods/web-1/" + container + "/" + container + "/logs/current.log"
		c := classify(p, nil)
		if c.Kind != kindContainerLog || c.Root != root {
			t.Fatalf("%s classified as %+v", p, c)
		}
		if err := b.readContainerLog(p, c, b.addContainerLog(p, c), strings.NewReader("2026-11-20T09:10:00Z error: boom\n")); err != nil {
			t.Fatal(err)
		}
		logs := b.logs["shop/web-1"]
		return logs[len(logs)-1]
	}
	web, sidecar := read("web"), read("sidecar")
	state := func() string {
		return fmt.Sprintf("web tail %d, sidecar tail %d, unsettled %d", len(keptTail(web)), len(keptTail(sidecar)), len(b.unsettled[root+"shop/web-1"]))
	}
	if got, want := state(), "web tail 1, sidecar tail 1, unsettled 2"; got != want {
		t.Fatalf("before the pods.yaml: %s, want %s", got, want)
	}
	if err := b.decodeHeavy("other/img/namespaces/shop/core/pods.yaml", classify("other/img/namespaces/shop/core/pods.yaml", nil), []byte(pods)); err != nil {
		t.Fatal(err)
	}
	if got, want := state(), "web tail 1, sidecar tail 1, unsettled 2"; got != want {
		t.Errorf("after another root's pods.yaml: %s, want %s", got, want)
	}
	if err := b.decodeHeavy(root+"namespaces/shop/core/pods.yaml", classify(root+"namespaces/shop/core/pods.yaml", nil), []byte(pods)); err != nil {
		t.Fatal(err)
	}
	if got, want := state(), "web tail 0, sidecar tail 1, unsettled 0"; got != want {
		t.Errorf("after the pods.yaml: %s, want %s", got, want)
	}
	// A log read once the pod is known keeps no tail for a quiet container.
	if l := read("web"); len(keptTail(l)) != 0 || len(b.unsettled) != 0 {
		t.Errorf("log read after the pods.yaml: tail %d, unsettled %v", len(keptTail(l)), b.unsettled)
	}
}

// TestQuietTailJudgedByItsOwnRoot: two roots hold one pod (same UID), its
// container restarted in one and quiet in the other. Each root's log is
// judged by its own root's copy of the pod, whichever copy the model keeps
// and whatever order the members come in: the restarted root's tail is
// kept, the quiet root's dropped.
func TestQuietTailJudgedByItsOwnRoot(t *testing.T) {
	pod := func(ready bool, restarts int) string {
		return fmt.Sprintf(`apiVersion: v1
kind: List
items:
- metadata: {name: web-1, namespace: shop, uid: 11111111-0000-0000-0000-000000000001}
  spec:
    containers: [{name: app}]
  status:
    phase: Running
    containerStatuses:
    - {name: app, ready: %v, restartCount: %d, state: {running: {startedAt: "2026-11-20T08:31:00Z"}}}
`, ready, restarts)
	}
	roots := []string{"must-gather.local.1/quay-io-img/", "must-gather.local.2/quay-io-img/"}
	logOf := func(root string) string { return root + "namespaces/shop/pods/web-1/app/app/logs/current.log" }
	members := func(quiet int) map[string]string {
		return map[string]string{
			roots[0] + "timestamp":                            "2026-11-20 09:00:00.000000000 +0000 UTC m=+0.01\n",
			roots[1] + "timestamp":                            "2026-11-20 10:00:00.000000000 +0000 UTC m=+0.01\n",
			roots[quiet] + "namespaces/shop/core/pods.yaml":   pod(true, 0),
			roots[1-quiet] + "namespaces/shop/core/pods.yaml": pod(false, 3),
			logOf(roots[0]):                                   "2026-11-20T08:40:00Z ERROR first root\n",
			logOf(roots[1]):                                   "2026-11-20T09:40:00Z ERROR second root\n",
		}
	}
	pods := func(r int) string { return roots[r] + "namespaces/shop/core/pods.yaml" }
	orders := map[string][]string{
		"sorted":            {roots[0] + "timestamp", pods(0), logOf(roots[0]), roots[1] + "timestamp", pods(1), logOf(roots[1])},
		"logs first":        {logOf(roots[0]), logOf(roots[1]), roots[0] + "timestamp", roots[1] + "timestamp", pods(0), pods(1)},
		"second root first": {roots[1] + "timestamp", pods(1), logOf(roots[1]), roots[0] + "timestamp", pods(0), logOf(roots[0])},
		"pods first":        {pods(1), pods(0), roots[0] + "timestamp", roots[1] + "timestamp", logOf(roots[1]), logOf(roots[0])},
	}
	for quiet := range 2 {
		for name, order := range orders {
			t.Run(fmt.Sprintf("root %d quiet, %s", quiet+1, name), func(t *testing.T) {
				g := loadArchiveBytes(t, "g.tar", tarOf(t, order, members(quiet)))
				if len(g.Pods) != 1 {
					t.Fatalf("%d pods, want 1", len(g.Pods))
				}
				got := map[string]int{}
				for _, l := range g.Pods[0].Logs {
					got[l.Path()] = len(keptTail(l))
				}
				want := map[string]int{logOf(roots[quiet]): 0, logOf(roots[1-quiet]): 1}
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("tail lines kept per log (-want +got):\n%s", d)
				}
			})
		}
	}
}

// TestKeepLogsOfKeepsQuietAgentLogs: with model.Needs.KeepLogsOf naming a
// namespace, the log of a container there that never failed keeps its tail
// (a node agent whose log explains another pod's failure), whether the log is
// read before or after its pod; other namespaces' quiet logs are still only
// counted.
func TestKeepLogsOfKeepsQuietAgentLogs(t *testing.T) {
	pod := func(ns string) string {
		return `apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: agent-1
    namespace: ` + ns + `
    uid: 11111111-0000-0000-0000-0000000000` + map[string]string{"net-agents": "01", "shop": "02"}[ns] + `
  spec:
    containers:
    - name: agent
  status:
    containerStatuses:
    - name: agent
      ready: true
      restartCount: 0
      state:
        running:
          startedAt: "2026-11-20T09:00:00Z"
    phase: Running
kind: List
`
	}
	const root = "must-gather.local.1/quay-io-image/"
	logOf := func(ns string) string {
		return root + "namespaces/" + ns + "/pods/agent-1/agent/agent/logs/current.log"
	}
	members := map[string]string{root + "timestamp": "2026-11-20 09:12:33.000000000 +0000 UTC m=+0.01\n"}
	for _, ns := range []string{"net-agents", "shop"} {
		members[root+"namespaces/"+ns+"/core/pods.yaml"] = pod(ns)
		members[logOf(ns)] = "2026-11-20T09:00:01Z started\n2026-11-20T09:10:02Z failed to find plugin \"macvlan\" in path [/opt/cni/bin]\n"
	}
	for _, logsFirst := range []bool{true, false} {
		order := []string{root + "timestamp", root + "namespaces/net-agents/core/pods.yaml", root + "namespaces/shop/core/pods.yaml", logOf("net-agents"), logOf("shop")}
		if logsFirst {
			order = []string{root + "timestamp", logOf("net-agents"), logOf("shop"), root + "namespaces/net-agents/core/pods.yaml", root + "namespaces/shop/core/pods.yaml"}
		}
		path := filepath.Join(t.TempDir(), "g.tar")
		if err := os.WriteFile(path, tarOf(t, order, members), 0o644); err != nil {
			t.Fatal(err)
		}
		g, err := LoadWith(context.Background(), path, Options{Needs: &model.Needs{KeepLogsOf: []string{"net-agents"}}})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int{}
		for _, p := range g.Pods {
			for _, l := range p.Logs {
				got[p.Object.Namespace] = len(keptTail(l))
			}
		}
		if want := map[string]int{"net-agents": 2, "shop": 0}; !cmp.Equal(want, got) {
			t.Errorf("logsFirst=%v: kept tail lines per namespace %v, want %v", logsFirst, got, want)
		}
	}
}

// TestLogLinesKeepMatchedLinesOfQuietContainers: with model.Needs.LogLines,
// a container that never failed keeps the lines of its log that hold one of
// the literals (ContainerLog.Matched: the first and the last MatchedLines/2
// of them, with their CRI times), whether the log is read before or after its
// pod, while its tail is still only counted; without LogLines it keeps none.
func TestLogLinesKeepMatchedLinesOfQuietContainers(t *testing.T) {
	const root = "must-gather.local.1/quay-io-image/"
	pods := root + "namespaces/shop/core/pods.yaml"
	log := root + "namespaces/shop/pods/agent-1/agent/agent/logs/current.log"
	var b strings.Builder
	b.WriteString("2026-11-20T09:00:01Z started\n")
	for i := range 12 {
		fmt.Fprintf(&b, "2026-11-20T09:%02d:02Z stderr F E1120 lease shop/x: leases \"x\" is forbidden: User \"system:serviceaccount:shop:agent\" cannot get resource \"leases\" (%d)\n", 10+i, i+1)
		b.WriteString("2026-11-20T09:00:03Z working\n")
	}
	members := map[string]string{
		root + "timestamp": "2026-11-20 09:30:33.000000000 +0000 UTC m=+0.01\n",
		pods: `apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata: {name: agent-1, namespace: shop, uid: 11111111-0000-0000-0000-000000000002}
  spec:
    containers:
    - name: agent
  status:
    containerStatuses:
    - name: agent
      ready: true
      restartCount: 0
      state:
        running:
          startedAt: "2026-11-20T09:00:00Z"
    phase: Running
kind: List
`,
		log: b.String(),
	}
	for _, logsFirst := range []bool{true, false} {
		for _, lits := range [][]model.Literal{nil, {{Text: "cannot get resource"}}} {
			order := []string{root + "timestamp", pods, log}
			if logsFirst {
				order = []string{root + "timestamp", log, pods}
			}
			path := filepath.Join(t.TempDir(), "g.tar")
			if err := os.WriteFile(path, tarOf(t, order, members), 0o644); err != nil {
				t.Fatal(err)
			}
			g, err := LoadWith(context.Background(), path, Options{Needs: &model.Needs{LogLines: lits}})
			if err != nil {
				t.Fatal(err)
			}
			var matched []string
			tail := 0
			for _, p := range g.Pods {
				for _, l := range p.Logs {
					tail += len(keptTail(l))
					for _, ll := range l.Matched() {
						matched = append(matched, fmt.Sprintf("%d %s %s", ll.Line, ll.Time.Format("15:04"), ll.Text[strings.LastIndexByte(ll.Text, '('):]))
					}
				}
			}
			var want []string
			if lits != nil {
				for _, i := range []int{1, 2, 3, 4, 9, 10, 11, 12} {
					want = append(want, fmt.Sprintf("%d 09:%02d (%d)", 2*i, 9+i, i))
				}
			}
			if tail != 0 {
				t.Errorf("logsFirst=%v lits=%v: %d tail lines kept of a quiet container", logsFirst, lits, tail)
			}
			if !cmp.Equal(want, matched) {
				t.Errorf("logsFirst=%v lits=%v: matched lines\n%v\nwant\n%v", logsFirst, lits, matched, want)
			}
		}
	}
}
