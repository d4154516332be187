package model

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Owners and controllers: which controller a pod belongs to, and how a pod is
// named across replacements. Every layer asks these functions; none walks
// ownerReferences itself.

// ControllerKind is one kind of controller as ownerReferences and events name
// it, with the store kind its objects are indexed under.
type ControllerKind struct {
	// Name is the Kind as ownerReferences and events write it ("ReplicaSet").
	Name string
	// Kind is the store kind of its objects.
	Kind Kind
	// OwnsPods is true for the kinds whose objects own pods directly (a pod's
	// ownerReference names them): ReplicaSet, StatefulSet, DaemonSet, Job,
	// ReplicationController.
	OwnsPods bool
	// Workload is true for the top-level workloads that own the controllers
	// of pods and that a pod's identity across replacements names:
	// Deployment, CronJob, DeploymentConfig.
	Workload bool
}

// controllerKinds is the one table of controller kinds; ControllerKinds
// hands out a copy. The pod owners come first, in the order rules list
// workloads in.
var controllerKinds = [...]ControllerKind{
	{Name: "ReplicaSet", Kind: ReplicaSets, OwnsPods: true},
	{Name: "StatefulSet", Kind: StatefulSets, OwnsPods: true},
	{Name: "DaemonSet", Kind: DaemonSets, OwnsPods: true},
	{Name: "Job", Kind: Jobs, OwnsPods: true},
	{Name: "ReplicationController", Kind: ReplicationControllers, OwnsPods: true},
	{Name: "Deployment", Kind: Deployments, Workload: true},
	{Name: "CronJob", Kind: CronJobs, Workload: true},
	{Name: "DeploymentConfig", Kind: DeploymentConfigs, Workload: true},
}

// ControllerKinds returns the controller kinds: the pod owners (OwnsPods)
// first, then the top-level workloads (Workload).
func ControllerKinds() []ControllerKind {
	t := controllerKinds
	return t[:]
}

// ControllerStoreKinds returns the store kinds of every controller kind, in
// the order of ControllerKinds.
func ControllerStoreKinds() []Kind {
	out := make([]Kind, 0, len(controllerKinds))
	for _, k := range controllerKinds {
		out = append(out, k.Kind)
	}
	return out
}

// PodOwnerKinds returns the controller kinds that own pods directly
// (OwnsPods), in the order of ControllerKinds.
func PodOwnerKinds() []ControllerKind {
	var out []ControllerKind
	for _, k := range controllerKinds {
		if k.OwnsPods {
			out = append(out, k)
		}
	}
	return out
}

// ControllerKindNamed returns the controller kind whose Name is name.
func ControllerKindNamed(name string) (ControllerKind, bool) {
	for _, k := range controllerKinds {
		if k.Name == name {
			return k, true
		}
	}
	return ControllerKind{}, false
}

// IsControllerKind reports whether the store kind k is a controller kind.
func IsControllerKind(k Kind) bool {
	for _, c := range controllerKinds {
		if c.Kind == k {
			return true
		}
	}
	return false
}

// isWorkloadKind reports whether the Kind name is a top-level workload.
func isWorkloadKind(name string) bool {
	k, ok := ControllerKindNamed(name)
	return ok && k.Workload
}

// PodOwners converts a pod's ownerReferences to Owners.
func PodOwners(p *corev1.Pod) []Owner { return OwnersOf(p.OwnerReferences) }

// OwnersOf converts an object's metadata.ownerReferences to Owners; nil for none.
func OwnersOf(refs []metav1.OwnerReference) []Owner {
	var out []Owner
	for _, r := range refs {
		out = append(out, Owner{Kind: r.Kind, Name: r.Name, UID: string(r.UID), Controller: r.Controller != nil && *r.Controller})
	}
	return out
}

// ControllerOf returns the owner reference marked controller (what kubectl
// describe prints as "Controlled By"); false when none is.
func ControllerOf(owners []Owner) (Owner, bool) {
	for _, o := range owners {
		if o.Controller {
			return o, true
		}
	}
	return Owner{}, false
}

// ControllerRef returns the owner reference marked controller, else the
// first owner reference; false when there is none. It is the reference
// TopController and the identity follow.
func ControllerRef(owners []Owner) (Owner, bool) {
	if o, ok := ControllerOf(owners); ok {
		return o, true
	}
	if len(owners) > 0 {
		return owners[0], true
	}
	return Owner{}, false
}

// PodController returns the pod's controller as the pod alone names it: its
// controller reference (ControllerRef), where a ReplicaSet whose name ends in
// the pod's pod-template-hash stands for its Deployment (the ReplicaSet name
// less the hash). Kind is "" when the pod has no owner reference.
func PodController(p *corev1.Pod) (kind, name string) {
	ref, ok := ControllerRef(PodOwners(p))
	if !ok {
		return "", ""
	}
	if ref.Kind == "ReplicaSet" {
		if d, ok := deploymentOfReplicaSet(p, ref.Name); ok {
			return "Deployment", d
		}
	}
	return ref.Kind, ref.Name
}

// deploymentOfReplicaSet returns the Deployment name of the pod's ReplicaSet
// rs: rs less "-<pod-template-hash>".
func deploymentOfReplicaSet(p *corev1.Pod, rs string) (string, bool) {
	h := p.Labels["pod-template-hash"]
	if h == "" {
		return "", false
	}
	return strings.CutSuffix(rs, "-"+h)
}

// PodOwner names the object a remediation should edit for pod p:
// "Kind/name" of its top controller as the store resolves it (ReplicaSet →
// Deployment, Job → CronJob, see TopController); when the ReplicaSet was not
// gathered, its Deployment as PodController reads it. "" for an unowned pod.
func (s *Store) PodOwner(p *corev1.Pod) string {
	top, ok := s.TopController(p.Namespace, PodOwners(p))
	if !ok {
		return ""
	}
	if top.Object == nil && top.Kind == "ReplicaSet" {
		if k, n := PodController(p); k == "Deployment" {
			return k + "/" + n
		}
	}
	return top.Kind + "/" + top.Name
}

// PodIdentity names what pod p is across replacements, the subject two
// gathers compare: "Kind/namespace/name" of the top-level workload
// (Deployment, CronJob, DeploymentConfig) for pods of a ReplicaSet, a Job or
// a ReplicationController, by TopController, else by the gathered
// controller's own owner reference, else (when that object was not gathered)
// by the ReplicaSet name less the pod-template-hash, the DeploymentConfig
// annotation, or the Job name less the CronJob's scheduled-time suffix;
// "DaemonSet/namespace/name on node" for a DaemonSet's pod;
// "pod/namespace/name" for StatefulSet, static (node-owned) and unowned pods,
// whose names are stable. The walk stops at the workload: an operator's
// Deployment owned by ClusterVersion stays the Deployment.
func (s *Store) PodIdentity(p *corev1.Pod) string {
	owners := PodOwners(p)
	ref, ok := ControllerRef(owners)
	if !ok {
		return "pod/" + p.Namespace + "/" + p.Name
	}
	switch ref.Kind {
	case "ReplicaSet", "Job", "ReplicationController":
		if top, ok := s.TopController(p.Namespace, owners); ok && top.Object != nil && isWorkloadKind(top.Kind) && top.Kind != ref.Kind {
			return top.Kind + "/" + p.Namespace + "/" + top.Name
		}
		if parent := s.parentWorkload(p.Namespace, ref); parent != "" {
			return parent
		}
	}
	switch ref.Kind {
	case "ReplicaSet":
		if d, ok := deploymentOfReplicaSet(p, ref.Name); ok {
			return "Deployment/" + p.Namespace + "/" + d
		}
	case "ReplicationController":
		if dc := p.Annotations["openshift.io/deployment-config.name"]; dc != "" {
			return "DeploymentConfig/" + p.Namespace + "/" + dc
		}
	case "DaemonSet":
		return "DaemonSet/" + p.Namespace + "/" + ref.Name + " on " + p.Spec.NodeName
	case "StatefulSet", "Node":
		return "pod/" + p.Namespace + "/" + p.Name
	case "Job":
		if f := jobFamily(ref.Name); f != ref.Name {
			return "CronJob/" + p.Namespace + "/" + f
		}
	}
	return ref.Kind + "/" + p.Namespace + "/" + ref.Name
}

// ObjectWorkload returns "Kind/namespace/name" of the top-level workload
// that controls o, a ReplicaSet or a Job, by its controller reference; "" for
// any other object or owner.
func ObjectWorkload(o *Object) string {
	if o.Kind != ReplicaSets && o.Kind != Jobs {
		return ""
	}
	if parent, ok := ControllerRef(o.Owners); ok && isWorkloadKind(parent.Kind) {
		return parent.Kind + "/" + o.Namespace + "/" + parent.Name
	}
	return ""
}

// WorkloadOf is a pod identity (PodIdentity) without the node of a
// DaemonSet's pod: the DaemonSet as a whole.
func WorkloadOf(identity string) string {
	if strings.HasPrefix(identity, "DaemonSet/") {
		if i := strings.Index(identity, " on "); i >= 0 {
			return identity[:i]
		}
	}
	return identity
}

// parentWorkload returns "Kind/ns/name" of the top-level workload that
// controls the gathered ReplicaSet, Job or ReplicationController ref, or "".
func (s *Store) parentWorkload(ns string, ref Owner) string {
	k, ok := ControllerKindNamed(ref.Kind)
	if !ok {
		return ""
	}
	o, _ := s.Get(k.Kind, ns, ref.Name)
	if o == nil {
		return ""
	}
	if parent, ok := ControllerRef(o.Owners); ok && isWorkloadKind(parent.Kind) {
		return parent.Kind + "/" + ns + "/" + parent.Name
	}
	return ""
}

// jobFamily names the CronJob behind a Job whose CronJob was not gathered:
// the Job name without the "-<minutes since epoch>" (eight digits or more)
// a CronJob appends to its Jobs' names.
func jobFamily(name string) string {
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	if len(name)-i >= 8 && i > 0 && name[i-1] == '-' {
		return name[:i-1]
	}
	return name
}
