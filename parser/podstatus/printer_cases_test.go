package podstatus

// More cases for Compute, each checked against the upstream pod printer
// (printPod in kubernetes pkg/printers/internalversion/printers.go, v1.37) and
// its TestPrintPod* tables, and against duration.HumanDuration for the ages.
// The helpers carry a "pc" prefix so that they stay apart from the ones in
// podstatus_test.go.

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// pcNow is the instant every case is computed at.
var pcNow = time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)

func pcAgo(d time.Duration) metav1.Time { return metav1.NewTime(pcNow.Add(-d)) }

type pcOpt func(*corev1.Pod)

// pcPod builds a pod with one container "main", created 50 hours before
// pcNow (AGE "2d2h").
func pcPod(phase corev1.PodPhase, opts ...pcOpt) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "pc", Namespace: "ns", CreationTimestamp: pcAgo(50 * time.Hour)},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main"}}},
		Status:     corev1.PodStatus{Phase: phase},
	}
	for _, o := range opts {
		o(p)
	}
	return p
}

// pcApps sets the app container statuses and a spec container for each.
func pcApps(cs ...corev1.ContainerStatus) pcOpt {
	return func(p *corev1.Pod) {
		p.Status.ContainerStatuses = cs
		p.Spec.Containers = make([]corev1.Container, 0, len(cs))
		for _, c := range cs {
			p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: c.Name})
		}
	}
}

// pcAppSpecs sets the spec containers only, without statuses.
func pcAppSpecs(names ...string) pcOpt {
	return func(p *corev1.Pod) {
		p.Spec.Containers = nil
		for _, n := range names {
			p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: n})
		}
	}
}

// pcInits sets the init container statuses and a spec init container for each.
func pcInits(cs ...corev1.ContainerStatus) pcOpt {
	return func(p *corev1.Pod) {
		p.Status.InitContainerStatuses = cs
		p.Spec.InitContainers = make([]corev1.Container, 0, len(cs))
		for _, c := range cs {
			p.Spec.InitContainers = append(p.Spec.InitContainers, corev1.Container{Name: c.Name})
		}
	}
}

// pcInitSpecs sets the spec init containers only (replacing any), leaving the
// init container statuses as they are.
func pcInitSpecs(names ...string) pcOpt {
	return func(p *corev1.Pod) {
		p.Spec.InitContainers = nil
		for _, n := range names {
			p.Spec.InitContainers = append(p.Spec.InitContainers, corev1.Container{Name: n})
		}
	}
}

// pcSidecars gives the named spec init containers restartPolicy Always.
func pcSidecars(names ...string) pcOpt {
	return func(p *corev1.Pod) {
		for _, n := range names {
			for i := range p.Spec.InitContainers {
				if p.Spec.InitContainers[i].Name == n {
					always := corev1.ContainerRestartPolicyAlways
					p.Spec.InitContainers[i].RestartPolicy = &always
				}
			}
		}
	}
}

func pcCond(t corev1.PodConditionType, s corev1.ConditionStatus, reason string) pcOpt {
	return func(p *corev1.Pod) {
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: t, Status: s, Reason: reason})
	}
}

func pcReadyCond(p *corev1.Pod)       { pcCond(corev1.PodReady, corev1.ConditionTrue, "")(p) }
func pcInitializedCond(p *corev1.Pod) { pcCond(corev1.PodInitialized, corev1.ConditionTrue, "")(p) }

func pcReason(r string) pcOpt { return func(p *corev1.Pod) { p.Status.Reason = r } }

func pcDeleted(p *corev1.Pod) { t := pcAgo(30 * time.Second); p.DeletionTimestamp = &t }

// pcCreated sets the creation timestamp d before pcNow (negative d: in the future).
func pcCreated(d time.Duration) pcOpt {
	return func(p *corev1.Pod) { p.CreationTimestamp = pcAgo(d) }
}

func pcNoCreation(p *corev1.Pod) { p.CreationTimestamp = metav1.Time{} }

func pcRun(name string, ready bool) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, Ready: ready, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: pcAgo(40 * time.Minute)}}}
}

func pcWait(name, reason string) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason}}}
}

func pcTerm(name, reason string, code, signal int32) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
		Reason: reason, ExitCode: code, Signal: signal, StartedAt: pcAgo(20 * time.Minute), FinishedAt: pcAgo(10 * time.Minute)}}}
}

// pcRestarted gives a status n restarts, the last one finished finishedAgo
// before pcNow.
func pcRestarted(cs corev1.ContainerStatus, n int32, finishedAgo time.Duration) corev1.ContainerStatus {
	cs.RestartCount = n
	cs.LastTerminationState.Terminated = &corev1.ContainerStateTerminated{Reason: "Error", ExitCode: 1, FinishedAt: pcAgo(finishedAgo)}
	return cs
}

// pcCount gives a status n restarts without any last state.
func pcCount(cs corev1.ContainerStatus, n int32) corev1.ContainerStatus {
	cs.RestartCount = n
	return cs
}

func pcStarted(cs corev1.ContainerStatus, started bool) corev1.ContainerStatus {
	cs.Started = &started
	return cs
}

func pcMarkReady(cs corev1.ContainerStatus) corev1.ContainerStatus {
	cs.Ready = true
	return cs
}

// pcRestartAgo is a pod with one running container restarted once, finished d
// before pcNow, for checking the "(X ago)" suffix.
func pcRestartAgo(d time.Duration) *corev1.Pod {
	return pcPod(corev1.PodRunning, pcApps(pcRestarted(pcRun("main", true), 1, d)))
}

func TestComputePrinterCases(t *testing.T) {
	var (
		v130 = Version{Major: 1, Minor: 30}
		v131 = Version{Major: 1, Minor: 31}
		v134 = Version{Major: 1, Minor: 34}
		v135 = Version{Major: 1, Minor: 35}
	)
	const (
		Pending   = corev1.PodPending
		Running   = corev1.PodRunning
		Succeeded = corev1.PodSucceeded
		Failed    = corev1.PodFailed
	)
	tests := []struct {
		name    string
		pod     *corev1.Pod
		version Version
		want    [4]string // READY, STATUS, RESTARTS, AGE
	}{
		// ---- phase alone ----
		{name: "phase Running without statuses", pod: pcPod(Running), want: [4]string{"0/1", "Running", "0", "2d2h"}},
		{name: "phase Succeeded without statuses", pod: pcPod(Succeeded), want: [4]string{"0/1", "Succeeded", "0", "2d2h"}},
		{name: "phase Failed without statuses", pod: pcPod(Failed), want: [4]string{"0/1", "Failed", "0", "2d2h"}},
		{name: "phase Unknown without statuses", pod: pcPod(corev1.PodUnknown), want: [4]string{"0/1", "Unknown", "0", "2d2h"}},
		{name: "empty phase prints an empty status", pod: pcPod(""), want: [4]string{"0/1", "", "0", "2d2h"}},
		{name: "three spec containers, no statuses", pod: pcPod(Pending, pcAppSpecs("a", "b", "c")), want: [4]string{"0/3", "Pending", "0", "2d2h"}},
		{name: "status without state leaves the phase (upstream test4)",
			pod:  pcPod(Pending, pcApps(pcRun("a", true), corev1.ContainerStatus{Name: "b", Ready: true})),
			want: [4]string{"1/2", "Pending", "0", "2d2h"}},
		{name: "waiting without reason leaves the phase",
			pod:  pcPod(Pending, pcApps(pcWait("main", ""))),
			want: [4]string{"0/1", "Pending", "0", "2d2h"}},

		// ---- status.reason ----
		{name: "NodeAffinity", pod: pcPod(Failed, pcReason("NodeAffinity")), want: [4]string{"0/1", "NodeAffinity", "0", "2d2h"}},
		{name: "UnexpectedAdmissionError", pod: pcPod(Failed, pcReason("UnexpectedAdmissionError")), want: [4]string{"0/1", "UnexpectedAdmissionError", "0", "2d2h"}},
		{name: "OutOfcpu", pod: pcPod(Failed, pcReason("OutOfcpu")), want: [4]string{"0/1", "OutOfcpu", "0", "2d2h"}},
		{name: "Evicted with a running not-ready container keeps Evicted",
			pod:  pcPod(Failed, pcReason("Evicted"), pcApps(pcRun("main", false))),
			want: [4]string{"0/1", "Evicted", "0", "2d2h"}},
		{name: "NodeLost without deletion prints the reason",
			pod:  pcPod(Running, pcReason("NodeLost"), pcApps(pcRun("main", true))),
			want: [4]string{"1/1", "NodeLost", "0", "2d2h"}},
		{name: "deleted Evicted pod from 1.31 keeps Evicted", pod: pcPod(Failed, pcReason("Evicted"), pcDeleted), version: v131,
			want: [4]string{"0/1", "Evicted", "0", "2d2h"}},
		{name: "deleted Evicted pod before 1.31 shows Terminating", pod: pcPod(Failed, pcReason("Evicted"), pcDeleted), version: v130,
			want: [4]string{"0/1", "Terminating", "0", "2d2h"}},
		{name: "deleted NodeLost pod in phase Failed shows Unknown",
			pod:  pcPod(Failed, pcReason("NodeLost"), pcDeleted, pcApps(pcTerm("main", "Error", 1, 0))),
			want: [4]string{"0/1", "Unknown", "0", "2d2h"}},
		{name: "deleted NodeLost pod before 1.31 shows Unknown",
			pod: pcPod(Running, pcReason("NodeLost"), pcDeleted, pcApps(pcRun("main", true))), version: v130,
			want: [4]string{"1/1", "Unknown", "0", "2d2h"}},

		// ---- scheduling gates ----
		{name: "SchedulingGated wins over status.reason",
			pod:  pcPod(Pending, pcReason("Something"), pcCond(corev1.PodScheduled, corev1.ConditionFalse, "SchedulingGated")),
			want: [4]string{"0/1", "SchedulingGated", "0", "2d2h"}},
		{name: "Unschedulable stays Pending",
			pod:  pcPod(Pending, pcCond(corev1.PodScheduled, corev1.ConditionFalse, "Unschedulable")),
			want: [4]string{"0/1", "Pending", "0", "2d2h"}},
		{name: "SchedulingGated reason counts whatever the condition status",
			pod:  pcPod(Pending, pcCond(corev1.PodScheduled, corev1.ConditionTrue, "SchedulingGated")),
			want: [4]string{"0/1", "SchedulingGated", "0", "2d2h"}},
		{name: "SchedulingGated on another condition type is ignored",
			pod:  pcPod(Pending, pcCond(corev1.PodReady, corev1.ConditionFalse, "SchedulingGated")),
			want: [4]string{"0/1", "Pending", "0", "2d2h"}},
		{name: "deleted gated pod shows Terminating",
			pod:  pcPod(Pending, pcCond(corev1.PodScheduled, corev1.ConditionFalse, "SchedulingGated"), pcDeleted),
			want: [4]string{"0/1", "Terminating", "0", "2d2h"}},

		// ---- init containers ----
		{name: "third of three init containers running",
			pod:  pcPod(Pending, pcInits(pcTerm("i1", "Completed", 0, 0), pcTerm("i2", "Completed", 0, 0), pcRun("i3", false)), pcApps(pcWait("main", "PodInitializing"))),
			want: [4]string{"0/1", "Init:2/3", "0", "2d2h"}},
		{name: "second of three init containers running, third waiting",
			pod:  pcPod(Pending, pcInits(pcTerm("i1", "Completed", 0, 0), pcRun("i2", false), pcWait("i3", "PodInitializing")), pcApps(pcWait("main", "PodInitializing"))),
			want: [4]string{"0/1", "Init:1/3", "0", "2d2h"}},
		{name: "init terminated exit 0 without reason is skipped (upstream test9)",
			pod:  pcPod(Pending, pcInits(pcTerm("i1", "", 0, 0), pcRun("i2", false)), pcApps(pcWait("main", ""))),
			want: [4]string{"0/1", "Init:1/2", "0", "2d2h"}},
		{name: "init waiting without reason counts as Init:N/M",
			pod:  pcPod(Pending, pcInits(pcWait("i1", "")), pcApps(pcWait("main", "PodInitializing"))),
			want: [4]string{"0/1", "Init:0/1", "0", "2d2h"}},
		{name: "init ImagePullBackOff on the second init container",
			pod:  pcPod(Pending, pcInits(pcTerm("i1", "Completed", 0, 0), pcWait("i2", "ImagePullBackOff")), pcApps(pcWait("main", "PodInitializing"))),
			want: [4]string{"0/1", "Init:ImagePullBackOff", "0", "2d2h"}},
		{name: "init ErrImagePull",
			pod:  pcPod(Pending, pcInits(pcWait("i1", "ErrImagePull")), pcApps(pcWait("main", "PodInitializing"))),
			want: [4]string{"0/1", "Init:ErrImagePull", "0", "2d2h"}},
		{name: "init CreateContainerConfigError",
			pod:  pcPod(Pending, pcInits(pcWait("i1", "CreateContainerConfigError")), pcApps(pcWait("main", "PodInitializing"))),
			want: [4]string{"0/1", "Init:CreateContainerConfigError", "0", "2d2h"}},
		{name: "init OOMKilled",
			pod:  pcPod(Failed, pcInits(pcTerm("i1", "OOMKilled", 137, 0)), pcApps(pcWait("main", "PodInitializing"))),
			want: [4]string{"0/1", "Init:OOMKilled", "0", "2d2h"}},
		{name: "init Signal:15 on the second init container",
			pod:  pcPod(Pending, pcInits(pcTerm("i1", "Completed", 0, 0), pcTerm("i2", "", 143, 15))),
			want: [4]string{"0/1", "Init:Signal:15", "0", "2d2h"}},
		{name: "init ExitCode:2 on the second init container",
			pod:  pcPod(Pending, pcInits(pcTerm("i1", "Completed", 0, 0), pcTerm("i2", "", 2, 0))),
			want: [4]string{"0/1", "Init:ExitCode:2", "0", "2d2h"}},
		{name: "first failing init container stops the walk",
			pod:  pcPod(Pending, pcInits(pcTerm("i1", "Error", 1, 0), pcWait("i2", "ImagePullBackOff"))),
			want: [4]string{"0/1", "Init:Error", "0", "2d2h"}},
		{name: "init containers in spec without statuses: app reason shows",
			pod:  pcPod(Pending, pcInitSpecs("i1", "i2"), pcApps(pcWait("main", "PodInitializing"))),
			want: [4]string{"0/1", "PodInitializing", "0", "2d2h"}},
		{name: "all init done, app ContainerCreating",
			pod:  pcPod(Pending, pcInits(pcTerm("i1", "Completed", 0, 0), pcTerm("i2", "Completed", 0, 0)), pcApps(pcWait("main", "ContainerCreating"))),
			want: [4]string{"0/1", "ContainerCreating", "0", "2d2h"}},
		{name: "all init done, app running and ready",
			pod:  pcPod(Running, pcInits(pcTerm("i1", "Completed", 0, 0), pcTerm("i2", "Completed", 0, 0), pcTerm("i3", "Completed", 0, 0)), pcApps(pcRun("main", true)), pcReadyCond),
			want: [4]string{"1/1", "Running", "0", "2d2h"}},
		{name: "app containers are not counted while initializing",
			pod:  pcPod(Pending, pcInits(pcRun("i1", false)), pcApps(pcRun("main", true))),
			want: [4]string{"0/1", "Init:0/1", "0", "2d2h"}},
		{name: "init status names unknown to the spec (upstream sidecar test4)",
			pod: pcPod(Running, pcInitSpecs("init1", "sidecar1"), pcSidecars("sidecar1"), func(p *corev1.Pod) {
				p.Status.InitContainerStatuses = []corev1.ContainerStatus{{Name: "initinvalid"}, {Name: "init1"}, {Name: "sidecar1"}}
				p.Spec.Containers = []corev1.Container{{Name: "container1"}}
				p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "containerinvalid"}, {Name: "container1"}}
			}),
			want: [4]string{"0/2", "Init:0/2", "0", "2d2h"}},
		{name: "deleted pending pod with failed init shows Terminating",
			pod:  pcPod(Pending, pcInits(pcTerm("i1", "Error", 1, 0)), pcDeleted),
			want: [4]string{"0/1", "Terminating", "0", "2d2h"}},
		{name: "deleted failed pod with failed init keeps Init:Error from 1.31",
			pod: pcPod(Failed, pcInits(pcTerm("i1", "Error", 1, 0)), pcDeleted), version: v131,
			want: [4]string{"0/1", "Init:Error", "0", "2d2h"}},

		// ---- restarts while initializing ----
		{name: "init restarts summed up to the blocking init container (upstream test10)",
			pod: pcPod(Pending,
				pcInits(pcRestarted(pcTerm("i1", "Completed", 0, 0), 2, 3*time.Minute), pcRestarted(pcRun("i2", false), 4, 25*time.Second)),
				pcApps(pcWait("main", "PodInitializing"))),
			want: [4]string{"0/1", "Init:1/2", "6 (25s ago)", "2d2h"}},
		{name: "init containers after the blocking one are not counted",
			pod: pcPod(Pending,
				pcInits(pcRestarted(pcRun("i1", false), 1, time.Hour), pcRestarted(pcWait("i2", "CrashLoopBackOff"), 5, time.Minute))),
			want: [4]string{"0/1", "Init:0/2", "1 (60m ago)", "2d2h"}},
		{name: "app restarts ignored while initializing",
			pod: pcPod(Pending,
				pcInits(pcRestarted(pcWait("i1", "CrashLoopBackOff"), 3, 4*time.Minute)),
				pcApps(pcRestarted(pcWait("main", "PodInitializing"), 7, 30*time.Second))),
			want: [4]string{"0/1", "Init:CrashLoopBackOff", "3 (4m ago)", "2d2h"}},
		{name: "regular init restarts dropped once initialized",
			pod: pcPod(Running,
				pcInits(pcRestarted(pcTerm("i1", "Completed", 0, 0), 5, 10*time.Second)),
				pcApps(pcRun("main", true))),
			want: [4]string{"1/1", "Running", "0", "2d2h"}},
		{name: "regular init restart date dropped once initialized (upstream test11)",
			pod: pcPod(Running,
				pcInits(pcRestarted(pcTerm("i1", "Completed", 0, 0), 2, 10*time.Second)),
				pcApps(pcRestarted(pcRun("main", false), 1, 45*time.Second))),
			want: [4]string{"0/1", "Running", "1 (45s ago)", "2d2h"}},

		// ---- restartable (sidecar) init containers ----
		{name: "started ready sidecar and ready app",
			pod: pcPod(Running, pcInits(pcStarted(pcRun("proxy", true), true)), pcSidecars("proxy"),
				pcApps(pcRun("main", true)), pcInitializedCond, pcReadyCond),
			want: [4]string{"2/2", "Running", "0", "2d2h"}},
		{name: "started sidecar not ready is not counted ready",
			pod: pcPod(Running, pcInits(pcStarted(pcRun("proxy", false), true)), pcSidecars("proxy"),
				pcApps(pcRun("main", true)), pcInitializedCond),
			want: [4]string{"1/2", "Running", "0", "2d2h"}},
		{name: "sidecar running but not started yet (upstream sidecar test1)",
			pod: pcPod(Pending, pcInits(pcStarted(pcRun("proxy", false), false)), pcSidecars("proxy"),
				pcApps(pcWait("main", "PodInitializing")), pcCond(corev1.PodInitialized, corev1.ConditionFalse, "ContainersNotInitialized")),
			want: [4]string{"0/2", "Init:0/1", "0", "2d2h"}},
		{name: "sidecar without started field counts as not started",
			pod: pcPod(Pending, pcInits(pcRun("proxy", true)), pcSidecars("proxy"),
				pcApps(pcWait("main", "PodInitializing"))),
			want: [4]string{"0/2", "Init:0/1", "0", "2d2h"}},
		{name: "first sidecar started and ready, second not started (upstream sidecar test1b)",
			pod: pcPod(Pending, pcInits(pcStarted(pcRun("s1", true), true), pcStarted(pcRun("s2", false), false)), pcSidecars("s1", "s2"),
				pcApps(pcWait("main", "PodInitializing"))),
			want: [4]string{"1/3", "Init:1/2", "0", "2d2h"}},
		{name: "regular, sidecar, regular: third init container running",
			pod: pcPod(Pending, pcInits(pcTerm("setup", "Completed", 0, 0), pcStarted(pcRun("proxy", true), true), pcRun("migrate", false)), pcSidecars("proxy"),
				pcApps(pcWait("main", "PodInitializing"))),
			want: [4]string{"1/2", "Init:2/3", "0", "2d2h"}},
		{name: "sidecar crash looping before it ever started",
			pod: pcPod(Pending, pcInits(pcStarted(pcRestarted(pcWait("proxy", "CrashLoopBackOff"), 6, 30*time.Second), false)), pcSidecars("proxy"),
				pcApps(pcWait("main", "PodInitializing"))),
			want: [4]string{"0/2", "Init:CrashLoopBackOff", "6 (30s ago)", "2d2h"}},
		{name: "while initializing, sidecar and regular init restarts both count",
			pod: pcPod(Pending,
				pcInits(pcStarted(pcRestarted(pcRun("proxy", true), 2, 20*time.Minute), true), pcRestarted(pcWait("migrate", "CrashLoopBackOff"), 3, time.Minute)),
				pcSidecars("proxy"), pcApps(pcWait("main", "PodInitializing"))),
			want: [4]string{"1/2", "Init:CrashLoopBackOff", "5 (60s ago)", "2d2h"}},
		{name: "once initialized only sidecar and app restarts count, latest of those",
			pod: pcPod(Running,
				pcInits(pcRestarted(pcTerm("setup", "Completed", 0, 0), 4, 5*time.Minute), pcStarted(pcRestarted(pcRun("proxy", true), 3, 4*time.Hour), true)),
				pcSidecars("proxy"),
				pcApps(pcRestarted(pcRun("main", true), 1, 24*time.Hour)), pcInitializedCond, pcReadyCond),
			want: [4]string{"2/2", "Running", "4 (4h ago)", "2d2h"}},
		{name: "two started sidecars and a restarted app (upstream sidecar test2)",
			pod: pcPod(Running,
				pcInits(pcStarted(pcRestarted(pcRun("s1", false), 3, 10*time.Second), true), pcStarted(pcRun("s2", false), true)),
				pcSidecars("s1", "s2"),
				pcApps(pcRestarted(pcRun("main", true), 4, 20*time.Second)), pcInitializedCond),
			want: [4]string{"1/3", "Running", "7 (10s ago)", "2d2h"}},
		{name: "Initialized True with a failed regular init container and a running app",
			pod:  pcPod(Running, pcInits(pcTerm("setup", "Error", 1, 0)), pcApps(pcRun("main", true)), pcInitializedCond),
			want: [4]string{"1/1", "Init:Error", "0", "2d2h"}},
		{name: "Initialized True with a failed regular init container, app reason wins",
			pod:  pcPod(Running, pcInits(pcTerm("setup", "Error", 1, 0)), pcApps(pcRestarted(pcWait("main", "CrashLoopBackOff"), 2, 3*time.Minute)), pcInitializedCond),
			want: [4]string{"0/1", "CrashLoopBackOff", "2 (3m ago)", "2d2h"}},
		{name: "Initialized False with a failed regular init container keeps Init:Error",
			pod:  pcPod(Running, pcInits(pcTerm("setup", "Error", 1, 0)), pcApps(pcRun("main", true)), pcCond(corev1.PodInitialized, corev1.ConditionFalse, "")),
			want: [4]string{"0/1", "Init:Error", "0", "2d2h"}},
		{name: "sidecar completed with exit 0 after the pod succeeded",
			pod: pcPod(Succeeded, pcInits(pcStarted(pcTerm("proxy", "Completed", 0, 0), false)), pcSidecars("proxy"),
				pcApps(pcTerm("main", "Completed", 0, 0)), pcInitializedCond),
			want: [4]string{"0/2", "Completed", "0", "2d2h"}},
		{name: "sidecars killed with 137 after the app completed (upstream sidecar test3)",
			pod: pcPod(Succeeded,
				pcInits(pcStarted(pcRestarted(pcTerm("s1", "Error", 137, 0), 3, 10*time.Second), false), pcStarted(pcTerm("s2", "Error", 137, 0), false)),
				pcSidecars("s1", "s2"),
				pcApps(pcRestarted(pcTerm("main", "Completed", 0, 0), 4, 20*time.Second)), pcInitializedCond),
			want: [4]string{"0/3", "Completed", "7 (10s ago)", "2d2h"}},
		{name: "sidecar status under a name the spec does not know is a regular init container",
			pod: pcPod(Pending, pcInits(pcStarted(pcRun("other", true), true)), func(p *corev1.Pod) {
				always := corev1.ContainerRestartPolicyAlways
				p.Spec.InitContainers = []corev1.Container{{Name: "proxy", RestartPolicy: &always}}
			}, pcApps(pcWait("main", "PodInitializing"))),
			want: [4]string{"0/2", "Init:0/1", "0", "2d2h"}},
		{name: "init restartPolicy Never is not a sidecar",
			pod: pcPod(Pending, pcInits(pcStarted(pcRun("setup", true), true)), func(p *corev1.Pod) {
				never := corev1.ContainerRestartPolicy("Never")
				p.Spec.InitContainers[0].RestartPolicy = &never
			}, pcApps(pcWait("main", "PodInitializing"))),
			want: [4]string{"0/1", "Init:0/1", "0", "2d2h"}},

		// ---- app containers, walked last to first ----
		{name: "crash loop left of a ready container",
			pod:  pcPod(Running, pcApps(pcRestarted(pcWait("a", "CrashLoopBackOff"), 8, 90*time.Second), pcRun("b", true))),
			want: [4]string{"1/2", "CrashLoopBackOff", "8 (90s ago)", "2d2h"}},
		{name: "crash loop right of a ready container",
			pod:  pcPod(Running, pcApps(pcRun("a", true), pcRestarted(pcWait("b", "CrashLoopBackOff"), 8, 119*time.Second))),
			want: [4]string{"1/2", "CrashLoopBackOff", "8 (119s ago)", "2d2h"}},
		{name: "two waiting containers: the leftmost reason wins",
			pod:  pcPod(Pending, pcApps(pcWait("a", "ImagePullBackOff"), pcWait("b", "ContainerCreating"))),
			want: [4]string{"0/2", "ImagePullBackOff", "0", "2d2h"}},
		{name: "terminated left of waiting: terminated reason wins",
			pod:  pcPod(Running, pcApps(pcTerm("a", "Error", 1, 0), pcWait("b", "CrashLoopBackOff"))),
			want: [4]string{"0/2", "Error", "0", "2d2h"}},
		{name: "waiting left of terminated: waiting reason wins (upstream test3)",
			pod:  pcPod(Running, pcApps(pcWait("a", "CrashLoopBackOff"), pcTerm("b", "OOMKilled", 137, 0))),
			want: [4]string{"0/2", "CrashLoopBackOff", "0", "2d2h"}},
		{name: "one ready one not ready running container",
			pod:  pcPod(Running, pcApps(pcRun("a", true), pcRun("b", false))),
			want: [4]string{"1/2", "Running", "0", "2d2h"}},
		{name: "ready flag on a waiting container is not counted",
			pod:  pcPod(Pending, pcApps(pcMarkReady(pcWait("main", "ContainerCreating")))),
			want: [4]string{"0/1", "ContainerCreating", "0", "2d2h"}},
		{name: "ready flag on a terminated container is not counted (upstream test6)",
			pod:  pcPod(Succeeded, pcApps(pcMarkReady(pcTerm("main", "Completed", 0, 0)))),
			want: [4]string{"0/1", "Completed", "0", "2d2h"}},
		{name: "completed and running-but-not-ready container stays Completed",
			pod:  pcPod(Running, pcApps(pcTerm("a", "Completed", 0, 0), pcRun("b", false)), pcReadyCond),
			want: [4]string{"0/2", "Completed", "0", "2d2h"}},
		{name: "completed and ready container with Ready False shows NotReady",
			pod:  pcPod(Running, pcApps(pcTerm("a", "Completed", 0, 0), pcRun("b", true)), pcCond(corev1.PodReady, corev1.ConditionFalse, "ContainersNotReady")),
			want: [4]string{"1/2", "NotReady", "0", "2d2h"}},
		{name: "completed and ready container flips to Running at 1.35",
			pod: pcPod(Running, pcApps(pcRun("a", true), pcTerm("b", "Completed", 0, 0)), pcReadyCond), version: v135,
			want: [4]string{"1/2", "Running", "0", "2d2h"}},
		{name: "terminated exit 0 without reason prints ExitCode:0",
			pod:  pcPod(Running, pcApps(pcTerm("main", "", 0, 0))),
			want: [4]string{"0/1", "ExitCode:0", "0", "2d2h"}},
		{name: "reason wins over signal",
			pod:  pcPod(Failed, pcApps(pcTerm("main", "Error", 137, 9))),
			want: [4]string{"0/1", "Error", "0", "2d2h"}},
		{name: "running, error, exit 0 without reason (upstream test23)",
			pod:  pcPod(Failed, pcApps(pcRun("a", true), pcMarkReady(pcTerm("b", "podCrash", 1, 0)), pcMarkReady(pcTerm("c", "", 0, 0)))),
			want: [4]string{"1/3", "podCrash", "0", "2d2h"}},
		{name: "error left of running ready container (upstream test21)",
			pod:  pcPod(Failed, pcApps(pcTerm("a", "podCrash", 1, 0), pcRun("b", true))),
			want: [4]string{"1/2", "podCrash", "0", "2d2h"}},

		// ---- Completed hiding a failure, by version ----
		{name: "Signal:9 right of Completed before 1.35",
			pod: pcPod(Failed, pcApps(pcTerm("a", "Completed", 0, 0), pcTerm("b", "", 137, 9))), version: v134,
			want: [4]string{"0/2", "Completed", "0", "2d2h"}},
		{name: "Signal:9 right of Completed from 1.35",
			pod: pcPod(Failed, pcApps(pcTerm("a", "Completed", 0, 0), pcTerm("b", "", 137, 9))), version: v135,
			want: [4]string{"0/2", "Signal:9", "0", "2d2h"}},
		{name: "ExitCode:3 right of Completed from 1.35",
			pod: pcPod(Failed, pcApps(pcTerm("a", "Completed", 0, 0), pcTerm("b", "", 3, 0))), version: v135,
			want: [4]string{"0/2", "ExitCode:3", "0", "2d2h"}},
		{name: "Error left of Completed before 1.35 shows Error",
			pod: pcPod(Failed, pcApps(pcTerm("a", "Error", 1, 0), pcTerm("b", "Completed", 0, 0))), version: v134,
			want: [4]string{"0/2", "Error", "0", "2d2h"}},
		{name: "Completed, Error, running ready without Ready condition before 1.35 shows NotReady",
			pod: pcPod(Running, pcApps(pcTerm("a", "Completed", 0, 0), pcTerm("b", "Error", 1, 0), pcRun("c", true))), version: v134,
			want: [4]string{"1/3", "NotReady", "0", "2d2h"}},
		{name: "Completed, Error, running ready without Ready condition from 1.35 shows Error",
			pod: pcPod(Running, pcApps(pcTerm("a", "Completed", 0, 0), pcTerm("b", "Error", 1, 0), pcRun("c", true))), version: v135,
			want: [4]string{"1/3", "Error", "0", "2d2h"}},
		{name: "leftmost failure wins behind Completed",
			pod:  pcPod(Failed, pcApps(pcTerm("a", "Completed", 0, 0), pcTerm("b", "OOMKilled", 137, 0), pcTerm("c", "Error", 1, 0))),
			want: [4]string{"0/3", "OOMKilled", "0", "2d2h"}},
		{name: "Completed, running ready, Error with Ready condition: Running wins",
			pod:  pcPod(Running, pcApps(pcTerm("a", "Completed", 0, 0), pcRun("b", true), pcTerm("c", "Error", 1, 0)), pcReadyCond),
			want: [4]string{"1/3", "Running", "0", "2d2h"},
		},
		{name: "Completed, waiting, Error: the failure behind Completed wins",
			pod:  pcPod(Running, pcApps(pcTerm("a", "Completed", 0, 0), pcWait("b", "ContainerCreating"), pcTerm("c", "Error", 1, 0))),
			want: [4]string{"0/3", "Error", "0", "2d2h"},
		},
		{name: "Completed left of an exit-0 container without reason",
			pod:  pcPod(Succeeded, pcApps(pcTerm("a", "Completed", 0, 0), pcTerm("b", "", 0, 0))),
			want: [4]string{"0/2", "Completed", "0", "2d2h"},
		},
		{name: "Completed left of a signalled container that exited 0",
			pod:  pcPod(Succeeded, pcApps(pcTerm("a", "Completed", 0, 0), pcTerm("b", "", 0, 15))),
			want: [4]string{"0/2", "Completed", "0", "2d2h"},
		},
		{name: "Completed, running ready, exit 0 without reason, no Ready condition: NotReady",
			pod:  pcPod(Running, pcApps(pcTerm("a", "Completed", 0, 0), pcRun("b", true), pcTerm("c", "", 0, 0))),
			want: [4]string{"1/3", "NotReady", "0", "2d2h"},
		},

		// ---- Terminating ----
		{name: "deleted failed pod keeps Error from 1.31",
			pod: pcPod(Failed, pcApps(pcTerm("main", "Error", 1, 0)), pcDeleted), version: v131,
			want: [4]string{"0/1", "Error", "0", "2d2h"}},
		{name: "deleted failed pod shows Terminating before 1.31",
			pod: pcPod(Failed, pcApps(pcTerm("main", "Error", 1, 0)), pcDeleted), version: v130,
			want: [4]string{"0/1", "Terminating", "0", "2d2h"}},
		{name: "deleted pod in phase Unknown shows Terminating",
			pod:  pcPod(corev1.PodUnknown, pcApps(pcRun("main", true)), pcDeleted),
			want: [4]string{"1/1", "Terminating", "0", "2d2h"}},
		{name: "deleted pending pod without statuses (upstream test20)",
			pod:  pcPod(Pending, pcDeleted),
			want: [4]string{"0/1", "Terminating", "0", "2d2h"}},
		{name: "deleted crash looping pod keeps its restarts",
			pod:  pcPod(Running, pcApps(pcRestarted(pcWait("main", "CrashLoopBackOff"), 3, 150*time.Second)), pcDeleted),
			want: [4]string{"0/1", "Terminating", "3 (2m30s ago)", "2d2h"}},

		// ---- RESTARTS ----
		{name: "restart count without last state terminated has no suffix",
			pod:  pcPod(Running, pcApps(pcCount(pcRun("a", true), 2), pcCount(pcRun("b", true), 1))),
			want: [4]string{"2/2", "Running", "3", "2d2h"}},
		{name: "last state with zero finishedAt has no suffix",
			pod: pcPod(Running, pcApps(func() corev1.ContainerStatus {
				c := pcRun("main", true)
				c.RestartCount = 3
				c.LastTerminationState.Terminated = &corev1.ContainerStateTerminated{ExitCode: 1}
				return c
			}())),
			want: [4]string{"1/1", "Running", "3", "2d2h"}},
		{name: "last state without restart count prints 0",
			pod:  pcPod(Running, pcApps(pcRestarted(pcRun("main", true), 0, 5*time.Minute))),
			want: [4]string{"1/1", "Running", "0", "2d2h"}},
		{name: "latest finishedAt taken from a container with no restarts",
			pod:  pcPod(Running, pcApps(pcRestarted(pcRun("a", true), 2, time.Hour), pcRestarted(pcRun("b", true), 0, 5*time.Minute))),
			want: [4]string{"2/2", "Running", "2 (5m ago)", "2d2h"}},
		{name: "restarts summed 5d and 20d ago (upstream test14)",
			pod:  pcPod(Running, pcApps(pcRestarted(pcRun("a", true), 6, 5*24*time.Hour), pcRestarted(pcRun("b", true), 3, 20*24*time.Hour))),
			want: [4]string{"2/2", "Running", "9 (5d ago)", "2d2h"}},
		{name: "ago 59s", pod: pcRestartAgo(59 * time.Second), want: [4]string{"1/1", "Running", "1 (59s ago)", "2d2h"}},
		{name: "ago 119s", pod: pcRestartAgo(119 * time.Second), want: [4]string{"1/1", "Running", "1 (119s ago)", "2d2h"}},
		{name: "ago 120s is 2m", pod: pcRestartAgo(120 * time.Second), want: [4]string{"1/1", "Running", "1 (2m ago)", "2d2h"}},
		{name: "ago 9m59s", pod: pcRestartAgo(9*time.Minute + 59*time.Second), want: [4]string{"1/1", "Running", "1 (9m59s ago)", "2d2h"}},
		{name: "ago 10m30s drops seconds", pod: pcRestartAgo(10*time.Minute + 30*time.Second), want: [4]string{"1/1", "Running", "1 (10m ago)", "2d2h"}},
		{name: "ago 179m", pod: pcRestartAgo(179 * time.Minute), want: [4]string{"1/1", "Running", "1 (179m ago)", "2d2h"}},
		{name: "ago 3h", pod: pcRestartAgo(3 * time.Hour), want: [4]string{"1/1", "Running", "1 (3h ago)", "2d2h"}},
		{name: "ago 7h59m", pod: pcRestartAgo(7*time.Hour + 59*time.Minute), want: [4]string{"1/1", "Running", "1 (7h59m ago)", "2d2h"}},
		{name: "ago 8h30m drops minutes", pod: pcRestartAgo(8*time.Hour + 30*time.Minute), want: [4]string{"1/1", "Running", "1 (8h ago)", "2d2h"}},
		{name: "ago 47h", pod: pcRestartAgo(47 * time.Hour), want: [4]string{"1/1", "Running", "1 (47h ago)", "2d2h"}},
		{name: "ago 48h is 2d", pod: pcRestartAgo(48 * time.Hour), want: [4]string{"1/1", "Running", "1 (2d ago)", "2d2h"}},
		{name: "ago 7d23h", pod: pcRestartAgo(7*24*time.Hour + 23*time.Hour), want: [4]string{"1/1", "Running", "1 (7d23h ago)", "2d2h"}},
		{name: "ago 8d5h drops hours", pod: pcRestartAgo(8*24*time.Hour + 5*time.Hour), want: [4]string{"1/1", "Running", "1 (8d ago)", "2d2h"}},
		{name: "ago 730d is 2y", pod: pcRestartAgo(730 * 24 * time.Hour), want: [4]string{"1/1", "Running", "1 (2y ago)", "2d2h"}},
		{name: "ago 3y10d", pod: pcRestartAgo((3*365 + 10) * 24 * time.Hour), want: [4]string{"1/1", "Running", "1 (3y10d ago)", "2d2h"}},
		{name: "ago 9y drops days", pod: pcRestartAgo((9*365 + 100) * 24 * time.Hour), want: [4]string{"1/1", "Running", "1 (9y ago)", "2d2h"}},
		{name: "finishedAt 1s in the future is 0s", pod: pcRestartAgo(-time.Second), want: [4]string{"1/1", "Running", "1 (0s ago)", "2d2h"}},
		{name: "finishedAt 5s in the future is invalid", pod: pcRestartAgo(-5 * time.Second), want: [4]string{"1/1", "Running", "1 (<invalid> ago)", "2d2h"}},

		// ---- AGE ----
		{name: "no creationTimestamp", pod: pcPod(Pending, pcNoCreation), want: [4]string{"0/1", "Pending", "0", "<unknown>"}},
		{name: "created 1s in the future", pod: pcPod(Pending, pcCreated(-time.Second)), want: [4]string{"0/1", "Pending", "0", "0s"}},
		{name: "created 10s in the future", pod: pcPod(Pending, pcCreated(-10*time.Second)), want: [4]string{"0/1", "Pending", "0", "<invalid>"}},
		{name: "created just now", pod: pcPod(Pending, pcCreated(0)), want: [4]string{"0/1", "Pending", "0", "0s"}},
		{name: "created 100 minutes ago", pod: pcPod(Pending, pcCreated(100*time.Minute)), want: [4]string{"0/1", "Pending", "0", "100m"}},
		{name: "created 90 days ago", pod: pcPod(Running, pcCreated(90*24*time.Hour), pcApps(pcRun("main", true))), want: [4]string{"1/1", "Running", "0", "90d"}},
		{name: "created 10 years ago", pod: pcPod(Running, pcCreated(10*365*24*time.Hour), pcApps(pcRun("main", true))), want: [4]string{"1/1", "Running", "0", "10y"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Compute(tt.pod, pcNow, tt.version)
			got := [4]string{c.Ready, c.Status, c.Restarts, c.Age}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("columns mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
