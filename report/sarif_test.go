package report

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPathURI: a cited path becomes a relative URI reference that reads
// back as the same path, whatever it holds.
func TestPathURI(t *testing.T) {
	for _, p := range []string{
		"namespaces/shop/core/pods.yaml",
		"namespaces/a b/pods/x#y?z/logs/current.log",
		"c:/windows/evil",
		"100%/ü/\u202e.log",
		"a\\b/../c",
		"x\x00\x1b[31m",
	} {
		u := pathURI(p)
		back, err := url.Parse(u)
		if err != nil || back.Scheme != "" || back.Host != "" || back.Path != p && back.Path != "./"+p {
			t.Errorf("pathURI(%q) = %q, reads back as %+v (%v)", p, u, back, err)
		}
		if strings.ContainsAny(u, " #?\\\x00\x1b") {
			t.Errorf("pathURI(%q) = %q holds a character a URI reference may not", p, u)
		}
	}
}

func sarifOf(t *testing.T, r *Report) (string, map[string]any) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, r); err != nil {
		t.Fatal(err)
	}
	var log map[string]any
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	return buf.String(), log["runs"].([]any)[0].(map[string]any)
}

// TestWriteSARIF: levels from severities, a region only for a known line,
// the fingerprint of an older report's finding from its first object, and
// hidden controls escaped.
func TestWriteSARIF(t *testing.T) {
	r := &Report{Tool: Tool{Name: "mgtriage", Version: "dev"}, Findings: []Finding{
		{RuleID: "a", Severity: SeverityCritical, Title: "A", Hint: "boom \u202e<b>", Subject: "Deployment/shop/cart\u202e",
			Objects:  []Object{{Kind: "Pod", Namespace: "shop", Name: "cart-1", Container: "c"}},
			Evidence: []Evidence{{Path: "p.yaml", Line: 0, Kind: "status"}, {Path: "q.log", Line: 7, Kind: "container-log", Text: "x"}, {Path: "q.log", Line: 7}}},
		{RuleID: "b", Severity: SeverityMedium, Title: "B", Objects: []Object{{Kind: "Pod", Namespace: "shop", Name: "cart-1", Container: "c"}}},
		{RuleID: "a", Severity: SeverityLow, Title: "A"},
		{RuleID: "c", Severity: "bogus", Title: "C"},
	}}
	text, run := sarifOf(t, r)
	// The hint is cleaned of hidden controls (cleanText); the subject,
	// written as it is, has them escaped.
	if strings.Contains(text, "\u202e") || !strings.Contains(text, `cart\u202e`) || strings.Contains(text, "<b>") {
		t.Errorf("hidden control or HTML not escaped")
	}
	results := run["results"].([]any)
	var levels, rules []string
	for _, x := range results {
		res := x.(map[string]any)
		levels = append(levels, res["level"].(string))
	}
	for _, x := range run["tool"].(map[string]any)["driver"].(map[string]any)["rules"].([]any) {
		rules = append(rules, x.(map[string]any)["id"].(string))
	}
	if diff := cmp.Diff([]string{"error", "warning", "note", "warning"}, levels); diff != "" {
		t.Errorf("levels (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a", "b", "c"}, rules); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
	first := results[0].(map[string]any)
	phys := first["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
	if _, ok := phys["region"]; ok {
		t.Errorf("line 0 has a region: %v", phys)
	}
	related := first["relatedLocations"].([]any)
	if len(related) != 1 || related[0].(map[string]any)["physicalLocation"].(map[string]any)["region"].(map[string]any)["startLine"] != 7.0 {
		t.Errorf("related locations: %v", related)
	}
	fp := func(i int) string {
		return results[i].(map[string]any)["partialFingerprints"].(map[string]any)[SARIFFingerprintKey].(string)
	}
	if fp(0) == fp(1) || fp(2) == fp(3) {
		t.Errorf("two findings of other rules or subjects share a fingerprint")
	}
	// A report without subjects (schemaMinor < 4) hashes its first object.
	if got := findingSubject(r.Findings[1]); got != "pod/shop/cart-1" {
		t.Errorf("fallback subject %q", got)
	}
	_, empty := sarifOf(t, &Report{})
	if res, ok := empty["results"].([]any); !ok || len(res) != 0 {
		t.Errorf("results of an empty report: %v", empty["results"])
	}
}
