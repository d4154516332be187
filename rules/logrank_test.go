package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/model"
)

func TestLineWeight(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{`time="2026-11-20T09:00:00Z" level=info msg="Go Version: go1.22"`, weightOther},
		{`time="2026-11-20T09:00:01Z" level=warning msg="Config API is not available"`, weightOther},
		{`time="2026-11-20T09:00:02Z" level=fatal msg="dial tcp 172.30.0.1:443: connect: connection refused"`, weightFatal},
		{"F1120 09:00:02.000001       1 main.go:309] Failed to initialize certificate reloader", weightFatal},
		{"E1120 09:00:02.000001       1 reflector.go:138] failed to list", weightError},
		{"2026-11-20T09:00:02.030Z\tERROR\tcontroller\tReconciler error", weightError},
		{"panic: runtime error: invalid memory address or nil pointer dereference", weightFatal},
		{`Exception in thread "main" java.lang.IllegalStateException: no config`, weightFatal},
		{`{"level":"error","msg":"cannot open /data"}`, weightError},
		{"Everything fine, 0 errors", weightOther},
	}
	for _, tt := range tests {
		if got := lineWeight(tt.text); got != tt.want {
			t.Errorf("lineWeight(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

func logOf(lines ...string) *model.ContainerLog {
	l := &model.ContainerLog{}
	var tail, errs []model.LogLine
	for i, s := range lines {
		ll := model.LogLine{Line: i + 1, Text: s}
		tail = append(tail, ll)
		if lineWeight(s) > weightOther {
			errs = append(errs, ll)
		}
	}
	l.SetKept(tail, errs)
	return l
}

func lineNumbers(ls []model.LogLine) []int {
	var out []int
	for _, l := range ls {
		out = append(out, l.Line)
	}
	return out
}

func TestDecisiveLines(t *testing.T) {
	tests := []struct {
		name string
		log  *model.ContainerLog
		want []int
	}{
		{"fatal after info lines", logOf(
			`level=info msg="Go Version: go1.22"`, `level=info msg="Go OS/Arch: linux/amd64"`, `level=info msg="serving metrics"`,
			`level=warning msg="Config API is not available"`, `level=info msg="setting up scheme"`,
			`level=fatal msg="Get \"https://172.30.0.1:443/api\": dial tcp 172.30.0.1:443: connect: connection refused"`), []int{6}},
		{"klog fatal with its stack head, not the other goroutines", logOf(
			"I1120 09:00:00.1 1 main.go:181] Valid token audiences:",
			"F1120 09:00:00.2 1 main.go:309] Failed to initialize certificate reloader: open /etc/tls/private/tls.crt: no such file or directory",
			"goroutine 1 [running]:", "k8s.io/klog/v2.stacks(0xc00013c001)", "\t/go/src/k8s.io/klog/v2/klog.go:996 +0xb9",
			"k8s.io/klog/v2.(*loggingT).output(0x22992c0)", "", "goroutine 40 [runnable]:", "main.worker(0x1)"), []int{2, 3, 4, 5}},
		{"Go panic, a blank line, then its goroutine", logOf(
			"starting", "panic: dial tcp 172.30.12.7:5432: connect: connection refused", "", "goroutine 1 [running]:",
			"main.mustConnect({0xc0001a4000, 0x4a})", "\t/src/cmd/catalog/main.go:88 +0x1c5"), []int{2, 4, 5, 6}},
		{"the last error lines when nothing is fatal", logOf(
			"ERROR first", "info", "ERROR second", "ERROR third", "ERROR fourth", "info: shutting down"), []int{3, 4, 5}},
		{"nothing error-like", logOf("starting", "listening on :8080"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, lineNumbers(decisiveLines(tt.log.Kept()))); diff != "" {
				t.Errorf("decisive lines (-want +got):\n%s", diff)
			}
		})
	}
}

// A crash-looping container whose pod has many events still cites the fatal
// line of its previous.log, right after its status, with the right number.
func TestFatalLineSurvivesEvidenceCut(t *testing.T) {
	var evs []string
	for i := 0; i < 12; i++ {
		evs = append(evs, event("Unhealthy", "Warning", "spec.containers{catalog}", fmt.Sprintf("Readiness probe failed: attempt %d", i)))
	}
	p := testPod(t, crashPod, evs...)
	for i := 0; i < 8; i++ {
		p = withNodeLog(p, fmt.Sprintf(`Error syncing pod, skipping: failed to "StartContainer" for "catalog" with CrashLoopBackOff: "back-off %ds"`, 10*(i+1)))
		p.NodeLog[len(p.NodeLog)-1].Source.Line = 100 + i
	}
	var lines []string
	for i := 0; i < 7; i++ {
		lines = append(lines, fmt.Sprintf(`time="2026-11-20T09:09:5%dZ" level=info msg="step %d"`, i, i))
	}
	fatal := `time="2026-11-20T09:10:00Z" level=fatal msg="Get \"https://172.30.0.1:443/api\": dial tcp 172.30.0.1:443: connect: connection refused"`
	lines = append(lines, fatal)
	p = withLog(p, "catalog", true, lines...)
	fs := evaluate(t, p)
	if len(fs) != 1 {
		t.Fatalf("findings: %v", ruleIDs(fs))
	}
	ev := fs[0].Evidence
	if len(ev) < 2 || ev[1].Kind != EvidenceContainerLog || ev[1].Source.Line != 8 || ev[1].Text != fatal || ev[1].Quote != fatal {
		t.Fatalf("evidence[1] = %+v, want the fatal line 8", ev[1])
	}
	if !strings.Contains(fs[0].Hint, "line 8") {
		t.Errorf("hint does not point at line 8: %s", fs[0].Hint)
	}
	if !ev[0].Summary || ev[0].Kind != EvidenceStatus {
		t.Errorf("evidence[0] = %+v, want the status summary flagged as the tool's", ev[0])
	}
}

func TestSchedulingReasonsInWords(t *testing.T) {
	tests := []struct {
		msg  string
		want []string
	}{
		{"0/6 nodes are available: 3 Insufficient cpu, 3 node(s) had untolerated taint {node-role.kubernetes.io/master: }. preemption: 0/6 nodes are available.",
			[]string{"3 Insufficient cpu", "3 node(s) had untolerated taint node-role.kubernetes.io/master"}},
		{"0/2 nodes are available: 2 node(s) had taint {node.kubernetes.io/not-ready: }, that the pod didn't tolerate.",
			[]string{"2 node(s) had taint node.kubernetes.io/not-ready, that the pod didn't tolerate"}},
		{"0/4 nodes are available: 2 node(s) had untolerated taint {node-role.kubernetes.io/infra: reserved}, 2 node(s) didn't match Pod's node affinity/selector.",
			[]string{"2 node(s) had untolerated taint node-role.kubernetes.io/infra=reserved", "2 node(s) didn't match Pod's node affinity/selector"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, ReasonWords(SchedulingReasons(tt.msg))); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.msg, diff)
		}
	}
}

// TestContainerRefIsFieldPath: isFieldPath accepts exactly the field path
// events give the container.
func TestContainerRefIsFieldPath(t *testing.T) {
	refs := []containerRef{{Name: "app", list: "spec.containers"}, {Name: "init", list: "spec.initContainers"}, {Name: "", list: "spec.containers"}}
	paths := []string{"", "spec.containers{app}", "spec.containers{app", "spec.containers{ap}", "spec.containers{app}}", "spec.initContainers{init}",
		"spec.containers{init}", "spec.initContainers{app}", "spec.containers{}", "spec.containersX{app}", "spec.containers{app}x", "xspec.containers{app}"}
	for _, r := range refs {
		for _, fp := range paths {
			if got, want := r.isFieldPath(fp), fp == r.list+"{"+r.Name+"}"; got != want {
				t.Errorf("%s %q: isFieldPath(%q) = %v, want %v", r.list, r.Name, fp, got, want)
			}
		}
	}
}
