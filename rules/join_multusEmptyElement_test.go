package rules

import (
	"strings"
	"testing"
)

// TestMultusEmptyElementJoin: the multusEmptyElement join decides on the rows
// marked Decided (with the deciding words in its cause) and stays undecided
// on the others, where the rule's matcher still hits.
func TestMultusEmptyElementJoin(t *testing.T) {
	testJoinTable(t, "multusEmptyElement", []joinCase{
		{Rule: "sandbox-multus-attachment", Case: "trailing comma in the networks annotation (Multus looks up an empty name)", Decided: true, CauseHas: []string{`"br-a,br-b,"`, "a trailing comma", "element 3 of 3", "Of the networks it names, br-a is defined"}},
		{Rule: "sandbox-multus-attachment", Case: "pod asks for an additional network whose NetworkAttachmentDefinition is missing (multus-shim, OCP 4.14+)", Decided: false},
		{Rule: "sandbox-multus-attachment", Case: "the attachment lives in namespace default, the annotation names it without a namespace", Decided: false},
	})
}

// TestParseMultusNetworks: both forms of the annotation, and what makes an
// element empty.
func TestParseMultusNetworks(t *testing.T) {
	for _, tt := range []struct {
		value, names, how, clean string
	}{
		{"a,b,", "a|b|", "a trailing comma", "a,b"},
		{",a", "|a", "a leading comma", "a"},
		{"ns1/a@net1, ,b", "a||b", "a doubled comma", "ns1/a@net1,b"},
		{"a, b", "a|b", "", "a,b"},
		{`[{"name": "a", "namespace": "x"}, {"interface": "net2"}]`, "a|", "an element without a name", `[{"name":"a","namespace":"x"}]`},
	} {
		n := parseMultusNetworks(tt.value)
		if n.Err != nil {
			t.Fatalf("%q: %v", tt.value, n.Err)
		}
		var names []string
		for _, e := range n.Elements {
			names = append(names, e.Name)
		}
		if got := strings.Join(names, "|"); got != tt.names {
			t.Errorf("%q: names %q, want %q", tt.value, got, tt.names)
		}
		pos, how := n.empty()
		if len(pos) == 0 {
			how = ""
		}
		if how != tt.how {
			t.Errorf("%q: empty how %q, want %q", tt.value, how, tt.how)
		}
		if got := n.withoutEmpty(); got != tt.clean {
			t.Errorf("%q: without empty %q, want %q", tt.value, got, tt.clean)
		}
	}
	if e := parseMultusNetworks("ns1/a@net1").Elements[0]; e.Namespace != "ns1" || e.Name != "a" || e.Interface != "net1" {
		t.Errorf("ns1/a@net1 parsed as %+v", e)
	}
}
