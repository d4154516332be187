package model

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"sort"
	"strings"

	"github.com/go-logr/logr"
	certificatesv1 "k8s.io/api/certificates/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// Derived facts: pure functions over typed objects, each the one place where
// the project computes that fact.

// UntoleratedTaints returns the taints of node with effect NoSchedule or
// NoExecute that tolerations do not tolerate (the scheduler's
// TaintToleration filter), in the node's order.
func UntoleratedTaints(tolerations []corev1.Toleration, node *corev1.Node) []corev1.Taint {
	var out []corev1.Taint
	for i := range node.Spec.Taints {
		t := &node.Spec.Taints[i]
		if t.Effect != corev1.TaintEffectNoSchedule && t.Effect != corev1.TaintEffectNoExecute {
			continue
		}
		tolerated := false
		for j := range tolerations {
			if tolerations[j].ToleratesTaint(logr.Discard(), t, true) {
				tolerated = true
				break
			}
		}
		if !tolerated {
			out = append(out, *t)
		}
	}
	return out
}

// TaintText is a taint as `oc adm taint` writes it: key=value:Effect, or key:Effect.
func TaintText(t corev1.Taint) string {
	if t.Value == "" {
		return t.Key + ":" + string(t.Effect)
	}
	return t.Key + "=" + t.Value + ":" + string(t.Effect)
}

// SelectorMatch reports whether a node satisfies a pod spec's nodeSelector and
// required node affinity (the scheduler's NodeAffinity filter); when it does
// not, why names the first label requirement that fails.
func SelectorMatch(spec *corev1.PodSpec, node *corev1.Node) (ok bool, why string) {
	for _, k := range SortedKeys(spec.NodeSelector) {
		v := spec.NodeSelector[k]
		if got, has := node.Labels[k]; !has || got != v {
			return false, fmt.Sprintf("nodeSelector %s=%s", k, v)
		}
	}
	a := spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return true, ""
	}
	terms := a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	if len(terms) == 0 {
		return true, ""
	}
	var firstWhy string
	for _, term := range terms { // terms are ORed
		if ok, w := termMatches(term, node); ok {
			return true, ""
		} else if firstWhy == "" {
			firstWhy = w
		}
	}
	return false, "required node affinity " + firstWhy
}

func termMatches(term corev1.NodeSelectorTerm, node *corev1.Node) (bool, string) {
	for _, r := range term.MatchExpressions {
		if !requirementMatches(r, node.Labels) {
			return false, fmt.Sprintf("%s %s %s", r.Key, r.Operator, strings.Join(r.Values, ","))
		}
	}
	for _, r := range term.MatchFields {
		if r.Key == "metadata.name" && !requirementMatches(r, map[string]string{"metadata.name": node.Name}) {
			return false, fmt.Sprintf("metadata.name %s %s", r.Operator, strings.Join(r.Values, ","))
		}
	}
	return true, ""
}

func requirementMatches(r corev1.NodeSelectorRequirement, l map[string]string) bool {
	v, has := l[r.Key]
	switch r.Operator {
	case corev1.NodeSelectorOpIn:
		return has && contains(r.Values, v)
	case corev1.NodeSelectorOpNotIn:
		return !has || !contains(r.Values, v)
	case corev1.NodeSelectorOpExists:
		return has
	case corev1.NodeSelectorOpDoesNotExist:
		return !has
	case corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt:
		if !has || len(r.Values) != 1 {
			return false
		}
		a, err1 := resource.ParseQuantity(v)
		b, err2 := resource.ParseQuantity(r.Values[0])
		if err1 != nil || err2 != nil {
			return false
		}
		if r.Operator == corev1.NodeSelectorOpGt {
			return a.Cmp(b) > 0
		}
		return a.Cmp(b) < 0
	}
	return false
}

// LabelSelectorMatches reports whether a metav1.LabelSelector selects an
// object with labels l. A nil selector selects nothing; an empty one selects
// everything (as in NetworkPolicy podSelector and KubeletConfig pool selectors).
func LabelSelectorMatches(sel *metav1.LabelSelector, l map[string]string) bool {
	if sel == nil {
		return false
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return false
	}
	return s.Matches(labels.Set(l))
}

// Terminal reports whether a pod has finished (Succeeded or Failed) and so no
// longer holds node resources or volumes.
func Terminal(p *corev1.Pod) bool {
	return p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed
}

// PodResources sums a pod's requests or limits (limits=true) of one resource
// the way the scheduler does: the sum over app containers, or the largest
// init container when larger, plus the pod overhead. unset is true when some
// app container sets none (a limit then is unbounded).
func PodResources(p *corev1.PodSpec, name corev1.ResourceName, limits bool) (q resource.Quantity, unset bool) {
	pick := func(r corev1.ResourceRequirements) (resource.Quantity, bool) {
		list := r.Requests
		if limits {
			list = r.Limits
		}
		v, ok := list[name]
		return v, ok
	}
	for _, c := range p.Containers {
		v, ok := pick(c.Resources)
		if !ok {
			unset = true
			continue
		}
		q.Add(v)
	}
	for _, c := range p.InitContainers {
		if v, ok := pick(c.Resources); ok && v.Cmp(q) > 0 {
			q = v.DeepCopy()
		}
	}
	if v, ok := p.Overhead[name]; ok {
		q.Add(v)
	}
	return q, unset
}

// NearestName returns the candidate closest to name by edit distance when it
// is close enough to be a likely typo or a near variant (distance at most a
// third of the name's length, and at least one), or a candidate that name
// extends or that extends name by a suffix such as "-config"; "" otherwise.
func NearestName(name string, candidates []string) string {
	best, bestD := "", 1<<30
	for _, c := range candidates {
		if c == name {
			continue
		}
		d := EditDistance(name, c, 64)
		if strings.HasPrefix(name, c+"-") || strings.HasPrefix(c, name+"-") {
			d = min(d, 2)
		}
		if d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	if best != "" && bestD <= max(1, len(name)/3) {
		return best
	}
	return ""
}

// EditDistance is the Levenshtein distance of a and b (single-byte edits),
// or limit when either is longer than limit bytes (names and keys are short;
// this bounds the work on hostile input).
func EditDistance(a, b string, limit int) int {
	if len(a) > limit || len(b) > limit {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// SortedKeys returns the keys of m in order.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// HostKey is how a node and a journal host are matched: the short host name
// (a Node may be named by its FQDN while its journal says the short name, or
// the reverse). Every join between nodes and host-keyed logs uses it.
func HostKey(host string) string {
	if i := strings.IndexByte(host, '.'); i > 0 {
		return host[:i]
	}
	return host
}

// CSRNode is the node a kubelet CertificateSigningRequest is for: the name
// after "system:node:" in its requester (a renewal, made with the node's own
// certificate) or, for a request made with a bootstrap identity
// (node-bootstrapper, system:bootstrap:<token>), in the common name of the
// request's subject; "" when neither names a node.
func CSRNode(csr *certificatesv1.CertificateSigningRequest) string {
	if n, ok := strings.CutPrefix(csr.Spec.Username, "system:node:"); ok {
		return n
	}
	block, _ := pem.Decode(csr.Spec.Request)
	if block == nil {
		return ""
	}
	req, err := x509.ParseCertificateRequest(block.Bytes)
	if err != nil {
		return ""
	}
	n, _ := strings.CutPrefix(req.Subject.CommonName, "system:node:")
	if n == req.Subject.CommonName {
		return ""
	}
	return n
}
