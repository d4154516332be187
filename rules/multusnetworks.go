package rules

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
)

// Multus reads a pod's additional networks from one annotation, in one of
// two forms: a comma-separated list of [namespace/]name[@interface]
// elements, or a JSON list of network selection elements ({"name": ...,
// "namespace": ..., "interface": ...}). An element without a namespace is
// looked up in the pod's own namespace. The joins of the Multus signatures
// (multusEmptyElement, nadElsewhere, nadMissing) read it with the lookup
// error Multus reports.

// multusNetworksKey is the pod annotation that lists the additional networks.
const multusNetworksKey = "k8s.v1.cni.cncf.io/networks"

// nadNotFoundRe is Multus' error for a network attachment it could not
// look up: the name (empty for an empty element) and the namespace looked in.
var doubleCommaRe = regexp.MustCompile(`,\s*,`)

var nadNotFoundRe = mustLitRegexp(`cannot find a network-attachment-definition \(([^)\s]{0,253})\) in namespace \(([^)\s]{0,253})\)`)

// multusNetwork is one element of the annotation.
type multusNetwork struct {
	Namespace, Name, Interface string
	// Text is the element as the annotation writes it.
	Text string
}

// multusNetworks is the parsed annotation.
type multusNetworks struct {
	// Value is the annotation as written; JSON is true for the JSON form.
	Value    string
	JSON     bool
	Elements []multusNetwork
	// Err is why the value could not be read as either form.
	Err error
}

// parseMultusNetworks reads the annotation as Multus does: the JSON form
// when the value holds a bracket, a brace or a quote, else the text form,
// split at commas with each element trimmed.
func parseMultusNetworks(value string) multusNetworks {
	n := multusNetworks{Value: value}
	if strings.ContainsAny(value, "[{\"") {
		n.JSON = true
		var items []map[string]any
		if err := json.Unmarshal([]byte(value), &items); err != nil {
			n.Err = err
			return n
		}
		for _, it := range items {
			str := func(k string) string { s, _ := it[k].(string); return strings.TrimSpace(s) }
			text, _ := json.Marshal(it)
			n.Elements = append(n.Elements, multusNetwork{Name: str("name"), Namespace: str("namespace"), Interface: str("interface"), Text: string(text)})
		}
		return n
	}
	for _, item := range strings.Split(value, ",") {
		item = strings.TrimSpace(item)
		e := multusNetwork{Text: item}
		rest := item
		if ns, name, ok := strings.Cut(rest, "/"); ok {
			e.Namespace, rest = strings.TrimSpace(ns), name
		}
		e.Name, e.Interface, _ = strings.Cut(rest, "@")
		e.Name = strings.TrimSpace(e.Name)
		n.Elements = append(n.Elements, e)
	}
	return n
}

// empty returns the positions (1-based) of the elements that name no
// network, and says what makes them empty in the text form.
func (n multusNetworks) empty() (positions []int, how string) {
	for i, e := range n.Elements {
		if e.Name == "" {
			positions = append(positions, i+1)
		}
	}
	if len(positions) == 0 || n.JSON {
		return positions, "an element without a name"
	}
	last := len(n.Elements)
	value := strings.TrimSpace(n.Value)
	switch {
	case positions[0] == 1 && strings.HasPrefix(value, ","):
		how = "a leading comma"
	case positions[len(positions)-1] == last && strings.HasSuffix(value, ","):
		how = "a trailing comma"
	case doubleCommaRe.MatchString(value):
		how = "a doubled comma"
	default:
		how = "an element with no name"
	}
	return positions, how
}

// element returns the first element naming name, or nil.
func (n multusNetworks) element(name string) *multusNetwork {
	for i := range n.Elements {
		if n.Elements[i].Name == name {
			return &n.Elements[i]
		}
	}
	return nil
}

// podNetworks returns the pod's parsed annotation, and false when the pod
// has none.
func podNetworks(p *model.Pod) (multusNetworks, bool) {
	v, ok := p.Object.Annotations[multusNetworksKey]
	if !ok {
		return multusNetworks{}, false
	}
	return parseMultusNetworks(v), true
}

// nadLookup is the network attachment Multus could not find: the name and
// the namespace it looked in, from the signature's captures or, when the
// join runs for a rule, from the first line of the hit that reports it.
func nadLookup(h *hit) (name, ns string, ok bool) {
	if n, found := h.Vars["NadNamespace"]; found && n != "" {
		return h.Vars["Nad"], n, true
	}
	for _, e := range h.Evidence {
		for _, t := range []string{e.Quote, e.Text} {
			if m := nadNotFoundRe.FindStringSubmatch(t); m != nil {
				return m[1], m[2], true
			}
		}
	}
	return "", "", false
}

// annotationEvidence cites the pod's networks annotation.
func (c *evalContext) annotationEvidence(p *model.Pod, n multusNetworks) Evidence {
	return c.fieldEvidence(p, fmt.Sprintf("metadata.annotations[%s]: %s", multusNetworksKey, clip(n.Value, 300)), "metadata.annotations."+multusNetworksKey, "metadata.annotations")
}
