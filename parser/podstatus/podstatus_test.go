package podstatus

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var now = time.Date(2026, 11, 20, 9, 12, 33, 0, time.UTC)

func ago(d time.Duration) metav1.Time { return metav1.NewTime(now.Add(-d)) }

// pod builds a pod created 3 days and 4 hours before now.
func pod(phase corev1.PodPhase, mods ...func(*corev1.Pod)) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", CreationTimestamp: ago(76 * time.Hour)},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app"}}},
		Status:     corev1.PodStatus{Phase: phase},
	}
	for _, m := range mods {
		m(p)
	}
	return p
}

func running(ready bool) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: "app", Ready: ready, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: ago(time.Hour)}}}
}

func waiting(name, reason string) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason}}}
}

func terminated(name, reason string, code, signal int32) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: reason, ExitCode: code, Signal: signal, FinishedAt: ago(time.Minute)}}}
}

func withStatuses(cs ...corev1.ContainerStatus) func(*corev1.Pod) {
	return func(p *corev1.Pod) {
		p.Status.ContainerStatuses = cs
		p.Spec.Containers = nil
		for _, c := range cs {
			p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: c.Name})
		}
	}
}

func withInit(cs ...corev1.ContainerStatus) func(*corev1.Pod) {
	return func(p *corev1.Pod) {
		p.Status.InitContainerStatuses = cs
		p.Spec.InitContainers = nil
		for _, c := range cs {
			p.Spec.InitContainers = append(p.Spec.InitContainers, corev1.Container{Name: c.Name})
		}
	}
}

func withCondition(t corev1.PodConditionType, s corev1.ConditionStatus, reason string) func(*corev1.Pod) {
	return func(p *corev1.Pod) {
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: t, Status: s, Reason: reason})
	}
}

func restarts(n int32, lastFinished time.Duration) func(*corev1.Pod) {
	return func(p *corev1.Pod) {
		cs := &p.Status.ContainerStatuses[len(p.Status.ContainerStatuses)-1]
		cs.RestartCount = n
		cs.LastTerminationState.Terminated = &corev1.ContainerStateTerminated{Reason: "Error", ExitCode: 1, FinishedAt: ago(lastFinished)}
	}
}

func deleted(p *corev1.Pod) { t := ago(time.Minute); p.DeletionTimestamp = &t }

func TestCompute(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	started := true
	tests := []struct {
		name    string
		pod     *corev1.Pod
		version Version
		want    [4]string // READY, STATUS, RESTARTS, AGE
	}{
		{"running ready", pod(corev1.PodRunning, withStatuses(running(true))), Version{}, [4]string{"1/1", "Running", "0", "3d4h"}},
		{"running not ready", pod(corev1.PodRunning, withStatuses(running(false))), Version{}, [4]string{"0/1", "Running", "0", "3d4h"}},
		{"pending no status", pod(corev1.PodPending), Version{}, [4]string{"0/1", "Pending", "0", "3d4h"}},
		{"container creating", pod(corev1.PodPending, withStatuses(waiting("app", "ContainerCreating"))), Version{}, [4]string{"0/1", "ContainerCreating", "0", "3d4h"}},
		{"image pull back-off", pod(corev1.PodPending, withStatuses(waiting("app", "ImagePullBackOff"))), Version{}, [4]string{"0/1", "ImagePullBackOff", "0", "3d4h"}},
		{"err image pull", pod(corev1.PodPending, withStatuses(waiting("app", "ErrImagePull"))), Version{}, [4]string{"0/1", "ErrImagePull", "0", "3d4h"}},
		{"config error", pod(corev1.PodPending, withStatuses(waiting("app", "CreateContainerConfigError"))), Version{}, [4]string{"0/1", "CreateContainerConfigError", "0", "3d4h"}},
		{"crash loop with ago", pod(corev1.PodRunning, withStatuses(waiting("app", "CrashLoopBackOff")), restarts(12, 2*time.Minute)), Version{}, [4]string{"0/1", "CrashLoopBackOff", "12 (2m ago)", "3d4h"}},
		{"completed", pod(corev1.PodSucceeded, withStatuses(terminated("app", "Completed", 0, 0))), Version{}, [4]string{"0/1", "Completed", "0", "3d4h"}},
		{"error", pod(corev1.PodFailed, withStatuses(terminated("app", "Error", 1, 0))), Version{}, [4]string{"0/1", "Error", "0", "3d4h"}},
		{"oom killed", pod(corev1.PodFailed, withStatuses(terminated("app", "OOMKilled", 137, 0))), Version{}, [4]string{"0/1", "OOMKilled", "0", "3d4h"}},
		{"signal without reason", pod(corev1.PodFailed, withStatuses(terminated("app", "", 137, 9))), Version{}, [4]string{"0/1", "Signal:9", "0", "3d4h"}},
		{"exit code without reason", pod(corev1.PodFailed, withStatuses(terminated("app", "", 3, 0))), Version{}, [4]string{"0/1", "ExitCode:3", "0", "3d4h"}},
		{"evicted", pod(corev1.PodFailed, func(p *corev1.Pod) { p.Status.Reason = "Evicted" }), Version{}, [4]string{"0/1", "Evicted", "0", "3d4h"}},
		{"evicted with terminated container shows container reason",
			pod(corev1.PodFailed, func(p *corev1.Pod) { p.Status.Reason = "Evicted" }, withStatuses(terminated("app", "ContainerStatusUnknown", 137, 0))),
			Version{}, [4]string{"0/1", "ContainerStatusUnknown", "0", "3d4h"}},
		{"terminating", pod(corev1.PodRunning, withStatuses(running(true)), deleted), Version{}, [4]string{"1/1", "Terminating", "0", "3d4h"}},
		{"deleted succeeded pod stays Completed from 1.31", pod(corev1.PodSucceeded, withStatuses(terminated("app", "Completed", 0, 0)), deleted), Version{1, 31}, [4]string{"0/1", "Completed", "0", "3d4h"}},
		{"deleted succeeded pod shows Terminating before 1.31", pod(corev1.PodSucceeded, withStatuses(terminated("app", "Completed", 0, 0)), deleted), Version{1, 30}, [4]string{"0/1", "Terminating", "0", "3d4h"}},
		{"node lost", pod(corev1.PodRunning, withStatuses(running(true)), deleted, func(p *corev1.Pod) { p.Status.Reason = "NodeLost" }), Version{}, [4]string{"1/1", "Unknown", "0", "3d4h"}},
		{"scheduling gated", pod(corev1.PodPending, withCondition(corev1.PodScheduled, corev1.ConditionFalse, "SchedulingGated")), Version{}, [4]string{"0/1", "SchedulingGated", "0", "3d4h"}},
		{"init waiting PodInitializing counts as Init:N/M",
			pod(corev1.PodPending, withInit(terminated("a", "Completed", 0, 0), waiting("b", "PodInitializing")), withStatuses(waiting("app", "PodInitializing"))),
			Version{}, [4]string{"0/1", "Init:1/2", "0", "3d4h"}},
		{"init running", pod(corev1.PodPending, withInit(corev1.ContainerStatus{Name: "a", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}), withStatuses(waiting("app", "PodInitializing"))),
			Version{}, [4]string{"0/1", "Init:0/1", "0", "3d4h"}},
		{"init error", pod(corev1.PodFailed, withInit(terminated("a", "Error", 2, 0)), withStatuses(waiting("app", "PodInitializing"))),
			Version{}, [4]string{"0/1", "Init:Error", "0", "3d4h"}},
		{"init crash loop", pod(corev1.PodPending, withInit(waiting("a", "CrashLoopBackOff")), withStatuses(waiting("app", "PodInitializing")), func(p *corev1.Pod) {
			p.Status.InitContainerStatuses[0].RestartCount = 9
			p.Status.InitContainerStatuses[0].LastTerminationState.Terminated = &corev1.ContainerStateTerminated{ExitCode: 1, Reason: "Error", FinishedAt: ago(90 * time.Second)}
		}), Version{}, [4]string{"0/1", "Init:CrashLoopBackOff", "9 (90s ago)", "3d4h"}},
		{"init signal", pod(corev1.PodPending, withInit(terminated("a", "", 137, 9))), Version{}, [4]string{"0/1", "Init:Signal:9", "0", "3d4h"}},
		{"init exit code", pod(corev1.PodPending, withInit(terminated("a", "", 5, 0))), Version{}, [4]string{"0/1", "Init:ExitCode:5", "0", "3d4h"}},
		{"pod initializing after init done", pod(corev1.PodPending, withInit(terminated("a", "Completed", 0, 0)), withStatuses(waiting("app", "PodInitializing"))),
			Version{}, [4]string{"0/1", "PodInitializing", "0", "3d4h"}},
		{"completed flips to Running while a container runs", pod(corev1.PodRunning,
			withStatuses(running(true), terminated("side", "Completed", 0, 0)),
			withCondition(corev1.PodReady, corev1.ConditionTrue, "")),
			Version{}, [4]string{"1/2", "Running", "0", "3d4h"}},
		{"completed flips to NotReady without Ready condition", pod(corev1.PodRunning,
			withStatuses(running(true), terminated("side", "Completed", 0, 0))),
			Version{}, [4]string{"1/2", "NotReady", "0", "3d4h"}},
		{"sidecar init container counts in READY and RESTARTS", pod(corev1.PodRunning,
			withInit(corev1.ContainerStatus{Name: "proxy", Ready: true, Started: &started, RestartCount: 2,
				State:                corev1.ContainerState{Running: &corev1.ContainerStateRunning{}},
				LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{FinishedAt: ago(3 * time.Hour)}}}),
			func(p *corev1.Pod) { p.Spec.InitContainers[0].RestartPolicy = &always },
			withStatuses(running(true)),
			withCondition(corev1.PodInitialized, corev1.ConditionTrue, "")),
			Version{}, [4]string{"2/2", "Running", "2 (3h ago)", "3d4h"}},
		{"restarts summed over containers, latest restart wins", pod(corev1.PodRunning,
			withStatuses(running(true), corev1.ContainerStatus{Name: "b", Ready: true, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}),
			func(p *corev1.Pod) {
				p.Status.ContainerStatuses[0].RestartCount = 1
				p.Status.ContainerStatuses[0].LastTerminationState.Terminated = &corev1.ContainerStateTerminated{FinishedAt: ago(5 * time.Hour)}
				p.Status.ContainerStatuses[1].RestartCount = 3
				p.Status.ContainerStatuses[1].LastTerminationState.Terminated = &corev1.ContainerStateTerminated{FinishedAt: ago(20 * time.Minute)}
			}),
			Version{}, [4]string{"2/2", "Running", "4 (20m ago)", "3d4h"}},
		{"failed container right of a completed one shows Completed before 1.35",
			pod(corev1.PodFailed, withStatuses(terminated("a", "Completed", 0, 0), terminated("b", "Error", 1, 0))),
			Version{1, 34}, [4]string{"0/2", "Completed", "0", "3d4h"}},
		{"failed container right of a completed one keeps Error from 1.35",
			pod(corev1.PodFailed, withStatuses(terminated("a", "Completed", 0, 0), terminated("b", "Error", 1, 0))),
			Version{1, 35}, [4]string{"0/2", "Error", "0", "3d4h"}},
		{"OOMKilled container right of a completed one, newest behaviour when version unknown",
			pod(corev1.PodFailed, withStatuses(terminated("a", "Completed", 0, 0), terminated("b", "OOMKilled", 137, 0))),
			Version{}, [4]string{"0/2", "OOMKilled", "0", "3d4h"}},
		{"restart count without last state has no ago", pod(corev1.PodRunning, withStatuses(running(true)), func(p *corev1.Pod) { p.Status.ContainerStatuses[0].RestartCount = 2 }),
			Version{}, [4]string{"1/1", "Running", "2", "3d4h"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Compute(tt.pod, now, tt.version)
			got := [4]string{c.Ready, c.Status, c.Restarts, c.Age}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("columns mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSince(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"}, {59 * time.Second, "59s"}, {90 * time.Second, "90s"}, {5 * time.Minute, "5m"},
		{10*time.Minute + 30*time.Second, "10m"}, {3*time.Hour + 5*time.Minute, "3h5m"}, {30 * time.Hour, "30h"},
		{76 * time.Hour, "3d4h"}, {20 * 24 * time.Hour, "20d"}, {800 * 24 * time.Hour, "2y70d"},
		{-5 * time.Second, "<invalid>"},
	}
	for _, tt := range tests {
		if got := Since(now.Add(-tt.d), now); got != tt.want {
			t.Errorf("Since(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
	if got := Since(time.Time{}, now); got != "<unknown>" {
		t.Errorf("zero time = %q", got)
	}
}

func TestStartupStage(t *testing.T) {
	cond := func(ty corev1.PodConditionType, s corev1.ConditionStatus, reason string) corev1.PodCondition {
		return corev1.PodCondition{Type: ty, Status: s, Reason: reason, LastTransitionTime: ago(time.Hour)}
	}
	tests := []struct {
		name  string
		phase corev1.PodPhase
		conds []corev1.PodCondition
		want  string
	}{
		{"no conditions yet", corev1.PodPending, nil, "PodScheduled/Missing"},
		{"unschedulable", corev1.PodPending, []corev1.PodCondition{cond(corev1.PodScheduled, corev1.ConditionFalse, "Unschedulable")}, "PodScheduled/False"},
		{"sandbox not ready", corev1.PodPending, []corev1.PodCondition{
			cond(corev1.PodScheduled, corev1.ConditionTrue, ""), cond(corev1.PodReadyToStartContainers, corev1.ConditionFalse, ""),
			cond(corev1.PodInitialized, corev1.ConditionTrue, ""), cond(corev1.ContainersReady, corev1.ConditionFalse, "ContainersNotReady")}, "PodReadyToStartContainers/False"},
		{"older cluster without PodReadyToStartContainers, init failing", corev1.PodPending, []corev1.PodCondition{
			cond(corev1.PodScheduled, corev1.ConditionTrue, ""), cond(corev1.PodInitialized, corev1.ConditionFalse, "ContainersNotInitialized"),
			cond(corev1.ContainersReady, corev1.ConditionFalse, "ContainersNotReady")}, "Initialized/False"},
		{"readiness gate only", corev1.PodRunning, []corev1.PodCondition{
			cond(corev1.PodScheduled, corev1.ConditionTrue, ""), cond(corev1.PodInitialized, corev1.ConditionTrue, ""),
			cond(corev1.ContainersReady, corev1.ConditionTrue, ""), cond(corev1.PodReady, corev1.ConditionFalse, "ReadinessGatesNotReady")}, "Ready/False"},
		{"all true", corev1.PodRunning, []corev1.PodCondition{cond(corev1.PodScheduled, corev1.ConditionTrue, ""), cond(corev1.PodReady, corev1.ConditionTrue, "")}, "Started:/"},
		{"terminated pod has no startup condition", corev1.PodSucceeded, []corev1.PodCondition{cond(corev1.PodReady, corev1.ConditionFalse, "PodCompleted")}, "Terminated:/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := pod(tt.phase, func(p *corev1.Pod) { p.Status.Conditions = tt.conds })
			s := StartupStage(p)
			got := s.Condition + "/" + s.Status
			if s.Name != s.Condition {
				got = s.Name + ":" + got
			}
			if got != tt.want {
				t.Errorf("stage = %q, want %q", got, tt.want)
			}
			if s.Condition != "" && s.LookAt == "" {
				t.Errorf("stage %s has nothing to look at", s.Condition)
			}
		})
	}
}
