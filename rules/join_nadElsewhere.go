package rules

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
)

// joinNadElsewhere runs the nadElsewhere join for one pod and hit (doc and
// reads: joinRegistry).
//
// Run as the decider of nad-other-namespace, it rules the signature out
// whenever no other namespace of the gather holds a definition of that name:
// the signature's cause is the namespace the definition lives in, and
// without one there is nothing to state (nad-not-found then speaks).
func joinNadElsewhere(c *evalContext, p *model.Pod, h *hit) joinResult {
	name, ns, ok := nadLookup(h)
	if !ok || name == "" {
		return joinResult{RuledOut: true}
	}
	if o, cov := c.store.Get(model.NetworkAttachmentDefinitions, ns, name); cov == model.Found {
		// It is where Multus looked: created since, or another fault.
		return joinResult{RuledOut: true, Evidence: []Evidence{objectEvidence(o, "exists in the namespace Multus looked in")}}
	}
	all, _ := c.store.List(model.NetworkAttachmentDefinitions, "*")
	var homes []*model.Object
	for _, o := range all {
		if o.Name == name && o.Namespace != ns {
			homes = append(homes, o)
		}
	}
	if len(homes) == 0 {
		return joinResult{RuledOut: true}
	}
	var nsNames []string
	res := joinResult{Decided: true}
	for _, o := range homes {
		nsNames = append(nsNames, o.Namespace)
		res.Evidence = append(res.Evidence, objectEvidence(o, "a NetworkAttachmentDefinition of the name Multus looked up, in another namespace"))
	}
	home := homes[0].Namespace
	how := "names it without a namespace, so Multus looks it up in the pod's own namespace"
	if n, has := podNetworks(p); has && n.Err == nil {
		res.Evidence = append(res.Evidence, c.annotationEvidence(p, n))
		if e := n.element(name); e != nil {
			switch {
			case e.Namespace == "":
				how = fmt.Sprintf("names it as %s, without a namespace, so Multus looks it up in the pod's own namespace %s", "`"+e.Text+"`", p.Object.Namespace)
			case e.Namespace == ns:
				how = fmt.Sprintf("names it as %s, in namespace %s", "`"+e.Text+"`", ns)
			}
		}
	}
	res.Cause = fmt.Sprintf("NetworkAttachmentDefinition %s lives in namespace %s, not in %s: the pod's %s annotation %s.",
		name, list(nsNames, 4), ns, multusNetworksKey, how)
	ref := home + "/" + name
	res.Fix = fmt.Sprintf("Reference it with its namespace: `%s` in the text form of the annotation, or {\"name\": %q, \"namespace\": %q} in the JSON form (in the pod template of its controller).", ref, name, home)
	if !c.vocab.kubernetes {
		// OpenShift's Multus isolates namespaces: another namespace's
		// definition may be used only from a global namespace.
		global, stated := multusGlobalNamespaces(h)
		switch {
		case stated && slices.Contains(global, home):
			res.Fix += fmt.Sprintf(" Namespace isolation allows it: %s is one of Multus' global namespaces (%s).", home, strings.Join(global, ", "))
		case stated:
			res.Fix = fmt.Sprintf("Multus isolates namespaces and %s is not one of its global namespaces (%s): copy the definition into %s, or move it to a global namespace and reference it as <namespace>/%s.", home, strings.Join(global, ", "), ns, name)
		default:
			res.Fix += fmt.Sprintf(" With Multus' namespace isolation (OpenShift's default) that works only when %s is one of its global namespaces (globalNamespaces: default and openshift-multus are); otherwise copy the definition into %s.", home, ns)
		}
	}
	return res
}

// globalNamespacesRe finds Multus' global namespaces in the configuration
// a thick-plugin error quotes (its StdinData), escaped or not.
var globalNamespacesRe = regexp.MustCompile(`globalNamespaces\\?"\s*:\s*\\?"([^"\\]*)`)

// multusGlobalNamespaces returns the global namespaces the deciding line
// quotes from Multus' configuration, and false when it quotes none.
func multusGlobalNamespaces(h *hit) ([]string, bool) {
	for _, e := range h.Evidence {
		for _, t := range []string{e.Quote, e.Text} {
			if m := globalNamespacesRe.FindStringSubmatch(t); m != nil {
				var out []string
				for _, n := range strings.Split(m[1], ",") {
					if n = strings.TrimSpace(n); n != "" {
						out = append(out, n)
					}
				}
				return out, true
			}
		}
	}
	return nil, false
}
