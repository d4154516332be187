package model

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// NetworkAttachmentDefinition is a Multus network attachment
// (k8s.cni.cncf.io/v1): the CNI configuration of an additional network, a
// JSON document held as a string.
type NetworkAttachmentDefinition struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Config string `json:"config,omitempty"`
	} `json:"spec,omitempty"`
}
