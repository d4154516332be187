package podstatus

// Each boundary release of the pod printer (see Version) on the pods whose
// columns it changed: every case lists what the release before it, the release
// itself and the newest printer show. The expected strings were read off
// printPod in k8s.io/kubernetes pkg/printers/internalversion/printers.go at
// v1.21.14, v1.22.17, v1.26.15, v1.28.15, v1.31.14 and v1.35.4;
// tools/podcheck/releases runs each of those printers on generated pods.

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
)

func TestComputeBoundaryReleases(t *testing.T) {
	v := func(minor int) Version { return Version{Major: 1, Minor: minor} }
	const (
		Pending   = corev1.PodPending
		Running   = corev1.PodRunning
		Succeeded = corev1.PodSucceeded
		Failed    = corev1.PodFailed
	)
	// initRestarted is a pod whose init container once failed (restart
	// finished 3 h ago) and whose app container runs.
	initRestarted := func(opts ...pcOpt) *corev1.Pod {
		p := pcPod(Running, append([]pcOpt{
			pcInits(pcRestarted(pcTerm("setup", "Completed", 0, 0), 1, 3*time.Hour)),
			pcApps(pcRun("main", true)), pcReadyCond,
		}, opts...)...)
		return p
	}
	// sidecarPod has a started, ready sidecar (restarted twice, last 5 m
	// ago) and a running app container.
	sidecarPod := func(opts ...pcOpt) *corev1.Pod {
		return pcPod(Running, append([]pcOpt{
			pcInits(pcRestarted(pcMarkReady(pcStarted(pcRun("proxy", true), true)), 2, 5*time.Minute)),
			pcSidecars("proxy"),
			pcApps(pcRun("main", true)), pcReadyCond,
		}, opts...)...)
	}
	type want struct {
		version Version
		cols    [4]string // READY, STATUS, RESTARTS, AGE
	}
	tests := []struct {
		name  string
		pod   *corev1.Pod
		wants []want
	}{
		{"1.22: restarts gain (… ago)", pcRestartAgo(47 * time.Minute), []want{
			{v(20), [4]string{"1/1", "Running", "1", "2d2h"}},
			{v(21), [4]string{"1/1", "Running", "1", "2d2h"}},
			{v(22), [4]string{"1/1", "Running", "1 (47m ago)", "2d2h"}},
			{Version{}, [4]string{"1/1", "Running", "1 (47m ago)", "2d2h"}},
		}},
		{"1.21: crash loop prints the bare count",
			pcPod(Running, pcApps(pcRestarted(pcWait("main", "CrashLoopBackOff"), 12, 2*time.Minute))), []want{
				{v(21), [4]string{"0/1", "CrashLoopBackOff", "12", "2d2h"}},
				{v(22), [4]string{"0/1", "CrashLoopBackOff", "12 (2m ago)", "2d2h"}},
			}},
		{"1.22–1.27: an init restart time survives the app pass (0 (3h ago))", initRestarted(), []want{
			{v(21), [4]string{"1/1", "Running", "0", "2d2h"}},
			{v(22), [4]string{"1/1", "Running", "0 (3h ago)", "2d2h"}},
			{v(27), [4]string{"1/1", "Running", "0 (3h ago)", "2d2h"}},
			{v(28), [4]string{"1/1", "Running", "0", "2d2h"}},
			{Version{}, [4]string{"1/1", "Running", "0", "2d2h"}},
		}},
		{"1.26: SchedulingGated",
			pcPod(Pending, pcCond(corev1.PodScheduled, corev1.ConditionFalse, "SchedulingGated")), []want{
				{v(21), [4]string{"0/1", "Pending", "0", "2d2h"}},
				{v(25), [4]string{"0/1", "Pending", "0", "2d2h"}},
				{v(26), [4]string{"0/1", "SchedulingGated", "0", "2d2h"}},
				{Version{}, [4]string{"0/1", "SchedulingGated", "0", "2d2h"}},
			}},
		{"1.28: a started sidecar counts in READY and RESTARTS", sidecarPod(), []want{
			// Before 1.28 it is an init container that has not finished.
			{v(21), [4]string{"0/1", "Init:0/1", "2", "2d2h"}},
			{v(22), [4]string{"0/1", "Init:0/1", "2 (5m ago)", "2d2h"}},
			{v(27), [4]string{"0/1", "Init:0/1", "2 (5m ago)", "2d2h"}},
			{v(28), [4]string{"2/2", "Running", "2 (5m ago)", "2d2h"}},
			{Version{}, [4]string{"2/2", "Running", "2 (5m ago)", "2d2h"}},
		}},
		{"1.28: Initialized True runs the app pass past an unfinished init status",
			pcPod(Running, pcInits(pcWait("setup", "PodInitializing")), pcApps(pcRun("main", true)), pcInitializedCond, pcReadyCond), []want{
				{v(27), [4]string{"0/1", "Init:0/1", "0", "2d2h"}},
				// The running container counts; the status keeps Init:0/1.
				{v(28), [4]string{"1/1", "Init:0/1", "0", "2d2h"}},
			}},
		{"1.28: Initialized True lets a terminated app container's reason show",
			pcPod(Running, pcInits(pcWait("setup", "PodInitializing")), pcApps(pcRestarted(pcWait("main", "CrashLoopBackOff"), 3, time.Minute)), pcInitializedCond), []want{
				{v(22), [4]string{"0/1", "Init:0/1", "0", "2d2h"}},
				{v(28), [4]string{"0/1", "CrashLoopBackOff", "3 (60s ago)", "2d2h"}},
			}},
		{"1.28: a pod initialising after an init restart",
			pcPod(Pending, pcInits(pcRestarted(pcWait("setup", "CrashLoopBackOff"), 4, 90*time.Second))), []want{
				{v(21), [4]string{"0/1", "Init:CrashLoopBackOff", "4", "2d2h"}},
				{v(22), [4]string{"0/1", "Init:CrashLoopBackOff", "4 (90s ago)", "2d2h"}},
				{v(28), [4]string{"0/1", "Init:CrashLoopBackOff", "4 (90s ago)", "2d2h"}},
			}},
		{"1.31: a deleted Failed pod keeps its status", pcPod(Failed, pcApps(pcTerm("main", "Error", 1, 0)), pcDeleted), []want{
			{v(21), [4]string{"0/1", "Terminating", "0", "2d2h"}},
			{v(30), [4]string{"0/1", "Terminating", "0", "2d2h"}},
			{v(31), [4]string{"0/1", "Error", "0", "2d2h"}},
			{Version{}, [4]string{"0/1", "Error", "0", "2d2h"}},
		}},
		{"1.31: a deleted running pod is Terminating in every release",
			pcPod(Running, pcApps(pcRun("main", true)), pcDeleted), []want{
				{v(21), [4]string{"1/1", "Terminating", "0", "2d2h"}},
				{v(31), [4]string{"1/1", "Terminating", "0", "2d2h"}},
			}},
		{"1.35: Completed gives way to a failed container's reason",
			pcPod(Failed, pcApps(pcTerm("main", "Completed", 0, 0), pcTerm("side", "Error", 2, 0))), []want{
				{v(21), [4]string{"0/2", "Completed", "0", "2d2h"}},
				{v(34), [4]string{"0/2", "Completed", "0", "2d2h"}},
				{v(35), [4]string{"0/2", "Error", "0", "2d2h"}},
				{Version{}, [4]string{"0/2", "Error", "0", "2d2h"}},
			}},
		{"1.35: Completed with a running container in a not-Ready pod",
			pcPod(Running, pcApps(pcTerm("main", "Completed", 0, 0), pcRun("a", true), pcTerm("b", "", 3, 0))), []want{
				{v(34), [4]string{"1/3", "NotReady", "0", "2d2h"}},
				{v(35), [4]string{"1/3", "ExitCode:3", "0", "2d2h"}},
			}},
	}
	for _, tt := range tests {
		for _, w := range tt.wants {
			c := Compute(tt.pod, pcNow, w.version)
			got := [4]string{c.Ready, c.Status, c.Restarts, c.Age}
			if d := cmp.Diff(w.cols, got); d != "" {
				t.Errorf("%s at %s (-want +got):\n%s", tt.name, w.version, d)
			}
		}
	}
}

// TestVersionOrder checks that PrinterReleases ascend and that Version orders
// as releases do, the zero Version last.
func TestVersionOrder(t *testing.T) {
	for i := 1; i < len(PrinterReleases); i++ {
		if !PrinterReleases[i-1].Less(PrinterReleases[i]) {
			t.Errorf("PrinterReleases not ascending at %v", PrinterReleases[i])
		}
	}
	if (Version{}).Less(Version{1, 99}) || !(Version{1, 99}).Less(Version{}) {
		t.Error("the zero Version must be the newest")
	}
	if got := (Version{1, 21}).String(); got != "1.21" {
		t.Errorf("String = %q", got)
	}
}
