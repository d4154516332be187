package rules

import (
	"strings"
	"testing"

	"github.com/mgtriage/mgtriage/parser"
)

// A merged finding names every other pod once, and another container of its
// own pod as such, never as "1 more pod" naming itself.
func TestCoverTextNamesEachPodOnce(t *testing.T) {
	mk := func(name string) *parser.Pod {
		p := testPod(t, strings.Replace(imagePullPod, "name: cart}", "name: "+name+"}", 1))
		return p
	}
	a, b := mk("cart-1"), mk("cart-2")
	f := Finding{Pod: a, Container: "cart", groupKey: "registry docker.io (# too many requests)", GroupedBy: "registry docker.io",
		Also: []Member{{Pod: a, Container: "sidecar"}, {Pod: b, Container: "cart"}, {Pod: b, Container: "sidecar"}}}
	got := coverText(&f)
	want := " The same finding covers 1 more pod of the same registry docker.io with the same error: shop/cart-2. It also holds for container sidecar of this pod."
	if got != want {
		t.Errorf("coverText =\n%q, want\n%q", got, want)
	}
}

// The same pod listed twice (two gather roots) gets a rule's finding once.
func TestOneFindingPerRuleAndObject(t *testing.T) {
	p := testPod(t, crashPod)
	q := testPod(t, crashPod)
	q.Object.UID = "uid-catalog-recreated"
	fs := evaluate(t, p, q)
	if got := ruleIDs(fs); len(got) != 1 {
		t.Errorf("findings = %v, want one", got)
	}
}
