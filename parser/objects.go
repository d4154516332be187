package parser

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/openshift"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// typedKinds are the kinds the store can decode into typed objects, with
// their decoders. A kind is decoded only when Options.Needs asks for it (the
// rule table knows which kinds its joins read); every other object is indexed
// by its metadata alone, read by model.ScanMeta without decoding.
var typedKinds = map[model.Kind]func([]byte, loadMem) (any, error){
	model.PersistentVolumeClaims: decodeAs[corev1.PersistentVolumeClaim],
	model.PersistentVolumes:      decodeAs[corev1.PersistentVolume],
	model.Services:               decodeAs[corev1.Service],
	//lint:ignore SA1019 gathers of every release hold v1 Endpoints, and the DNS and Service joins read them
	model.Endpoints:                    decodeAs[corev1.Endpoints],
	model.ServiceAccounts:              decodeAs[corev1.ServiceAccount],
	model.DaemonSets:                   decodeAs[appsv1.DaemonSet],
	model.ReplicaSets:                  decodeReplicaSet,
	model.Jobs:                         decodeJobNoTemplate,
	model.CertificateSigningRequests:   decodeCSR,
	model.Namespaces:                   decodeAs[corev1.Namespace],
	model.StatefulSets:                 decodeStatefulSet,
	model.CSINodes:                     decodeAs[storagev1.CSINode],
	model.StorageClasses:               decodeAs[storagev1.StorageClass],
	model.NetworkPolicies:              decodeAs[networkingv1.NetworkPolicy],
	model.KubeletConfigs:               decodeAs[openshift.KubeletConfig],
	model.MachineConfigPools:           decodeAs[openshift.MachineConfigPool],
	model.NetworkAttachmentDefinitions: decodeAs[model.NetworkAttachmentDefinition],
	model.MachineConfigs:               decodeMachineConfig,
	model.ContainerRuntimeConfigs:      decodeAs[openshift.ContainerRuntimeConfig],
	model.LimitRanges:                  decodeAs[corev1.LimitRange],
	model.RoleBindings:                 decodeAs[rbacv1.RoleBinding],
	model.ClusterRoleBindings:          decodeAs[rbacv1.ClusterRoleBinding],
	model.Roles:                        decodeAs[rbacv1.Role],
	model.ClusterRoles:                 decodeAs[rbacv1.ClusterRole],
}

// decodeUnstructured decodes an object of a kind with no Go type into a
// *model.Unstructured (JSON values), without metadata.managedFields and
// metadata.annotations. The item is bounded by the object file limits.
func decodeUnstructured(data []byte, lm loadMem) (any, error) {
	var m *map[string]any
	if isJSON(data) {
		m = new(map[string]any)
		if err := json.Unmarshal(data, m); err != nil {
			return nil, err
		}
	} else {
		var err error
		if m, err = decodeObject[map[string]any](data, lm); err != nil {
			return nil, err
		}
	}
	if m == nil || *m == nil {
		return nil, fmt.Errorf("not a mapping")
	}
	if meta, ok := (*m)["metadata"].(map[string]any); ok {
		delete(meta, "managedFields")
		delete(meta, "annotations")
	}
	return &model.Unstructured{Content: *m}, nil
}

// askable reports whether kind k may be decoded as Unstructured when asked
// for: never ConfigMaps and Secrets (the store holds no values of theirs),
// nor the kinds the model reads on its own paths (pods, nodes, events).
func askable(k model.Kind) bool {
	return !keyKinds[k] && k != model.Pods && k != model.Nodes && k != model.Events
}

// DecodeStoreObjectAsked is DecodeStoreObject for a run that asks for kind
// k by name (Needs.Decode): a kind with no Go type is decoded into a
// *model.Unstructured, as a load asked for it does.
func DecodeStoreObjectAsked(k model.Kind, data []byte) (*model.Object, error) {
	decode := typedKinds[k]
	if decode == nil && askable(k) {
		decode = decodeUnstructured
	}
	return objectOf(k, data, decode, nil, loadMem{})
}

// TypedKinds lists the kinds the store can decode, sorted.
func TypedKinds() []model.Kind {
	out := make([]model.Kind, 0, len(typedKinds))
	for k := range typedKinds {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

func decodeAs[T any](data []byte, lm loadMem) (any, error) {
	var obj *T
	if isJSON(data) {
		obj = new(T)
		if err := json.Unmarshal(data, obj); err != nil {
			return nil, err
		}
	} else {
		var err error
		if !utf8.Valid(data) {
			data = bytes.ToValidUTF8(data, []byte("\uFFFD"))
		}
		// The fast block-YAML path (fastdecode.go), managedFields left out.
		if obj, err = unmarshalYAML[T](data, true, lm); err != nil {
			return nil, err
		}
	}
	// managedFields are often the largest part of an object and nothing
	// reads them: the store keeps the object without.
	if m, ok := any(obj).(interface {
		SetManagedFields([]metav1.ManagedFieldsEntry)
	}); ok {
		m.SetManagedFields(nil)
	}
	// So are annotations (a Service's or a workload's often hold its whole
	// last-applied configuration), but for the few kinds whose annotations
	// say something a join may read: a Namespace's SCC ranges and node
	// selector, a StorageClass's default mark.
	switch any(obj).(type) {
	case *corev1.Namespace, *storagev1.StorageClass:
	default:
		if m, ok := any(obj).(interface{ SetAnnotations(map[string]string) }); ok {
			m.SetAnnotations(nil)
		}
	}
	return obj, nil
}

// Controllers without most of their pod template: the joins read a
// ReplicaSet's, StatefulSet's or Job's replicas and status, and of its
// template only the nodeName it binds pods to and each container's name and
// resources (a LimitRange's defaults are checked against them), never the
// rest, which is most of the object (a Deployment keeps ten old ReplicaSets,
// each with the whole pod spec). DaemonSets keep theirs: the scheduling joins
// read its tolerations and node selector.
type (
	// withoutTemplate is a controller with its status type St and a spec
	// that holds the replicas and the slim template alone.
	withoutTemplate[St any] struct {
		metav1.TypeMeta   `json:",inline"`
		metav1.ObjectMeta `json:"metadata,omitempty"`
		Spec              struct {
			Replicas *int32       `json:"replicas,omitempty"`
			Template slimTemplate `json:"template,omitempty"`
		} `json:"spec,omitempty"`
		Status St `json:"status,omitempty"`
	}
	replicaSetNoTemplate  = withoutTemplate[appsv1.ReplicaSetStatus]
	statefulSetNoTemplate = withoutTemplate[appsv1.StatefulSetStatus]
	jobNoTemplate         = withoutTemplate[batchv1.JobStatus]

	// slimTemplate is the part of a pod template the joins read.
	slimTemplate struct {
		Spec struct {
			NodeName       string          `json:"nodeName,omitempty"`
			InitContainers []slimContainer `json:"initContainers,omitempty"`
			Containers     []slimContainer `json:"containers,omitempty"`
		} `json:"spec,omitempty"`
	}
	slimContainer struct {
		Name      string                      `json:"name"`
		Resources corev1.ResourceRequirements `json:"resources,omitempty"`
	}
)

// podTemplate is the slim template as a corev1.PodTemplateSpec.
func (t *slimTemplate) podTemplate() corev1.PodTemplateSpec {
	var out corev1.PodTemplateSpec
	out.Spec.NodeName = t.Spec.NodeName
	for _, c := range t.Spec.InitContainers {
		out.Spec.InitContainers = append(out.Spec.InitContainers, corev1.Container{Name: c.Name, Resources: c.Resources})
	}
	for _, c := range t.Spec.Containers {
		out.Spec.Containers = append(out.Spec.Containers, corev1.Container{Name: c.Name, Resources: c.Resources})
	}
	return out
}

// decodeAsInto decodes data as S (decodeAs) and hands the result to typed,
// which builds the object the store keeps: a slim decode type that leaves
// out what no join reads, returned as the kind's usual type.
func decodeAsInto[S any](typed func(*S) any) func([]byte, loadMem) (any, error) {
	return func(data []byte, lm loadMem) (any, error) {
		o, err := decodeAs[S](data, lm)
		if err != nil {
			return nil, err
		}
		return typed(o.(*S)), nil
	}
}

// decodeReplicaSet, decodeStatefulSet and decodeJobNoTemplate decode a
// controller with its slim template: a typed *appsv1.ReplicaSet,
// *appsv1.StatefulSet or *batchv1.Job whose spec holds the replicas and, of
// the pod template, the nodeName and the containers' names and resources.
var (
	decodeReplicaSet = decodeAsInto(func(t *replicaSetNoTemplate) any {
		return &appsv1.ReplicaSet{TypeMeta: t.TypeMeta, ObjectMeta: t.ObjectMeta, Spec: appsv1.ReplicaSetSpec{Replicas: t.Spec.Replicas, Template: t.Spec.Template.podTemplate()}, Status: t.Status}
	})
	decodeStatefulSet = decodeAsInto(func(t *statefulSetNoTemplate) any {
		return &appsv1.StatefulSet{TypeMeta: t.TypeMeta, ObjectMeta: t.ObjectMeta, Spec: appsv1.StatefulSetSpec{Replicas: t.Spec.Replicas, Template: t.Spec.Template.podTemplate()}, Status: t.Status}
	})
	decodeJobNoTemplate = decodeAsInto(func(t *jobNoTemplate) any {
		return &batchv1.Job{TypeMeta: t.TypeMeta, ObjectMeta: t.ObjectMeta, Spec: batchv1.JobSpec{Template: t.Spec.Template.podTemplate()}, Status: t.Status}
	})
)

// keepLabels are the kinds whose labels joins match against selectors
// without decoding them (Namespaces for NetworkPolicy namespaceSelectors);
// typed kinds keep theirs in the typed object.
var keepLabels = map[model.Kind]bool{model.Namespaces: true}

// decodeCSR decodes a CertificateSigningRequest without its issued
// certificate (PEM, the bulk of the object, read by no join) and without its
// request, except for a kubelet client certificate requested by another user
// than the node (its bootstrap identity, node-bootstrapper): there the
// request's subject alone names the node (model.CSRNode).
func decodeCSR(data []byte, lm loadMem) (any, error) {
	o, err := decodeAs[certificatesv1.CertificateSigningRequest](data, lm)
	if err != nil {
		return nil, err
	}
	csr := o.(*certificatesv1.CertificateSigningRequest)
	if csr.Spec.SignerName != certificatesv1.KubeAPIServerClientKubeletSignerName || strings.HasPrefix(csr.Spec.Username, "system:node:") {
		csr.Spec.Request = nil
	}
	csr.Status.Certificate = nil
	return csr, nil
}

// keyKinds are the kinds whose key names (never values) the store keeps.
var keyKinds = map[model.Kind]bool{model.ConfigMaps: true, model.Secrets: true}

// metaOnly is the fallback decoding of an object that model.ScanMeta does not
// read: its metadata and, for ConfigMaps and Secrets, its keys (the values
// are decoded as raw JSON and dropped).
type metaOnly struct {
	metav1.ObjectMeta `json:"metadata"`
	Data              map[string]json.RawMessage `json:"data,omitempty"`
	BinaryData        map[string]json.RawMessage `json:"binaryData,omitempty"`
}

func isJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && t[0] == '{'
}

// readObjects adds the objects of one object file (a list, or one object) to
// the store and marks its kind gathered in its namespace.
func (b *builder) readObjects(p string, c classified, data []byte) []error {
	k := model.Kind{Group: c.Group, Resource: c.Resource}
	if k.Resource == "" {
		return nil
	}
	b.objects.MarkGathered(k, c.Namespace)
	var decode func([]byte, loadMem) (any, error)
	if b.decodeKinds == nil || b.decodeKinds[k] {
		decode = typedKinds[k]
	}
	if decode == nil && b.decodeKinds[k] && askable(k) {
		// A kind with no Go type that a rule asks for by name (a
		// `where:` expression's lookup): its content as JSON values.
		decode = decodeUnstructured
	}
	add := func(item []byte, line int) error {
		if !b.objectUnderCap(p, line) {
			return nil
		}
		o, err := objectOf(k, item, decode, b.parts, b.mem())
		if o == nil {
			return err
		}
		// An object whose typed form does not decode is still indexed by its
		// metadata (it exists; joins say they could not read it), and the
		// error becomes a gather problem.
		if o.Namespace == "" && k != model.Namespaces {
			o.Namespace = c.Namespace
		}
		o.Source = model.Source{Path: p, Line: line}
		b.objects.Add(o)
		return err
	}
	var errs []error
	switch {
	case isJSON(data):
		var doc struct {
			Kind  string            `json:"kind"`
			Items []json.RawMessage `json:"items"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return []error{err}
		}
		if doc.Items == nil && !strings.HasSuffix(doc.Kind, "List") {
			return errList(add(data, 1))
		}
		itemLines := jsonItemLines(data)
		for i, it := range doc.Items {
			line := 0
			if len(itemLines) == len(doc.Items) {
				line = itemLines[i]
			}
			if err := add(it, line); err != nil {
				errs = append(errs, err)
			}
		}
	case c.Kind == kindObject:
		return errList(add(data, 1))
	default:
		// A document with anchors is decoded whole: an alias in one item
		// may refer to an anchor in another.
		items, _, ok, brk, release := splitListPooled(data, b.bufs)
		// objectOf copies what it keeps of an item.
		defer release()
		var whole error
		if !ok || hasAnchor(data) {
			var itemLines []int
			if ok {
				for _, it := range items {
					itemLines = append(itemLines, it.Line)
				}
			}
			if whole = b.readObjectsWhole(data, itemLines, add); whole == nil || ok || len(items) == 0 {
				return errList(whole)
			}
			// A List in block form that breaks off mid-way: the items
			// before the break are read.
		}
		if b.listMem(p).cut && len(items) > 0 && whole == nil {
			// Read up to the file limit: the last item is cut there.
			last := items[len(items)-1]
			items = items[:len(items)-1]
			errs = append(errs, fmt.Errorf("line %d: the file is read only up to the limit for one object file: the item at line %d, cut there, and every item after it are not read", last.Line, last.Line))
		}
		for _, it := range items {
			err := add(it.Data, it.Line)
			switch {
			case err != nil && it.Tab > 0:
				errs = append(errs, fmt.Errorf("item at line %d: tab used for indentation at line %d (YAML forbids it); read with a tab as two columns: %v", it.Line, it.Tab, err))
			case err != nil:
				errs = append(errs, fmt.Errorf("item at line %d: %v", it.Line, err))
			case it.Tab > 0:
				errs = append(errs, fmt.Errorf("item at line %d: tab used for indentation at line %d (YAML forbids it); read with each tab as two columns: check its fields against the cluster", it.Line, it.Tab))
			}
		}
		if brk.Line > 0 {
			errs = append(errs, brk.error(len(items), whole))
		}
	}
	return errs
}

// readObjectsWhole decodes a list that is not in block form (flow style,
// a single object in a list's place, or items whose aliases refer to
// anchors in other items) through the YAML library. itemLines are the lines
// of the items where the block split found them (nil: not known); they are
// cited when the decode finds as many items.
func (b *builder) readObjectsWhole(data []byte, itemLines []int, add func([]byte, int) error) error {
	var doc struct {
		Kind  string            `json:"kind"`
		Items []json.RawMessage `json:"items"`
	}
	if err := yamlToJSONItems(data, &doc, b.mem()); err != nil {
		return err
	}
	if doc.Items == nil && !strings.HasSuffix(doc.Kind, "List") {
		return add(data, 1)
	}
	for i, it := range doc.Items {
		line := 0
		if len(itemLines) == len(doc.Items) {
			line = itemLines[i]
		}
		if err := add(it, line); err != nil {
			return err
		}
	}
	return nil
}

func yamlToJSONItems(data []byte, doc any, lm loadMem) error {
	d, err := decodeObject[map[string]any](data, lm)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(d)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, doc)
}

func errList(err error) []error {
	if err == nil {
		return nil
	}
	return []error{err}
}

// objectOf reads one object's metadata (and keys) cheaply and, when decode is
// set, its typed form, whose parts equal to ones parts keeps it shares (nil:
// it only copies their strings); its strings are lm's (a zero lm: copies),
// which the decoders use too.
func objectOf(k model.Kind, item []byte, decode func([]byte, loadMem) (any, error), parts *podParts, lm loadMem) (*model.Object, error) {
	o := &model.Object{Kind: k}
	meta, ok := model.Meta{}, false
	if !isJSON(item) {
		meta, ok = model.ScanMeta(item, keyKinds[k])
	}
	if !ok {
		var m *metaOnly
		var err error
		if isJSON(item) {
			m = new(metaOnly)
			err = json.Unmarshal(item, m)
		} else {
			m, err = decodeObject[metaOnly](item, lm)
		}
		if err != nil {
			return nil, fmt.Errorf("cannot read its metadata: %s", plainError(err))
		}
		meta = model.Meta{Name: m.Name, Namespace: m.Namespace, UID: string(m.UID), Labels: m.Labels}
		meta.Owners = model.OwnersOf(m.OwnerReferences)
		for key := range m.Data {
			meta.Keys = append(meta.Keys, key)
		}
		for key := range m.BinaryData {
			meta.Keys = append(meta.Keys, key)
		}
		sort.Strings(meta.Keys)
		if meta.Name == "" {
			if !bytes.Contains(item, []byte("apiVersion")) {
				return nil, nil // not an object at all (a tool's own file): nothing to say
			}
			return nil, fmt.Errorf("a %s object without metadata.name, skipped", k)
		}
	}
	// Names, namespaces, key names and labels repeat from namespace to
	// namespace (every namespace holds a kube-root-ca.crt ConfigMap with a
	// ca.crt key) and the store holds every object to the end of the
	// analysis: they are interned, like the pods' strings. A UID is unique
	// and left as read.
	o.Name, o.Namespace, o.UID = lm.strs.intern(meta.Name), lm.strs.intern(meta.Namespace), meta.UID
	if keepLabels[k] && meta.Labels != nil {
		lm.strs.internAll(reflect.ValueOf(&meta.Labels).Elem())
		o.Labels = meta.Labels
	}
	if model.IsControllerKind(k) { // their owner references lead a pod to its top controller
		for i := range meta.Owners {
			meta.Owners[i].Kind, meta.Owners[i].Name = lm.strs.intern(meta.Owners[i].Kind), lm.strs.intern(meta.Owners[i].Name)
		}
		o.Owners = slices.Clip(meta.Owners)
	}
	if keyKinds[k] && len(meta.Keys) > 0 {
		keys := make([]string, len(meta.Keys))
		for i, key := range meta.Keys {
			keys[i] = lm.strs.intern(key)
		}
		o.Keys = keys
	}
	if decode != nil {
		t, err := decode(item, lm)
		if err != nil {
			return o, fmt.Errorf("%s %s: indexed, but its content could not be decoded: %s", k, o.Name, plainError(err))
		}
		// A typed object's strings repeat as much (label keys and values,
		// port names and protocols, Service types), and so do its parts (a
		// Service's and its Endpoints' labels, the selectors and pod
		// templates of a Deployment's ReplicaSets, a DaemonSet's
		// tolerations, which its pods hold too): they are interned and
		// shared as the pods' are, and the slices lose the spare capacity
		// decoding left.
		if _, ok := t.(*model.Unstructured); ok {
			// Its strings are not shared with anything: left as read.
		} else if parts != nil {
			parts.addObject(t)
		} else {
			lm.strs.internAll(reflect.ValueOf(t))
		}
		o.Typed = t
	}
	return o, nil
}

// plainError drops the decoder's Go type names from an error a user reads.
func plainError(err error) string {
	msg := err.Error()
	for _, internal := range []string{"Go value of type parser.metaOnly", "Go struct field ", "error unmarshaling JSON: while decoding JSON: "} {
		msg = strings.ReplaceAll(msg, internal, map[string]string{"Go value of type parser.metaOnly": "object metadata", "Go struct field ": "field ", "error unmarshaling JSON: while decoding JSON: ": ""}[internal])
	}
	return msg
}

// indexModel adds the gather's pods and nodes to the store, typed, so joins
// reach them like any other object.
func (b *builder) indexModel(g *model.Gather) {
	for _, p := range g.Pods {
		b.objects.Add(&model.Object{Kind: model.Pods, Namespace: p.Object.Namespace, Name: p.Object.Name,
			UID: string(p.Object.UID), Labels: p.Object.Labels, Source: p.Source, Typed: &p.Object})
	}
	for _, n := range g.Nodes {
		b.objects.Add(&model.Object{Kind: model.Nodes, Name: n.Object.Name, UID: string(n.Object.UID),
			Labels: n.Object.Labels, Source: n.Source, Typed: &n.Object})
	}
	b.objects.Freeze()
	g.Objects = b.objects
	g.Freeze() // the edges between subjects, once
}

// DecodeStoreObject reads one object of kind k (YAML or JSON) the way the
// reader does: metadata, key names of ConfigMaps and Secrets, and the typed
// object when the store can decode k. Tests and tools use it to build a
// store; its strings are copies (there is no load to intern them in).
func DecodeStoreObject(k model.Kind, data []byte) (*model.Object, error) {
	return objectOf(k, data, typedKinds[k], nil, loadMem{})
}

// keepableFile reports whether the object file at p may be kept whole for
// quoting (Options.KeepFiles): never a file of Secrets or ConfigMaps, by
// its kind or by its path (an Insights archive keeps ConfigMap values under
// config/configmaps/), since their values never leave the tool.
func keepableFile(p string, c classified) bool {
	if c.Group == "" && (c.Resource == "secrets" || c.Resource == "configmaps") {
		return false
	}
	lp := strings.ToLower(p)
	for _, w := range []string{"secret", "configmap"} {
		if strings.Contains(lp, w) {
			return false
		}
	}
	return true
}
