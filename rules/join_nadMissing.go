package rules

import (
	"fmt"

	"github.com/mgtriage/mgtriage/parser/model"
)

// joinNadMissing runs the nadMissing join for one pod and hit (doc and
// reads: joinRegistry).
func joinNadMissing(c *evalContext, p *model.Pod, h *hit) joinResult {
	name, ns, ok := nadLookup(h)
	if !ok || name == "" {
		return joinResult{RuledOut: true}
	}
	o, cov := c.store.Get(model.NetworkAttachmentDefinitions, ns, name)
	switch cov {
	case model.Found:
		// It exists where Multus looked: created since the last attempt.
		return joinResult{RuledOut: true, Evidence: []Evidence{objectEvidence(o, "exists in the namespace Multus looked in")}}
	case model.NotGathered, model.Filtered:
		return lacking(objectsGap(model.NetworkAttachmentDefinitions, ns), fmt.Sprintf("the NetworkAttachmentDefinitions of namespace %s, so whether %s exists there could not be checked", ns, name))
	}
	all, _ := c.store.List(model.NetworkAttachmentDefinitions, "*")
	var here []string
	for _, o := range all {
		if o.Name == name {
			// In another namespace: nad-other-namespace states that.
			return joinResult{RuledOut: true}
		}
		if o.Namespace == ns {
			here = append(here, o.Name)
		}
	}
	res := joinResult{Decided: true}
	res.Cause = fmt.Sprintf("The gathered NetworkAttachmentDefinitions of namespace %s do not include %s (%s), and no other gathered namespace has one of that name.", ns, name, pick(len(here) == 0, "the list is empty", "it holds "+list(here, 8)))
	res.Fix = fmt.Sprintf("Create NetworkAttachmentDefinition %s in namespace %s (or correct the name in the pod's %s annotation).", name, ns, multusNetworksKey)
	if n, has := podNetworks(p); has {
		res.Evidence = append(res.Evidence, c.annotationEvidence(p, n))
	}
	return res
}
