package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWarnings(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "site.yaml")
	os.WriteFile(file, []byte(`schemaVersion: 1
rules:
  - id: site-catch-all
    version: 1
    severity: high
    title: Pending
    category: site-stuff
    group: scheduling
    match: {matcher: podUnschedulable}
    hint: "x"
    remediation: ["y"]
  - id: site-shadowed
    version: 1
    severity: high
    title: Pending too
    category: scheduling
    group: scheduling
    match: {matcher: podUnschedulable}
    hint: "x"
    remediation: ["y"]
  - id: no-such-rule
    disabled: true
`), 0o644)
	var got []string
	for _, w := range Warnings(file) {
		got = append(got, w.Error())
	}
	text := strings.Join(got, "\n")
	for _, want := range []string{
		"site.yaml:21: rule no-such-rule: disables a rule that is not in the built-in table",
		"site.yaml:3: rule site-catch-all: category \"site-stuff\" is used by no built-in rule",
		"site.yaml:12: rule site-shadowed: never fires: rule site-catch-all comes first in group scheduling",
		"site.yaml:3: rule site-catch-all: has no cause or required join and comes before the built-in rules of group scheduling",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("warnings lack %q; got:\n%s", want, text)
		}
	}
	// A rule that requires a join shadows nothing and is not shadowed.
	os.WriteFile(file, []byte(`schemaVersion: 1
rules:
  - id: site-pending-taint
    version: 1
    severity: high
    title: Pending on tainted nodes
    category: scheduling
    group: scheduling
    match: {matcher: podUnschedulable}
    joins: [nodeEligibility]
    require: nodeEligibility
    hint: "{{.Decided}}"
    remediation: ["{{.Fix}}"]
`), 0o644)
	if ws := Warnings(file); len(ws) != 0 {
		t.Errorf("want no warnings, got %v", ws)
	}
}
