package rules

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
)

// joinMultusEmptyElement runs the multusEmptyElement join for one pod and
// hit (doc and reads: joinRegistry).
func joinMultusEmptyElement(c *evalContext, p *model.Pod, h *hit) joinResult {
	if name, _, ok := nadLookup(h); ok && name != "" {
		// Multus names the network it could not find: not an empty one.
		return joinResult{RuledOut: true}
	}
	n, has := podNetworks(p)
	if !has {
		return joinResult{Missing: []string{fmt.Sprintf("the pod's %s annotation: the gathered pod has none, so the empty element could not be shown", multusNetworksKey)}}
	}
	if n.Err != nil {
		return joinResult{Missing: []string{fmt.Sprintf("the pod's %s annotation: it could not be read as Multus' JSON form (%v)", multusNetworksKey, n.Err)}}
	}
	ev := c.annotationEvidence(p, n)
	positions, how := n.empty()
	if len(positions) == 0 {
		// Every element names a network: the empty name comes from
		// somewhere else.
		return joinResult{RuledOut: true, Evidence: []Evidence{ev}}
	}
	var named []string
	for _, e := range n.Elements {
		if e.Name != "" {
			named = append(named, e.Name)
		}
	}
	var pos []string
	for _, i := range positions {
		pos = append(pos, fmt.Sprint(i))
	}
	res := joinResult{Decided: true, Evidence: []Evidence{ev}}
	res.Cause = fmt.Sprintf("The pod's %s annotation is %q: %s leaves element %s of %d empty, and Multus looks an empty element up as a NetworkAttachmentDefinition with an empty name and gives up before attaching any network.",
		multusNetworksKey, n.Value, how, list(pos, 4), len(n.Elements))
	if found := c.existingNADs(p, n, &res); len(found) > 0 && len(found) == len(named) {
		res.Cause += fmt.Sprintf(" The networks it does name (%s) are defined; only the empty element fails.", list(found, 6))
	} else if len(found) > 0 {
		res.Cause += fmt.Sprintf(" Of the networks it names, %s %s defined.", list(found, 6), pick(len(found) == 1, "is", "are"))
	} else if len(named) > 0 {
		res.Cause += fmt.Sprintf(" The networks it names are %s.", list(named, 6))
	}
	res.Fix = fmt.Sprintf("Here: %s, then let the pod be recreated.", "`"+n.withoutEmpty()+"`")
	return res
}

// existingNADs lists the named elements of n whose NetworkAttachmentDefinition
// the gather holds, citing each.
func (c *evalContext) existingNADs(p *model.Pod, n multusNetworks, res *joinResult) []string {
	var found []string
	for _, e := range n.Elements {
		if e.Name == "" {
			continue
		}
		ns := e.Namespace
		if ns == "" {
			ns = p.Object.Namespace
		}
		if o, cov := c.store.Get(model.NetworkAttachmentDefinitions, ns, e.Name); cov == model.Found {
			found = append(found, e.Name)
			res.Evidence = append(res.Evidence, objectEvidence(o, "exists"))
		}
	}
	return found
}

// withoutEmpty is the annotation with its empty elements left out, in the
// form it was written in.
func (n multusNetworks) withoutEmpty() string {
	if n.JSON {
		var items []json.RawMessage
		for _, e := range n.Elements {
			if e.Name != "" {
				items = append(items, json.RawMessage(e.Text))
			}
		}
		b, _ := json.Marshal(items)
		return string(b)
	}
	var keep []string
	for _, e := range n.Elements {
		if e.Name != "" {
			keep = append(keep, e.Text)
		}
	}
	return strings.Join(keep, ",")
}
