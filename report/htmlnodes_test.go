package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// cssRules maps each selector of css (comments removed) to its declarations,
// property → value, later declarations winning.
func cssRules(css string) map[string]map[string]string {
	css = regexp.MustCompile(`(?s)/\*.*?\*/`).ReplaceAllString(css, "")
	rules := map[string]map[string]string{}
	for _, block := range strings.Split(css, "}") {
		sel, body, ok := strings.Cut(block, "{")
		if !ok {
			continue
		}
		for _, s := range strings.Split(sel, ",") {
			s = strings.Join(strings.Fields(s), " ")
			if rules[s] == nil {
				rules[s] = map[string]string{}
			}
			for _, decl := range strings.Split(body, ";") {
				if k, v, ok := strings.Cut(decl, ":"); ok {
					rules[s][strings.TrimSpace(k)] = strings.TrimSpace(v)
				}
			}
		}
	}
	return rules
}

// TestHTMLNodesTableKeepsWords: the nodes table does not break a role or a
// Ready status inside a word ("maste r", "Unknow n"): its cells break a word
// only where it would overflow (overflow-wrap: break-word, not anywhere, which
// lets the table shrink a column to one character), and a pill never wraps.
func TestHTMLNodesTableKeepsWords(t *testing.T) {
	r := loadReport(t)
	r.Nodes = append(r.Nodes, Node{Name: "master-0.sample.example.com", Ready: "Unknown", Roles: []string{"master"}, KubeletVersion: "v1.31.6",
		Conditions: []string{"Ready=Unknown NodeStatusUnknown: Kubelet stopped posting node status. " + strings.Repeat("MemoryPressure=Unknown NodeStatusUnknown: Kubelet stopped posting node status. ", 8)}})
	var buf bytes.Buffer
	if err := WriteHTML(&buf, r); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	heads := strings.Count(page, "<th>NAME</th><th>READY</th><th>ROLES</th>")
	if heads == 0 || strings.Count(page, `<table class="data nodes">`+"\n<thead><tr><th>NAME</th><th>READY</th><th>ROLES</th>") != heads {
		t.Errorf("every nodes table has the class data nodes (%d tables)", heads)
	}
	rules := cssRules(htmlCSSText)
	if got := rules["table.data.nodes td"]["overflow-wrap"]; got != "break-word" {
		t.Errorf("table.data.nodes td overflow-wrap %q, want break-word", got)
	}
	if got := rules[".pill"]["white-space"]; got != "nowrap" {
		t.Errorf(".pill white-space %q, want nowrap", got)
	}
	if !strings.Contains(page, htmlCSP) {
		t.Errorf("the page's Content-Security-Policy is not the one hashed from the embedded style sheet")
	}
}
