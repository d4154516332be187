// The object store: every Kubernetes or OpenShift object the reader met
// (lists and per-object files, namespaced and cluster-scoped, every API
// group), indexed by group/resource/namespace/name and UID, each with the
// path:line it came from, and the coverage of every lookup (found, absent
// from a gathered list, not gathered, filtered). It never holds the values
// of a ConfigMap or Secret, only their key names.

package model

import (
	"hash/maphash"
	"sort"
	"strings"
	"sync"
)

// Source is where a record came from: a path relative to the input and a
// 1-based line (0 when the line is unknown, e.g. for an item of a JSON list).
type Source struct {
	Path string
	Line int
}

// Kind names a resource type by its API group ("" for the core group) and
// its plural, lower-case resource name, as must-gather folders do
// ("apps"/"daemonsets", ""/"configmaps").
type Kind struct {
	Group, Resource string
}

// String is "resource.group" (kubectl's form), or "resource" for the core group.
func (k Kind) String() string {
	if k.Group == "" {
		return k.Resource
	}
	return k.Resource + "." + k.Group
}

// ParseKind reads "resource.group", "resource" (core) or "group/resource".
func ParseKind(s string) Kind {
	if g, r, ok := strings.Cut(s, "/"); ok {
		if g == "core" {
			g = ""
		}
		return Kind{g, r}
	}
	r, g, _ := strings.Cut(s, ".")
	return Kind{g, r}
}

// Well-known kinds the joins read.
var (
	Pods       = Kind{"", "pods"}
	Nodes      = Kind{"", "nodes"}
	Namespaces = Kind{"", "namespaces"}
	// Events are never indexed as objects; their lists are marked gathered
	// so that coverage can say where events were read.
	Events                 = Kind{"", "events"}
	ConfigMaps             = Kind{"", "configmaps"}
	Secrets                = Kind{"", "secrets"}
	Services               = Kind{"", "services"}
	Endpoints              = Kind{"", "endpoints"}
	PersistentVolumeClaims = Kind{"", "persistentvolumeclaims"}
	PersistentVolumes      = Kind{"", "persistentvolumes"}
	ServiceAccounts        = Kind{"", "serviceaccounts"}
	DaemonSets             = Kind{"apps", "daemonsets"}
	ReplicaSets            = Kind{"apps", "replicasets"}
	Deployments            = Kind{"apps", "deployments"}
	StatefulSets           = Kind{"apps", "statefulsets"}
	Jobs                   = Kind{"batch", "jobs"}
	CronJobs               = Kind{"batch", "cronjobs"}
	ReplicationControllers = Kind{"", "replicationcontrollers"}
	DeploymentConfigs      = Kind{"apps.openshift.io", "deploymentconfigs"}
	// CertificateSigningRequests are certificates.k8s.io CSRs.
	CertificateSigningRequests = Kind{"certificates.k8s.io", "certificatesigningrequests"}
	CSINodes                   = Kind{"storage.k8s.io", "csinodes"}
	StorageClasses             = Kind{"storage.k8s.io", "storageclasses"}
	NetworkPolicies            = Kind{"networking.k8s.io", "networkpolicies"}
	// NetworkAttachmentDefinitions are Multus' network attachments
	// (k8s.cni.cncf.io), as must-gather folders name them.
	NetworkAttachmentDefinitions = Kind{"k8s.cni.cncf.io", "network-attachment-definitions"}
	KubeletConfigs               = Kind{"machineconfiguration.openshift.io", "kubeletconfigs"}
	MachineConfigPools           = Kind{"machineconfiguration.openshift.io", "machineconfigpools"}
	MachineConfigs               = Kind{"machineconfiguration.openshift.io", "machineconfigs"}
	ContainerRuntimeConfigs      = Kind{"machineconfiguration.openshift.io", "containerruntimeconfigs"}
	LimitRanges                  = Kind{"", "limitranges"}
	// WhereaboutsIPPools are the whereabouts IPAM plugin's allocations.
	WhereaboutsIPPools = Kind{"whereabouts.cni.cncf.io", "ippools"}
	// RBAC: the bindings and roles that decide what a service account may do.
	RoleBindings        = Kind{"rbac.authorization.k8s.io", "rolebindings"}
	ClusterRoleBindings = Kind{"rbac.authorization.k8s.io", "clusterrolebindings"}
	Roles               = Kind{"rbac.authorization.k8s.io", "roles"}
	ClusterRoles        = Kind{"rbac.authorization.k8s.io", "clusterroles"}
)

// Coverage says what a lookup can conclude: the object was found; the list
// that would hold it was gathered and does not (absent); nothing of its kind
// was gathered there (not gathered); or the source lists only some objects
// of its kind (filtered), so its absence proves nothing.
type Coverage int

// Coverage values; the zero value is NotGathered.
const (
	NotGathered Coverage = iota
	Found
	Absent
	Filtered
)

func (c Coverage) String() string {
	return [...]string{"not gathered", "found", "absent", "filtered"}[c]
}

// Object is one gathered object: its identity, where it came from, its labels
// (kept for pods, nodes and namespaces; other typed kinds hold theirs in
// Typed), its owner references (controllers) and, for ConfigMaps and
// Secrets, its key names. Typed holds the decoded
// object (a pointer to a k8s.io/api or parser/openshift type) when its kind is
// decoded, nil otherwise.
type Object struct {
	Kind
	Namespace string
	Name      string
	UID       string
	Labels    map[string]string
	Source    Source
	// Keys are the data and binaryData key names of a ConfigMap or Secret,
	// sorted; never their values.
	Keys []string
	// Owners are the object's metadata.ownerReferences.
	Owners []Owner
	Typed  any

	// pod is the model's pod this object is, set by Gather.Freeze.
	pod *Pod
}

// Ref is "resource.group/namespace/name", or "resource.group/name" for a
// cluster-scoped object: how hints and evidence name an object.
func (o *Object) Ref() string {
	if o.Namespace == "" {
		return o.Kind.String() + "/" + o.Name
	}
	return o.Kind.String() + "/" + o.Namespace + "/" + o.Name
}

// objKey is a 128-bit hash of an object's kind, namespace and name: the
// index keeps it instead of the three strings (64 bytes a key, about 6 MB of
// table at ×50 of the corpus metal gather's 78,000 objects, at the highest
// point of memory). Two objects share a key with a chance of about
// n²/2¹²⁹; a lookup still checks the object it finds, so a clash can only
// make Add keep one of the two.
type objKey [2]uint64

var objSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

func keyOf(k Kind, ns, name string) objKey {
	var key objKey
	for i, seed := range objSeeds {
		var h maphash.Hash
		h.SetSeed(seed)
		h.WriteString(k.Group)
		h.WriteByte(0)
		h.WriteString(k.Resource)
		h.WriteByte(0)
		h.WriteString(ns)
		h.WriteByte(0)
		h.WriteString(name)
		key[i] = h.Sum64()
	}
	return key
}

func (o *Object) is(k Kind, ns, name string) bool {
	return o.Kind == k && o.Namespace == ns && o.Name == name
}

type listKey struct {
	Kind
	Namespace string
}

// Store is the index. It is safe for concurrent Add and MarkGathered during
// the pass; after Freeze it is read-only and safe for concurrent reads.
type Store struct {
	mu      sync.Mutex
	objects map[objKey]*Object
	byUID   map[string]*Object // made by Freeze
	byKind  map[Kind][]*Object
	// gathered holds, by kind, the namespaces whose complete list the
	// gather holds ("" for a cluster-scoped kind): two levels, not one map
	// of (kind, namespace), which took 48-byte keys for a few thousand
	// namespaces times every kind (10 MB at ×50 of the corpus metal gather)
	// and a pass over all of them to tell whether a kind was gathered at all.
	gathered map[Kind]map[string]bool
	filtered map[listKey]bool
	frozen   bool

	// Edge indexes, built once by Freeze (see joins.go).
	podsByNode  map[string][]*Object
	claimUsers  map[string][]*Object  // namespace/claim → pods
	podsByOwner map[string][]*Object  // namespace/Kind/name → pods
	byClusterIP map[string]*Object    // Service cluster IP → Service
	poolNodes   map[*Object][]*Object // MachineConfigPool → the Nodes it selects
}

// New returns an empty store.
func New() *Store {
	return &Store{
		objects:  map[objKey]*Object{},
		byUID:    map[string]*Object{},
		byKind:   map[Kind][]*Object{},
		gathered: map[Kind]map[string]bool{},
		filtered: map[listKey]bool{},
	}
}

// Add indexes o. Of two objects with the same kind, namespace and name (a list
// and a per-object file, or two image folders), the one from the path first
// in lexical order is kept, whatever order they arrive in.
func (s *Store) Add(o *Object) {
	if o == nil || o.Name == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := keyOf(o.Kind, o.Namespace, o.Name)
	if old, ok := s.objects[k]; ok && (o.Source.Path >= old.Source.Path || !old.is(o.Kind, o.Namespace, o.Name)) {
		return
	}
	s.objects[k] = o
}

// NamespacesOf returns the namespaces that hold at least one object of the
// given kinds. Unlike List it also works before Freeze.
func (s *Store) NamespacesOf(kinds ...Kind) map[string]bool {
	out := map[string]bool{}
	if s == nil {
		return out
	}
	want := make(map[Kind]bool, len(kinds))
	for _, k := range kinds {
		want[k] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, o := range s.objects {
		if want[o.Kind] && o.Namespace != "" {
			out[o.Namespace] = true
		}
	}
	return out
}

// MarkGathered records that the gather holds the complete list of kind k in
// namespace ns ("" for cluster-scoped kinds): a name not found there is absent.
func (s *Store) MarkGathered(k Kind, ns string) {
	s.mu.Lock()
	m := s.gathered[k]
	if m == nil {
		m = map[string]bool{}
		s.gathered[k] = m
	}
	m[ns] = true
	s.mu.Unlock()
}

// MarkFiltered records that the source lists only some objects of kind k in
// namespace ns ("*" for every namespace): a name not found there proves nothing.
func (s *Store) MarkFiltered(k Kind, ns string) {
	s.mu.Lock()
	s.filtered[listKey{k, ns}] = true
	s.mu.Unlock()
}

// Freeze sorts the per-kind lists (by namespace, then name) and indexes the
// objects by UID once the pass is done; lookups before Freeze see no lists
// and no UIDs. Of objects that share a UID (a copy under another kind), the
// first by kind, namespace and name is the one ByUID returns.
func (s *Store) Freeze() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byKind = map[Kind][]*Object{}
	for _, o := range s.objects {
		s.byKind[o.Kind] = append(s.byKind[o.Kind], o)
	}
	kinds := make([]Kind, 0, len(s.byKind))
	for k, list := range s.byKind {
		kinds = append(kinds, k)
		sort.Slice(list, func(i, j int) bool {
			if list[i].Namespace != list[j].Namespace {
				return list[i].Namespace < list[j].Namespace
			}
			return list[i].Name < list[j].Name
		})
	}
	sort.Slice(kinds, func(i, j int) bool {
		return kinds[i].Group < kinds[j].Group || kinds[i].Group == kinds[j].Group && kinds[i].Resource < kinds[j].Resource
	})
	s.byUID = map[string]*Object{}
	for _, k := range kinds {
		for _, o := range s.byKind[k] {
			if _, taken := s.byUID[o.UID]; o.UID != "" && !taken {
				s.byUID[o.UID] = o
			}
		}
	}
	s.buildEdges()
	s.frozen = true
}

// Coverage says what the gather holds of kind k in namespace ns.
func (s *Store) Coverage(k Kind, ns string) Coverage {
	if s == nil {
		return NotGathered
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.coverageLocked(k, ns)
}

func (s *Store) coverageLocked(k Kind, ns string) Coverage {
	switch {
	case s.filtered[listKey{k, ns}] || s.filtered[listKey{k, "*"}]:
		return Filtered
	case s.gathered[k][ns]:
		return Absent
	}
	return NotGathered
}

// Get looks an object up. The coverage is Found with the object, else Absent,
// Filtered or NotGathered with nil.
func (s *Store) Get(k Kind, ns, name string) (*Object, Coverage) {
	if s == nil {
		return nil, NotGathered
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if o, ok := s.objects[keyOf(k, ns, name)]; ok && o.is(k, ns, name) {
		return o, Found
	}
	return nil, s.coverageLocked(k, ns)
}

// ByUID returns the object with metadata.uid uid, or nil.
func (s *Store) ByUID(uid string) *Object {
	if s == nil || uid == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byUID[uid]
}

// List returns the objects of kind k in namespace ns, sorted by name, and the
// coverage of that list: Found when the gather holds the list (even empty),
// else Filtered or NotGathered. ns "*" lists every namespace (Found when any
// object or list of the kind was gathered).
func (s *Store) List(k Kind, ns string) ([]*Object, Coverage) {
	if s == nil {
		return nil, NotGathered
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Object
	for _, o := range s.byKind[k] {
		if ns == "*" || o.Namespace == ns {
			out = append(out, o)
		}
	}
	cov := s.coverageLocked(k, ns)
	if ns == "*" && len(s.gathered[k]) > 0 {
		cov = Absent
	}
	if cov == Absent || len(out) > 0 && cov == NotGathered {
		cov = Found
	}
	return out, cov
}

// Any reports whether f holds for one of the indexed objects (a nil store
// holds none). Unlike List it also works before Freeze.
func (s *Store) Any(f func(*Object) bool) bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, o := range s.objects {
		if f(o) {
			return true
		}
	}
	return false
}

// GatheredNamespaces returns the namespaces where the complete list of some
// kind was gathered (even an empty one). It also works before Freeze.
func (s *Store) GatheredNamespaces() map[string]bool {
	out := map[string]bool{}
	if s == nil {
		return out
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, byNS := range s.gathered {
		for ns := range byNS {
			if ns != "" {
				out[ns] = true
			}
		}
	}
	return out
}

// Len is the number of objects indexed.
func (s *Store) Len() int {
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.objects)
}

// Typed returns o's decoded object as *T, or nil when o is nil or holds no T.
func Typed[T any](o *Object) *T {
	if o == nil {
		return nil
	}
	t, _ := o.Typed.(*T)
	return t
}

// ListTyped is List for a decoded kind: the objects of kind k in namespace ns
// ("*" for all) that hold a *T, with their typed values in the same order,
// and the coverage of the list. Objects that could not be decoded are left
// out; callers that must report them use List.
func ListTyped[T any](s *Store, k Kind, ns string) ([]*Object, []*T, Coverage) {
	objs, cov := s.List(k, ns)
	var keep []*Object
	var typed []*T
	for _, o := range objs {
		if t := Typed[T](o); t != nil {
			keep = append(keep, o)
			typed = append(typed, t)
		}
	}
	return keep, typed, cov
}

// KindSummary is what the store holds of one kind: how many objects, which
// namespaces had their complete list gathered, and whether the source
// filtered it. It is the compact form of the store's coverage that reports
// show.
type KindSummary struct {
	Kind
	// Objects is the number of objects of the kind indexed.
	Objects int
	// Namespaces is the number of namespaces holding at least one object of
	// the kind (0 for a cluster-scoped kind).
	Namespaces int
	// ListedNamespaces are the namespaces whose complete list of the kind was
	// gathered, sorted; ClusterListed is true when the cluster-scoped list was.
	ListedNamespaces []string
	ClusterListed    bool
	// Filtered is true when the source lists only some objects of the kind
	// (in any namespace).
	Filtered bool
}

// Summary returns one KindSummary per kind that has objects, a gathered list
// or a filter, sorted by the kind's String. Call it after Freeze.
func (s *Store) Summary() []KindSummary {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	by := map[Kind]*KindSummary{}
	get := func(k Kind) *KindSummary {
		if ks := by[k]; ks != nil {
			return ks
		}
		ks := &KindSummary{Kind: k}
		by[k] = ks
		return ks
	}
	for k, list := range s.byKind {
		ks := get(k)
		ks.Objects = len(list)
		nss := map[string]bool{}
		for _, o := range list {
			if o.Namespace != "" {
				nss[o.Namespace] = true
			}
		}
		ks.Namespaces = len(nss)
	}
	for k, nss := range s.gathered {
		ks := get(k)
		for ns := range nss {
			if ns == "" {
				ks.ClusterListed = true
			} else {
				ks.ListedNamespaces = append(ks.ListedNamespaces, ns)
			}
		}
	}
	for lk := range s.filtered {
		get(lk.Kind).Filtered = true
	}
	out := make([]KindSummary, 0, len(by))
	for _, ks := range by {
		sort.Strings(ks.ListedNamespaces)
		out = append(out, *ks)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Kind.String() < out[j].Kind.String() })
	return out
}

// Unstructured is the decoded form of an object whose kind has no Go type in
// the store (a custom resource such as cephclusters.ceph.rook.io) when a
// run asks for the kind (Needs.Decode): its content as JSON values (maps,
// lists, strings, float64 numbers, booleans, nil), without
// metadata.managedFields and metadata.annotations. It is read-only.
type Unstructured struct {
	Content map[string]any
}
