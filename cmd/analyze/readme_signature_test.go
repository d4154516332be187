package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeSignatureExample takes the signature example of README.md (the
// YAML block after the signature-example marker), checks that `rules
// validate` accepts it, and runs it with --rules on fixtures/sigexample: the
// finding of the crash-looping ledger states the signature's cause with its
// captured values, decided by the serviceEndpoints join (the Service has no
// ready endpoint), and quotes the deciding line.
func TestReadmeSignatureExample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "<!-- signature-example")
	if !ok {
		t.Fatal("README.md has no signature-example marker")
	}
	_, block, ok := strings.Cut(after, "```yaml\n")
	if !ok {
		t.Fatal("no yaml block after the signature-example marker")
	}
	block, _, _ = strings.Cut(block, "```")
	file := filepath.Join(t.TempDir(), "site.yaml")
	if err := os.WriteFile(file, []byte(block), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"rules", "validate", file}, IOStreams{Out: &stdout, ErrOut: &stderr, NoColor: true}); code != 0 {
		t.Fatalf("rules validate: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	out := t.TempDir()
	stdout.Reset()
	stderr.Reset()
	Main([]string{"../../fixtures/sigexample/input", "-o", out, "--format", "json,md", "--rules", file}, IOStreams{Out: &stdout, ErrOut: &stderr, NoColor: true})
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatalf("no report: %v\n%s", err, stderr.String())
	}
	var rep struct {
		Findings []struct {
			RuleID    string
			Hint      string
			Signature *struct {
				ID      string
				Decided bool
				Path    string
				Line    int
			}
		}
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if f.Signature == nil || f.Signature.ID != "site-ledger-db-refused" {
			continue
		}
		if !f.Signature.Decided {
			t.Errorf("the serviceEndpoints decider did not decide:\n%s", f.Hint)
		}
		for _, want := range []string{"ledger-db.books.svc:5432", "no ready endpoint", "namespaces/books/pods/ledger-6d9f8b7c5-q2wxz/ledger/ledger/logs/previous.log:3"} {
			if !strings.Contains(f.Hint, want) {
				t.Errorf("hint lacks %q:\n%s", want, f.Hint)
			}
		}
		// The Markdown summary gives the cause and the deciding line in its
		// own words, with its path:line.
		md, err := os.ReadFile(filepath.Join(out, "report.md"))
		if err != nil {
			t.Fatal(err)
		}
		summary, _, _ := strings.Cut(string(md), "\n## Cluster")
		if !strings.Contains(summary, "`namespaces/books/pods/ledger-6d9f8b7c5-q2wxz/ledger/ledger/logs/previous.log:3`: \"ledger: cannot open database: dial tcp ledger-db.books.svc:5432: connect: connection refused\"") {
			t.Errorf("the Markdown summary does not quote the deciding line:\n%s", summary)
		}
		return
	}
	t.Errorf("no finding states the README's signature; findings: %+v", rep.Findings)
}
