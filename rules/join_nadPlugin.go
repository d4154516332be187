package rules

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mgtriage/mgtriage/parser/model"
)

// delegateNetworkRe finds the additional network Multus was adding when a
// delegate failed ("Err adding pod to network \"X\"", "error adding
// container to network \"X\"").
var delegateNetworkRe = mustLitRegexp(`(?:adding pod to network|adding container to network) \\?"([^"\\]{1,253})\\?"`)

// missingPluginRe is libcni's error for a plugin binary it did not find.
var missingPluginRe = mustLitRegexp(`failed to find plugin \\?"([^"\\]{1,100})\\?"`)

// joinNadPlugin runs the nadPlugin join for one pod and hit (doc and reads:
// joinRegistry).
func joinNadPlugin(c *evalContext, p *model.Pod, h *hit) joinResult {
	plugin, network := h.Vars["Plugin"], ""
	// The deciding line comes first (readSignatures); run for a rule, the
	// plugin is read from the line too.
	for _, e := range h.Evidence {
		m := delegateNetworkRe.FindStringSubmatch(e.Text)
		if m == nil {
			continue
		}
		if plugin == "" {
			if pm := missingPluginRe.FindStringSubmatch(e.Text); pm != nil {
				plugin = pm[1]
			}
		}
		if plugin != "" {
			network = m[1]
			break
		}
	}
	if network == "" || network == "multus-cni-network" {
		return joinResult{} // the cluster network's own configuration, on the node
	}
	o := c.attachmentNamed(p, network)
	nad := model.Typed[model.NetworkAttachmentDefinition](o)
	if nad == nil {
		return joinResult{}
	}
	types := cniTypes(nad.Spec.Config)
	if !slices.Contains(types, plugin) {
		return joinResult{}
	}
	res := joinResult{Decided: true}
	res.Cause = fmt.Sprintf("The configuration that names it is NetworkAttachmentDefinition %s/%s (plugin types %s).", o.Namespace, o.Name, list(types, 6))
	res.Fix = fmt.Sprintf("The `type` to change is in %s/%s.", o.Namespace, o.Name)
	res.Evidence = append(res.Evidence, objectEvidence(o, "CNI plugin types "+list(types, 6)))
	return res
}

// cniTypes lists the plugin types a CNI configuration (a single plugin or a
// plugin list) names, with their IPAM plugins.
func cniTypes(config string) []string {
	type plugin struct {
		Type string `json:"type"`
		IPAM *struct {
			Type string `json:"type"`
		} `json:"ipam"`
	}
	var doc struct {
		plugin
		Plugins []plugin `json:"plugins"`
	}
	if err := json.Unmarshal([]byte(config), &doc); err != nil {
		return nil
	}
	var out []string
	for _, p := range append([]plugin{doc.plugin}, doc.Plugins...) {
		for _, t := range []string{p.Type, func() string {
			if p.IPAM != nil {
				return p.IPAM.Type
			}
			return ""
		}()} {
			if t != "" && !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}
