package podstatus

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

func TestBackOffDelay(t *testing.T) {
	want := []time.Duration{0, 10 * time.Second, 20 * time.Second, 40 * time.Second, 80 * time.Second, 160 * time.Second, 300 * time.Second, 300 * time.Second}
	for n, w := range want {
		if got := BackOffDelay(n); got != w {
			t.Errorf("BackOffDelay(%d) = %v, want %v", n, got, w)
		}
	}
	if got := BackOffDelay(1000); got != BackOffMax {
		t.Errorf("BackOffDelay(1000) = %v", got)
	}
}

func TestParseBackOffMessage(t *testing.T) {
	for msg, want := range map[string]time.Duration{
		"back-off 5m0s restarting failed container=catalog pod=catalog-1_shop(uid)": 5 * time.Minute,
		"back-off 2m40s restarting failed container=x pod=y":                        160 * time.Second,
		"back-off 10s restarting failed container=x pod=y":                          10 * time.Second,
		"Back-off pulling image \"x\"":                                              0,
	} {
		got, ok := ParseBackOffMessage(msg)
		if got != want || ok != (want > 0) {
			t.Errorf("ParseBackOffMessage(%q) = %v, %v; want %v", msg, got, ok, want)
		}
	}
}

func TestExitMeaning(t *testing.T) {
	for _, tt := range []struct {
		code, signal int32
		reason, want string
	}{
		{137, 0, "OOMKilled", "OOM killer"},
		{137, 0, "Error", "SIGKILL"},
		{143, 0, "Error", "SIGTERM"},
		{139, 0, "Error", "SIGSEGV"},
		{0, 9, "", "SIGKILL"},
		{127, 0, "ContainerCannotRun", "command not found"},
		{126, 0, "", "not executable"},
		{1, 0, "Error", "application error"},
		{0, 0, "Completed", "successfully"},
		{42, 0, "Error", ""},
	} {
		got := ExitMeaning(tt.code, tt.signal, tt.reason)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("ExitMeaning(%d, %d, %q) = %q, want it to mention %q", tt.code, tt.signal, tt.reason, got, tt.want)
		}
	}
}

func TestProbesAndBudget(t *testing.T) {
	c := &corev1.Container{
		StartupProbe:   &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromInt32(8080)}}, FailureThreshold: 3, PeriodSeconds: 10},
		ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromString("http")}}, InitialDelaySeconds: 5},
	}
	ps := Probes(c)
	if len(ps) != 2 {
		t.Fatalf("probes = %+v", ps)
	}
	if got := ps[0].String(); got != "startup http-get http://:8080/healthz delay=0s timeout=1s period=10s #success=1 #failure=3" {
		t.Errorf("startup probe = %q", got)
	}
	if ps[0].Budget() != 30*time.Second || ps[1].Budget() != 35*time.Second {
		t.Errorf("budgets = %v, %v", ps[0].Budget(), ps[1].Budget())
	}
	if Probes(nil) != nil {
		t.Error("nil container has probes")
	}
}

func TestContainersDescribesStateAndBackOff(t *testing.T) {
	p := pod(corev1.PodRunning,
		withInit(terminated("setup", "Completed", 0, 0)),
		withStatuses(waiting("app", "CrashLoopBackOff")),
		restarts(6, 2*time.Minute),
		func(p *corev1.Pod) {
			p.Status.ContainerStatuses[0].State.Waiting.Message = "back-off 2m40s restarting failed container=app pod=p_ns(uid)"
			p.Status.ContainerStatuses[0].LastTerminationState.Terminated.ExitCode = 137
		})
	cs := Containers(p)
	if len(cs) != 2 || cs[0].Kind != "init" || cs[1].Kind != "app" {
		t.Fatalf("containers = %+v", cs)
	}
	app := cs[1]
	if app.State != "waiting" || app.Reason != "CrashLoopBackOff" || app.RestartCount != 6 {
		t.Errorf("app = %+v", app)
	}
	if app.BackOff != 160*time.Second || !app.NextRestart.Equal(now.Add(-2*time.Minute+160*time.Second)) {
		t.Errorf("back-off %v next %v", app.BackOff, app.NextRestart)
	}
	if app.Last == nil || !strings.Contains(app.Last.ExitMeaning, "SIGKILL") {
		t.Errorf("last = %+v", app.Last)
	}
	if cs[0].ExitCode == nil || *cs[0].ExitCode != 0 || cs[0].ExitMeaning != "exited successfully" {
		t.Errorf("init = %+v", cs[0])
	}
}
