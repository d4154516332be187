package rules

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/nodelog"
	"github.com/mgtriage/mgtriage/parser/openshift"
	appsv1 "k8s.io/api/apps/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// A join follows the edges from a finding's pod to the second objects that
// decide its cause (the nodes and their taints, the claim's other users, the
// ConfigMaps that do exist, ...). Its result says whether the evidence decides
// the cause, states that cause with the deciding object and value, cites
// every object it read, and names what it could not check because the gather
// lacks it. Rules choose joins by name (Rule.Joins) and may require one to
// decide (Rule.Require).
type join struct {
	doc string
	// reads are the kinds the join needs decoded by the parser.
	reads []model.Kind
	run   func(c *evalContext, p *model.Pod, h *hit) joinResult
}

// joinResult is what a join concluded for one pod (and container).
type joinResult struct {
	// Decided is true when the joined objects prove one cause.
	Decided bool
	// Cause states it, with the deciding objects and values; Fix is the
	// change that removes it. Both are empty when nothing decides.
	Cause, Fix string
	Evidence   []Evidence
	// Missing names the objects the join needed and the gather lacks.
	Missing []string
	// Vars are template values the join sets (e.g. Owner).
	Vars map[string]string
}

// joins is the registry of named joins.
var joins = map[string]join{
	"nodeEligibility": {
		doc:   "pod → every gathered Node: nodeSelector and required node affinity, untolerated NoSchedule/NoExecute taints, cordoned nodes. Decides when every node the pod selects is ruled out by a taint or by being cordoned, or when no gathered node matches its selector.",
		reads: nil,
		run:   joinNodeEligibility,
	},
	"podCapacity": {
		doc:   "pod → the nodes it may use → pods on each node against allocatable pods → the node's MachineConfigPool → KubeletConfigs setting podsPerCore or maxPods. Decides when those nodes are full at a pod limit below the default and names the KubeletConfig that sets it.",
		reads: []model.Kind{model.MachineConfigPools, model.KubeletConfigs},
		run:   joinPodCapacity,
	},
	"configReference": {
		doc:   "missing ConfigMap/Secret or key named in the container's waiting message or a FailedMount event → the namespace's ConfigMaps/Secrets (key names only). Decides when the name is a key of an existing object, is close to an existing name, or is proven absent from a gathered list.",
		reads: nil,
		run:   joinConfigReference,
	},
	"claimUsers": {
		doc:   "pod → its PersistentVolumeClaims (access modes) → the other pods using each claim and their nodes. Decides when another running pod on another node uses a claim of the pod.",
		reads: []model.Kind{model.PersistentVolumeClaims},
		run:   joinClaimUsers,
	},
	"csiNodePlugin": {
		doc:   "CSI driver \"not found in the list of registered CSI drivers\" on the pod's node → CSINodes (where the driver is registered) → the driver's node-plugin DaemonSet → its tolerations and node selector against the node. Decides when the DaemonSet cannot run on the node.",
		reads: []model.Kind{model.CSINodes, model.DaemonSets},
		run:   joinCSINodePlugin,
	},
	"nodeOOM": {
		doc:   "container killed with exit 137 without OOMKilled → SystemOOM events of its node and kubelet \"sys oom\" lines at the time of the kill → memory limits of the node's pods against its allocatable memory. Decides when a node-level OOM coincides with the kill.",
		reads: nil,
		run:   joinNodeOOM,
	},
	"dnsEgress": {
		doc:   "DNS lookups timing out in the container log → the DNS Service by its cluster IP → the port its pods really listen on (targetPort through Endpoints or the DNS pods) → the NetworkPolicies selecting the pod. Decides when Egress policies select the pod and none allows that port to the DNS pods.",
		reads: []model.Kind{model.Services, model.Endpoints, model.NetworkPolicies},
		run:   joinDNSEgress,
	},
}

// JoinNames lists the joins a rule may name, sorted.
func JoinNames() []string {
	out := make([]string, 0, len(joins))
	for n := range joins {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// JoinDoc describes a join for the rule reference.
func JoinDoc(name string) string { return joins[name].doc }

// DecodeKinds lists the kinds the enabled rules' joins read, for
// parser.Options.Decode: the parser decodes these and indexes every other
// object by its metadata alone.
func (t *Table) DecodeKinds() []model.Kind {
	seen := map[model.Kind]bool{}
	out := []model.Kind{}
	for _, r := range t.Rules {
		if r.Disabled {
			continue
		}
		if m, ok := r.matcher.(interface{ reads() []model.Kind }); ok {
			for _, k := range m.reads() {
				if !seen[k] {
					seen[k] = true
					out = append(out, k)
				}
			}
		}
		for _, name := range r.Joins {
			for _, k := range joins[name].reads {
				if !seen[k] {
					seen[k] = true
					out = append(out, k)
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// applyJoins runs the rule's joins for a hit, adds their evidence and
// values, and reports false when the rule requires a join that does not
// decide.
func (c *evalContext) applyJoins(r *Rule, p *model.Pod, h *hit) bool {
	if len(r.Joins) == 0 || p == nil {
		return true
	}
	var decided, unchecked []string
	var fixes []string
	for _, name := range r.Joins {
		res := c.runJoin(name, p, h)
		if name == r.Require && !res.Decided {
			return false
		}
		if res.Decided && res.Cause != "" {
			decided = append(decided, res.Cause)
			if res.Fix != "" {
				fixes = append(fixes, res.Fix)
			}
		}
		for k, v := range res.Vars {
			h.Vars[k] = v
		}
		unchecked = append(unchecked, res.Missing...)
		h.Evidence = append(h.Evidence, res.Evidence...)
		h.Missing = append(h.Missing, res.Missing...)
	}
	h.Vars["Decided"] = strings.Join(decided, " ")
	h.Vars["Fix"] = strings.Join(fixes, " ")
	if len(unchecked) > 0 {
		h.Vars["Unchecked"] = cap(strings.Join(unchecked, "; ")) + "."
	}
	return true
}

func (c *evalContext) runJoin(name string, p *model.Pod, h *hit) joinResult {
	key := name + "\x00" + p.ID() + "\x00" + h.Container
	if res, ok := c.joinCache[key]; ok {
		return res
	}
	j, ok := joins[name]
	if !ok {
		return joinResult{}
	}
	res := j.run(c, p, h)
	c.joinCache[key] = res
	return res
}

func objectEvidence(o *model.Object, text string) Evidence {
	return Evidence{Source: o.Source, Kind: "object", Text: o.Ref() + ": " + text}
}

// notGathered phrases a missing second object: "X: not in the gather, so Y".
// It is never said of an object that a gathered list lacks (that is absent).
// unreadable phrases an object that the gather holds but that could not be
// decoded (the reader reported it as a gather problem).
func unreadable(o *model.Object, consequence string) string {
	return o.Ref() + ": in the gather but could not be decoded (see gather problems), so " + consequence
}

func notGathered(what string) string {
	if obj, why, ok := strings.Cut(what, ", so "); ok {
		return obj + ": not in the gather, so " + why
	}
	return what + ": not in the gather"
}

// list joins names as "a, b and c", at most max of them.
func list(names []string, max int) string {
	if len(names) > max {
		names = append(names[:max:max], fmt.Sprintf("%d more", len(names)-max))
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// ---- nodeEligibility -------------------------------------------------------

// nodeVerdict is why one node cannot take a pod, or "" when it can.
type nodeVerdict struct {
	obj      *model.Object
	node     *corev1.Node
	selected bool   // matches nodeSelector and required affinity
	why      string // selector requirement that fails
	taints   []corev1.Taint
	cordoned bool
}

func (c *evalContext) nodeVerdicts(p *model.Pod) ([]nodeVerdict, model.Coverage) {
	objs, nodes, cov := model.ListTyped[corev1.Node](c.store, model.Nodes, "")
	var out []nodeVerdict
	for i, o := range objs {
		n := nodes[i]
		v := nodeVerdict{obj: o, node: n}
		v.selected, v.why = model.SelectorMatch(&p.Object.Spec, n)
		for _, t := range model.UntoleratedTaints(p.Object.Spec.Tolerations, n) {
			if t.Key == corev1.TaintNodeUnschedulable {
				v.cordoned = true // the taint the node controller puts on a cordoned node
				continue
			}
			v.taints = append(v.taints, t)
		}
		v.cordoned = v.cordoned || n.Spec.Unschedulable
		out = append(out, v)
	}
	return out, cov
}

func selectorText(spec *corev1.PodSpec) string {
	var parts []string
	for _, k := range model.SortedKeys(spec.NodeSelector) {
		parts = append(parts, selectorLabel(k, spec.NodeSelector[k]))
	}
	s := ""
	if len(parts) > 0 {
		s = "nodeSelector " + strings.Join(parts, ",")
	}
	if a := spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		if s != "" {
			s += " and "
		}
		s += "required node affinity"
	}
	return s
}

// selectorLabel writes a label requirement as key=value, or as "key with an
// empty value" when the value is empty (node-role labels).
func selectorLabel(k, v string) string {
	if v == "" {
		return k + " with an empty value"
	}
	return k + "=" + v
}

func taintList(ts []corev1.Taint) string {
	var out []string
	for _, t := range ts {
		out = append(out, model.TaintText(t))
	}
	return strings.Join(out, ", ")
}

func joinNodeEligibility(c *evalContext, p *model.Pod, h *hit) joinResult {
	verdicts, cov := c.nodeVerdicts(p)
	if cov == model.NotGathered || len(verdicts) == 0 {
		return joinResult{Missing: []string{notGathered("Node objects, so taints and labels could not be compared with the pod's tolerations and selectors")}}
	}
	var res joinResult
	var selected []nodeVerdict
	for _, v := range verdicts {
		if v.selected {
			selected = append(selected, v)
		}
	}
	sel := selectorText(&p.Object.Spec)
	if len(selected) == 0 {
		if sel == "" {
			return res
		}
		res.Decided = true
		res.Cause = fmt.Sprintf("No gathered node matches the pod's %s (%d nodes gathered).", sel, len(verdicts))
		res.Fix = "Correct the pod's node selector or affinity, or label the intended node."
		for i, v := range verdicts {
			if i < 3 {
				res.Evidence = append(res.Evidence, objectEvidence(v.obj, "labels do not satisfy "+v.why))
			}
		}
		return res
	}
	var tainted, cordoned, free []string
	var taintKeys []string
	for _, v := range selected {
		switch {
		case len(v.taints) > 0:
			tainted = append(tainted, fmt.Sprintf("%s (%s)", v.node.Name, taintList(v.taints)))
			for _, t := range v.taints {
				if !contains(taintKeys, model.TaintText(t)) {
					taintKeys = append(taintKeys, model.TaintText(t))
				}
			}
			res.Evidence = append(res.Evidence, objectEvidence(v.obj, "taints "+taintList(v.taints)+" not tolerated by the pod"))
		case v.cordoned:
			cordoned = append(cordoned, v.node.Name)
			res.Evidence = append(res.Evidence, objectEvidence(v.obj, "spec.unschedulable: true (cordoned)"))
		default:
			free = append(free, v.node.Name)
		}
	}
	if len(free) > 0 {
		return joinResult{} // some node could take it as far as taints and selectors go
	}
	// subject names the nodes left after the selector, as a sentence's subject.
	subject := "every gathered node"
	if sel != "" {
		subject = fmt.Sprintf("the pod's %s leaves only %s, and %s", sel, countOf(len(selected), "node", "nodes"), pick(len(selected) == 1, "that node", "each of them"))
	}
	res.Decided = true
	switch {
	case len(tainted) > 0 && len(cordoned) == 0:
		res.Cause = fmt.Sprintf("Taint, not capacity: %s carries a taint the pod does not tolerate: %s.", subject, list(tainted, 6))
		where := "the pod's controller"
		if len(p.Object.OwnerReferences) == 0 {
			where = "the pod (it has no controller: recreate it)"
		}
		res.Fix = fmt.Sprintf("Add a toleration for %s to %s, or target nodes without that taint; do not remove the taint from nodes whose role needs it.", list(taintKeys, 4), where)
	case len(tainted) == 0:
		res.Cause = fmt.Sprintf("Cordoned, not capacity: %s is cordoned (spec.unschedulable): %s.", subject, list(cordoned, 6))
		res.Fix = "Uncordon the node when its maintenance is over (`oc adm uncordon NODE`), or let the pod select other nodes."
	default:
		res.Cause = fmt.Sprintf("No candidate node: %s is either tainted with a taint the pod does not tolerate (%s) or cordoned (%s).", subject, list(tainted, 4), list(cordoned, 4))
		res.Fix = fmt.Sprintf("Add a toleration for %s, or uncordon the cordoned nodes.", list(taintKeys, 4))
	}
	if near := nearTolerations(p.Object.Spec.Tolerations, selected); near != "" {
		res.Cause += " " + near
	}
	if selectorUnmatched := len(verdicts) - len(selected); selectorUnmatched > 0 && sel != "" {
		res.Cause += fmt.Sprintf(" The %d other gathered %s not match the selector, as expected.", selectorUnmatched, pick(selectorUnmatched == 1, "node does", "nodes do"))
	}
	return res
}

// nearTolerations explains tolerations that name a blocking taint's key but
// do not tolerate it (another effect or value), the usual slip.
func nearTolerations(tols []corev1.Toleration, verdicts []nodeVerdict) string {
	var out []string
	seen := map[string]bool{}
	for _, v := range verdicts {
		for _, t := range v.taints {
			for _, tol := range tols {
				if tol.Key != t.Key || seen[t.Key] {
					continue
				}
				seen[t.Key] = true
				switch {
				case tol.Effect != "" && tol.Effect != t.Effect:
					out = append(out, fmt.Sprintf("The pod tolerates %s only with effect %s, but the taint's effect is %s.", t.Key, tol.Effect, t.Effect))
				case tol.Operator != corev1.TolerationOpExists && tol.Value != t.Value:
					out = append(out, fmt.Sprintf("The pod tolerates %s only with value %q, but the taint's value is %q.", t.Key, tol.Value, t.Value))
				}
			}
		}
	}
	return strings.Join(out, " ")
}

func pick(cond bool, a, b string) string {
	if cond {
		return a
	}
	return b
}

func cap(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// ---- podCapacity -----------------------------------------------------------

// defaultMaxPods is the kubelet's maxPods on OpenShift 4 (upstream: 110).
const defaultMaxPods = 250

func joinPodCapacity(c *evalContext, p *model.Pod, h *hit) joinResult {
	if !strings.Contains(strings.ToLower(h.Vars["Message"]), "too many pods") {
		return joinResult{}
	}
	verdicts, cov := c.nodeVerdicts(p)
	if cov == model.NotGathered || len(verdicts) == 0 {
		return joinResult{Missing: []string{notGathered("Node objects, so the nodes' pod limits could not be read")}}
	}
	var res joinResult
	var full []string
	var fullNodes []nodeVerdict
	for _, v := range verdicts {
		if !v.selected || len(v.taints) > 0 || v.cordoned {
			continue
		}
		allocatable, ok := v.node.Status.Allocatable[corev1.ResourcePods]
		if !ok {
			continue
		}
		running := 0
		for _, o := range c.store.PodsOnNode(v.node.Name) {
			if pod := model.Typed[corev1.Pod](o); pod != nil && !model.Terminal(pod) {
				running++
			}
		}
		if allocatable.Value() >= defaultMaxPods && int64(running) < allocatable.Value() {
			continue
		}
		if int64(running) >= allocatable.Value() {
			full = append(full, fmt.Sprintf("%s (%s bound, %d allocatable)", v.node.Name, countOf(running, "pod", "pods"), allocatable.Value()))
		} else {
			// The scheduler counts pods of every namespace; a gather may hold
			// only some of them.
			full = append(full, fmt.Sprintf("%s (%d allocatable; the gather holds %s bound to it)", v.node.Name, allocatable.Value(), countOf(running, "pod", "pods")))
		}
		fullNodes = append(fullNodes, v)
		res.Evidence = append(res.Evidence, objectEvidence(v.obj, fmt.Sprintf("status.allocatable.pods: %d, capacity cpu %s; the gather holds %s bound to it", allocatable.Value(), v.node.Status.Capacity.Cpu().String(), countOf(running, "pod", "pods"))))
	}
	if len(fullNodes) == 0 {
		return joinResult{}
	}
	limit := fullNodes[0].node.Status.Allocatable[corev1.ResourcePods]
	res.Decided = true
	res.Cause = fmt.Sprintf("the scheduler finds the nodes the pod may use at their pod limit (Too many pods), not short of CPU or memory: %s.", list(full, 6))
	if limit.Value() >= defaultMaxPods {
		res.Fix = "Add nodes or move pods; the pod limit is the default maxPods."
		return res
	}
	// Which KubeletConfig sets the low limit? Only one whose numbers give it.
	var why []string
	usesPerCore := false
	kcSeen := map[string]bool{}
	pools, poolCov := c.store.NodePools(fullNodes[0].node)
	for _, pool := range pools {
		res.Evidence = append(res.Evidence, objectEvidence(pool, "selects node "+fullNodes[0].node.Name+"; rendered configuration "+model.Typed[openshift.MachineConfigPool](pool).Status.Configuration.Name))
		kcs, kcCov := c.store.PoolKubeletConfigs(pool)
		if kcCov == model.NotGathered {
			res.Missing = append(res.Missing, notGathered("KubeletConfigs, so what sets the pod limit could not be named"))
		}
		for _, o := range kcs {
			kc := model.Typed[openshift.KubeletConfig](o)
			if kc == nil && !kcSeen[o.Name] {
				kcSeen[o.Name] = true
				res.Missing = append(res.Missing, unreadable(o, "whether it sets the pod limit could not be checked"))
			}
			if kc == nil || kcSeen[o.Name] {
				continue
			}
			kcSeen[o.Name] = true
			set := kc.Spec.KubeletConfig
			cpus := fullNodes[0].node.Status.Capacity.Cpu().Value()
			// The kubelet's pod limit: maxPods (default 250 on OpenShift),
			// lowered to podsPerCore × CPUs when that is set and smaller.
			effective := int64(defaultMaxPods)
			var parts []string
			if set.MaxPods != nil && *set.MaxPods > 0 {
				effective = *set.MaxPods
			}
			if set.PodsPerCore != nil && *set.PodsPerCore > 0 && cpus > 0 && *set.PodsPerCore <= 1<<20 {
				perCore := *set.PodsPerCore * cpus
				parts = append(parts, fmt.Sprintf("podsPerCore: %d (× %d CPUs = %d pods)", *set.PodsPerCore, cpus, perCore))
				effective = min(effective, perCore)
			}
			if set.MaxPods != nil {
				parts = append(parts, fmt.Sprintf("maxPods: %d", *set.MaxPods))
			}
			if len(parts) == 0 {
				continue
			}
			res.Evidence = append(res.Evidence, objectEvidence(o, strings.Join(parts, ", ")+" for pool "+pool.Name))
			if effective != limit.Value() {
				continue // its numbers do not give this limit: not the cause
			}
			why = append(why, fmt.Sprintf("KubeletConfig %s sets %s for MachineConfigPool %s", o.Name, strings.Join(parts, " and "), pool.Name))
			if set.PodsPerCore != nil && *set.PodsPerCore*cpus == effective {
				usesPerCore = true
			}
		}
	}
	if poolCov == model.NotGathered {
		res.Missing = append(res.Missing, notGathered("MachineConfigPools, so the KubeletConfig that sets the pod limit could not be found"))
	}
	switch {
	case len(why) > 0 && usesPerCore:
		res.Cause += fmt.Sprintf(" They allow only %d pods because %s: the kubelet takes the lower of podsPerCore × CPUs and maxPods.", limit.Value(), list(why, 3))
		res.Fix = "Raise or remove podsPerCore (or raise maxPods) in that KubeletConfig, or add nodes to the pool."
	case len(why) > 0:
		res.Cause += fmt.Sprintf(" They allow only %d pods because %s.", limit.Value(), list(why, 3))
		res.Fix = "Raise maxPods in that KubeletConfig, or add nodes to the pool."
	default:
		res.Cause += fmt.Sprintf(" Their pod limit (%d) is below the default maxPods of %d; no gathered KubeletConfig explains it.", limit.Value(), defaultMaxPods)
		res.Fix = "Find the kubelet setting that lowers maxPods (KubeletConfig podsPerCore/maxPods) or add nodes."
	}
	return res
}

// ---- configReference ------------------------------------------------------

var (
	missingObjRe = regexp.MustCompile(`(configmaps?|secrets?) "([^"]{1,253})" not found`)
	missingKeyRe = regexp.MustCompile(`couldn't find key ([^\s";,]{1,253}) in (ConfigMap|Secret) ([^/\s]{1,253})/([^\s";,]{1,253})`)
)

func joinConfigReference(c *evalContext, p *model.Pod, h *hit) joinResult {
	texts := []string{h.Vars["Message"]}
	for _, e := range p.Events {
		if e.Object.Type != corev1.EventTypeNormal {
			texts = append(texts, e.Object.Message)
		}
	}
	ns := p.Object.Namespace
	for _, t := range texts {
		if m := missingKeyRe.FindStringSubmatch(t); m != nil {
			return c.missingKey(m[1], m[2], m[3], m[4])
		}
		if m := missingObjRe.FindStringSubmatch(t); m != nil {
			kind := model.ConfigMaps
			word := "ConfigMap"
			if strings.HasPrefix(m[1], "secret") {
				kind, word = model.Secrets, "Secret"
			}
			return c.missingObject(kind, word, ns, m[2])
		}
	}
	return joinResult{}
}

func (c *evalContext) missingObject(kind model.Kind, word, ns, name string) joinResult {
	var res joinResult
	o, cov := c.store.Get(kind, ns, name)
	switch cov {
	case model.Found:
		res.Evidence = append(res.Evidence, objectEvidence(o, "exists in the gather"))
		res.Cause = fmt.Sprintf("%s %s exists in the gather: it was created after the kubelet's last attempt, or the pod is pending a restart.", word, name)
		return res
	case model.NotGathered, model.Filtered:
		res.Missing = []string{notGathered(fmt.Sprintf("the %ss of namespace %s, so whether %s exists, or exists under another name, could not be checked", word, ns, name))}
		return res
	}
	all, _ := c.store.List(kind, ns)
	var names []string
	for _, other := range all {
		names = append(names, other.Name)
		if contains(other.Keys, name) {
			res.Decided = true
			res.Cause = fmt.Sprintf("%s %s does not exist, but %s %s in namespace %s has a data key named %s: the reference puts the key where the %s name belongs (name/key mix-up).", word, name, word, other.Name, ns, name, word)
			res.Fix = fmt.Sprintf("Reference name: %s with key: %s (configMapKeyRef/secretKeyRef), or use envFrom or a volume of %s %s.", other.Name, name, word, other.Name)
			res.Evidence = append(res.Evidence, objectEvidence(other, fmt.Sprintf("keys %s", list(other.Keys, 8))))
			return res
		}
	}
	if near := model.NearestName(name, names); near != "" {
		o, _ := c.store.Get(kind, ns, near)
		res.Decided = true
		res.Cause = fmt.Sprintf("%s %s does not exist in namespace %s; %s %s does (a misspelt or renamed reference?).", word, name, ns, word, near)
		res.Fix = fmt.Sprintf("Point the reference at %s %s, or create %s %s.", word, near, word, name)
		res.Evidence = append(res.Evidence, objectEvidence(o, "the nearest existing name"))
		return res
	}
	res.Decided = true
	res.Cause = fmt.Sprintf("%s %s does not exist in namespace %s: the gathered list holds %s and no similar name or key.", word, name, ns, countOf(len(names), strings.ToLower(word), strings.ToLower(word)+"s"))
	res.Fix = fmt.Sprintf("Create %s %s in %s (or remove the reference, or mark it optional).", word, name, ns)
	return res
}

func (c *evalContext) missingKey(key, word, ns, name string) joinResult {
	kind := model.ConfigMaps
	if word == "Secret" {
		kind = model.Secrets
	}
	var res joinResult
	o, cov := c.store.Get(kind, ns, name)
	switch cov {
	case model.Found:
	case model.Absent:
		return c.missingObject(kind, word, ns, name)
	default:
		res.Missing = []string{notGathered(fmt.Sprintf("%s %s/%s, so its keys could not be listed", word, ns, name))}
		return res
	}
	res.Evidence = append(res.Evidence, objectEvidence(o, "keys "+list(o.Keys, 8)))
	if contains(o.Keys, key) {
		res.Cause = fmt.Sprintf("%s %s now has key %s: it was added after the kubelet's last attempt.", word, name, key)
		return res
	}
	res.Decided = true
	res.Cause = fmt.Sprintf("%s %s exists but has no key %s; its keys are %s.", word, name, key, list(o.Keys, 8))
	res.Fix = fmt.Sprintf("Reference one of the keys of %s %s, or add key %s to it.", word, name, key)
	if near := model.NearestName(key, o.Keys); near != "" {
		res.Cause += fmt.Sprintf(" The reference probably means %s.", near)
		res.Fix = fmt.Sprintf("Change the key to %s (or add key %s to %s %s).", near, key, word, name)
	}
	return res
}

// ---- claimUsers ------------------------------------------------------------

func joinClaimUsers(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	ns := p.Object.Namespace
	node := p.Object.Spec.NodeName
	for _, v := range p.Object.Spec.Volumes {
		if v.PersistentVolumeClaim == nil {
			continue
		}
		claim := v.PersistentVolumeClaim.ClaimName
		mode := "access mode unknown"
		pvcObj, cov := c.store.Get(model.PersistentVolumeClaims, ns, claim)
		if pvc := model.Typed[corev1.PersistentVolumeClaim](pvcObj); pvc != nil {
			var modes []string
			for _, m := range pvc.Spec.AccessModes {
				modes = append(modes, string(m))
			}
			mode = strings.Join(modes, ",")
			res.Evidence = append(res.Evidence, objectEvidence(pvcObj, fmt.Sprintf("accessModes %s, volume %s", mode, pvc.Spec.VolumeName)))
			if contains(modes, string(corev1.ReadWriteMany)) || contains(modes, string(corev1.ReadOnlyMany)) {
				continue // shared access: other users do not block attach
			}
		} else if cov == model.NotGathered {
			res.Missing = append(res.Missing, notGathered(fmt.Sprintf("PersistentVolumeClaim %s/%s, so its access mode could not be read", ns, claim)))
		}
		for _, o := range c.store.ClaimUsers(ns, claim) {
			other := model.Typed[corev1.Pod](o)
			if other == nil || other.UID == p.Object.UID && other.Name == p.Object.Name || model.Terminal(other) {
				continue
			}
			if other.Spec.NodeName == "" || other.Spec.NodeName == node {
				continue
			}
			phase := string(other.Status.Phase)
			if other.DeletionTimestamp != nil {
				phase += ", Terminating"
			}
			res.Decided = true
			res.Cause = fmt.Sprintf("Multi-Attach: PersistentVolumeClaim %s (%s) is still used by pod %s on node %s (%s); this pod runs on %s, and a ReadWriteOnce volume attaches to one node at a time.", claim, mode, other.Name, other.Spec.NodeName, phase, nodeOr(node))
			res.Fix = fmt.Sprintf("Stop pod %s (scale down or delete it, or let its node's pods be cleaned up), co-locate the pods on one node, or use a ReadWriteMany volume.", other.Name)
			res.Evidence = append(res.Evidence, objectEvidence(o, fmt.Sprintf("uses claim %s on node %s, phase %s", claim, other.Spec.NodeName, phase)))
			return res
		}
	}
	return res
}

func nodeOr(n string) string {
	if n == "" {
		return "another node"
	}
	return n
}

// ---- csiNodePlugin -------------------------------------------------------------

var csiDriverRe = regexp.MustCompile(`driver name (\S{1,253}) not found in the list of registered CSI drivers`)

func joinCSINodePlugin(c *evalContext, p *model.Pod, h *hit) joinResult {
	driver := ""
	var res joinResult
	for _, e := range p.Events {
		if m := csiDriverRe.FindStringSubmatch(e.Object.Message); m != nil {
			driver = m[1]
			res.Evidence = append(res.Evidence, Evidence{Source: eventSource(e), Kind: "event", Quote: strings.TrimSpace(e.Object.Message), Time: e.When(), Count: e.Count(),
				Text: fmt.Sprintf("%s %s: %s", eventType(e), e.Object.Reason, strings.TrimSpace(e.Object.Message))})
			break
		}
	}
	for _, g := range p.NodeLog {
		if m := csiDriverRe.FindStringSubmatch(g.Text); m != nil {
			if driver == "" {
				driver = m[1]
			}
			res.Evidence = append(res.Evidence, logGroupEvidence(g))
			break
		}
	}
	node := p.Object.Spec.NodeName
	if driver == "" || node == "" {
		return joinResult{}
	}
	// Where is the driver registered?
	csinodes, typedCSINodes, csiCov := model.ListTyped[storagev1.CSINode](c.store, model.CSINodes, "")
	var registeredOn []string
	for i, o := range csinodes {
		cn := typedCSINodes[i]
		has := false
		for _, d := range cn.Spec.Drivers {
			if d.Name == driver {
				has = true
			}
		}
		if has {
			registeredOn = append(registeredOn, cn.Name)
		}
		if cn.Name == node {
			var names []string
			for _, d := range cn.Spec.Drivers {
				names = append(names, d.Name)
			}
			res.Evidence = append(res.Evidence, objectEvidence(o, fmt.Sprintf("drivers registered on %s: %s", node, orNone(names))))
		}
	}
	if csiCov == model.NotGathered {
		res.Missing = append(res.Missing, notGathered("CSINode objects, so where the driver is registered could not be checked"))
	}
	nodeObj, _ := c.store.Get(model.Nodes, "", node)
	n := model.Typed[corev1.Node](nodeObj)
	if n == nil {
		res.Missing = append(res.Missing, notGathered("Node "+node+", so its taints could not be checked"))
		return res
	}
	// The driver's node plugin: a DaemonSet whose pod template names the
	// driver, else one whose pods run on the nodes that register it.
	dss, dsCov := c.store.List(model.DaemonSets, "*")
	if dsCov == model.NotGathered {
		res.Missing = append(res.Missing, notGathered("DaemonSets, so the driver's node plugin could not be checked"))
		return res
	}
	// The driver's node plugin is the DaemonSet whose pod template names
	// the driver (args, env, the registrar's kubelet-registration-path);
	// else, every CSI node plugin runs the node-driver-registrar sidecar:
	// such DaemonSets with pods on the nodes that register the driver.
	var plugins []*model.Object
	for _, o := range dss {
		ds := model.Typed[appsv1.DaemonSet](o)
		if ds == nil {
			res.Missing = append(res.Missing, unreadable(o, "whether it is the driver's node plugin could not be checked"))
			continue
		}
		if templateMentions(&ds.Spec.Template.Spec, driver) {
			plugins = append(plugins, o)
		}
	}
	if len(plugins) == 0 {
		var registrars []*model.Object
		for _, o := range dss {
			ds := model.Typed[appsv1.DaemonSet](o)
			if ds == nil || !hasRegistrar(&ds.Spec.Template.Spec) {
				continue
			}
			registrars = append(registrars, o)
			for _, po := range c.store.PodsOwnedBy(o.Namespace, "DaemonSet", o.Name) {
				if pod := model.Typed[corev1.Pod](po); pod != nil && contains(registeredOn, pod.Spec.NodeName) {
					plugins = append(plugins, o)
					break
				}
			}
		}
		if len(plugins) == 0 && len(registrars) == 1 {
			plugins = registrars // the cluster's only CSI node plugin
		}
	}
	for _, o := range plugins {
		ds := model.Typed[appsv1.DaemonSet](o)
		taints := model.UntoleratedTaints(ds.Spec.Template.Spec.Tolerations, n)
		selOK, why := model.SelectorMatch(&ds.Spec.Template.Spec, n)
		var onNode []string
		for _, po := range c.store.PodsOwnedBy(o.Namespace, "DaemonSet", o.Name) {
			if pod := model.Typed[corev1.Pod](po); pod != nil {
				onNode = append(onNode, pod.Spec.NodeName)
			}
		}
		sort.Strings(onNode)
		where := fmt.Sprintf("its pods run on %s", orNone(onNode))
		for _, po := range c.store.PodsOwnedBy(o.Namespace, "DaemonSet", o.Name) {
			pod := model.Typed[corev1.Pod](po)
			if pod == nil || pod.Spec.NodeName != node || podReady(pod) {
				continue
			}
			status := c.podStatusText(pod)
			res.Decided = true
			res.Cause = fmt.Sprintf("The CSI driver %s is not registered on node %s because its node plugin pod %s/%s (DaemonSet %s) on that node is not ready (%s): the driver registers only once the plugin runs.", driver, node, pod.Namespace, pod.Name, o.Name, status)
			res.Fix = fmt.Sprintf("Fix the node plugin pod %s first (`oc -n %s logs %s --all-containers`); the mounts on %s succeed once it is Running and ready.", pod.Name, pod.Namespace, pod.Name, node)
			res.Evidence = append(res.Evidence, objectEvidence(po, "on node "+node+", "+status))
			return res
		}
		switch {
		case len(taints) > 0:
			res.Decided = true
			res.Cause = fmt.Sprintf("The CSI driver %s is not registered on node %s because its node plugin DaemonSet %s/%s does not tolerate the node's taint %s, so it runs no pod there (%s; desiredNumberScheduled %d). Attach works (controller side), but every mount on %s fails.", driver, node, o.Namespace, o.Name, taintList(taints), where, ds.Status.DesiredNumberScheduled, node)
			res.Fix = fmt.Sprintf("Add a toleration for %s to DaemonSet %s (for operator-managed plugins, in the operator's plugin toleration setting, e.g. CSI_PLUGIN_TOLERATIONS of ODF/Rook), or do not schedule pods that use %s on %s.", taintList(taints), o.Name, driver, node)
			res.Evidence = append(res.Evidence, objectEvidence(o, "tolerations "+tolerationList(ds.Spec.Template.Spec.Tolerations)+"; "+where), objectEvidence(nodeObj, "taints "+taintList(n.Spec.Taints)))
			return res
		case !selOK:
			res.Decided = true
			res.Cause = fmt.Sprintf("The CSI driver %s is not registered on node %s because its node plugin DaemonSet %s/%s does not select that node (%s), so it runs no pod there (%s).", driver, node, o.Namespace, o.Name, why, where)
			res.Fix = fmt.Sprintf("Extend DaemonSet %s's node selector to %s, or keep pods that use %s off it.", o.Name, node, driver)
			res.Evidence = append(res.Evidence, objectEvidence(o, "node selector "+why+"; "+where))
			return res
		default:
			res.Evidence = append(res.Evidence, objectEvidence(o, "tolerates node "+node+" and selects it; "+where))
		}
	}
	return res
}

func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// podStatusText is the pod's kubectl STATUS and READY when the gather's model
// holds it, else its phase.
func (c *evalContext) podStatusText(p *corev1.Pod) string {
	if mp := c.store.PodFor(p.Namespace, p.Name, string(p.UID)); mp != nil {
		return fmt.Sprintf("STATUS %s, READY %s, RESTARTS %s", mp.Columns.Status, mp.Columns.Ready, mp.Columns.Restarts)
	}
	return "phase " + string(p.Status.Phase)
}

// hasRegistrar reports whether a pod template runs the CSI
// node-driver-registrar sidecar, which every CSI node plugin runs to
// register its driver with the kubelet.
func hasRegistrar(spec *corev1.PodSpec) bool {
	for _, ct := range spec.Containers {
		if strings.Contains(ct.Name, "registrar") || strings.Contains(ct.Image, "node-driver-registrar") {
			return true
		}
		for _, a := range ct.Args {
			if strings.Contains(a, "kubelet-registration-path") {
				return true
			}
		}
	}
	return false
}

func templateMentions(spec *corev1.PodSpec, s string) bool {
	for _, list := range [][]corev1.Container{spec.Containers, spec.InitContainers} {
		for _, ct := range list {
			for _, a := range append(append([]string{}, ct.Args...), ct.Command...) {
				if strings.Contains(a, s) {
					return true
				}
			}
			for _, e := range ct.Env {
				if strings.Contains(e.Value, s) {
					return true
				}
			}
		}
	}
	return false
}

func tolerationList(ts []corev1.Toleration) string {
	var out []string
	for _, t := range ts {
		s := t.Key
		if t.Operator == corev1.TolerationOpExists && t.Key == "" {
			s = "everything"
		} else if t.Value != "" {
			s += "=" + t.Value
		}
		if t.Effect != "" {
			s += ":" + string(t.Effect)
		}
		out = append(out, s)
	}
	return orNone(out)
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// ---- nodeOOM -------------------------------------------------------------------

// oomWindow is how far apart a kill and a node OOM may be and still be one event.
const oomWindow = 2 * time.Minute

func joinNodeOOM(c *evalContext, p *model.Pod, h *hit) joinResult {
	node := p.Object.Spec.NodeName
	var last *corev1.ContainerStateTerminated
	var spec *corev1.Container
	for _, cs := range containers(p, nil) {
		if cs.Name == h.Container {
			last = cs.Status.LastTerminationState.Terminated
			if t := cs.Status.State.Terminated; t != nil && t.ExitCode == 137 {
				last = t
			}
			spec = cs.Spec
		}
	}
	if node == "" || last == nil || last.ExitCode != 137 || last.Reason == "OOMKilled" {
		return joinResult{}
	}
	killed := last.FinishedAt.Time
	var res joinResult
	coincide := 0
	count := 0
	for _, e := range c.gather.NodeEvents(node) {
		if e.Object.Reason != "SystemOOM" {
			continue
		}
		first := e.Object.FirstTimestamp.Time()
		if first.IsZero() {
			first = e.When()
		}
		count += e.Count()
		if !killed.IsZero() && !killed.Before(first.Add(-oomWindow)) && !killed.After(e.When().Add(oomWindow)) {
			coincide++
			res.Evidence = append(res.Evidence, Evidence{Source: eventSource(e), Kind: "event", Quote: strings.TrimSpace(e.Object.Message), Time: e.When(), Count: e.Count(),
				Text: fmt.Sprintf("%s SystemOOM on node %s: %s", eventType(e), node, strings.TrimSpace(e.Object.Message))})
		}
	}
	for _, g := range c.gather.NodeLogOf(node) {
		global := g.Class == nodelog.ClassOOMKill && strings.Contains(g.Text, "Out of memory") && !strings.Contains(g.Text, "Memory cgroup")
		if !global && !strings.Contains(g.Text, "ys oom") && !strings.Contains(g.Text, "System OOM") {
			continue
		}
		if !killed.IsZero() && !killed.Before(g.First.Add(-oomWindow)) && !killed.After(g.Last.Add(oomWindow)) {
			coincide++
			res.Evidence = append(res.Evidence, logGroupEvidence(g))
		}
	}
	for _, g := range p.NodeLog {
		if strings.Contains(g.Text, "ys oom") && !killed.IsZero() && !killed.Before(g.First.Add(-oomWindow)) && !killed.After(g.Last.Add(oomWindow)) {
			coincide++
			res.Evidence = append(res.Evidence, logGroupEvidence(g))
		}
	}
	if coincide == 0 {
		return joinResult{}
	}
	res.Decided = true
	res.Cause = fmt.Sprintf("The kernel's global (node-level) OOM killer on node %s killed it, not its own memory limit: the node logged System OOM (%s) at the time of the last kill (%s), and the termination reason is %s, not OOMKilled.",
		node, countOf(max(count, coincide), "node OOM report", "node OOM reports"), fmtTime(killed), orDash(last.Reason))
	res.Fix = "Set memory requests close to real use (or requests = limits) so the scheduler does not overcommit the node, spread the replicas, and reserve system memory; raising the limit makes it worse."
	// Overcommit: limits of the node's pods against allocatable memory.
	nodeObj, _ := c.store.Get(model.Nodes, "", node)
	if n := model.Typed[corev1.Node](nodeObj); n != nil {
		alloc := n.Status.Allocatable[corev1.ResourceMemory]
		var limits, requests resource.Quantity
		unbounded := 0
		for _, o := range c.store.PodsOnNode(node) {
			pod := model.Typed[corev1.Pod](o)
			if pod == nil || model.Terminal(pod) {
				continue
			}
			l, unset := model.PodResources(&pod.Spec, corev1.ResourceMemory, true)
			r, _ := model.PodResources(&pod.Spec, corev1.ResourceMemory, false)
			limits.Add(l)
			requests.Add(r)
			if unset {
				unbounded++
			}
		}
		over := ""
		if limits.Cmp(alloc) > 0 {
			over = fmt.Sprintf(" Node %s is overcommitted: the memory limits of its pods sum to %s against %s allocatable (requests %s)", node, humanBytes(limits), humanBytes(alloc), humanBytes(requests))
			if unbounded > 0 {
				over += fmt.Sprintf(", and %s set no limit", countOf(unbounded, "pod", "pods"))
			}
			over += "."
		}
		if spec != nil {
			req, hasReq := spec.Resources.Requests[corev1.ResourceMemory]
			lim, hasLim := spec.Resources.Limits[corev1.ResourceMemory]
			if hasReq && hasLim && lim.Cmp(req) > 0 {
				over += fmt.Sprintf(" This container requests %s but may grow to its %s limit (burstable), so the scheduler placed it where its limit does not fit.", req.String(), lim.String())
			}
		}
		res.Cause += over
		res.Evidence = append(res.Evidence, objectEvidence(nodeObj, fmt.Sprintf("allocatable memory %s, capacity %s, MemoryPressure %s", humanBytes(alloc), humanBytes(n.Status.Capacity[corev1.ResourceMemory]), nodeConditionStatus(n, corev1.NodeMemoryPressure))))
	}
	return res
}

func nodeConditionStatus(n *corev1.Node, t corev1.NodeConditionType) string {
	for _, cond := range n.Status.Conditions {
		if cond.Type == t {
			return string(cond.Status)
		}
	}
	return "unknown"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func humanBytes(q resource.Quantity) string {
	v := float64(q.Value())
	switch {
	case v >= 1<<30:
		return strconv.FormatFloat(v/(1<<30), 'f', 1, 64) + "Gi"
	case v >= 1<<20:
		return strconv.FormatFloat(v/(1<<20), 'f', 0, 64) + "Mi"
	}
	return q.String()
}

// ---- dnsEgress -------------------------------------------------------------------

// dnsTimeoutRe matches a failed lookup that timed out (not NXDOMAIN): Go's
// resolver ("lookup NAME on IP:53: ... i/o timeout"), glibc ("Temporary
// failure in name resolution"), Node.js (EAI_AGAIN) and dig.
var dnsTimeoutRe = regexp.MustCompile(`lookup (\S{1,253}) on \[?([0-9a-fA-F.:]{2,45}?)\]?:(\d{1,5}): .{0,200}?(?:i/o timeout|timeout|no servers could be reached)|dial udp \[?([0-9a-fA-F.:]{2,45}?)\]?:53: i/o timeout|(?:EAI_AGAIN|Temporary failure in name resolution|no servers could be reached)`)

// dnsHostRe finds the name a glibc or Node.js resolver failure is about.
var dnsHostRe = regexp.MustCompile(`EAI_AGAIN ([A-Za-z0-9._-]{1,253})|host name "([^"]{1,253})"`)

func dnsFailureWord(line string) string {
	for _, w := range []string{"EAI_AGAIN", "Temporary failure in name resolution", "no servers could be reached"} {
		if strings.Contains(line, w) {
			return w
		}
	}
	return "no answer"
}

// clusterDNSServices are the Services that serve cluster DNS, for a log line
// that does not name the server.
var clusterDNSServices = [][2]string{{"openshift-dns", "dns-default"}, {"kube-system", "kube-dns"}, {"kube-system", "coredns"}, {"kube-system", "rke2-coredns-rke2-coredns"}}

func joinDNSEgress(c *evalContext, p *model.Pod, h *hit) joinResult {
	var line *model.LogLine
	var src model.Source
	var ip, name, port string
	logs, sibling := c.logsOf(p, h.Container)
	for _, l := range logs {
		tail, errs := l.Kept()
		for _, lines := range [][]model.LogLine{errs, tail} {
			for i := range lines {
				if m := dnsTimeoutRe.FindStringSubmatch(lines[i].Text); m != nil {
					line, src = &lines[i], model.Source{Path: l.Path(), Line: lines[i].Line}
					name, ip, port = m[1], m[2], m[3]
					if m[4] != "" {
						ip, port = m[4], "53"
					}
					if name == "" {
						if hm := dnsHostRe.FindStringSubmatch(lines[i].Text); hm != nil {
							name = hm[1] + hm[2]
						}
					}
					break
				}
			}
			if line != nil {
				break
			}
		}
		if line != nil {
			break
		}
	}
	if line == nil {
		return joinResult{}
	}
	var res joinResult
	res.Evidence = append(res.Evidence, Evidence{Source: src, Kind: "container-log", Time: line.Time, Text: line.Text, Quote: line.Text})
	var svcObj *model.Object
	if ip != "" {
		svcObj = c.store.ServiceByClusterIP(ip)
	}
	for _, nn := range clusterDNSServices {
		if svcObj == nil {
			svcObj, _ = c.store.Get(model.Services, nn[0], nn[1])
		}
	}
	if port == "" {
		port = "53"
	}
	// How the log says it: Go's resolver names the server and times out;
	// glibc and Node.js report a temporary failure without the server.
	lookups := "DNS lookups"
	if name != "" {
		lookups = "DNS lookups of " + name
	}
	failure := "fail without an answer (" + strings.TrimSpace(dnsFailureWord(line.Text)) + ")"
	if strings.Contains(line.Text, "timeout") {
		failure = "time out"
	}
	server := ""
	if ip != "" {
		server = fmt.Sprintf(" (server %s:%s in the log)", ip, port)
	}
	if svcObj == nil {
		what := "the cluster DNS Service (openshift-dns/dns-default or kube-system/kube-dns)"
		if ip != "" {
			what = fmt.Sprintf("the Service with cluster IP %s (the DNS server in the log)", ip)
		}
		res.Missing = append(res.Missing, notGathered(what+", so the port its pods listen on could not be checked"))
		return res
	}
	svc := model.Typed[corev1.Service](svcObj)
	svcPort, _ := strconv.Atoi(port)
	var target intstr.IntOrString
	var portName string
	for _, sp := range svc.Spec.Ports {
		if int(sp.Port) == svcPort && (sp.Protocol == "" || sp.Protocol == corev1.ProtocolUDP) {
			target, portName = sp.TargetPort, sp.Name
		}
	}
	podPort, how := c.resolveTargetPort(svcObj, svc, target, portName)
	res.Evidence = append(res.Evidence, objectEvidence(svcObj, fmt.Sprintf("cluster IP %s port %d → targetPort %s = %s", ip, svcPort, target.String(), how)))
	if podPort == 0 {
		res.Missing = append(res.Missing, notGathered(fmt.Sprintf("the Endpoints or pods of Service %s/%s, so its targetPort %s could not be resolved", svc.Namespace, svc.Name, target.String())))
		return res
	}
	// NetworkPolicies of the pod's namespace that select it for egress.
	pols, polCov := c.store.List(model.NetworkPolicies, p.Object.Namespace)
	if polCov == model.NotGathered {
		res.Missing = append(res.Missing, notGathered("the NetworkPolicies of namespace "+p.Object.Namespace+", so whether one blocks DNS could not be checked"))
		return res
	}
	dnsNSLabels := c.store.NamespaceLabels(svc.Namespace)
	dnsPodLabels := c.servicePodLabels(svc)
	var egress, allowing53 []string
	unreadablePolicies := false
	for _, o := range pols {
		np := model.Typed[networkingv1.NetworkPolicy](o)
		if np == nil {
			unreadablePolicies = true
			res.Missing = append(res.Missing, unreadable(o, "whether it opens DNS could not be checked"))
			continue
		}
		if !model.LabelSelectorMatches(&np.Spec.PodSelector, p.Object.Labels) || !hasEgress(np) {
			continue
		}
		egress = append(egress, o.Name)
		res.Evidence = append(res.Evidence, objectEvidence(o, "selects the pod; egress "+egressText(np)))
		for _, rule := range np.Spec.Egress {
			if !peersAllow(rule.To, svc.Namespace, dnsNSLabels, dnsPodLabels) {
				continue
			}
			if portsAllow(rule.Ports, podPort, portName) {
				return joinResult{} // DNS egress is open: the policies are not the cause
			}
			if portsAllow(rule.Ports, int32(svcPort), "") {
				allowing53 = append(allowing53, o.Name)
			}
		}
	}
	if len(egress) == 0 {
		return joinResult{}
	}
	if unreadablePolicies {
		return res // a policy that could not be read may open the port
	}
	res.Decided = true
	res.Cause = fmt.Sprintf("%s%s %s because the namespace's NetworkPolicies (%s) select this pod for Egress and allow no traffic to the DNS pods on port %d: the cluster DNS Service %s/%s (%s) forwards port %d to targetPort %s, port %d on the pods, and NetworkPolicy is enforced on the pod port after the Service's DNAT.",
		lookups, server, failure, list(egress, 4), podPort, svc.Namespace, svc.Name, svc.Spec.ClusterIP, svcPort, target.String(), podPort)
	if len(allowing53) > 0 {
		res.Cause += fmt.Sprintf(" %s opens port %d only, which never matches.", list(allowing53, 3), svcPort)
	}
	res.Cause = fromSibling(res.Cause, sibling)
	res.Fix = fmt.Sprintf("Allow egress to namespace %s on UDP and TCP port %d (as well as %d) in the DNS rule of the NetworkPolicy.", svc.Namespace, podPort, svcPort)
	return res
}

// resolveTargetPort returns the port number the Service's pods listen on for
// target, read from its Endpoints, else from its pods' container ports.
func (c *evalContext) resolveTargetPort(o *model.Object, svc *corev1.Service, target intstr.IntOrString, portName string) (int32, string) {
	if target.Type == intstr.Int && target.IntVal != 0 {
		return target.IntVal, "a number"
	}
	if target.Type == intstr.Int {
		return 0, ""
	}
	if ep, _ := c.store.Get(model.Endpoints, svc.Namespace, svc.Name); ep != nil {
		//lint:ignore SA1019 gathers hold v1 Endpoints (EndpointSlices are not gathered by every release)
		if e := model.Typed[corev1.Endpoints](ep); e != nil {
			for _, ss := range e.Subsets {
				for _, pt := range ss.Ports {
					if pt.Name == portName && (pt.Protocol == "" || pt.Protocol == corev1.ProtocolUDP) {
						return pt.Port, fmt.Sprintf("port %d in Endpoints %s", pt.Port, ep.Source.Path)
					}
				}
			}
		}
	}
	pods, _ := c.store.List(model.Pods, svc.Namespace)
	for _, po := range pods {
		pod := model.Typed[corev1.Pod](po)
		if pod == nil || len(svc.Spec.Selector) == 0 || !selects(svc.Spec.Selector, pod.Labels) {
			continue
		}
		for _, ct := range pod.Spec.Containers {
			for _, cp := range ct.Ports {
				if cp.Name == target.StrVal {
					return cp.ContainerPort, fmt.Sprintf("container port %d of pod %s", cp.ContainerPort, pod.Name)
				}
			}
		}
	}
	return 0, ""
}

func (c *evalContext) servicePodLabels(svc *corev1.Service) map[string]string {
	pods, _ := c.store.List(model.Pods, svc.Namespace)
	for _, po := range pods {
		if pod := model.Typed[corev1.Pod](po); pod != nil && len(svc.Spec.Selector) > 0 && selects(svc.Spec.Selector, pod.Labels) {
			return pod.Labels
		}
	}
	return svc.Spec.Selector
}

func selects(sel, l map[string]string) bool {
	for k, v := range sel {
		if l[k] != v {
			return false
		}
	}
	return true
}

func hasEgress(np *networkingv1.NetworkPolicy) bool {
	for _, t := range np.Spec.PolicyTypes {
		if t == networkingv1.PolicyTypeEgress {
			return true
		}
	}
	return len(np.Spec.PolicyTypes) == 0 && len(np.Spec.Egress) > 0
}

func peersAllow(peers []networkingv1.NetworkPolicyPeer, ns string, nsLabels, podLabels map[string]string) bool {
	if len(peers) == 0 {
		return true
	}
	for _, peer := range peers {
		if peer.IPBlock != nil {
			continue // pod IPs are not in the gather's terms; an ipBlock decides nothing here
		}
		nsOK := peer.NamespaceSelector == nil || model.LabelSelectorMatches(peer.NamespaceSelector, nsLabels)
		podOK := peer.PodSelector == nil || model.LabelSelectorMatches(peer.PodSelector, podLabels)
		if peer.NamespaceSelector == nil && peer.PodSelector != nil {
			nsOK = false // a podSelector alone selects pods of the policy's own namespace
		}
		if nsOK && podOK {
			return true
		}
	}
	return false
}

func portsAllow(ports []networkingv1.NetworkPolicyPort, port int32, name string) bool {
	if len(ports) == 0 {
		return true
	}
	for _, p := range ports {
		if p.Protocol != nil && *p.Protocol != corev1.ProtocolUDP {
			continue
		}
		if p.Port == nil {
			return true
		}
		switch {
		case p.Port.Type == intstr.Int && p.EndPort != nil:
			if port >= p.Port.IntVal && port <= *p.EndPort {
				return true
			}
		case p.Port.Type == intstr.Int:
			if p.Port.IntVal == port {
				return true
			}
		default:
			if name != "" && p.Port.StrVal == name {
				return true
			}
		}
	}
	return false
}

func egressText(np *networkingv1.NetworkPolicy) string {
	var parts []string
	for _, r := range np.Spec.Egress {
		var ports []string
		for _, p := range r.Ports {
			s := "all"
			if p.Port != nil {
				s = p.Port.String()
			}
			if p.Protocol != nil {
				s += "/" + string(*p.Protocol)
			}
			ports = append(ports, s)
		}
		parts = append(parts, "ports "+orNone(ports))
	}
	if len(parts) == 0 {
		return "none (deny all)"
	}
	return strings.Join(parts, "; ")
}

// ---- container logs of a pod or its siblings ------------------------------------

// logsOf returns the previous and current logs of container in p, else of
// the same container in a sibling pod (same controller owner), whose log then
// stands for the pod's: replicas fail for the same reason, and a gather often
// holds the logs of only some of them. sibling names the pod whose log it is.
func (c *evalContext) logsOf(p *model.Pod, container string) (logs []*model.ContainerLog, sibling string) {
	own := func(q *model.Pod) []*model.ContainerLog {
		var out []*model.ContainerLog
		for _, previous := range []bool{true, false} {
			if l := q.Log(container, previous); l != nil && l.HasKept() {
				out = append(out, l)
			}
		}
		return out
	}
	if logs = own(p); len(logs) > 0 {
		return logs, ""
	}
	ref, ok := model.ControllerOf(model.PodOwners(&p.Object))
	if !ok {
		return nil, ""
	}
	for _, o := range c.store.PodsOwnedBy(p.Object.Namespace, ref.Kind, ref.Name) {
		q := o.Pod()
		if q == nil || q == p {
			continue
		}
		if logs = own(q); len(logs) > 0 {
			return logs, q.Object.Name
		}
	}
	return nil, ""
}

// fromSibling notes whose log a cause was read from.
func fromSibling(cause, sibling string) string {
	if sibling == "" || cause == "" {
		return cause
	}
	return cause + " (Read from the log of sibling replica " + sibling + "; this pod's log is not in the gather.)"
}

// ---- serviceEndpoints --------------------------------------------------------

// dependencyRe matches a failed connection to a dependency in a container log:
// Go's "dial tcp IP:PORT: connect: connection refused", and the same to a
// host name; the address is a Service's cluster IP or DNS name.
var dependencyRe = regexp.MustCompile(`dial tcp \[?([0-9A-Za-z.:-]{1,253}?)\]?:(\d{1,5}): (?:connect: )?(connection refused|no route to host|i/o timeout)|(?:connect|connection) (?:to )?([a-z0-9.-]{1,253}):(\d{1,5}) (?:refused|failed)|ECONNREFUSED ([0-9A-Za-z.:-]{1,253}?):(\d{1,5})`)

func init() {
	joins["serviceEndpoints"] = join{
		doc:   "a connection refused (or no route / timeout) in the container log → the Service it dialled, by cluster IP or DNS name → its Endpoints and the pods its selector matches. Decides when the Service has no ready endpoint, naming the selector and the pods it selects.",
		reads: []model.Kind{model.Services, model.Endpoints},
		run:   joinServiceEndpoints,
	}
}

func joinServiceEndpoints(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	logs, sibling := c.logsOf(p, h.Container)
	for _, l := range logs {
		tail, errs := l.Kept()
		for _, lines := range [][]model.LogLine{errs, tail} {
			for _, line := range lines {
				m := dependencyRe.FindStringSubmatch(line.Text)
				if m == nil {
					continue
				}
				host, port, how := m[1], m[2], m[3]
				if host == "" {
					host, port, how = m[4], m[5], "connection refused"
				}
				if host == "" {
					host, port, how = m[6], m[7], "connection refused"
				}
				svcObj := c.serviceFor(host, p.Object.Namespace)
				if svcObj == nil {
					continue
				}
				res.Evidence = append(res.Evidence, Evidence{Source: model.Source{Path: l.Path(), Line: line.Line}, Kind: "container-log", Time: line.Time, Text: line.Text, Quote: line.Text})
				res = c.endpointsVerdict(res, svcObj, host, port, how)
				res.Cause = fromSibling(res.Cause, sibling)
				return res
			}
		}
	}
	return res
}

// serviceFor finds the Service a log names: by cluster IP, by
// "name.namespace.svc[.cluster.local]", or by a bare name in the pod's namespace.
func (c *evalContext) serviceFor(host, ns string) *model.Object {
	if o := c.store.ServiceByClusterIP(host); o != nil {
		return o
	}
	name, rest, _ := strings.Cut(host, ".")
	if rest != "" {
		if n, after, ok := strings.Cut(rest, "."); ok && strings.HasPrefix(after, "svc") {
			ns = n
		} else if rest != "svc" {
			return nil
		}
	}
	o, _ := c.store.Get(model.Services, ns, name)
	return o
}

func (c *evalContext) endpointsVerdict(res joinResult, svcObj *model.Object, host, port, how string) joinResult {
	svc := model.Typed[corev1.Service](svcObj)
	if svc == nil {
		return res
	}
	ep, cov := c.store.Get(model.Endpoints, svc.Namespace, svc.Name)
	//lint:ignore SA1019 gathers hold v1 Endpoints (EndpointSlices are not gathered by every release)
	e := model.Typed[corev1.Endpoints](ep)
	if e == nil {
		if cov == model.NotGathered {
			res.Missing = append(res.Missing, notGathered(fmt.Sprintf("the Endpoints of Service %s/%s, so whether it has ready pods could not be checked", svc.Namespace, svc.Name)))
		}
		return res
	}
	ready, notReady := 0, 0
	for _, ss := range e.Subsets {
		ready += len(ss.Addresses)
		notReady += len(ss.NotReadyAddresses)
	}
	res.Evidence = append(res.Evidence, objectEvidence(ep, fmt.Sprintf("%d ready and %d not-ready addresses", ready, notReady)))
	if ready > 0 {
		return res
	}
	var sel []string
	for _, k := range model.SortedKeys(svc.Spec.Selector) {
		sel = append(sel, k+"="+svc.Spec.Selector[k])
	}
	var selected []string
	pods, _ := c.store.List(model.Pods, svc.Namespace)
	for _, po := range pods {
		pod := model.Typed[corev1.Pod](po)
		if pod == nil || len(svc.Spec.Selector) == 0 || !selects(svc.Spec.Selector, pod.Labels) {
			continue
		}
		status := c.podStatusText(pod)
		selected = append(selected, pod.Name+" ("+status+")")
		res.Evidence = append(res.Evidence, objectEvidence(po, "selected by Service "+svc.Name+"; "+status))
	}
	res.Evidence = append(res.Evidence, objectEvidence(svcObj, fmt.Sprintf("cluster IP %s, selector %s", svc.Spec.ClusterIP, orNone(sel))))
	res.Decided = true
	what := "no pod in the gather"
	if len(selected) > 0 {
		what = list(selected, 4)
	}
	res.Cause = fmt.Sprintf("The dependency it dials, Service %s/%s (%s:%s, %s), has no ready endpoint: its selector %s matches %s. The failing pod is a victim; the cause is the Service's backing pods.", svc.Namespace, svc.Name, host, port, how, orNone(sel), what)
	res.Fix = fmt.Sprintf("Bring the pods behind Service %s back (or fix its selector so it matches them): `oc -n %s get endpoints %s` and `oc -n %s get pods -l %s`.", svc.Name, svc.Namespace, svc.Name, svc.Namespace, strings.Join(sel, ","))
	return res
}

// ---- nodeDown ----------------------------------------------------------------------

func init() {
	joins["nodeDown"] = join{
		doc:   "pod → its node: the Node's Ready condition, the node-level kubelet journal lines of that host (certificate, API, registration), and the node's CertificateSigningRequests still Pending. Decides when the node is NotReady or its kubelet cannot reach the API, which alone keeps a deleted pod Terminating. A journal counts for its host even when no Node object was gathered.",
		reads: []model.Kind{{Group: "certificates.k8s.io", Resource: "certificatesigningrequests"}},
		run:   joinNodeDown,
	}
}

func joinNodeDown(c *evalContext, p *model.Pod, h *hit) joinResult {
	node := p.Object.Spec.NodeName
	if node == "" {
		return joinResult{}
	}
	var res joinResult
	var facts []string
	down := false
	nodeObj, cov := c.store.Get(model.Nodes, "", node)
	if n := model.Typed[corev1.Node](nodeObj); n != nil {
		for _, cond := range n.Status.Conditions {
			if cond.Type != corev1.NodeReady || cond.Status == corev1.ConditionTrue {
				continue
			}
			down = true
			facts = append(facts, fmt.Sprintf("node %s is Ready=%s since %s (%s: %s)", node, cond.Status, fmtTime(cond.LastTransitionTime.Time), cond.Reason, strings.TrimSpace(cond.Message)))
			res.Evidence = append(res.Evidence, objectEvidence(nodeObj, fmt.Sprintf("condition Ready=%s reason=%s since %s", cond.Status, cond.Reason, fmtTime(cond.LastTransitionTime.Time))))
		}
	} else if cov == model.NotGathered {
		res.Missing = append(res.Missing, notGathered("Node "+node+", so its Ready condition could not be read"))
	}
	// The kubelet's own account, by host, whether or not a Node was gathered.
	certs, api := 0, 0
	for _, g := range c.gather.NodeLogOf(node) {
		switch g.Class {
		case nodelog.ClassCertificate:
			certs += g.Count
			if certs == g.Count {
				res.Evidence = append(res.Evidence, logGroupEvidence(g))
			}
		case nodelog.ClassAPI, nodelog.ClassNodeNotReady:
			api += g.Count
			if api == g.Count {
				res.Evidence = append(res.Evidence, logGroupEvidence(g))
			}
		}
	}
	if certs > 0 {
		down = true
		facts = append(facts, fmt.Sprintf("its kubelet logged %s (an expired or unsigned kubelet client certificate)", countOf(certs, "certificate error", "certificate errors")))
	} else if api > 0 && !c.gather.HasKubeletLog(node) {
		api = 0
	}
	if api > 0 && len(facts) == 0 {
		down = true
		facts = append(facts, fmt.Sprintf("its kubelet logged %s reaching the API server", countOf(api, "failure", "failures")))
	}
	// Pending CSRs of the node.
	csrs, csrCov := c.store.List(model.Kind{Group: "certificates.k8s.io", Resource: "certificatesigningrequests"}, "")
	var pending []string
	for _, o := range csrs {
		csr := model.Typed[certificatesv1.CertificateSigningRequest](o)
		if csr == nil || len(csr.Status.Conditions) > 0 {
			continue
		}
		if u, ok := strings.CutPrefix(csr.Spec.Username, "system:node:"); ok && model.HostMatch(u, node) {
			pending = append(pending, o.Name)
			res.Evidence = append(res.Evidence, objectEvidence(o, "Pending (no Approved or Denied condition), requested by "+csr.Spec.Username+", signer "+csr.Spec.SignerName))
		}
	}
	if len(pending) > 0 {
		facts = append(facts, fmt.Sprintf("%s of the node %s Pending (%s), so its kubelet has no valid certificate", countOf(len(pending), "CSR", "CSRs"), pick(len(pending) == 1, "is", "are"), list(pending, 4)))
	} else if down && csrCov == model.NotGathered && certs > 0 {
		res.Missing = append(res.Missing, notGathered("CertificateSigningRequests, so whether the node's certificate requests wait for approval could not be checked"))
	}
	if !down {
		return res
	}
	res.Decided = true
	res.Cause = "The node, not the pod, holds the deletion: " + strings.Join(facts, "; ") + ". Only the kubelet confirms that a pod's containers stopped, so the pod stays Terminating until the node reports again; a finalizer is not the cause here."
	res.Fix = fmt.Sprintf("Bring node %s back: approve its pending CSRs after checking them (`oc get csr`, `oc adm certificate approve <name>`), restart the kubelet, or, once the node is confirmed down, force-delete the pod (`oc -n %s delete pod %s --grace-period=0 --force`).", node, p.Object.Namespace, p.Object.Name)
	if len(pending) == 0 && certs == 0 {
		res.Fix = fmt.Sprintf("Bring node %s back (kubelet, network, machine), or, once it is confirmed down, force-delete the pod (`oc -n %s delete pod %s --grace-period=0 --force`).", node, p.Object.Namespace, p.Object.Name)
	}
	return res
}

// ---- cniAgent ----------------------------------------------------------------------

// cniAgentNamespaces are the namespaces of the node agents that set up pod
// networks: a restart of one of their containers on a node fails the
// sandboxes created on that node while it is down.
var cniAgentNamespaces = []string{"openshift-ovn-kubernetes", "openshift-sdn", "openshift-multus", "kube-system", "calico-system", "cilium"}

// cniAgentWindow is how long before the first sandbox failure an agent's
// restart counts as its cause.
const cniAgentWindow = 10 * time.Minute

func init() {
	joins["cniAgent"] = join{
		doc:   "sandbox failure on a node → the network plugin's node agents on that node (ovnkube-node, sdn, multus, ...) → a container of theirs that restarted, or is not ready, within 10 minutes before the failures. Decides when an agent was down when the sandboxes failed.",
		reads: nil,
		run:   joinCNIAgent,
	}
}

func joinCNIAgent(c *evalContext, p *model.Pod, h *hit) joinResult {
	node := p.Object.Spec.NodeName
	if node == "" {
		return joinResult{}
	}
	// When the sandbox failures began: the oldest sandbox event or kubelet line.
	var first time.Time
	var firstEv *Evidence
	for _, e := range p.Events {
		if e.Object.Reason != "FailedCreatePodSandBox" {
			continue
		}
		t := e.Object.FirstTimestamp.Time()
		if t.IsZero() {
			t = e.When()
		}
		if first.IsZero() || t.Before(first) {
			first = t
			ev := Evidence{Source: eventSource(e), Kind: "event", Quote: strings.TrimSpace(e.Object.Message), Time: e.When(), Count: e.Count(), Text: fmt.Sprintf("%s %s: %s", eventType(e), e.Object.Reason, strings.TrimSpace(e.Object.Message))}
			firstEv = &ev
		}
	}
	for _, g := range p.NodeLog {
		if g.Class == nodelog.ClassSandbox && !g.First.IsZero() && (first.IsZero() || g.First.Before(first)) {
			first = g.First
		}
	}
	if first.IsZero() {
		return joinResult{}
	}
	var res joinResult
	if firstEv != nil {
		res.Evidence = append(res.Evidence, *firstEv)
	}
	for _, o := range c.store.PodsOnNode(node) {
		if !slices.Contains(cniAgentNamespaces, o.Namespace) {
			continue
		}
		agent := o.Pod()
		if agent == nil || agent == p {
			continue
		}
		for _, cs := range containers(agent, nil) {
			st := cs.Status
			t := st.LastTerminationState.Terminated
			if t == nil {
				continue
			}
			// The agent's container was down from its last termination
			// until it ran again; sandboxes failing then are its doing.
			down := t.FinishedAt.Time
			up := down
			if r := st.State.Running; r != nil {
				up = r.StartedAt.Time
			}
			if down.IsZero() || down.After(first.Add(time.Minute)) || up.Before(first.Add(-cniAgentWindow)) && down.Before(first.Add(-cniAgentWindow)) {
				continue
			}
			res.Decided = true
			res.Cause = fmt.Sprintf("The network plugin's node agent on %s was down when the sandbox failures began (%s): container %s of %s/%s terminated at %s (%s, exit code %d) and ran again at %s, %d restart%s in all. CNI calls on the node fail while it restarts; the pod's own configuration is not the cause.",
				node, fmtTime(first), cs.Name, o.Namespace, o.Name, fmtTime(down), orDash(t.Reason), t.ExitCode, fmtTime(up), st.RestartCount, plural(int(st.RestartCount)))
			res.Fix = fmt.Sprintf("Find why %s restarted (`oc -n %s logs %s -c %s --previous`); once it runs, delete the stuck pod so it gets a new sandbox.", o.Name, o.Namespace, o.Name, cs.Name)
			res.Evidence = append(res.Evidence, objectEvidence(o, fmt.Sprintf("container %s lastState terminated %s exitCode %d at %s; restartCount %d", cs.Name, orDash(t.Reason), t.ExitCode, fmtTime(down), st.RestartCount)))
			return res
		}
	}
	return res
}

// ---- nodeRequests -------------------------------------------------------------------

func init() {
	joins["nodeRequests"] = join{
		doc:   "\"Insufficient cpu/memory\" → the nodes the pod may use (selector and taints) → the requests of the pods bound to each against its allocatable. Decides when the gathered pods' requests leave no such node room for the pod's request, naming the largest room left.",
		reads: nil,
		run:   joinNodeRequests,
	}
}

var insufficientRe = regexp.MustCompile(`Insufficient ([a-z0-9./_-]{1,63})`)

func joinNodeRequests(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	var resources []corev1.ResourceName
	for _, m := range insufficientRe.FindAllStringSubmatch(h.Vars["Message"], 4) {
		if r := corev1.ResourceName(m[1]); !slices.Contains(resources, r) {
			resources = append(resources, r)
		}
	}
	if len(resources) == 0 {
		return res
	}
	verdicts, cov := c.nodeVerdicts(p)
	if cov == model.NotGathered || len(verdicts) == 0 {
		res.Missing = append(res.Missing, notGathered("Node objects, so the room left on each node could not be computed"))
		return res
	}
	var parts []string
	decided := true
	for _, r := range resources {
		want, _ := model.PodResources(&p.Object.Spec, r, false)
		if want.IsZero() {
			decided = false
			continue
		}
		bestFree := resource.Quantity{}
		bestNode := ""
		candidates := 0
		for _, v := range verdicts {
			if !v.selected || len(v.taints) > 0 || v.cordoned {
				continue
			}
			alloc, ok := v.node.Status.Allocatable[r]
			if !ok {
				continue
			}
			candidates++
			used := resource.Quantity{}
			for _, o := range c.store.PodsOnNode(v.node.Name) {
				if pod := model.Typed[corev1.Pod](o); pod != nil && !model.Terminal(pod) {
					q, _ := model.PodResources(&pod.Spec, r, false)
					used.Add(q)
				}
			}
			free := alloc.DeepCopy()
			free.Sub(used)
			if free.Cmp(want) >= 0 {
				decided = false // the gathered pods leave room: the gather lacks some pods, or it changed
			}
			if bestNode == "" || free.Cmp(bestFree) > 0 {
				bestFree, bestNode = free, v.node.Name
			}
			res.Evidence = append(res.Evidence, objectEvidence(v.obj, fmt.Sprintf("allocatable %s %s, requested by its gathered pods %s", r, alloc.String(), used.String())))
		}
		if candidates == 0 {
			decided = false
			continue
		}
		parts = append(parts, fmt.Sprintf("it requests %s %s, and the most %s left on any of the %d nodes it may use is %s on %s", want.String(), r, r, candidates, bestFree.String(), bestNode))
	}
	if !decided || len(parts) == 0 {
		res.Evidence = nil
		return res
	}
	res.Decided = true
	res.Cause = "Requests, not use, decide: " + strings.Join(parts, "; ") + " (requests of the pods bound to each node, against its allocatable)."
	res.Fix = "Lower the pod's requests to what it uses, free requests on the nodes (scale down or right-size other workloads), or add nodes to the pool."
	return res
}

// ---- sccUser -------------------------------------------------------------------------

func init() {
	joins["sccUser"] = join{
		doc:   "pod → the SecurityContextConstraints that admitted it (openshift.io/scc) → the UID it runs as (runAsUser set by the SCC) → the namespace's UID range (openshift.io/sa.scc.uid-range). Decides when a restricted SCC runs the container as an arbitrary UID of the namespace's range, not as the image's user.",
		reads: []model.Kind{model.Namespaces},
		run:   joinSCCUser,
	}
}

func joinSCCUser(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	scc := p.Object.Annotations["openshift.io/scc"]
	if scc == "" {
		return res // not OpenShift, or admitted before SCCs annotated pods
	}
	var uid *int64
	if sc := p.Object.Spec.SecurityContext; sc != nil && sc.RunAsUser != nil {
		uid = sc.RunAsUser
	}
	for _, cs := range containers(p, nil) {
		if cs.Name == h.Container && cs.Spec != nil && cs.Spec.SecurityContext != nil && cs.Spec.SecurityContext.RunAsUser != nil {
			uid = cs.Spec.SecurityContext.RunAsUser
		}
	}
	res.Evidence = append(res.Evidence, c.statusEvidence(p, fmt.Sprintf("annotation openshift.io/scc=%s; runAsUser %s", scc, uidText(uid))))
	if uid == nil || *uid == 0 || !strings.HasPrefix(scc, "restricted") && !strings.HasPrefix(scc, "nonroot") {
		return res // root, or an SCC that keeps the image's user: not the arbitrary-UID case
	}
	rng := ""
	nsObj, cov := c.store.Get(model.Namespaces, "", p.Object.Namespace)
	if ns := model.Typed[corev1.Namespace](nsObj); ns != nil {
		rng = ns.Annotations["openshift.io/sa.scc.uid-range"]
		if rng != "" {
			res.Evidence = append(res.Evidence, objectEvidence(nsObj, "annotation openshift.io/sa.scc.uid-range="+rng))
		}
	} else if cov == model.NotGathered {
		res.Missing = append(res.Missing, notGathered("Namespace "+p.Object.Namespace+", so its UID range could not be read"))
	}
	res.Decided = true
	from := ""
	if rng != "" {
		from = fmt.Sprintf(", taken from namespace %s's range %s", p.Object.Namespace, rng)
	}
	res.Cause = fmt.Sprintf("The pod runs under SCC %s as UID %d%s, with group 0: not as the user the image was built for, so paths the image owns by another UID are not writable.", scc, *uid, from)
	res.Fix = "Make the image's writable paths group-owned by 0 and group-writable (`chgrp -R 0 DIR && chmod -R g=u DIR` in the image build), or mount an emptyDir there; grant another SCC only if the workload truly needs a fixed UID."
	return res
}

func uidText(uid *int64) string {
	if uid == nil {
		return "unset (the image's USER)"
	}
	return strconv.FormatInt(*uid, 10)
}
