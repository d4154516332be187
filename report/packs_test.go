package report

import (
	"strings"
	"testing"
)

// TestPackHeaderLines: each rule pack is named in report.md's header and in
// report.html's overview with its version, short digest, and either the key
// that signed it or its warning; hostile words are escaped.
func TestPackHeaderLines(t *testing.T) {
	r := &Report{SchemaVersion: SchemaVersion, SchemaMinor: SchemaMinor, Tool: Tool{Name: "mgtriage", Version: "1.0.0"},
		Rules: RuleTable{Version: "1.6.0+local", Count: 3, Packs: []RulePack{
			{Name: "acme-catalog", Version: "1.2.0", Digest: "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", Signed: true, KeyID: "8A3F00112233AABB"},
			{Name: "odf", Version: "0.1.0", Digest: "sha256:ffff", Warning: "pack <odf> is not signed"},
		}}}
	want := []string{
		"acme-catalog 1.2.0 (sha256:0123456789ab…, signed by key 8A3F00112233AABB)",
		"odf 0.1.0 (sha256:ffff, warning: pack <odf> is not signed)",
	}
	for i, p := range r.Rules.Packs {
		if got := p.Words(); got != want[i] {
			t.Errorf("Words() = %q, want %q", got, want[i])
		}
	}
	var md strings.Builder
	if err := WriteMarkdown(&md, r, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "- **Rule pack:** acme-catalog 1.2.0 (sha256:0123456789ab…, signed by key 8A3F00112233AABB)\n") {
		t.Errorf("report.md header:\n%.1500s", md.String())
	}
	var html strings.Builder
	if err := WriteHTML(&html, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(html.String(), "pack odf 0.1.0 (sha256:ffff, warning: pack &lt;odf&gt; is not signed)") {
		t.Errorf("report.html does not name the unsigned pack with its warning, escaped")
	}
}
