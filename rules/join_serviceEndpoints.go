package rules

import (
	"fmt"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
)

// dependencyRe matches a failed connection to a dependency in a container log:
// Go's "dial tcp IP:PORT: connect: connection refused", and the same to a
// host name; the address is a Service's cluster IP or DNS name.
var dependencyRe = mustLitRegexp(`dial tcp \[?([0-9A-Za-z.:-]{1,253}?)\]?:(\d{1,5}): (?:connect: )?(connection refused|no route to host|i/o timeout)|(?:connect|connection) (?:to )?([a-z0-9.-]{1,253}):(\d{1,5}) (?:refused|failed)|ECONNREFUSED ([0-9A-Za-z.:-]{1,253}?):(\d{1,5})`)

// joinServiceEndpoints runs the serviceEndpoints join for one pod and hit (doc and reads: joinRegistry).
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
				res.Evidence = append(res.Evidence, Evidence{Source: model.Source{Path: l.Path(), Line: line.Line}, Kind: EvidenceContainerLog, Time: line.Time, Text: line.Text, Quote: line.Text})
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
			res.notGathered(objectsGap(model.Endpoints, svc.Namespace), fmt.Sprintf("the Endpoints of Service %s/%s, so whether it has ready pods could not be checked", svc.Namespace, svc.Name))
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
