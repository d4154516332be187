// Package podstatus derives the columns `kubectl get pods` prints for a pod
// (READY, STATUS, RESTARTS, AGE) at a given instant, following the upstream pod
// printer (printPod in kubernetes pkg/printers/internalversion). It owns only
// that derivation; it does not read files or judge health beyond the columns.
package podstatus

import (
	"fmt"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/duration"
)

// Columns are the kubectl columns of one pod, as the exact strings kubectl
// prints, plus the numbers they were made from.
type Columns struct {
	Ready    string // "1/2"
	Status   string // "CrashLoopBackOff", "Init:0/2", "Terminating", ...
	Restarts string // "5 (2m ago)" or "0"
	Age      string // "3d4h"; "<unknown>" without a creationTimestamp

	ReadyContainers int
	TotalContainers int
	RestartCount    int
	// LastRestart is the latest lastState.terminated.finishedAt counted in
	// RESTARTS; zero when there is none.
	LastRestart time.Time
}

// Healthy reports whether a pod with these columns is healthy: STATUS
// Running with every container ready, or STATUS Completed. It is the one
// test of "healthy" (model.Pod.Healthy, rules and reports read it).
func (c Columns) Healthy() bool {
	return (c.Status == "Running" && c.ReadyContainers == c.TotalContainers) || c.Status == "Completed"
}

// Version is the Kubernetes minor release of the API server whose printer
// behaviour to follow. The zero Version means "newest". The printer changed in
// these releases (k8s.io/kubernetes pkg/printers/internalversion printPod);
// every other release prints as the one before it:
//
//   - 1.22: RESTARTS gains " (<age> ago)" from the latest
//     lastState.terminated.finishedAt; 1.21 and older print the bare count.
//   - 1.26: a PodScheduled condition with reason SchedulingGated gives STATUS
//     SchedulingGated.
//   - 1.28: restartable init containers (sidecars) count in READY and RESTARTS,
//     a started sidecar does not stop the init walk, the app-container pass also
//     runs when the Initialized condition is True, and "(… ago)" needs a non-zero
//     count. Before, the app pass ran only when every init container finished and
//     kept the init containers' latest finishedAt ("0 (3h ago)").
//   - 1.31: a pod with a deletionTimestamp in phase Succeeded or Failed is no
//     longer Terminating.
//   - 1.35: a Completed left by the container loop gives way, in a pod with no
//     running container or not Ready, to the reason of the leftmost container
//     that terminated with a non-zero exit code.
type Version struct {
	Major, Minor int
}

// String is "1.21", or "newest" for the zero Version.
func (v Version) String() string {
	if v.Major == 0 {
		return "newest"
	}
	return fmt.Sprintf("%d.%d", v.Major, v.Minor)
}

// Less reports whether v is an older release than w; the zero Version is the
// newest of all.
func (v Version) Less(w Version) bool {
	switch {
	case v.Major == 0:
		return false
	case w.Major == 0:
		return true
	case v.Major != w.Major:
		return v.Major < w.Major
	}
	return v.Minor < w.Minor
}

// atLeast reports whether v is the given release or newer; unknown counts as newest.
func (v Version) atLeast(major, minor int) bool {
	if v.Major == 0 {
		return true
	}
	return v.Major > major || (v.Major == major && v.Minor >= minor)
}

// PrinterReleases are the releases whose pod printer differs from the release
// before, oldest first (see Version). A printer of any other release prints as
// the newest of these that is not newer than it.
var PrinterReleases = []Version{{1, 21}, {1, 22}, {1, 26}, {1, 28}, {1, 31}, {1, 35}}

// nodeUnreachablePodReason is the status.reason the node lifecycle controller
// sets on pods of a node that stopped reporting.
const nodeUnreachablePodReason = "NodeLost"

// Compute returns the kubectl columns of pod as seen at now by an API server of
// release v. Durations are measured from now, never from the wall clock.
func Compute(pod *corev1.Pod, now time.Time, v Version) Columns {
	var c Columns
	var lastRestart, lastSidecarRestart time.Time
	sidecarRestarts := 0
	c.TotalContainers = len(pod.Spec.Containers)
	// Restartable init containers exist, and the printer knows them, from 1.28.
	sidecars := v.atLeast(1, 28)

	reason := string(pod.Status.Phase)
	if pod.Status.Reason != "" {
		reason = pod.Status.Reason
	}
	if v.atLeast(1, 26) {
		for _, cond := range pod.Status.Conditions {
			if cond.Type == corev1.PodScheduled && cond.Reason == corev1.PodReasonSchedulingGated {
				reason = corev1.PodReasonSchedulingGated
			}
		}
	}

	initSpecs := make(map[string]*corev1.Container, len(pod.Spec.InitContainers))
	for i := range pod.Spec.InitContainers {
		ic := &pod.Spec.InitContainers[i]
		initSpecs[ic.Name] = ic
		if sidecars && IsSidecar(ic) {
			c.TotalContainers++
		}
	}

	initializing := false
	for i := range pod.Status.InitContainerStatuses {
		st := &pod.Status.InitContainerStatuses[i]
		c.RestartCount += int(st.RestartCount)
		if t := st.LastTerminationState.Terminated; t != nil && lastRestart.Before(t.FinishedAt.Time) {
			lastRestart = t.FinishedAt.Time
		}
		sidecar := sidecars && IsSidecar(initSpecs[st.Name])
		if sidecar {
			sidecarRestarts += int(st.RestartCount)
			if t := st.LastTerminationState.Terminated; t != nil && lastSidecarRestart.Before(t.FinishedAt.Time) {
				lastSidecarRestart = t.FinishedAt.Time
			}
		}
		switch {
		case st.State.Terminated != nil && st.State.Terminated.ExitCode == 0:
			continue
		case sidecar && st.Started != nil && *st.Started:
			if st.Ready {
				c.ReadyContainers++
			}
			continue
		case st.State.Terminated != nil:
			t := st.State.Terminated
			switch {
			case t.Reason != "":
				reason = "Init:" + t.Reason
			case t.Signal != 0:
				reason = fmt.Sprintf("Init:Signal:%d", t.Signal)
			default:
				reason = fmt.Sprintf("Init:ExitCode:%d", t.ExitCode)
			}
		case st.State.Waiting != nil && st.State.Waiting.Reason != "" && st.State.Waiting.Reason != "PodInitializing":
			reason = "Init:" + st.State.Waiting.Reason
		default:
			reason = fmt.Sprintf("Init:%d/%d", i, len(pod.Spec.InitContainers))
		}
		initializing = true
		break
	}

	if !initializing || (v.atLeast(1, 28) && initializedTrue(pod)) {
		if v.atLeast(1, 28) {
			c.RestartCount = sidecarRestarts
			lastRestart = lastSidecarRestart
		} else {
			// Before 1.28 the count restarts from zero but the time
			// keeps the init containers' latest finishedAt.
			c.RestartCount = 0
		}
		hasRunning := false
		// failedReason is the reason of the leftmost container that exited
		// with a non-zero code. From 1.35 it replaces a "Completed" that a
		// container further left would otherwise show.
		failedReason := ""
		for i := len(pod.Status.ContainerStatuses) - 1; i >= 0; i-- {
			st := &pod.Status.ContainerStatuses[i]
			c.RestartCount += int(st.RestartCount)
			if t := st.LastTerminationState.Terminated; t != nil && lastRestart.Before(t.FinishedAt.Time) {
				lastRestart = t.FinishedAt.Time
			}
			t := st.State.Terminated
			switch {
			case st.State.Waiting != nil && st.State.Waiting.Reason != "":
				reason = st.State.Waiting.Reason
			case t != nil:
				reason = terminatedReason(t)
				if t.ExitCode != 0 {
					failedReason = reason
				}
			case st.Ready && st.State.Running != nil:
				hasRunning = true
				c.ReadyContainers++
			}
		}
		if reason == "Completed" {
			switch {
			case hasRunning && readyTrue(pod):
				reason = "Running"
			case failedReason != "" && v.atLeast(1, 35):
				reason = failedReason
			case hasRunning:
				reason = "NotReady"
			}
		}
	}

	if pod.DeletionTimestamp != nil {
		switch {
		case pod.Status.Reason == nodeUnreachablePodReason:
			reason = "Unknown"
		case !v.atLeast(1, 31) || !terminalPhase(pod.Status.Phase):
			reason = "Terminating"
		}
	}

	c.Status = reason
	c.Ready = fmt.Sprintf("%d/%d", c.ReadyContainers, c.TotalContainers)
	c.LastRestart = lastRestart
	c.Restarts = strconv.Itoa(c.RestartCount)
	switch {
	case !v.atLeast(1, 22):
		// 1.21 prints the bare count.
	case lastRestart.IsZero():
	case now.IsZero():
		// No collection time: the bare count, no "(<unknown> ago)".
	case v.atLeast(1, 28) && c.RestartCount == 0:
	default:
		c.Restarts = fmt.Sprintf("%d (%s ago)", c.RestartCount, Since(lastRestart, now))
	}
	c.Age = Since(pod.CreationTimestamp.Time, now)
	return c
}

// terminatedReason is the STATUS word of a terminated container: its reason,
// else "Signal:N", else "ExitCode:N".
func terminatedReason(t *corev1.ContainerStateTerminated) string {
	switch {
	case t.Reason != "":
		return t.Reason
	case t.Signal != 0:
		return fmt.Sprintf("Signal:%d", t.Signal)
	}
	return fmt.Sprintf("ExitCode:%d", t.ExitCode)
}

// Since formats now-t the way kubectl's translateTimestampSince does:
// "<unknown>" for a zero t, otherwise the human duration ("5m", "3d4h").
// A zero now (a part of the upload without a collection time of its own)
// is "<unknown>" too: no other part's clock stands in.
func Since(t, now time.Time) string {
	if t.IsZero() || now.IsZero() {
		return "<unknown>"
	}
	return duration.HumanDuration(now.Sub(t))
}

// IsSidecar reports whether an init container is a restartable (sidecar) init
// container: restartPolicy Always on the container itself (Kubernetes 1.28+).
// It is false for a nil container. Every layer asks it; none reads the
// restart policy itself.
func IsSidecar(c *corev1.Container) bool {
	return c != nil && c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways
}

// initializedTrue is the printer's isPodInitializedConditionTrue: the status
// of the first Initialized condition is True.
func initializedTrue(pod *corev1.Pod) bool {
	for _, cond := range pod.Status.Conditions {
		if cond.Type == corev1.PodInitialized {
			return cond.Status == corev1.ConditionTrue
		}
	}
	return false
}

// readyTrue is the printer's hasPodReadyCondition: any Ready condition is True.
func readyTrue(pod *corev1.Pod) bool {
	for _, cond := range pod.Status.Conditions {
		if cond.Type == corev1.PodReady && cond.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

func terminalPhase(p corev1.PodPhase) bool {
	return p == corev1.PodSucceeded || p == corev1.PodFailed
}
