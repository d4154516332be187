package openshift

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// KubeletConfig is a machineconfiguration.openshift.io/v1 KubeletConfig: the
// kubelet settings the Machine Config Operator renders into the pools its
// machineConfigPoolSelector selects. Only the settings the analysis reads are
// typed; PodsPerCore, MaxPods and PodPidsLimit are nil when the object does
// not set them.
type KubeletConfig struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		KubeletConfig struct {
			MaxPods     *int64 `json:"maxPods,omitempty"`
			PodsPerCore *int64 `json:"podsPerCore,omitempty"`
			// PodPidsLimit is the most processes and threads a pod may
			// run (OpenShift's default from 4.11: 4096).
			PodPidsLimit *int64 `json:"podPidsLimit,omitempty"`
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
			// Source lists the MachineConfigs rendered into it.
			Source []struct {
				Name string `json:"name"`
			} `json:"source,omitempty"`
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

// ContainerRuntimeConfig is a machineconfiguration.openshift.io/v1
// ContainerRuntimeConfig: the CRI-O settings the Machine Config Operator
// renders into the pools its machineConfigPoolSelector selects. Only the
// settings the analysis reads are typed.
type ContainerRuntimeConfig struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		ContainerRuntimeConfig struct {
			// PidsLimit is CRI-O's pids_limit: the most processes and
			// threads one container may run.
			PidsLimit *int64 `json:"pidsLimit,omitempty"`
		} `json:"containerRuntimeConfig"`
		MachineConfigPoolSelector *metav1.LabelSelector `json:"machineConfigPoolSelector,omitempty"`
	} `json:"spec"`
}

// MachineConfig is a machineconfiguration.openshift.io/v1 MachineConfig
// reduced to what the analysis reads of its files: the pids_limit its CRI-O
// configuration (a file under /etc/crio/) sets, and that file's path. The
// files' contents are not kept.
type MachineConfig struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// CrioPidsLimit is the pids_limit of its CRI-O configuration, nil when
	// none of its files sets one; CrioFile is the file that does.
	CrioPidsLimit *int64
	CrioFile      string
}
