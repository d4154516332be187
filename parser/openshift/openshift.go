// Package openshift holds the few fields of OpenShift's config.openshift.io/v1
// objects (ClusterVersion, ClusterOperator, Infrastructure) that the analysis
// reads, so the project does not depend on OpenShift's API module. Field names
// and JSON tags follow config.openshift.io/v1.
package openshift

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Condition is a config.openshift.io/v1 ClusterOperatorStatusCondition.
type Condition struct {
	Type               string      `json:"type"`
	Status             string      `json:"status"`
	Reason             string      `json:"reason,omitempty"`
	Message            string      `json:"message,omitempty"`
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty"`
}

// ClusterVersion holds the cluster's version history.
type ClusterVersion struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		ClusterID string `json:"clusterID"`
		Channel   string `json:"channel,omitempty"`
	} `json:"spec"`
	Status struct {
		Desired struct {
			Version string `json:"version"`
		} `json:"desired"`
		History    []UpdateHistory `json:"history"`
		Conditions []Condition     `json:"conditions"`
	} `json:"status"`
}

// UpdateHistory is one entry of a ClusterVersion's status.history, newest
// first: the version, Completed or Partial, and when the update started and
// completed (CompletionTime is zero while it is in progress).
type UpdateHistory struct {
	State          string      `json:"state"`
	Version        string      `json:"version"`
	StartedTime    metav1.Time `json:"startedTime,omitempty"`
	CompletionTime metav1.Time `json:"completionTime,omitempty"`
}

// Upgrading reports whether the newest history entry is not Completed: an
// upgrade (or the install) is under way, and the components may run either
// version.
func (cv *ClusterVersion) Upgrading() bool {
	return len(cv.Status.History) > 0 && cv.Status.History[0].State != "Completed"
}

// CurrentVersion returns the newest Completed version in the history, else the
// desired version (an install or upgrade still in progress), else "".
func (cv *ClusterVersion) CurrentVersion() string {
	for _, h := range cv.Status.History { // newest first
		if h.State == "Completed" && h.Version != "" {
			return h.Version
		}
	}
	return cv.Status.Desired.Version
}

// ClusterOperator is one operator's status conditions.
type ClusterOperator struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            struct {
		Conditions []Condition `json:"conditions"`
		// Versions are the operator's and its operands' versions, e.g.
		// {name: kube-apiserver, version: 1.22.1} on the kube-apiserver
		// operator.
		Versions []OperandVersion `json:"versions,omitempty"`
	} `json:"status"`
}

// OperandVersion is one entry of a ClusterOperator's status.versions.
type OperandVersion struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Version returns the version of the operand called name, or "".
func (co *ClusterOperator) Version(name string) string {
	for _, v := range co.Status.Versions {
		if v.Name == name {
			return v.Version
		}
	}
	return ""
}

// Condition returns the status of the condition of type t ("" when absent)
// and its message.
func (co *ClusterOperator) Condition(t string) (status, message string) {
	for _, c := range co.Status.Conditions {
		if c.Type == t {
			return c.Status, c.Message
		}
	}
	return "", ""
}

// Infrastructure is the cluster's infrastructure config.
type Infrastructure struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            struct {
		Platform       string `json:"platform,omitempty"`
		PlatformStatus *struct {
			Type string `json:"type"`
		} `json:"platformStatus,omitempty"`
		InfrastructureName string `json:"infrastructureName,omitempty"`
		// APIServerURL and APIServerInternalURL are the cluster's API
		// endpoints, https://api.<cluster>.<baseDomain>:6443 and api-int.
		APIServerURL         string `json:"apiServerURL,omitempty"`
		APIServerInternalURL string `json:"apiServerInternalURI,omitempty"`
		// EtcdDiscoveryDomain is the cluster domain on older releases.
		EtcdDiscoveryDomain string `json:"etcdDiscoveryDomain,omitempty"`
	} `json:"status"`
}

// DNS is the cluster DNS config (dnses.config.openshift.io/cluster): its
// spec.baseDomain is the domain under which the cluster's API and apps names
// live ("<cluster>.<base domain>" as the installer's baseDomain + name).
type DNS struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		BaseDomain string `json:"baseDomain,omitempty"`
	} `json:"spec"`
}

// PlatformType returns the platform (AWS, BareMetal, None, ...), or "".
func (in *Infrastructure) PlatformType() string {
	if in.Status.PlatformStatus != nil && in.Status.PlatformStatus.Type != "" {
		return in.Status.PlatformStatus.Type
	}
	return in.Status.Platform
}
