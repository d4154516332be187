package podstatus

import (
	"time"

	corev1 "k8s.io/api/core/v1"
)

// Stage is the first pod condition of the startup sequence PodScheduled →
// PodReadyToStartContainers (PodHasNetwork before Kubernetes 1.29) →
// Initialized → ContainersReady → Ready that is not True. Condition is empty
// when every condition present is True or the pod has terminated.
type Stage struct {
	// Name is Condition when the pod stopped at one, else StageStarted (every
	// startup condition True) or StageTerminated (phase Succeeded or Failed).
	Name      string
	Condition string
	Status    string // False or Unknown; "Missing" when the pod has no conditions yet
	Since     time.Time
	Reason    string
	Message   string
	// LookAt says what to examine for a pod stopped at this stage.
	LookAt string
}

// Stage names for pods that did not stop at a startup condition.
const (
	StageStarted    = "Started"
	StageTerminated = "Terminated"
)

// startupConditions is the order in which a pod's startup conditions turn True.
var startupConditions = []corev1.PodConditionType{
	corev1.PodScheduled, corev1.PodReadyToStartContainers, "PodHasNetwork",
	corev1.PodInitialized, corev1.ContainersReady, corev1.PodReady,
}

var lookAt = map[corev1.PodConditionType]string{
	corev1.PodScheduled:              "scheduling: resource requests against node capacity, node selector and affinity, taints and tolerations, unbound PersistentVolumeClaims",
	corev1.PodReadyToStartContainers: "sandbox: volume mounts (Secrets, ConfigMaps, PVCs), the CNI plugin (Multus / OVN-Kubernetes / SDN) on the node, CRI-O",
	"PodHasNetwork":                  "sandbox: volume mounts (Secrets, ConfigMaps, PVCs), the CNI plugin (Multus / OVN-Kubernetes / SDN) on the node, CRI-O",
	corev1.PodInitialized:            "init containers: their logs and exit codes, image pulls, what they wait for",
	corev1.ContainersReady:           "containers: image pulls, start command, exit codes and logs, startup and readiness probes",
	corev1.PodReady:                  "readiness: readiness probes and readinessGates (conditions set by other controllers)",
}

// StartupStage returns the first startup condition of pod that is not True.
// Terminated pods (Succeeded, Failed) have no stage. Conditions absent from the
// pod are skipped (older releases lack some), except that a pod with no
// conditions at all is waiting to be scheduled.
func StartupStage(pod *corev1.Pod) Stage {
	if pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
		return Stage{Name: StageTerminated}
	}
	if len(pod.Status.Conditions) == 0 {
		return Stage{Name: string(corev1.PodScheduled), Condition: string(corev1.PodScheduled), Status: "Missing", LookAt: lookAt[corev1.PodScheduled]}
	}
	for _, t := range startupConditions {
		for _, c := range pod.Status.Conditions {
			if c.Type != t || c.Status == corev1.ConditionTrue {
				continue
			}
			return Stage{Name: string(t), Condition: string(t), Status: string(c.Status), Since: c.LastTransitionTime.Time.UTC(), Reason: c.Reason, Message: c.Message, LookAt: lookAt[t]}
		}
	}
	return Stage{Name: StageStarted}
}
