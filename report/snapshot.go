package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/openshift"
	"github.com/mgtriage/mgtriage/rules"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
)

// Snapshot is what a comparison keeps of one analysed gather: the findings
// with their subject identity, a compact record of every pod, node,
// ClusterOperator, MachineConfigPool and configuration object a finding's
// evidence chain can lead to, the cluster's identity and version history,
// and the events reduced to (object, reason, time, count). It holds no
// parser or store value, so the gather can be released once it is taken:
// comparing two gathers costs the larger of them plus two snapshots.
type Snapshot struct {
	Path           string
	CollectedAt    time.Time
	ClusterID      string
	ClusterVersion string
	History        []VersionStep
	// NodeUIDs and NamespaceUIDs map names to metadata.uid: the identity of
	// a cluster when its ClusterVersion was not gathered.
	NodeUIDs      map[string]string
	NamespaceUIDs map[string]string
	Findings      []SnapFinding
	Pods          map[string]*SnapPod // by namespace/name
	Nodes         map[string]*SnapNode
	Operators     map[string]SnapOperator
	Pools         map[string]SnapPool
	// Config holds the configuration objects a finding's chain can reach,
	// by ConfigItem.Kind + " " + ConfigItem.Ref.
	Config map[string]ConfigItem
	// Gathered holds the lists the gather holds: "pods/<ns>", "nodes",
	// "clusteroperators", "<kind>/<ns>" for the controller kinds.
	Gathered map[string]bool
	Events   []SnapEvent
	// EventFirst and EventLast bound the times of the gather's events.
	EventFirst, EventLast time.Time
	// Names holds what redaction learns the gather's own names from
	// (RedactDiff): the gather section's path, roots, layouts, nodes without
	// logs and cluster identity (ID, infrastructure name, base domain, API
	// URL), and each node's name and addresses. Nothing else is filled.
	Names *Report
}

// VersionStep is one entry of the ClusterVersion history.
type VersionStep struct {
	Version   string     `json:"version" redact:"keep"`
	State     string     `json:"state" redact:"keep"`
	Started   *time.Time `json:"started,omitempty"`
	Completed *time.Time `json:"completed,omitempty"`
}

// SnapFinding is one finding with the identity that survives a rollout:
// Subject is "Deployment/ns/name" (top controller), "StatefulSet pod
// ns/name", "DaemonSet/ns/name on node", "node/<name>",
// "clusteroperator/<name>" or the object's kind/ns/name; Container is the
// container the finding names ("" for none). Scope is the Gathered key of
// the list that would hold the subject.
type SnapFinding struct {
	Finding   Finding
	Subject   string
	Container string
	Scope     string
	Namespace string
	Nodes     []string
	Workload  string
}

// SnapPod is one pod's identity and state.
type SnapPod struct {
	Namespace, Name, UID string
	Node                 string
	// Workload is the pod's identity across replacements (see model.Store.PodIdentity).
	Workload string
	Status   string
	Ready    string
	Healthy  bool
	// Completed is true for a Succeeded pod.
	Completed bool
	Created   time.Time
	Restarts  map[string]int32 // by container name
	Images    map[string]string
}

// SnapNode is one node's Ready condition, pressure conditions, kubelet
// version and taints.
type SnapNode struct {
	Name, UID      string
	Ready          string // True, False, Unknown or "" when not reported
	ReadySince     time.Time
	Pressure       []string // MemoryPressure, DiskPressure, PIDPressure that are True
	KubeletVersion string
	Taints         []string
}

// SnapOperator is a ClusterOperator's conditions.
type SnapOperator struct {
	Available, Degraded, Progressing string
	Message                          string
}

// SnapPool is a MachineConfigPool's rendered configuration and rollout state.
type SnapPool struct {
	Rendered                                 string
	Updated, Updating, Degraded              string
	Machines, UpdatedMachines, DegradedCount int
	// Nodes are the gathered nodes the pool's nodeSelector selects.
	Nodes []string
}

// ConfigItem is one configuration object on a chain: Kind (NetworkPolicy,
// KubeletConfig, MachineConfigPool, Node taints, Workload images), Ref, a
// Digest of the content compared and a one-line Summary of that content.
// Scope says which findings it is on the chain of: "ns:<ns>", "node:<name>",
// "workload:<id>".
type ConfigItem struct {
	// List is the Gathered key of the list that holds the item ("" when
	// the other gather's items of the same kind decide).
	List    string
	Kind    string
	Ref     string
	Scope   []string
	Digest  string
	Summary string
}

// SnapEvent is one event reduced to what the comparison counts.
type SnapEvent struct {
	Type, Reason string
	Object       string // kind/namespace/name of the involved object
	When         time.Time
	Count        int
}

// coveredKinds are the kinds whose coverage a comparison consults: for
// findings on controllers ("not comparable") and for NetworkPolicies that
// exist in one gather only (added or removed only where the other gathered
// the namespace's list).
var coveredKinds = []model.Kind{model.ReplicaSets, model.Deployments, model.StatefulSets, model.DaemonSets, model.Jobs, model.MachineConfigPools, model.NetworkPolicies}

// DiffNeeds is what a comparison reads of each gather beyond what the rule
// table needs (rules.Table.Needs): the kinds TakeSnapshot reads typed
// (owners for workloads, namespace UIDs, NetworkPolicies, KubeletConfigs and
// MachineConfigPools for the configuration on a finding's chain). It keeps no
// extra node-log line. The kinds are sorted by Kind.String.
func DiffNeeds() model.Needs {
	return model.Needs{Decode: []model.Kind{model.Jobs, model.KubeletConfigs, model.MachineConfigPools, model.Namespaces, model.NetworkPolicies, model.ReplicaSets}}
}

// TakeSnapshot records what a comparison needs of g and its findings
// (evaluated with t). It keeps no reference to g.
func TakeSnapshot(g *model.Gather, t *rules.Table, findings []rules.Finding) *Snapshot {
	s := &Snapshot{
		Path: g.Input, CollectedAt: g.CollectedAt, ClusterID: g.ClusterID, ClusterVersion: g.ClusterVersion,
		NodeUIDs: map[string]string{}, NamespaceUIDs: map[string]string{},
		Pods: map[string]*SnapPod{}, Nodes: map[string]*SnapNode{}, Operators: map[string]SnapOperator{},
		Pools: map[string]SnapPool{}, Config: map[string]ConfigItem{}, Gathered: map[string]bool{},
	}
	for _, h := range g.ClusterHistory {
		s.History = append(s.History, VersionStep{Version: h.Version, State: h.State, Started: timePtr(h.StartedTime.Time), Completed: timePtr(h.CompletionTime.Time)})
	}
	s.Names = redactNames(g)
	st := g.Objects
	s.snapCoverage(g)
	for _, p := range g.Pods {
		s.Pods[p.Key()] = snapPod(st, p)
	}
	for _, n := range g.Nodes {
		sn := snapNode(&n.Object)
		s.Nodes[sn.Name] = sn
		s.NodeUIDs[sn.Name] = sn.UID
		s.addConfig(ConfigItem{Kind: "Node taints", Ref: "node/" + sn.Name, Scope: []string{"node:" + sn.Name},
			Digest: strings.Join(sn.Taints, "\n"), Summary: orNone(strings.Join(sn.Taints, ", "))})
	}
	if objs, _ := st.List(model.Namespaces, "*"); objs != nil {
		for _, o := range objs {
			s.NamespaceUIDs[o.Name] = o.UID
		}
	}
	for _, op := range g.Operators {
		s.Operators[op.Name] = SnapOperator{Available: op.Available, Degraded: op.Degraded, Progressing: op.Progressing, Message: ClipLine(op.Message, 300)}
	}
	s.snapConfig(st)
	s.snapWorkloadImages()
	short := PathShortener(g.Roots)
	for _, f := range findings {
		s.Findings = append(s.Findings, s.snapFinding(st, f, short))
	}
	for _, e := range g.Events {
		io := e.Object.InvolvedObject
		s.Events = append(s.Events, SnapEvent{Type: e.Object.Type, Reason: e.Object.Reason,
			Object: io.Kind + "/" + objName(io.Namespace, io.Name), When: e.When(), Count: e.Count()})
		first := e.At
		if ft := e.Object.FirstTimestamp; !ft.IsZero() && ft < first {
			first = ft
		}
		if !e.At.IsZero() {
			if s.EventFirst.IsZero() || first.Time().Before(s.EventFirst) {
				s.EventFirst = first.Time()
			}
			if e.When().After(s.EventLast) {
				s.EventLast = e.When()
			}
		}
	}
	return s
}

func objName(ns, name string) string {
	if ns == "" {
		return name
	}
	return ns + "/" + name
}

func (s *Snapshot) snapCoverage(g *model.Gather) {
	st := g.Objects
	nss := map[string]bool{"": true}
	if objs, _ := st.List(model.Namespaces, "*"); objs != nil {
		for _, o := range objs {
			nss[o.Name] = true
		}
	}
	for _, p := range g.Pods {
		nss[p.Object.Namespace] = true
	}
	for ns := range nss {
		if st.Coverage(model.Pods, ns) != model.NotGathered {
			s.Gathered["pods/"+ns] = true
		}
		for _, k := range coveredKinds {
			if c := st.Coverage(k, ns); c == model.Absent {
				s.Gathered[k.String()+"/"+ns] = true
			}
		}
	}
	if st.Coverage(model.Nodes, "") != model.NotGathered || len(g.Nodes) > 0 {
		s.Gathered["nodes"] = true
	}
	if len(g.Operators) > 0 {
		s.Gathered["clusteroperators"] = true
	}
	if len(g.Alerts) > 0 {
		s.Gathered["alerts"] = true
	}
	if g.Etcd != nil {
		s.Gathered["etcd"] = true
	}
}

func snapPod(st *model.Store, p *model.Pod) *SnapPod {
	o := &p.Object
	sp := &SnapPod{Namespace: o.Namespace, Name: o.Name, UID: string(o.UID), Node: o.Spec.NodeName,
		Workload: st.PodIdentity(o), Status: p.Columns.Status, Ready: p.Columns.Ready, Healthy: p.Healthy(),
		Completed: o.Status.Phase == corev1.PodSucceeded, Created: o.CreationTimestamp.Time.UTC(),
		Restarts: map[string]int32{}, Images: map[string]string{}}
	for _, cs := range append(append([]corev1.ContainerStatus{}, o.Status.InitContainerStatuses...), o.Status.ContainerStatuses...) {
		sp.Restarts[cs.Name] = cs.RestartCount
	}
	for _, c := range o.Spec.Containers {
		sp.Images[c.Name] = c.Image
	}
	return sp
}

func snapNode(n *corev1.Node) *SnapNode {
	sn := &SnapNode{Name: n.Name, UID: string(n.UID), KubeletVersion: n.Status.NodeInfo.KubeletVersion}
	for _, c := range n.Status.Conditions {
		switch c.Type {
		case corev1.NodeReady:
			sn.Ready, sn.ReadySince = string(c.Status), c.LastTransitionTime.Time.UTC()
		case corev1.NodeMemoryPressure, corev1.NodeDiskPressure, corev1.NodePIDPressure:
			if c.Status == corev1.ConditionTrue {
				sn.Pressure = append(sn.Pressure, string(c.Type))
			}
		}
	}
	if n.Spec.Unschedulable {
		sn.Taints = append(sn.Taints, "cordoned (spec.unschedulable)")
	}
	for _, t := range n.Spec.Taints {
		sn.Taints = append(sn.Taints, model.TaintText(t))
	}
	sort.Strings(sn.Pressure)
	sort.Strings(sn.Taints)
	return sn
}

func (s *Snapshot) addConfig(c ConfigItem) { s.Config[c.Kind+" "+c.Ref] = c }

// digest is a short hash of v's JSON form.
func digest(v any) string {
	b, _ := json.Marshal(v)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

func (s *Snapshot) snapConfig(st *model.Store) {
	_, nps, _ := model.ListTyped[networkingv1.NetworkPolicy](st, model.NetworkPolicies, "*")
	for _, np := range nps {
		types := make([]string, 0, len(np.Spec.PolicyTypes))
		for _, t := range np.Spec.PolicyTypes {
			types = append(types, string(t))
		}
		s.addConfig(ConfigItem{List: model.NetworkPolicies.String() + "/" + np.Namespace, Kind: "NetworkPolicy", Ref: "networkpolicy/" + np.Namespace + "/" + np.Name, Scope: []string{"ns:" + np.Namespace},
			Digest:  digest(np.Spec),
			Summary: ClipLine("policyTypes "+orNone(strings.Join(types, ","))+", "+itoa(len(np.Spec.Ingress))+" ingress and "+itoa(len(np.Spec.Egress))+" egress rules", 200)})
	}
	poolObjs, pools, _ := model.ListTyped[openshift.MachineConfigPool](st, model.MachineConfigPools, "*")
	for i, mcp := range pools {
		sp := SnapPool{Rendered: mcp.Status.Configuration.Name, Machines: mcp.Status.MachineCount,
			UpdatedMachines: mcp.Status.UpdatedMachineCount, DegradedCount: mcp.Status.DegradedMachineCount}
		for _, c := range mcp.Status.Conditions {
			switch c.Type {
			case "Updated":
				sp.Updated = c.Status
			case "Updating":
				sp.Updating = c.Status
			case "Degraded":
				sp.Degraded = c.Status
			}
		}
		var scope []string
		for _, nodeObj := range st.PoolNodes(poolObjs[i]) {
			if _, ok := s.Nodes[nodeObj.Name]; ok {
				sp.Nodes = append(sp.Nodes, nodeObj.Name)
				scope = append(scope, "node:"+nodeObj.Name)
			}
		}
		sort.Strings(sp.Nodes)
		sort.Strings(scope)
		s.Pools[mcp.Name] = sp
		s.addConfig(ConfigItem{Kind: "MachineConfigPool", Ref: "machineconfigpool/" + mcp.Name, Scope: scope,
			Digest: mcp.Status.Configuration.Name + "|" + mcp.Spec.Configuration.Name, Summary: ClipLine("rendered "+orNone(mcp.Status.Configuration.Name), 200)})
		kcs, _ := st.PoolKubeletConfigs(poolObjs[i])
		for _, kc := range kcs {
			k := model.Typed[openshift.KubeletConfig](kc)
			if k == nil {
				continue
			}
			ref := "kubeletconfig/" + kc.Name
			item := s.Config["KubeletConfig "+ref]
			item.Kind, item.Ref = "KubeletConfig", ref
			item.Scope = append(item.Scope, scope...)
			item.Digest = digest(k.Spec.KubeletConfig)
			item.Summary = ClipLine(kubeletSummary(k), 200)
			s.addConfig(item)
		}
	}
}

func kubeletSummary(k *openshift.KubeletConfig) string {
	var parts []string
	if v := k.Spec.KubeletConfig.MaxPods; v != nil {
		parts = append(parts, "maxPods "+itoa(int(*v)))
	}
	if v := k.Spec.KubeletConfig.PodsPerCore; v != nil {
		parts = append(parts, "podsPerCore "+itoa(int(*v)))
	}
	return orNone(strings.Join(parts, ", "))
}

// snapWorkloadImages records, per workload, the images its gathered pods
// run, so an image tag that moved between the gathers is seen.
func (s *Snapshot) snapWorkloadImages() {
	images := map[string]map[string]bool{}
	for _, p := range s.Pods {
		w := model.WorkloadOf(p.Workload)
		if images[w] == nil {
			images[w] = map[string]bool{}
		}
		for c, img := range p.Images {
			images[w][c+"="+img] = true
		}
	}
	for w, set := range images {
		list := model.SortedKeys(set)
		s.addConfig(ConfigItem{Kind: "Workload images", Ref: displaySubject(w), Scope: []string{"workload:" + w},
			Digest: strings.Join(list, "\n"), Summary: ClipLine(strings.Join(list, ", "), 400)})
	}
}

func (s *Snapshot) snapFinding(st *model.Store, f rules.Finding, short func(string) string) SnapFinding {
	sf := subjectOf(st, f)
	sf.Finding = buildFinding(f, short, sf.Subject)
	return sf
}

// subjectOf is what finding f is about across gathers, read from st: a
// SnapFinding with every field but Finding set (see SnapFinding). Build keeps
// its Subject in Finding.Subject, so a report's SARIF follows the same
// identity a comparison does.
func subjectOf(st *model.Store, f rules.Finding) SnapFinding {
	sf := SnapFinding{Container: f.Container}
	switch {
	case f.Pod != nil:
		sf.Workload = model.WorkloadOf(st.PodIdentity(&f.Pod.Object))
		sf.Subject, sf.Namespace = sf.Workload, f.Pod.Object.Namespace
		sf.Scope = "pods/" + sf.Namespace
		if n := f.Pod.Object.Spec.NodeName; n != "" {
			sf.Nodes = append(sf.Nodes, n)
		}
		for _, m := range f.Also {
			if n := m.Pod.Object.Spec.NodeName; n != "" && !contains(sf.Nodes, n) {
				sf.Nodes = append(sf.Nodes, n)
			}
		}
	case f.Node != nil:
		sf.Subject, sf.Scope, sf.Nodes = "node/"+f.Node.Object.Name, "nodes", []string{f.Node.Object.Name}
	case f.Operator != nil:
		sf.Subject, sf.Scope = "clusteroperator/"+f.Operator.Name, "clusteroperators"
	case f.Object != nil:
		o := f.Object
		sf.Namespace = o.Namespace
		sf.Subject = f.ObjectKind + "/" + objName(o.Namespace, o.Name)
		sf.Scope = o.Kind.String() + "/" + o.Namespace
		switch f.ObjectKind {
		case "Alert":
			sf.Scope = "alerts"
		case "Etcd", "etcd":
			sf.Scope = "etcd"
		}
		if w := model.ObjectWorkload(o); w != "" {
			sf.Workload, sf.Subject = w, w
		}
	}
	return sf
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func itoa(n int) string { return strconv.Itoa(n) }

// redactNames is Snapshot.Names of g: the parts of the report Build would
// make of g that hold the gather's own names.
func redactNames(g *model.Gather) *Report {
	r := &Report{Gather: Gather{Path: g.Input, Roots: g.Roots, ClusterID: g.ClusterID, InfrastructureName: g.InfrastructureName,
		BaseDomain: g.BaseDomain, APIServerURL: g.APIServerURL, Health: Health{NodesWithoutLogs: g.Health.NodesWithoutLogs}}}
	for _, l := range g.Layouts {
		r.Gather.Layouts = append(r.Gather.Layouts, Layout{Root: l.Root, Kind: l.Kind, Node: l.Node})
	}
	for _, n := range g.Nodes {
		r.Nodes = append(r.Nodes, buildNode(n))
	}
	for _, n := range g.JournalNodes {
		r.Nodes = append(r.Nodes, buildNode(n))
	}
	return r
}
