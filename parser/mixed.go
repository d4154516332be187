package parser

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
)

// mixedGather returns why a gather that reads as one cluster is in fact
// made of two, and foreign, the Node objects of the other cluster:
//   - its Node objects carry none of its pods and none of its kubelet
//     journals, while its pods and journals name other nodes, of another
//     domain (the DNS domain of FQDN node names, else the infrastructure
//     prefix of OpenShift node names, "<infraID>-master-0") or of no domain
//     that can be told;
//   - or, among Node objects that do carry its pods, some carry none and are
//     of another domain (foreignNodes).
//
// It returns "" when the gather is consistent, and also for a journal of a
// host that has no Node object in a gather whose pods run on its Node
// objects (a node that never registered), and when both sides share a
// domain (a partial gather of one cluster's Node objects).
func mixedGather(g *model.Gather) (why string, foreign []string) {
	objects := map[string]string{} // host key → Node object name
	for _, n := range g.Nodes {
		if !n.JournalOnly {
			objects[model.HostKey(n.Object.Name)] = n.Object.Name
		}
	}
	if len(objects) == 0 {
		return "", nil
	}
	carrying := map[string]string{} // Node objects that run a pod or have a journal
	others := map[string]string{}   // host key → name, of pods' nodes and journal hosts that are no Node object
	pods, journals := 0, 0
	place := func(name string) bool {
		if o, ok := objects[model.HostKey(name)]; ok && sameHost(o, name) {
			carrying[model.HostKey(name)] = o
			return true
		}
		others[model.HostKey(name)] = name
		return false
	}
	for _, p := range g.Pods {
		if name := p.Object.Spec.NodeName; name != "" && p.Runtime == nil && !place(name) {
			pods++
		}
	}
	for _, h := range g.KubeletLogNodes {
		if !place(h) {
			journals++
		}
	}
	if len(carrying) > 0 {
		return foreignNodes(objects, carrying)
	}
	if pods == 0 {
		return "", nil // journals of hosts with no Node object alone: nodes that never registered
	}
	objDomains, otherDomains := domainsOf(objects), domainsOf(others)
	for d := range objDomains {
		if otherDomains[d] {
			return "", nil // one domain: only some of the cluster's Node objects were gathered
		}
	}
	what := fmt.Sprintf("its %d pods", pods)
	if journals > 0 {
		what += fmt.Sprintf(" and %d kubelet journals", journals)
	}
	return fmt.Sprintf("this gather mixes two clusters: its %d Node objects (%s; %s) carry none of its pods or journals, while %s name %d other nodes (%s; %s); node conditions, capacity and taints cannot be joined to these pods, and node findings speak of the Node objects' cluster",
		len(objects), listNames(objects), joinDomains(objDomains), what, len(others), listNames(others), joinDomains(otherDomains)), sortedValues(objects)
}

// foreignNodes returns why some Node objects of a gather whose pods or
// journals do meet its Node objects (carrying) are of another cluster:
// they carry none of its pods or journals, and their domain is none of the
// carrying nodes' domains. A Node that runs nothing but shares the domain
// (a new or drained node) is not foreign, nor is one whose domain cannot be
// told. "" when none is foreign.
func foreignNodes(objects, carrying map[string]string) (string, []string) {
	home := domainsOf(carrying)
	if len(home) == 0 {
		return "", nil
	}
	foreign := map[string]string{}
	for k, name := range objects {
		if _, ok := carrying[k]; ok {
			continue
		}
		if d := nodeDomain(name); d != "" && !home[d] {
			foreign[k] = name
		}
	}
	if len(foreign) == 0 {
		return "", nil
	}
	return fmt.Sprintf("this gather mixes two clusters: %d of its Node objects (%s; %s) carry none of its pods or journals and are of another domain than the %d nodes that do (%s); their conditions and findings are not of this cluster",
		len(foreign), listNames(foreign), joinDomains(domainsOf(foreign)), len(carrying), joinDomains(home)), sortedValues(foreign)
}

// sameHost is model.HostMatch, except that two full names (FQDNs) must be
// equal: w1.red.example.com and w1.blue.example.org are two hosts.
func sameHost(a, b string) bool {
	if strings.Contains(a, ".") && strings.Contains(b, ".") {
		return strings.EqualFold(a, b)
	}
	return model.HostMatch(a, b)
}

// nodeDomain returns the domain of a node name: what follows its first dot,
// else the part before "-master", "-worker", "-infra" or "-control-plane"
// (an OpenShift infrastructure ID), else "".
func nodeDomain(name string) string {
	if i := strings.IndexByte(name, '.'); i > 0 && i < len(name)-1 {
		return name[i+1:]
	}
	best := -1
	for _, role := range []string{"-master", "-worker", "-infra", "-control-plane"} {
		if i := strings.Index(name, role); i > 0 && (best < 0 || i < best) {
			best = i
		}
	}
	if best > 0 {
		return name[:best]
	}
	return ""
}

func domainsOf(names map[string]string) map[string]bool {
	out := map[string]bool{}
	for _, n := range names {
		if d := nodeDomain(n); d != "" {
			out[d] = true
		}
	}
	return out
}

func joinDomains(ds map[string]bool) string {
	keys := sortedKeys(ds)
	if len(keys) == 0 {
		return "no domain in the names"
	}
	if len(keys) == 1 {
		return "domain " + keys[0]
	}
	return "domains " + strings.Join(keys, ", ")
}

// listNames lists the values of names as shortList does.
func listNames(names map[string]string) string { return shortList(sortedValues(names)) }

// shortList lists up to three of names, sorted, and how many more:
// "a, b, c, … 4 more".
func shortList(names []string) string {
	list := slices.Sorted(slices.Values(names))
	if len(list) > 3 {
		list = append(list[:3], fmt.Sprintf("… %d more", len(list)-3))
	}
	return strings.Join(list, ", ")
}

// sortedValues returns the values of m, sorted.
func sortedValues(m map[string]string) []string {
	return slices.Sorted(maps.Values(m))
}
