package rules

import (
	"fmt"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	certificatesv1 "k8s.io/api/certificates/v1"
	corev1 "k8s.io/api/core/v1"
)

// The helpers the joins of join_*.go share: the nodes a pod may use, the
// logs of a pod or its sibling replicas, and the words they cite objects with.

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
	// The first replica with a log of the container, found once per
	// controller and container (p has none, so it is never that replica).
	key := replicaKey{p.Object.Namespace, ref.Kind, ref.Name, container}
	q, seen := c.siblingLogs[key]
	if !seen {
		for _, o := range c.store.PodsOwnedBy(p.Object.Namespace, ref.Kind, ref.Name) {
			if r := o.Pod(); r != nil && len(own(r)) > 0 {
				q = r
				break
			}
		}
		if c.siblingLogs == nil {
			c.siblingLogs = map[replicaKey]*model.Pod{}
		}
		c.siblingLogs[key] = q
	}
	if q == nil || q == p {
		return nil, ""
	}
	return own(q), q.Object.Name
}

// replicaKey names one container of the pods of one controller.
type replicaKey struct{ namespace, kind, name, container string }

// fromSibling notes whose log a cause was read from.
func fromSibling(cause, sibling string) string {
	if sibling == "" || cause == "" {
		return cause
	}
	return cause + " (Read from the log of sibling replica " + sibling + "; this pod's log is not in the gather.)"
}

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

func taintList(ts []corev1.Taint) string {
	var out []string
	for _, t := range ts {
		out = append(out, model.TaintText(t))
	}
	return strings.Join(out, ", ")
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

// podStatusText is the pod's kubectl STATUS and READY when the gather's model
// holds it, else its phase.
func (c *evalContext) podStatusText(p *corev1.Pod) string {
	if mp := c.store.PodFor(p.Namespace, p.Name, string(p.UID)); mp != nil {
		return fmt.Sprintf("STATUS %s, READY %s, RESTARTS %s", mp.Columns.Status, mp.Columns.Ready, mp.Columns.Restarts)
	}
	return "phase " + string(p.Status.Phase)
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

func selects(sel, l map[string]string) bool {
	for k, v := range sel {
		if l[k] != v {
			return false
		}
	}
	return true
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func objectEvidence(o *model.Object, text string) Evidence {
	return Evidence{Source: o.Source, Kind: EvidenceObject, Text: o.Ref() + ": " + text}
}

// objectFieldEvidence is objectEvidence cited at the line of the first of
// paths the object's file shows, for a pod or a node of the store (their
// model.FieldLines: "status.allocatable.cpu", "spec.taints"), else at the
// object's first line.
func (c *evalContext) objectFieldEvidence(o *model.Object, text string, paths ...string) Evidence {
	ev := objectEvidence(o, text)
	var fields model.FieldLines
	switch {
	case o.Pod() != nil && o.Pod().Source == o.Source:
		fields = o.Pod().Fields
	case o.Kind == model.Nodes && c.gather != nil:
		if n := c.gather.NodeNamed(o.Name); n != nil && n.Source == o.Source {
			fields = n.Fields
		}
	}
	if line := fields.Line(paths...); line > 0 {
		ev.Source.Line = line
	}
	return ev
}

// containerStatusPaths are the paths of a pod's container named name
// followed by the given fields, in containerStatuses then
// initContainerStatuses (the container's kind is not known to the caller).
func containerStatusPaths(name string, fields ...string) []string {
	var out []string
	for _, list := range []string{"status.containerStatuses[", "status.initContainerStatuses["} {
		for _, f := range fields {
			out = append(out, list+name+"]"+f)
		}
	}
	return out
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

// notGathered records that the join needed what and the gather lacks it:
// Missing says so (the package's notGathered), Gaps names what collects it.
func (r *joinResult) notGathered(gap model.Gap, what string) {
	r.Missing = append(r.Missing, notGathered(what))
	r.Gaps = append(r.Gaps, gap)
}

// lacking is the result of a join that decides nothing because the gather
// lacks what it needs (joinResult.notGathered).
func lacking(gap model.Gap, what string) joinResult {
	var r joinResult
	r.notGathered(gap, what)
	return r
}

// objectsGap is the gap of the objects of kind k in namespace ns ("" for
// a cluster-scoped kind or every namespace).
func objectsGap(k model.Kind, ns string) model.Gap {
	return model.Gap{What: model.GapObjects, Kind: k, Namespace: ns}
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

// nodeCSR is one CertificateSigningRequest of a node's kubelet.
type nodeCSR struct {
	obj *model.Object
	csr *certificatesv1.CertificateSigningRequest
	// State is "Pending" (no condition), "Approved", "Denied" or "Failed"
	// (the issued certificate itself is not kept: parser.decodeCSR).
	State string
}

// client reports whether the request is for the kubelet's client
// certificate (the one it authenticates to the API server with).
func (r nodeCSR) client() bool {
	return r.csr.Spec.SignerName == certificatesv1.KubeAPIServerClientKubeletSignerName
}

// evidence cites the request with its state, requester and signer.
func (r nodeCSR) evidence() Evidence {
	state := r.State
	if r.State == "Pending" {
		state = "Pending (no Approved or Denied condition)"
	}
	return objectEvidence(r.obj, fmt.Sprintf("%s, requested by %s at %s, signer %s", state, r.csr.Spec.Username, fmtTime(r.csr.CreationTimestamp.Time), r.csr.Spec.SignerName))
}

// nodeCSRs lists the CertificateSigningRequests of node's kubelet (those the
// node asked for itself, and those its bootstrap identity asked for in its
// name: model.CSRNode), in the store's order, and the coverage of the list.
func (c *evalContext) nodeCSRs(node string) ([]nodeCSR, model.Coverage) {
	objs, cov := c.store.List(model.CertificateSigningRequests, "")
	var out []nodeCSR
	for _, o := range objs {
		csr := model.Typed[certificatesv1.CertificateSigningRequest](o)
		if csr == nil || !model.HostMatch(model.CSRNode(csr), node) {
			continue
		}
		r := nodeCSR{obj: o, csr: csr, State: "Pending"}
		for _, cond := range csr.Status.Conditions {
			if cond.Status == corev1.ConditionFalse {
				continue
			}
			switch cond.Type {
			case certificatesv1.CertificateDenied, certificatesv1.CertificateFailed:
				r.State = string(cond.Type)
			case certificatesv1.CertificateApproved:
				if r.State == "Pending" {
					r.State = "Approved"
				}
			}
		}
		out = append(out, r)
	}
	return out, cov
}
