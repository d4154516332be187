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
		History []struct {
			State   string `json:"state"`
			Version string `json:"version"`
		} `json:"history"`
		Conditions []Condition `json:"conditions"`
	} `json:"status"`
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
	} `json:"status"`
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
