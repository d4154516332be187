package openshift

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// KubeletConfig is a machineconfiguration.openshift.io/v1 KubeletConfig: the
// kubelet settings the Machine Config Operator renders into the pools its
// machineConfigPoolSelector selects. Only the settings the analysis reads are
// typed; PodsPerCore and MaxPods are nil when the object does not set them.
type KubeletConfig struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		KubeletConfig struct {
			MaxPods     *int64 `json:"maxPods,omitempty"`
			PodsPerCore *int64 `json:"podsPerCore,omitempty"`
		} `json:"kubeletConfig"`
		MachineConfigPoolSelector *metav1.LabelSelector `json:"machineConfigPoolSelector,omitempty"`
	} `json:"spec"`
	Status struct {
		Conditions []Condition `json:"conditions,omitempty"`
	} `json:"status"`
}

// MachineConfigPool is a machineconfiguration.openshift.io/v1
// MachineConfigPool: the nodes it selects, the rendered configuration they
// should run and its rollout state.
type MachineConfigPool struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		NodeSelector  *metav1.LabelSelector `json:"nodeSelector,omitempty"`
		Paused        bool                  `json:"paused,omitempty"`
		Configuration struct {
			Name string `json:"name"`
		} `json:"configuration"`
	} `json:"spec"`
	Status struct {
		Configuration struct {
			Name string `json:"name"`
		} `json:"configuration"`
		Conditions              []Condition `json:"conditions,omitempty"`
		MachineCount            int         `json:"machineCount"`
		UpdatedMachineCount     int         `json:"updatedMachineCount"`
		DegradedMachineCount    int         `json:"degradedMachineCount"`
		UnavailableMachineCount int         `json:"unavailableMachineCount"`
	} `json:"status"`
}
