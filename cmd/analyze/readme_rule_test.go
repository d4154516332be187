package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// readmeRuleExample returns the rule-file example of README.md (the YAML
// block after the rule-example marker) and the README's text.
func readmeRuleExample(t *testing.T) (block, readme string) {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(data), "<!-- rule-example")
	if !ok {
		t.Fatal("README.md has no rule-example marker")
	}
	_, block, ok = strings.Cut(after, "```yaml\n")
	if !ok {
		t.Fatal("no yaml block after the rule-example marker")
	}
	block, _, _ = strings.Cut(block, "```")
	return block, string(data)
}

// explainGolden runs `rules explain` with the rule file body and compares
// its stdout with testdata/<golden> (-update rewrites it).
func explainGolden(t *testing.T, body, rule, golden string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "site.yaml")
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"rules", "validate", file}, IOStreams{Out: &stdout, ErrOut: &stderr, NoColor: true}); code != 0 {
		t.Fatalf("rules validate: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	stdout.Reset()
	if code := Main([]string{"rules", "explain", "--rules", file, rule, "../../fixtures/ruleexample/input"}, IOStreams{Out: &stdout, ErrOut: &stderr, NoColor: true}); code != 0 {
		t.Fatalf("rules explain: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	path := filepath.Join("testdata", golden)
	if *update {
		if err := os.WriteFile(path, stdout.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), stdout.String()); d != "" {
		t.Errorf("%s (-want +got; -update rewrites):\n%s", path, d)
	}
	return stdout.String()
}

// TestReadmeRuleExample takes the rule-file example of README.md: `rules
// validate` accepts it, and on fixtures/ruleexample (a pod whose pull from
// the site mirror times out, the message worded as CRI-O words it) `rules
// explain` says it fires, with its hint. The same rule with the pattern the
// README once had (`[^"]*`, which cannot pass the quotes around the image
// and the URL) does not fire, and `rules explain` says where the pattern
// stops on the closest line, as the README quotes it.
func TestReadmeRuleExample(t *testing.T) {
	block, readme := readmeRuleExample(t)
	out := explainGolden(t, block, "site-registry-mirror-down", "explain-readme-rule.golden")
	if !strings.Contains(out, ": fired\n") {
		t.Errorf("the README's rule does not fire on fixtures/ruleexample:\n%s", out)
	}
	causeRe := regexp.MustCompile(`(?m)^      cause: '.*'$`)
	if !causeRe.MatchString(block) {
		t.Fatal("the README's rule example has no cause line")
	}
	broken := causeRe.ReplaceAllLiteralString(block, `      cause: 'mirror\.example\.com[^"]*(?:i/o timeout|connection refused)'`)
	out = explainGolden(t, broken, "site-registry-mirror-down", "explain-readme-rule-quoted.golden")
	if !strings.Contains(out, "not fired, at cause") {
		t.Errorf("the quoted pattern is not said to fail at its cause:\n%s", out)
	}
	// Every line of the README's explain excerpt is a line of the output.
	_, excerpt, ok := strings.Cut(readme, "```text\nshop/storefront")
	if !ok {
		t.Fatal("README.md has no rules explain excerpt")
	}
	excerpt, _, _ = strings.Cut("shop/storefront"+excerpt, "```")
	for _, line := range strings.Split(strings.TrimSpace(excerpt), "\n") {
		if !strings.Contains(out, line+"\n") {
			t.Errorf("README's excerpt line is not in the output: %q\n%s", line, out)
		}
	}
}

// TestRulesExplainErrors: an unknown rule is a usage error naming the close
// ids, said before the gather is read; a path that does not exist is an
// input error; an unknown subject names some the rule considered.
func TestRulesExplainErrors(t *testing.T) {
	code, _, stderr := run(t, "rules", "explain", "image-pul-x509", "/nonexistent")
	if code != exitUsage || !strings.Contains(stderr, "close ids: image-pull-x509") {
		t.Errorf("unknown rule: exit %d\n%s", code, stderr)
	}
	code, _, stderr = run(t, "rules", "explain", "image-pull-x509", filepath.Join(t.TempDir(), "nope"))
	if code != exitInput {
		t.Errorf("missing path: exit %d\n%s", code, stderr)
	}
	code, _, stderr = run(t, "rules", "explain", "image-pull-x509", "../../fixtures/ruleexample/input", "shop/nope")
	if code != exitUsage || !strings.Contains(stderr, "shop/storefront-5c7d9f8b6-h4k2n") {
		t.Errorf("unknown subject: exit %d\n%s", code, stderr)
	}
	code, out, stderr := run(t, "rules", "explain", "--json", "image-pull-x509", "../../fixtures/ruleexample/input")
	if code != 0 || !strings.Contains(out, `"step": "cause"`) {
		t.Errorf("--json: exit %d\n%s%s", code, out, stderr)
	}
}
