package parser

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/model"
)

const fieldPods = `apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: api
  status:
    conditions:
    - lastTransitionTime: "2026-11-20T09:00:00Z"
      status: "True"
      type: PodScheduled
    - message: 'containers with unready status: [api]'
      reason: ContainersNotReady
      status: "False"
      type: Ready
    containerStatuses:
    - image: api:1
      lastState:
        terminated:
          exitCode: 1
          reason: Error
      name: api
      ready: false
      restartCount: 5
      state:
        waiting:
          message: back-off 5m0s restarting failed container=api
          reason: CrashLoopBackOff
    - image: proxy:1
      name: proxy
      restartCount: 0
      state: {running: {startedAt: "2026-11-20T09:00:00Z"}}
    phase: Running
- apiVersion: v1
  kind: Pod
  metadata:
    name: web
  status:
    phase: Pending
kind: List
`

func TestScanFieldLines(t *testing.T) {
	data := []byte(fieldPods)
	got := scanFieldLines(data, lineStarts(data), 3)
	want := model.FieldLines{
		"status": 7, "status.conditions": 8,
		"status.conditions[PodScheduled]": 9, "status.conditions[PodScheduled].status": 10, "status.conditions[PodScheduled].type": 11,
		"status.conditions[Ready]": 12, "status.conditions[Ready].message": 12, "status.conditions[Ready].reason": 13,
		"status.conditions[Ready].status": 14, "status.conditions[Ready].type": 15,
		"status.containerStatuses": 16, "status.containerStatuses[api]": 17,
		"status.containerStatuses[api].lastState": 18, "status.containerStatuses[api].lastState.terminated": 19,
		"status.containerStatuses[api].lastState.terminated.exitCode": 20, "status.containerStatuses[api].lastState.terminated.reason": 21,
		"status.containerStatuses[api].name": 22, "status.containerStatuses[api].ready": 23, "status.containerStatuses[api].restartCount": 24,
		"status.containerStatuses[api].state": 25, "status.containerStatuses[api].state.waiting": 26,
		"status.containerStatuses[api].state.waiting.message": 27, "status.containerStatuses[api].state.waiting.reason": 28,
		"status.containerStatuses[proxy]": 29, "status.containerStatuses[proxy].name": 30, "status.containerStatuses[proxy].restartCount": 31,
		"status.containerStatuses[proxy].state": 32, "status.phase": 33,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("field lines (-want +got):\n%s", diff)
	}
	second := scanFieldLines(data, lineStarts(data), 34)
	if diff := cmp.Diff(model.FieldLines{"status": 38, "status.phase": 39}, second); diff != "" {
		t.Errorf("second item (-want +got):\n%s", diff)
	}
}

func FuzzScanFieldLines(f *testing.F) {
	f.Add([]byte(fieldPods), 3)
	f.Add([]byte("- a:\n -\n- : b\n"), 1)
	f.Fuzz(func(t *testing.T, data []byte, start int) {
		lines := lineStarts(data)
		fl := scanFieldLines(data, lines, start)
		if len(fl) > maxFieldLines {
			t.Fatalf("%d paths", len(fl))
		}
		for p, n := range fl {
			if n < 1 || n > len(lines) {
				t.Fatalf("%s at line %d of %d", p, n, len(lines))
			}
		}
	})
}

func TestKeyLine(t *testing.T) {
	data := []byte(`apiVersion: v1
items:
- apiVersion: v1
  involvedObject:
    kind: Pod
    name: api
  message: 'Back-off restarting failed container'
  reason: BackOff
- message: first key
  reason: Started
- apiVersion: v1
  reason: NoMessage
kind: List
`)
	starts := lineStarts(data)
	for _, tt := range []struct{ start, want int }{{3, 7}, {9, 9}, {11, 0}} {
		if got := keyLine(data, starts, tt.start, "message"); got != tt.want {
			t.Errorf("keyLine(start %d) = %d, want %d", tt.start, got, tt.want)
		}
	}
}

func FuzzKeyLine(f *testing.F) {
	f.Add([]byte("- a: 1\n  message: x\n- b\n"), 1)
	f.Fuzz(func(t *testing.T, data []byte, start int) {
		lines := lineStarts(data)
		if n := keyLine(data, lines, start, "message"); n < 0 || n > len(lines) {
			t.Fatalf("line %d of %d", n, len(lines))
		}
	})
}

// TestScanFieldLinesNestedNames: an element inside a named element is named
// at both levels, every time (the choice of one level used to follow map
// order, so two loads of one gather differed).
func TestScanFieldLinesNestedNames(t *testing.T) {
	data := []byte(`status:
  containerStatuses:
  - name: app
    ready: false
    volumeMounts:
    - mountPath: /config
      name: config
  phase: Running
`)
	want := model.FieldLines{
		"status": 1, "status.containerStatuses": 2, "status.containerStatuses[app]": 3,
		"status.containerStatuses[app].name": 3, "status.containerStatuses[app].ready": 4,
		"status.containerStatuses[app].volumeMounts[config]": 6, "status.containerStatuses[app].volumeMounts[config].name": 7,
		"status.phase": 8,
	}
	for range 20 {
		if diff := cmp.Diff(want, scanFieldLines(data, lineStarts(data), 1)); diff != "" {
			t.Fatalf("field lines (-want +got):\n%s", diff)
		}
	}
}

// TestScanFieldLinesSpec: of spec and metadata, the probes' ports, the
// declared ports, nodeName, finalizers and the deletion are indexed, with
// containers and named ports named; env and the like are not.
func TestScanFieldLinesSpec(t *testing.T) {
	data := []byte(`metadata:
  name: web-0
  deletionTimestamp: "2026-03-02T11:40:34Z"
  finalizers:
  - example.com/cleanup
spec:
  nodeName: worker-1
  containers:
  - env:
    - name: MODE
      value: prod
    livenessProbe:
      httpGet:
        path: /healthz
        port: http-api
    name: web
    ports:
    - containerPort: 9095
      name: metrics
      protocol: TCP
status:
  phase: Running
`)
	want := model.FieldLines{
		"metadata.deletionTimestamp": 3, "metadata.finalizers": 4,
		"spec.nodeName": 7, "spec.containers": 8, "spec.containers[web]": 9,
		"spec.containers[web].livenessProbe": 12, "spec.containers[web].livenessProbe.httpGet": 13,
		"spec.containers[web].livenessProbe.httpGet.port": 15, "spec.containers[web].name": 16,
		"spec.containers[web].ports": 17, "spec.containers[web].ports[metrics]": 18,
		"spec.containers[web].ports[metrics].containerPort": 18, "spec.containers[web].ports[metrics].name": 19,
		"status": 21, "status.phase": 22,
	}
	if diff := cmp.Diff(want, scanFieldLines(data, lineStarts(data), 1)); diff != "" {
		t.Errorf("field lines (-want +got):\n%s", diff)
	}
}

// TestScanFieldLinesSpecSecurity: the spec fields that decide a cause (security
// context, mounts, volumes) are indexed by container and volume name; the
// others (env, ports, resources) are not.
func TestScanFieldLinesSpecSecurity(t *testing.T) {
	data := []byte(`spec:
  containers:
  - env:
    - name: HOME
      value: /root
    name: console
    securityContext:
      runAsUser: 0
    volumeMounts:
    - mountPath: /root
      name: settings
      readOnly: true
  securityContext:
    runAsNonRoot: true
  volumes:
  - configMap:
      name: console-settings
    name: settings
status:
  phase: Running
`)
	want := model.FieldLines{
		"spec.containers": 2, "spec.containers[console]": 3, "spec.containers[console].name": 6,
		"spec.containers[console].securityContext": 7, "spec.containers[console].securityContext.runAsUser": 8,
		"spec.containers[console].volumeMounts": 9, "spec.containers[console].volumeMounts[settings]": 10,
		"spec.containers[console].volumeMounts[settings].mountPath": 10, "spec.containers[console].volumeMounts[settings].name": 11,
		"spec.containers[console].volumeMounts[settings].readOnly": 12,
		"spec.securityContext": 13, "spec.securityContext.runAsNonRoot": 14,
		"spec.volumes": 15, "spec.volumes[settings]": 16, "spec.volumes[settings].configMap": 16, "spec.volumes[settings].configMap.name": 17,
		"spec.volumes[settings].name": 18,
		"status":                      19, "status.phase": 20,
	}
	if diff := cmp.Diff(want, scanFieldLines(data, lineStarts(data), 1)); diff != "" {
		t.Fatalf("field lines (-want +got):\n%s", diff)
	}
}

// TestScanFieldLinesNodeAndAnnotations checks the fields node evidence and
// the Multus join cite: a node's conditions, allocatable resources (every
// resource name), taints and cordon, without its images; a pod's Multus
// networks annotation, without its other annotations.
func TestScanFieldLinesNodeAndAnnotations(t *testing.T) {
	node := []byte(`apiVersion: v1
kind: Node
metadata:
  annotations:
    k8s.v1.cni.cncf.io/networks: fh-data
    kubectl.kubernetes.io/last-applied-configuration: '{}'
  name: gpu-0
spec:
  taints:
  - effect: NoSchedule
    key: nvidia.com/gpu
  unschedulable: true
status:
  allocatable:
    cpu: 3500m
    nvidia.com/gpu: "1"
  conditions:
  - message: kubelet is posting ready status
    reason: KubeletReady
    status: "True"
    type: Ready
  images:
  - names:
    - quay.io/a@sha256:1
    sizeBytes: 1
`)
	got := scanFieldLines(node, lineStarts(node), 1)
	want := model.FieldLines{
		"metadata.annotations": 4, "metadata.annotations.k8s.v1.cni.cncf.io/networks": 5,
		"spec.taints": 9, "spec.taints[1]": 10, "spec.taints[1].effect": 10, "spec.taints[1].key": 11, "spec.unschedulable": 12,
		"status": 13, "status.allocatable": 14, "status.allocatable.cpu": 15, "status.allocatable.nvidia.com/gpu": 16,
		"status.conditions": 17, "status.conditions[Ready]": 18, "status.conditions[Ready].message": 18,
		"status.conditions[Ready].reason": 19, "status.conditions[Ready].status": 20, "status.conditions[Ready].type": 21,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("field lines (-want +got):\n%s", diff)
	}
}

// TestMessageLineStarts: the file line where each line of a status message
// begins, for a double-quoted scalar that YAML folded over several lines
// (after a "\n" escape, across a line break and indentation, or an escaped
// line break), a literal block, and none for a one-line message.
func TestMessageLineStarts(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      map[string]int
	}{
		{"folded double-quoted", `- apiVersion: v1
  kind: Pod
  status:
    containerStatuses:
    - name: app
      lastState:
        terminated:
          message: "I1120 starting up\nI1120 reading the
            settings file\nF1120
            cannot open /etc/app.conf: permission denied\nlast \\n stays on its line\n"
          reason: Error
`, map[string]int{"#0": 8, "#1": 8, "#2": 9, "#3": 10, "#4": 10}},
		{"literal block", `- apiVersion: v1
  kind: Pod
  status:
    containerStatuses:
    - name: app
      state:
        terminated:
          message: |
            first line
            second line
          reason: Error
`, map[string]int{"#0": 9, "#1": 10}},
		{"one line", `- apiVersion: v1
  kind: Pod
  status:
    containerStatuses:
    - name: app
      state:
        terminated:
          message: "one line only"
          reason: Error
`, map[string]int{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := map[string]int{}
			for p, n := range scanFieldLines([]byte(tc.doc), lineStarts([]byte(tc.doc)), 1) {
				if i := strings.LastIndexByte(p, '#'); i >= 0 {
					got[p[i:]] = n
				}
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("message line starts (-want +got):\n%s", d)
			}
		})
	}
}

// TestMessageLineStartsLinear: a message whose next file line, after a
// "\n" escape and a line break, begins with a megabyte of spaces is read in
// linear time.
func TestMessageLineStartsLinear(t *testing.T) {
	doc := "- apiVersion: v1\n  kind: Pod\n  status:\n    containerStatuses:\n    - name: app\n      state:\n        terminated:\n          message: \"a\\n\n" +
		strings.Repeat(" ", 1<<20) + "b\\n" + strings.Repeat(" \\n", 1<<18) + "\"\n"
	start := time.Now()
	scanFieldLines([]byte(doc), lineStarts([]byte(doc)), 1)
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("took %s", took)
	}
}
