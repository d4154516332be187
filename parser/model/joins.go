package model

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/mgtriage/mgtriage/parser/openshift"
)

// Edges between objects. Each is computed here once, from indexes built by
// Freeze in one linear pass, so a join costs the size of its answer: a
// per-node or per-claim join never scans every pod.

func (s *Store) buildEdges() {
	s.podsByNode = map[string][]*Object{}
	s.claimUsers = map[string][]*Object{}
	s.podsByOwner = map[string][]*Object{}
	s.byClusterIP = map[string]*Object{}
	s.poolNodes = map[*Object][]*Object{}
	for _, pool := range s.byKind[MachineConfigPools] {
		mcp := Typed[openshift.MachineConfigPool](pool)
		if mcp == nil {
			continue
		}
		for _, o := range s.byKind[Nodes] { // sorted by name
			if n := Typed[corev1.Node](o); n != nil && LabelSelectorMatches(mcp.Spec.NodeSelector, n.Labels) {
				s.poolNodes[pool] = append(s.poolNodes[pool], o)
			}
		}
	}
	for _, o := range s.byKind[Services] { // sorted: the first Service of an IP wins
		if svc := Typed[corev1.Service](o); svc != nil {
			for _, ip := range append([]string{svc.Spec.ClusterIP}, svc.Spec.ClusterIPs...) {
				if ip != "" && ip != corev1.ClusterIPNone && s.byClusterIP[ip] == nil {
					s.byClusterIP[ip] = o
				}
			}
		}
	}
	for _, o := range s.byKind[Pods] {
		p := Typed[corev1.Pod](o)
		if p == nil {
			continue
		}
		if p.Spec.NodeName != "" {
			s.podsByNode[p.Spec.NodeName] = append(s.podsByNode[p.Spec.NodeName], o)
		}
		for _, v := range p.Spec.Volumes {
			if v.PersistentVolumeClaim != nil {
				k := p.Namespace + "/" + v.PersistentVolumeClaim.ClaimName
				s.claimUsers[k] = append(s.claimUsers[k], o)
			}
		}
		for _, r := range p.OwnerReferences {
			k := p.Namespace + "/" + r.Kind + "/" + r.Name
			s.podsByOwner[k] = append(s.podsByOwner[k], o)
		}
	}
}

// PodsOnNode returns the gathered pods bound to node (spec.nodeName), by namespace and name.
func (s *Store) PodsOnNode(node string) []*Object {
	if s == nil {
		return nil
	}
	return s.podsByNode[node]
}

// ClaimUsers returns the gathered pods whose volumes name the
// PersistentVolumeClaim ns/claim.
func (s *Store) ClaimUsers(ns, claim string) []*Object {
	if s == nil {
		return nil
	}
	return s.claimUsers[ns+"/"+claim]
}

// PodsOwnedBy returns the gathered pods whose ownerReferences name kind/name in ns.
func (s *Store) PodsOwnedBy(ns, kind, name string) []*Object {
	if s == nil {
		return nil
	}
	return s.podsByOwner[ns+"/"+kind+"/"+name]
}

// Controller is an object's top controller as far as the gather shows it: a
// pod's ReplicaSet resolves to its Deployment and a Job to its CronJob when
// those objects (or their metadata) were gathered. Object is nil when the top
// controller is known only from an owner reference.
type Controller struct {
	Kind, Name string
	Object     *Object
}

// TopController follows controller owner references from an object with the
// given namespace and owners, up to three levels.
func (s *Store) TopController(ns string, owners []Owner) (Controller, bool) {
	var top Controller
	found := false
	for depth := 0; depth < 3; depth++ {
		ref, ok := ControllerRef(owners)
		if !ok {
			break
		}
		top, found = Controller{Kind: ref.Kind, Name: ref.Name}, true
		k, known := ControllerKindNamed(ref.Kind)
		if !known {
			break
		}
		o, _ := s.Get(k.Kind, ns, ref.Name)
		if o == nil {
			break
		}
		top.Object = o
		owners = o.Owners
	}
	return top, found
}

// NodePools returns the MachineConfigPools whose nodeSelector selects node,
// and the coverage of the pools.
func (s *Store) NodePools(node *corev1.Node) ([]*Object, Coverage) {
	pools, mcps, cov := ListTyped[openshift.MachineConfigPool](s, MachineConfigPools, "")
	var out []*Object
	for i, o := range pools {
		if LabelSelectorMatches(mcps[i].Spec.NodeSelector, node.Labels) {
			out = append(out, o)
		}
	}
	return out, cov
}

// PoolNodes returns the gathered Nodes (typed) whose labels the
// MachineConfigPool pool's nodeSelector selects, sorted by name: NodePools
// read the other way.
func (s *Store) PoolNodes(pool *Object) []*Object {
	if s == nil {
		return nil
	}
	return s.poolNodes[pool]
}

// PoolKubeletConfigs returns the KubeletConfigs whose machineConfigPoolSelector
// selects pool (and those that could not be decoded, whose Typed is nil, for
// the caller to report), and the coverage of the KubeletConfigs.
func (s *Store) PoolKubeletConfigs(pool *Object) ([]*Object, Coverage) {
	kcs, cov := s.List(KubeletConfigs, "")
	var out []*Object
	for _, o := range kcs {
		kc := Typed[openshift.KubeletConfig](o)
		if kc == nil || LabelSelectorMatches(kc.Spec.MachineConfigPoolSelector, poolLabels(pool)) {
			out = append(out, o) // an undecodable one is returned for the caller to report
		}
	}
	return out, cov
}

// PoolContainerRuntimeConfigs returns the ContainerRuntimeConfigs whose
// machineConfigPoolSelector selects pool (and those that could not be
// decoded, whose Typed is nil, for the caller to report), and their coverage.
func (s *Store) PoolContainerRuntimeConfigs(pool *Object) ([]*Object, Coverage) {
	ccs, cov := s.List(ContainerRuntimeConfigs, "")
	var out []*Object
	for _, o := range ccs {
		cc := Typed[openshift.ContainerRuntimeConfig](o)
		if cc == nil || LabelSelectorMatches(cc.Spec.MachineConfigPoolSelector, poolLabels(pool)) {
			out = append(out, o)
		}
	}
	return out, cov
}

// ServiceByClusterIP returns the gathered Service whose clusterIP (or one of
// its clusterIPs) is ip, or nil.
func (s *Store) ServiceByClusterIP(ip string) *Object {
	if s == nil || ip == "" {
		return nil
	}
	return s.byClusterIP[ip]
}

// NamespaceLabels returns the labels of namespace ns: the gathered Namespace
// object's, else the kubernetes.io/metadata.name label that every namespace
// carries since Kubernetes 1.21.
func (s *Store) NamespaceLabels(ns string) map[string]string {
	if o, _ := s.Get(Namespaces, "", ns); o != nil && o.Labels != nil {
		return o.Labels
	}
	return map[string]string{"kubernetes.io/metadata.name": ns}
}

func poolLabels(pool *Object) map[string]string {
	if mcp := Typed[openshift.MachineConfigPool](pool); mcp != nil {
		return mcp.Labels
	}
	return pool.Labels
}
