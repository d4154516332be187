package model

import (
	"slices"
	"strings"
)

// KnownKinds are the kinds a gather may hold that a reader names without
// their API group: the model's well-known kinds and the targets of
// kubectl's short names (ShortNames).
func KnownKinds() []Kind {
	out := []Kind{Pods, Nodes, Namespaces, Events, ConfigMaps, Secrets,
		Services, Endpoints, PersistentVolumeClaims, PersistentVolumes, ServiceAccounts,
		DaemonSets, ReplicaSets, Deployments, StatefulSets, Jobs, CronJobs,
		ReplicationControllers, DeploymentConfigs, CertificateSigningRequests, CSINodes,
		StorageClasses, NetworkPolicies, NetworkAttachmentDefinitions, KubeletConfigs,
		MachineConfigPools, MachineConfigs, ContainerRuntimeConfigs, LimitRanges,
		WhereaboutsIPPools, RoleBindings, ClusterRoleBindings, Roles, ClusterRoles,
		{Group: "route.openshift.io", Resource: "routes"}}
	for _, full := range SortedKeys(ShortNames) {
		if k := ParseKind(ShortNames[full]); !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// ShortNames are kubectl's short names of the kinds a gather holds
// (kubectl api-resources, SHORTNAMES), to the kind's resource.group.
var ShortNames = map[string]string{
	"po": "pods", "no": "nodes", "ns": "namespaces", "cm": "configmaps", "svc": "services", "ep": "endpoints",
	"pvc": "persistentvolumeclaims", "pv": "persistentvolumes", "sa": "serviceaccounts", "ev": "events",
	"deploy": "deployments.apps", "ds": "daemonsets.apps", "rs": "replicasets.apps", "sts": "statefulsets.apps",
	"cj": "cronjobs.batch", "rc": "replicationcontrollers", "limits": "limitranges", "quota": "resourcequotas",
	"netpol": "networkpolicies.networking.k8s.io", "sc": "storageclasses.storage.k8s.io", "csr": "certificatesigningrequests.certificates.k8s.io",
	"crd": "customresourcedefinitions.apiextensions.k8s.io", "pdb": "poddisruptionbudgets.policy", "hpa": "horizontalpodautoscalers.autoscaling",
	"co": "clusteroperators.config.openshift.io", "clusteroperator": "clusteroperators.config.openshift.io",
	"mcp": "machineconfigpools.machineconfiguration.openshift.io", "mc": "machineconfigs.machineconfiguration.openshift.io",
	"dc": "deploymentconfigs.apps.openshift.io", "net-attach-def": "network-attachment-definitions.k8s.cni.cncf.io",
	"csv": "clusterserviceversions.operators.coreos.com", "sub": "subscriptions.operators.coreos.com",
	"ing": "ingresses.networking.k8s.io",
}

// KubectlKind resolves a resource as a kubectl command line names it
// ("pvc", "services", "deployments", "deployments.apps"): a short name, or
// the plural resource of one of KnownKinds (the core group first, as
// kubectl does); false when it names none of them.
func KubectlKind(name string) (Kind, bool) {
	name = strings.ToLower(name)
	if full, ok := ShortNames[name]; ok {
		name = full
	}
	want := ParseKind(name)
	var hit Kind
	found := false
	for _, k := range KnownKinds() {
		if k.Resource != want.Resource || want.Group != "" && k.Group != want.Group {
			continue
		}
		if !found || k.Group == "" {
			hit, found = k, true
		}
	}
	return hit, found
}
