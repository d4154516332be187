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

// Version is the Kubernetes minor release of the API server whose printer
// behaviour to follow. The zero Version means "newest".
type Version struct {
	Major, Minor int
}

// atLeast reports whether v is the given release or newer; unknown counts as newest.
func (v Version) atLeast(major, minor int) bool {
	if v.Major == 0 {
		return true
	}
	return v.Major > major || (v.Major == major && v.Minor >= minor)
}

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

	reason := string(pod.Status.Phase)
	if pod.Status.Reason != "" {
		reason = pod.Status.Reason
	}
	for _, cond := range pod.Status.Conditions {
		if cond.Type == corev1.PodScheduled && cond.Reason == corev1.PodReasonSchedulingGated {
			reason = corev1.PodReasonSchedulingGated
		}
	}

	initSpecs := make(map[string]*corev1.Container, len(pod.Spec.InitContainers))
	for i := range pod.Spec.InitContainers {
		ic := &pod.Spec.InitContainers[i]
		initSpecs[ic.Name] = ic
		if isSidecar(ic) {
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
		sidecar := isSidecar(initSpecs[st.Name])
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

	if !initializing || conditionTrue(pod, corev1.PodInitialized) {
		c.RestartCount = sidecarRestarts
		lastRestart = lastSidecarRestart
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
			case hasRunning && conditionTrue(pod, corev1.PodReady):
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
	if c.RestartCount != 0 && !lastRestart.IsZero() {
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
func Since(t, now time.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return duration.HumanDuration(now.Sub(t))
}

// isSidecar reports whether an init container is a restartable (sidecar) init
// container: restartPolicy Always on the container itself.
func isSidecar(c *corev1.Container) bool {
	return c != nil && c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways
}

func conditionTrue(pod *corev1.Pod, t corev1.PodConditionType) bool {
	for _, cond := range pod.Status.Conditions {
		if cond.Type == t {
			return cond.Status == corev1.ConditionTrue
		}
	}
	return false
}

func terminalPhase(p corev1.PodPhase) bool {
	return p == corev1.PodSucceeded || p == corev1.PodFailed
}
