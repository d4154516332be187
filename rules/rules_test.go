package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/podstatus"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"
)

var gatherTime = time.Date(2026, 11, 20, 9, 12, 33, 0, time.UTC)

// testPod decodes a pod from YAML and derives its columns and stage the way the
// parser does.
func testPod(t *testing.T, doc string, events ...string) *model.Pod {
	t.Helper()
	var obj corev1.Pod
	if err := yaml.UnmarshalStrict([]byte(doc), &obj); err != nil {
		t.Fatalf("test pod: %v", err)
	}
	if obj.Namespace == "" {
		obj.Namespace = "shop"
	}
	if obj.UID == "" {
		obj.UID = types.UID("uid-" + obj.Name)
	}
	p := &model.Pod{Object: obj, Source: model.Source{Path: "namespaces/shop/core/pods.yaml", Line: 10}}
	p.Columns = podstatus.Compute(&p.Object, gatherTime, podstatus.Version{})
	for i, e := range events {
		var ev corev1.Event
		if err := yaml.UnmarshalStrict([]byte(e), &ev); err != nil {
			t.Fatalf("test event: %v", err)
		}
		p.Events = append(p.Events, &model.Event{Object: parser.EventObjectOf(&ev), Source: model.Source{Path: "namespaces/shop/core/events.yaml", Line: 100 + i}, At: model.StampOf(gatherTime)})
	}
	return p
}

func withLog(p *model.Pod, container string, previous bool, lines ...string) *model.Pod {
	l := &model.ContainerLog{Container: container, Previous: previous}
	l.SetPath("namespaces/shop/pods/"+p.Object.Name+"/"+container+"/"+container+"/logs/previous.log", nil)
	var tail []model.LogLine
	for i, s := range lines {
		tail = append(tail, model.LogLine{Line: i + 1, Text: s})
	}
	l.SetKept(tail, nil)
	l.Lines = len(lines)
	p.Logs = append(p.Logs, l)
	return p
}

func withNodeLog(p *model.Pod, text string) *model.Pod {
	p.NodeLog = append(p.NodeLog, &model.LogGroup{Source: model.Source{Path: "host_service_logs/masters/kubelet_service.log", Line: 7}, Node: "worker-0", Unit: "kubelet", Severity: 'E', Count: 3, Text: text})
	return p
}

func evaluate(t *testing.T, pods ...*model.Pod) []Finding {
	t.Helper()
	g := &model.Gather{CollectedAt: gatherTime, Pods: pods, KubeletLogNodes: []string{"worker-0"}}
	g.Freeze()
	return Evaluate(Builtin(), g)
}

func ruleIDs(fs []Finding) []string {
	var ids []string
	for _, f := range fs {
		ids = append(ids, f.Rule.ID+" "+f.Pod.Object.Name+"/"+f.Container)
	}
	return ids
}

const (
	imagePullPod = `
metadata: {name: cart}
spec: {nodeName: worker-0, containers: [{name: cart, image: "registry.example.com/shop/cart:v2"}]}
status:
  phase: Pending
  containerStatuses:
  - name: cart
    image: "registry.example.com/shop/cart:v2"
    ready: false
    restartCount: 0
    state: {waiting: {reason: ImagePullBackOff, message: 'Back-off pulling image "registry.example.com/shop/cart:v2"'}}
`
	healthyPod = `
metadata: {name: web}
spec: {nodeName: worker-0, containers: [{name: web, image: web:1}]}
status:
  phase: Running
  conditions: [{type: Ready, status: "True"}]
  containerStatuses:
  - {name: web, image: "web:1", ready: true, restartCount: 0, started: true, state: {running: {startedAt: "2026-11-20T08:00:00Z"}}}
`
	crashPod = `
metadata: {name: catalog}
spec: {nodeName: worker-0, containers: [{name: catalog, image: catalog:1}]}
status:
  phase: Running
  containerStatuses:
  - name: catalog
    image: catalog:1
    ready: false
    restartCount: 12
    state: {waiting: {reason: CrashLoopBackOff, message: back-off 5m0s restarting failed container}}
    lastState: {terminated: {reason: Error, exitCode: 1, finishedAt: "2026-11-20T09:10:00Z"}}
`
	oomPod = `
metadata: {name: search-0}
spec:
  nodeName: worker-0
  containers: [{name: search, image: search:1, resources: {limits: {memory: 512Mi}, requests: {memory: 256Mi}}}]
status:
  phase: Running
  containerStatuses:
  - name: search
    image: search:1
    ready: false
    restartCount: 7
    state: {waiting: {reason: CrashLoopBackOff}}
    lastState: {terminated: {reason: OOMKilled, exitCode: 137, finishedAt: "2026-11-20T09:08:00Z"}}
`
	initPod = `
metadata: {name: inventory}
spec:
  nodeName: worker-0
  initContainers: [{name: wait-for-db, image: busybox}]
  containers: [{name: inventory, image: inventory:1}]
status:
  phase: Pending
  conditions: [{type: Initialized, status: "False", reason: ContainersNotInitialized}]
  initContainerStatuses:
  - name: wait-for-db
    image: busybox
    ready: false
    restartCount: 9
    state: {waiting: {reason: CrashLoopBackOff}}
    lastState: {terminated: {reason: Error, exitCode: 1, finishedAt: "2026-11-20T09:11:00Z"}}
  containerStatuses:
  - {name: inventory, image: "inventory:1", ready: false, restartCount: 0, state: {waiting: {reason: PodInitializing}}}
`
	notReadyPod = `
metadata: {name: recommender}
spec:
  nodeName: worker-0
  containers:
  - name: recommender
    image: rec:1
    readinessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 10, failureThreshold: 3}
status:
  phase: Running
  conditions: [{type: Ready, status: "False", reason: ContainersNotReady}]
  containerStatuses:
  - {name: recommender, image: "rec:1", ready: false, started: true, restartCount: 0, state: {running: {startedAt: "2026-11-20T07:00:00Z"}}}
`
	pendingPod = `
metadata: {name: analytics}
spec: {containers: [{name: analytics, image: a:1, resources: {requests: {memory: 64Gi}}}]}
status:
  phase: Pending
  conditions:
  - type: PodScheduled
    status: "False"
    reason: Unschedulable
    message: "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/master: }, 2 Insufficient memory. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
`
)

func event(reason, typ, fieldPath, msg string) string {
	return "type: " + typ + "\nreason: " + reason + "\ninvolvedObject: {kind: Pod, fieldPath: '" + fieldPath + "'}\nmessage: '" + strings.ReplaceAll(msg, "'", "''") + "'\ncount: 4\n"
}

func TestSymptomRulesFireAndDoNotFire(t *testing.T) {
	tests := []struct {
		name string
		pod  func(t *testing.T) *model.Pod
		want []string
	}{
		{"image pull, manifest unknown in event", func(t *testing.T) *model.Pod {
			return testPod(t, imagePullPod, event("Failed", "Warning", "spec.containers{cart}",
				`Failed to pull image "registry.example.com/shop/cart:v2": rpc error: code = Unknown desc = reading manifest v2 in registry.example.com/shop/cart: manifest unknown: manifest unknown`))
		}, []string{"image-pull-not-found cart/cart"}},
		{"image pull, unauthorized only in kubelet log", func(t *testing.T) *model.Pod {
			return withNodeLog(testPod(t, imagePullPod), `Error syncing pod, skipping: failed to "StartContainer" for "cart" with ErrImagePull: "unauthorized: access to the requested resource is not authorized"`)
		}, []string{"image-pull-unauthorized cart/cart"}},
		{"image pull, x509", func(t *testing.T) *model.Pod {
			return testPod(t, imagePullPod, event("Failed", "Warning", "spec.containers{cart}", `Failed to pull image: tls: failed to verify certificate: x509: certificate signed by unknown authority`))
		}, []string{"image-pull-x509 cart/cart"}},
		{"image pull, DNS", func(t *testing.T) *model.Pod {
			return testPod(t, imagePullPod, event("Failed", "Warning", "spec.containers{cart}", `Failed to pull image: dial tcp: lookup registry.example.com on 172.30.0.10:53: no such host`))
		}, []string{"image-pull-network cart/cart"}},
		{"image pull, rate limited", func(t *testing.T) *model.Pod {
			return testPod(t, imagePullPod, event("Failed", "Warning", "spec.containers{cart}", `Failed to pull image: toomanyrequests: You have reached your pull rate limit.`))
		}, []string{"image-pull-rate-limited cart/cart"}},
		{"image pull, no cause in gather falls back", func(t *testing.T) *model.Pod { return testPod(t, imagePullPod) }, []string{"image-pull-failed cart/cart"}},
		{"healthy pod fires nothing", func(t *testing.T) *model.Pod { return testPod(t, healthyPod) }, nil},
		{"crash loop", func(t *testing.T) *model.Pod {
			return withLog(testPod(t, crashPod), "catalog", true, "panic: dial tcp 172.30.12.7:5432: connect: connection refused")
		}, []string{"crashloop-back-off catalog/catalog"}},
		{"crash loop by liveness probe", func(t *testing.T) *model.Pod {
			return testPod(t, crashPod, event("Killing", "Normal", "spec.containers{catalog}", "Container catalog failed liveness probe, will be restarted"))
		}, []string{"crashloop-liveness-probe catalog/catalog"}},
		{"crash loop by startup probe", func(t *testing.T) *model.Pod {
			return testPod(t, crashPod, event("Killing", "Normal", "spec.containers{catalog}", "Container catalog failed startup probe, will be restarted"))
		}, []string{"crashloop-startup-probe catalog/catalog"}},
		{"OOMKilled in last state, not also crash loop", func(t *testing.T) *model.Pod { return testPod(t, oomPod) }, []string{"container-oom-killed search-0/search"}},
		{"init container crash loop", func(t *testing.T) *model.Pod {
			return withLog(testPod(t, initPod), "wait-for-db", true, "Error: could not connect to inventory-db:5432")
		}, []string{"init-container-failed inventory/wait-for-db"}},
		{"readiness probe failing", func(t *testing.T) *model.Pod {
			return testPod(t, notReadyPod, event("Unhealthy", "Warning", "spec.containers{recommender}", "Readiness probe failed: HTTP probe failed with statuscode: 503"))
		}, []string{"not-ready-probe-failing recommender/recommender"}},
		{"not ready without probe evidence", func(t *testing.T) *model.Pod { return testPod(t, notReadyPod) }, []string{"not-ready recommender/recommender"}},
		{"unschedulable for memory", func(t *testing.T) *model.Pod { return testPod(t, pendingPod) }, []string{"unschedulable-insufficient-resources analytics/"}},
		{"scheduled pod with old FailedScheduling events is not unschedulable", func(t *testing.T) *model.Pod {
			return testPod(t, healthyPod, event("FailedScheduling", "Warning", "", "0/3 nodes are available: 3 Insufficient cpu."))
		}, nil},
		{"restart after an Error exit is not an OOM kill", func(t *testing.T) *model.Pod {
			return testPod(t, strings.Replace(healthyPod, "restartCount: 0,", "restartCount: 2, lastState: {terminated: {reason: Error, exitCode: 1}},", 1))
		}, nil},
		{"init container that completed is not a failure", func(t *testing.T) *model.Pod {
			return testPod(t, `
metadata: {name: ok-init}
spec: {nodeName: worker-0, initContainers: [{name: setup, image: s}], containers: [{name: app, image: a}]}
status:
  phase: Running
  conditions: [{type: Initialized, status: "True"}, {type: Ready, status: "True"}]
  initContainerStatuses: [{name: setup, image: s, ready: true, restartCount: 0, state: {terminated: {reason: Completed, exitCode: 0}}}]
  containerStatuses: [{name: app, image: a, ready: true, restartCount: 0, state: {running: {startedAt: "2026-11-20T08:00:00Z"}}}]
`)
		}, nil},
		{"container still being created is neither crash loop nor not-ready", func(t *testing.T) *model.Pod {
			return testPod(t, strings.Replace(strings.Replace(imagePullPod, "ImagePullBackOff", "ContainerCreating", 1), "phase: Pending", "phase: Pending\n  conditions: [{type: PodScheduled, status: \"True\"}]", 1))
		}, []string{"pod-not-healthy-unexplained cart/"}}, // the fallback says what is known
		{"terminating pod is not reported as not ready", func(t *testing.T) *model.Pod {
			return testPod(t, strings.Replace(notReadyPod, "metadata: {name: recommender}", "metadata: {name: recommender, deletionTimestamp: \"2026-11-20T09:12:00Z\"}", 1))
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ruleIDs(evaluate(t, tt.pod(t)))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFindingCarriesEvidenceAndExpandedHint(t *testing.T) {
	p := withLog(testPod(t, initPod), "wait-for-db", true, "waiting for inventory-db:5432", "Error: could not connect to inventory-db:5432")
	fs := evaluate(t, p)
	if len(fs) != 1 {
		t.Fatalf("findings: %v", ruleIDs(fs))
	}
	f := fs[0]
	for _, want := range []string{"wait-for-db", "exits with code 1", "Init:CrashLoopBackOff"} {
		if !strings.Contains(f.Hint, want) {
			t.Errorf("hint %q lacks %q", f.Hint, want)
		}
	}
	if !strings.Contains(f.Remediation[0], "oc -n shop logs inventory -c wait-for-db --previous") {
		t.Errorf("remediation[0] = %q", f.Remediation[0])
	}
	var kinds []EvidenceKind
	for _, e := range f.Evidence {
		kinds = append(kinds, e.Kind)
	}
	if diff := cmp.Diff([]EvidenceKind{EvidenceStatus, EvidenceContainerLog, EvidenceContainerLog}, kinds); diff != "" {
		t.Errorf("evidence kinds (-want +got):\n%s", diff)
	}
	// The error line decides, so it ranks before the tail.
	if f.Evidence[1].Source.Line != 2 || !strings.Contains(f.Evidence[1].Text, "could not connect") {
		t.Errorf("log evidence = %+v", f.Evidence[1])
	}
}

func TestMissingEvidenceIsNamed(t *testing.T) {
	p := testPod(t, strings.Replace(imagePullPod, "worker-0", "worker-9", 1))
	fs := evaluate(t, p)
	if len(fs) != 1 || fs[0].Rule.ID != "image-pull-failed" {
		t.Fatalf("findings: %v", ruleIDs(fs))
	}
	if diff := cmp.Diff([]string{"kubelet journal of node worker-9 (not in the gather)"}, fs[0].Missing); diff != "" {
		t.Errorf("missing (-want +got):\n%s", diff)
	}
}

func TestSchedulingReasons(t *testing.T) {
	got := SchedulingReasons("0/6 nodes are available: 3 Insufficient cpu, 3 node(s) had untolerated taint {node-role.kubernetes.io/master: }. preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling.")
	want := []string{"3 Insufficient cpu", "3 node(s) had untolerated taint {node-role.kubernetes.io/master: }"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestBuiltinTableIsValid(t *testing.T) {
	tbl, err := loadFS(builtin, "table")
	if err != nil {
		t.Fatal(err)
	}
	if tbl.SchemaVersion != SchemaVersion || tbl.Version == "" || len(tbl.Rules) < 15 {
		t.Errorf("table header %d %q with %d rules", tbl.SchemaVersion, tbl.Version, len(tbl.Rules))
	}
}

func TestValidateReportsEveryErrorWithLine(t *testing.T) {
	dir := t.TempDir()
	bad := `schemaVersion: 1
rules:
  - id: my-rule
    version: 1
    severity: urgent
    title: t
    match: {matcher: containerWaiting, params: {reasons: [X], colour: red}}
    hint: "{{.NoSuchVar}}"
    remediation: [step]
  - id: Bad_ID
    version: 0
    severity: low
    title: t
    match: {matcher: nope}
    hint: h
    remediation: [step]
`
	if err := os.WriteFile(filepath.Join(dir, "bad.yaml"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	errs := Validate(dir)
	text := errs.Error()
	for _, want := range []string{"bad.yaml:5: rule my-rule: severity", "bad.yaml:7: rule my-rule: unknown key \"colour\" in the params of matcher containerWaiting", "bad.yaml:8: rule my-rule: hint", "NoSuchVar", "bad.yaml:10: rule Bad_ID: id", "bad.yaml:11: rule Bad_ID: version must be 1", "bad.yaml:14: rule Bad_ID: match: unknown matcher \"nope\""} {
		if !strings.Contains(text, want) {
			t.Errorf("validation output lacks %q:\n%s", want, text)
		}
	}
}

func TestOverrideReplacesAndDisables(t *testing.T) {
	dir := t.TempDir()
	user := `schemaVersion: 1
rules:
  - id: not-ready
    disabled: true
  - id: crashloop-back-off
    version: 2
    severity: critical
    title: Crash loop (site rule)
    category: crash-loop
    group: crash-loop
    match: {matcher: containerWaiting, params: {reasons: [CrashLoopBackOff]}}
    hint: "site hint for {{.Container}}"
    remediation: [call the app team]
`
	os.WriteFile(filepath.Join(dir, "site.yaml"), []byte(user), 0o644)
	tbl := Builtin()
	if errs := tbl.Override(dir); len(errs) > 0 {
		t.Fatal(errs)
	}
	g := &model.Gather{CollectedAt: gatherTime, Pods: []*model.Pod{testPod(t, crashPod), testPod(t, notReadyPod)}}
	g.Freeze()
	fs := Evaluate(tbl, g)
	// With not-ready disabled, the fallback still says the pod is not healthy.
	if diff := cmp.Diff([]string{"crashloop-back-off catalog/catalog", "pod-not-healthy-unexplained recommender/"}, ruleIDs(fs)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	if fs[0].Rule.Severity != "critical" || fs[0].Hint != "site hint for catalog" {
		t.Errorf("override not applied: %s %q", fs[0].Rule.Severity, fs[0].Hint)
	}
}

func TestEvaluateIsDeterministic(t *testing.T) {
	mk := func() []*model.Pod {
		return []*model.Pod{testPod(t, oomPod), testPod(t, imagePullPod), testPod(t, crashPod), testPod(t, pendingPod)}
	}
	a := ruleIDs(evaluate(t, mk()...))
	pods := mk()
	for i, j := 0, len(pods)-1; i < j; i, j = i+1, j-1 {
		pods[i], pods[j] = pods[j], pods[i]
	}
	b := ruleIDs(evaluate(t, pods...))
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("order depends on input order (-a +b):\n%s", diff)
	}
}
