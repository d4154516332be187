package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// dnsTimeoutRe matches a failed lookup that timed out (not NXDOMAIN): Go's
// resolver ("lookup NAME on IP:53: ... i/o timeout"), glibc ("Temporary
// failure in name resolution"), Node.js (EAI_AGAIN) and dig.
var dnsTimeoutRe = mustLitRegexp(`lookup (\S{1,253}) on \[?([0-9a-fA-F.:]{2,45}?)\]?:(\d{1,5}): .{0,200}?(?:i/o timeout|timeout|no servers could be reached)|dial udp \[?([0-9a-fA-F.:]{2,45}?)\]?:53: i/o timeout|(?:EAI_AGAIN|Temporary failure in name resolution|no servers could be reached)`)

// dnsHostRe finds the name a glibc or Node.js resolver failure is about.
var dnsHostRe = mustLitRegexp(`EAI_AGAIN ([A-Za-z0-9._-]{1,253})|host name "([^"]{1,253})"`)

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

// joinDNSEgress runs the dnsEgress join for one pod and hit (doc and reads: joinRegistry).
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
	res.Evidence = append(res.Evidence, Evidence{Source: src, Kind: EvidenceContainerLog, Time: line.Time, Text: line.Text, Quote: line.Text})
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
		res.notGathered(objectsGap(model.Services, ""), what+", so the port its pods listen on could not be checked")
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
		res.notGathered(objectsGap(model.Endpoints, svc.Namespace), fmt.Sprintf("the Endpoints or pods of Service %s/%s, so its targetPort %s could not be resolved", svc.Namespace, svc.Name, target.String()))
		return res
	}
	// NetworkPolicies of the pod's namespace that select it for egress.
	pols, polCov := c.store.List(model.NetworkPolicies, p.Object.Namespace)
	if polCov == model.NotGathered {
		res.notGathered(objectsGap(model.NetworkPolicies, p.Object.Namespace), "the NetworkPolicies of namespace "+p.Object.Namespace+", so whether one blocks DNS could not be checked")
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
