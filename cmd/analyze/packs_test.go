package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aead.dev/minisign"
	"github.com/mgtriage/mgtriage/rules/pack"
)

// packRule is a pack's rule: a crash loop whose container log says "panic:
// boom", stated in its own words.
const packRule = `schemaVersion: 1
rules:
  - id: acme-boom
    version: 1
    severity: high
    title: Acme catalog panics on boom
    category: crash-loop
    match:
      matcher: containerWaiting
      params: {reasons: [CrashLoopBackOff], logs: true}
      cause: 'panic: (boom)'
    hint: >-
      The Acme catalog panics at start ({{.Cause}}): its boom setting is wrong.
    remediation:
      - "Fix the boom setting of the catalog"
    docs:
      - https://example.com/acme/boom
`

// packSpec is the pack.yaml of writePack; CONTAINS is the fire test's words.
const packSpec = `name: acme-catalog
version: 1.2.0
mgtriage: ">=0.1.0"
schemaVersion: 1
description: Known issues of the Acme catalog operator.
sources:
  - https://example.com/acme/issues/1
tests:
  - rule: acme-boom
    fires:
      - gather: tests/boom
        contains: [CONTAINS]
    quiet:
      - tests/healthy
`

// writePack writes a folder pack under a new temporary folder and returns
// it: pack.yaml (its fire test wanting contains), rules/acme.yaml with rule
// (packRule when empty), a gather on which it fires (tests/boom) and a near
// miss (tests/healthy: the same crash loop, another log line).
func writePack(t *testing.T, rule string, contains ...string) string {
	t.Helper()
	if rule == "" {
		rule = packRule
	}
	if contains == nil {
		contains = []string{"panics at start (panic: boom)", "Fix the boom setting"}
	}
	q := make([]string, len(contains))
	for i, c := range contains {
		b, _ := json.Marshal(c)
		q[i] = string(b)
	}
	dir := filepath.Join(t.TempDir(), "acme-catalog")
	files := map[string]string{
		"pack.yaml":       strings.Replace(packSpec, "CONTAINS", strings.Join(q, ", "), 1),
		"rules/acme.yaml": rule,
	}
	for p, b := range smallGatherFiles("must-gather.local.1/") {
		files["tests/boom/"+p] = b
		files["tests/healthy/"+p] = strings.ReplaceAll(b, "panic: boom", "listening on :8080")
	}
	writeFiles(t, dir, files)
	return dir
}

// testKey makes a minisign key pair and writes the public key to
// dir/name.pub, returning the private key and that file.
func testKey(t *testing.T, dir, name string) (minisign.PrivateKey, string) {
	t.Helper()
	pub, priv, err := minisign.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	text, err := pub.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name+".pub")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("untrusted comment: minisign public key "+name+"\n"+string(text)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return priv, p
}

// signFile writes minisign's signature of the file at p to sigPath.
func signFile(t *testing.T, priv minisign.PrivateKey, p, sigPath string) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sigPath, minisign.Sign(priv, b), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRulesTestPack: `rules test` passes a pack whose rule fires with its
// words on its failing gather and stays quiet on its near miss, with the
// folder, its .tar.gz (`rules pack`) and JUnit XML; it fails (exit 1) when
// the rule is broken (its pattern never matches), when the words are not
// in the finding, and the JUnit file says which test failed.
func TestRulesTestPack(t *testing.T) {
	dir := writePack(t, "")
	code, out, stderr := run(t, "rules", "test", dir)
	if code != 0 || !strings.Contains(out, "acme-catalog 1.2.0: 2 passed, 0 failed") {
		t.Fatalf("rules test: exit %d\n%s%s", code, out, stderr)
	}
	if !strings.Contains(stderr, "analyze: warning: pack acme-catalog 1.2.0: not signed; its rules were used unchecked") {
		t.Errorf("an unsigned pack loads without a warning:\n%s", stderr)
	}
	archive := filepath.Join(t.TempDir(), "acme.tar.gz")
	code, out, stderr = run(t, "rules", "pack", dir, "-o", archive)
	if code != 0 || !strings.HasPrefix(out, "sha256:") || !strings.HasSuffix(out, "  "+archive+"\n") {
		t.Fatalf("rules pack: exit %d\n%s%s", code, out, stderr)
	}
	junit := filepath.Join(t.TempDir(), "junit.xml")
	if code, out, stderr = run(t, "rules", "test", archive, "--junit", junit); code != 0 {
		t.Fatalf("rules test of the archive: exit %d\n%s%s", code, out, stderr)
	}

	broken := writePack(t, strings.Replace(packRule, "panic: (boom)", "panic: (bang)", 1))
	code, out, _ = run(t, "rules", "test", broken, "--junit", junit)
	if code != exitFindings || !strings.Contains(out, "FAIL acme-boom fires on tests/boom\n     did not fire") || !strings.Contains(out, "1 passed, 1 failed") {
		t.Errorf("a broken rule: exit %d\n%s", code, out)
	}
	var js junitSuites
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(b, &js); err != nil {
		t.Fatalf("junit: %v\n%s", err, b)
	}
	if len(js.Suites) != 1 || js.Suites[0].Tests != 2 || js.Suites[0].Failures != 1 || js.Suites[0].Cases[0].Failure == nil ||
		js.Suites[0].Cases[0].ClassName != "acme-boom" || js.Suites[0].Name != "acme-catalog 1.2.0" {
		t.Errorf("junit:\n%s", b)
	}

	words := writePack(t, "", "panics at start (panic: bang)")
	code, out, _ = run(t, "rules", "test", words)
	if code != exitFindings || !strings.Contains(out, `lacks "panics at start (panic: bang)"`) {
		t.Errorf("missing words: exit %d\n%s", code, out)
	}

	// A pack without tests fails.
	untested := writePack(t, "")
	spec, err := os.ReadFile(filepath.Join(untested, "pack.yaml"))
	must(t, err)
	head, _, _ := strings.Cut(string(spec), "tests:")
	must(t, os.WriteFile(filepath.Join(untested, "pack.yaml"), []byte(head), 0o644))
	if code, _, stderr := run(t, "rules", "test", untested); code != exitFindings || !strings.Contains(stderr, "has no tests") {
		t.Errorf("a pack without tests: exit %d\n%s", code, stderr)
	}

	// A rule that fires everywhere fails its quiet test.
	loud := writePack(t, strings.Replace(packRule, "panic: (boom)", "(panic|listening)", 1), "Fix the boom setting")
	code, out, _ = run(t, "rules", "test", loud)
	if code != exitFindings || !strings.Contains(out, "FAIL acme-boom quiet on tests/healthy\n     fired") {
		t.Errorf("a rule that fires on its near miss: exit %d\n%s", code, out)
	}
}

// TestPackTrust: a signed, an unsigned, a tampered (one byte of a rule
// changed after signing) and a wrong-key pack, as a .tar.gz and as a
// folder, each analysed with and without --trust: unsigned loads with a
// warning on stderr and in the report without --trust and is refused (exit
// 2) with it; tampered is always refused; signed by another key is refused
// under --trust; signed loads and the report names the pack.
func TestPackTrust(t *testing.T) {
	keys := t.TempDir()
	priv, pub := testKey(t, filepath.Join(keys, "good"), "good")
	other, _ := testKey(t, filepath.Join(keys, "other"), "other")
	gather := tinyGather(t)

	type form struct {
		name string
		// make returns a pack path signed by key (none when nil), tampered after signing when tamper.
		make func(t *testing.T, key *minisign.PrivateKey, tamper bool) string
	}
	archiveForm := func(t *testing.T, key *minisign.PrivateKey, tamper bool) string {
		dir := writePack(t, "")
		archive := filepath.Join(t.TempDir(), "acme.tar.gz")
		if code, out, stderr := run(t, "rules", "pack", dir, "-o", archive); code != 0 {
			t.Fatalf("rules pack: %d %s%s", code, out, stderr)
		}
		if key != nil {
			signFile(t, *key, archive, archive+".minisig")
		}
		if tamper {
			dir2 := writePack(t, strings.Replace(packRule, "severity: high", "severity: low ", 1))
			if code, _, _ := run(t, "rules", "pack", dir2, "-o", archive); code != 0 {
				t.Fatal("rules pack")
			}
		}
		return archive
	}
	folderForm := func(t *testing.T, key *minisign.PrivateKey, tamper bool) string {
		dir := writePack(t, "")
		if key != nil {
			m, err := pack.FolderManifest(dir)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, pack.SignatureFile), minisign.Sign(*key, m), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if tamper {
			p := filepath.Join(dir, "rules", "acme.yaml")
			b, _ := os.ReadFile(p)
			if err := os.WriteFile(p, []byte(strings.Replace(string(b), "severity: high", "severity: low ", 1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	for _, f := range []form{{"archive", archiveForm}, {"folder", folderForm}} {
		cases := []struct {
			name   string
			key    *minisign.PrivateKey
			tamper bool
			trust  string
			code   int
			want   string // in stderr (refusals, warnings) or, exit 0 and "signed", in report.md
		}{
			{"unsigned", nil, false, "", 0, "not signed; its rules were used unchecked"},
			{"unsigned trust", nil, false, pub, exitInput, "it is not signed"},
			{"signed", &priv, false, "", 0, "not checked (no --trust key)"},
			{"signed trust", &priv, false, pub, 0, "signed by key"},
			{"signed trust folder", &priv, false, filepath.Dir(pub), 0, "signed by key"},
			{"tampered", &priv, true, "", 0, ""},
			{"tampered trust", &priv, true, pub, exitInput, "does not verify with trusted key"},
			{"wrong key trust", &other, false, pub, exitInput, "which is not among the trusted keys"},
			{"wrong key", &other, false, "", 0, "not checked (no --trust key)"},
		}
		for _, c := range cases {
			t.Run(f.name+"/"+c.name, func(t *testing.T) {
				p := f.make(t, c.key, c.tamper)
				if c.name == "tampered" {
					// Without --trust, a tampered pack is found by the key
					// shipped beside its signature.
					shipKey(t, f.name, p, pub)
					c.code, c.want = exitInput, "was changed after signing"
				}
				if c.name == "wrong key" {
					shipKey(t, f.name, p, pub)
					c.code, c.want = exitInput, "but the key shipped with it is"
				}
				args := []string{gather, "-o", filepath.Join(t.TempDir(), "out"), "--rules", p}
				if c.trust != "" {
					args = append(args, "--trust", c.trust)
				}
				code, out, stderr := run(t, args...)
				if code != c.code {
					t.Fatalf("exit %d, want %d\n%s%s", code, c.code, out, stderr)
				}
				if code != 0 {
					if !strings.Contains(stderr, c.want) {
						t.Errorf("stderr lacks %q:\n%s", c.want, stderr)
					}
					return
				}
				md, err := os.ReadFile(filepath.Join(args[2], "report.md"))
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(md), "acme-catalog 1.2.0") {
					t.Errorf("report.md does not name the pack:\n%.2000s", md)
				}
				html, err := os.ReadFile(filepath.Join(args[2], "report.html"))
				if err != nil {
					t.Fatal(err)
				}
				var rep struct {
					Rules struct {
						Packs []struct{ Name, Version, Digest string }
					}
				}
				js, err := os.ReadFile(filepath.Join(args[2], "report.json"))
				if err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal(js, &rep); err != nil || len(rep.Rules.Packs) != 1 || rep.Rules.Packs[0].Name != "acme-catalog" || !strings.HasPrefix(rep.Rules.Packs[0].Digest, "sha256:") {
					t.Errorf("report.json rules.packs: %v %+v", err, rep.Rules.Packs)
				}
				if !strings.Contains(string(html), "pack acme-catalog 1.2.0") {
					t.Errorf("report.html does not name the pack")
				}
				if c.trust == "" && !strings.Contains(stderr, "analyze: warning: pack ") {
					t.Errorf("no warning on stderr without --trust:\n%s", stderr)
				}
				if c.trust == "" && !strings.Contains(string(md), "warning") {
					t.Errorf("report.md has no warning for an unchecked pack:\n%.2000s", md)
				}
				if c.trust != "" && !strings.Contains(string(md), "signed by key") {
					t.Errorf("report.md does not say the pack is signed:\n%.2000s", md)
				}
				if c.want != "" && !strings.Contains(stderr+string(md), c.want) {
					t.Errorf("neither stderr nor report.md has %q:\n%s", c.want, stderr)
				}
			})
		}
	}
}

// shipKey places the public key at pub beside the pack at p, as its signer
// ships it: <archive>.pub, or pack.pub in a folder.
func shipKey(t *testing.T, form, p, pub string) {
	t.Helper()
	b, err := os.ReadFile(pub)
	if err != nil {
		t.Fatal(err)
	}
	dst := p + ".pub"
	if form == "folder" {
		dst = filepath.Join(p, pack.KeyFile)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestTrustWithoutPack: --trust with a plain rule folder refuses it (exit
// 2); --trust without --rules is a usage error.
func TestTrustWithoutPack(t *testing.T) {
	_, pub := testKey(t, t.TempDir(), "k")
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"site.yaml": "schemaVersion: 1\nrules: []\n"})
	gather := tinyGather(t)
	code, _, stderr := run(t, gather, "-o", filepath.Join(t.TempDir(), "o"), "--rules", dir, "--trust", pub)
	if code != exitInput || !strings.Contains(stderr, "not a pack") {
		t.Errorf("rule folder under --trust: exit %d\n%s", code, stderr)
	}
	code, _, stderr = run(t, gather, "-o", filepath.Join(t.TempDir(), "o"), "--trust", pub)
	if code != exitUsage {
		t.Errorf("--trust without --rules: exit %d\n%s", code, stderr)
	}
	code, _, stderr = run(t, gather, "-o", filepath.Join(t.TempDir(), "o"), "--rules", writePack(t, ""), "--trust", filepath.Join(dir, "site.yaml"))
	if code != exitUsage || !strings.Contains(stderr, "not a minisign public key") {
		t.Errorf("--trust naming no key: exit %d\n%s", code, stderr)
	}
}

// TestPackRefusedAtTheCommandLine: a hostile pack archive given to analyze
// or `rules test` is refused with exit 2 and the member named; `rules
// validate` takes a pack and cites a broken rule at PACK:rules/FILE:LINE.
func TestPackRefusedAtTheCommandLine(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, h := range []*tar.Header{{Name: "pack.yaml", Typeflag: tar.TypeReg, Size: 1, Mode: 0o644}, {Name: "../../etc/cron.d/x", Typeflag: tar.TypeReg, Size: 1, Mode: 0o644}} {
		must(t, tw.WriteHeader(h))
		_, err := tw.Write([]byte("x"))
		must(t, err)
	}
	must(t, tw.Close())
	must(t, zw.Close())
	evil := filepath.Join(t.TempDir(), "evil.tar.gz")
	must(t, os.WriteFile(evil, buf.Bytes(), 0o644))
	code, _, stderr := run(t, tinyGather(t), "-o", filepath.Join(t.TempDir(), "o"), "--rules", evil)
	if code != exitInput || !strings.Contains(stderr, `member "../../etc/cron.d/x": ".." leaves the pack`) {
		t.Errorf("analyze --rules evil.tar.gz: exit %d\n%s", code, stderr)
	}
	if code, _, stderr = run(t, "rules", "test", evil); code != exitInput {
		t.Errorf("rules test evil.tar.gz: exit %d\n%s", code, stderr)
	}
	dir := writePack(t, "")
	code, out, stderr := run(t, "rules", "validate", dir)
	if code != 0 || !strings.Contains(out, "valid pack acme-catalog 1.2.0") {
		t.Errorf("rules validate PACK: exit %d\n%s%s", code, out, stderr)
	}
	odd := writePack(t, strings.Replace(packRule, "category: crash-loop", "category: acme-stuff", 1))
	code, out, stderr = run(t, "rules", "validate", odd)
	if code != 0 || !strings.Contains(out, "warning: "+odd+":rules/acme.yaml:") || !strings.Contains(out, "(1 rule file, 1 warning)") {
		t.Errorf("rules validate of a pack with a new category: exit %d\n%s%s", code, out, stderr)
	}
	bad := writePack(t, strings.Replace(packRule, "severity: high", "severity: dire", 1))
	code, _, stderr = run(t, "rules", "validate", bad)
	if code != exitUsage || !strings.Contains(stderr, bad+":rules/acme.yaml:5: rule acme-boom:") {
		t.Errorf("rules validate of a broken pack: exit %d\n%s", code, stderr)
	}
}

// TestReadmePackExample: README.md's pack.yaml, with writePack's rule and
// gathers, passes `rules test`.
func TestReadmePackExample(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	must(t, err)
	_, after, ok := strings.Cut(string(data), "<!-- pack-example")
	if !ok {
		t.Fatal("README.md has no pack-example marker")
	}
	_, block, ok := strings.Cut(after, "```yaml\n")
	if !ok {
		t.Fatal("no yaml block after the pack-example marker")
	}
	block, _, _ = strings.Cut(block, "```")
	dir := writePack(t, "")
	must(t, os.WriteFile(filepath.Join(dir, "pack.yaml"), []byte(block), 0o644))
	code, out, stderr := run(t, "rules", "test", dir)
	if code != 0 || !strings.Contains(out, "acme-catalog 1.2.0: 2 passed, 0 failed") {
		t.Errorf("rules test with README's pack.yaml: exit %d\n%s%s", code, out, stderr)
	}
}

// TestRulesRepeatable: --rules takes several packs and rule folders,
// applied in the order given: the report names every pack, a later one
// overrides an earlier one's rule of the same ID (with a warning naming
// both on stderr), and under --trust a rule folder among signed packs is
// refused.
func TestRulesRepeatable(t *testing.T) {
	acme := writePack(t, "")
	gather := filepath.Join(acme, "tests", "boom")
	odf := filepath.Join("..", "..", "rules", "packs", "odf")
	low := t.TempDir()
	writeFiles(t, low, map[string]string{"acme.yaml": strings.Replace(packRule, "severity: high", "severity: low", 1)})

	type finding struct{ RuleID, Severity string }
	analyse := func(t *testing.T, rulesArgs ...string) (got map[string]string, packs []string, stderr string) {
		t.Helper()
		out := t.TempDir()
		args := append([]string{gather, "-o", out, "--format", "json"}, rulesArgs...)
		code, stdout, stderr := run(t, args...)
		if code != 0 {
			t.Fatalf("analyze %v: exit %d\n%s%s", rulesArgs, code, stdout, stderr)
		}
		var r struct {
			Rules struct {
				Packs []struct{ Name, Version string }
			}
			Findings []finding
		}
		b, err := os.ReadFile(filepath.Join(out, "report.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		got = map[string]string{}
		for _, f := range r.Findings {
			got[f.RuleID] = f.Severity
		}
		for _, p := range r.Rules.Packs {
			packs = append(packs, p.Name+" "+p.Version)
		}
		return got, packs, stderr
	}

	got, packs, stderr := analyse(t, "--rules", acme, "--rules", odf)
	if got["acme-boom"] != "high" || strings.Join(packs, ", ") != "acme-catalog 1.2.0, odf 0.1.0" {
		t.Errorf("two packs: findings %v, packs %v\n%s", got, packs, stderr)
	}
	if strings.Contains(stderr, "overrides") {
		t.Errorf("two packs without a common rule: %s", stderr)
	}

	got, _, stderr = analyse(t, "--rules", acme, "--rules", low)
	if got["acme-boom"] != "low" || !strings.Contains(stderr, "rule acme-boom of "+low+" overrides the one of "+acme) {
		t.Errorf("a folder after the pack: findings %v\n%s", got, stderr)
	}
	got, _, stderr = analyse(t, "--rules", low, "--rules", acme)
	if got["acme-boom"] != "high" || !strings.Contains(stderr, "rule acme-boom of "+acme+" overrides the one of "+low) {
		t.Errorf("the pack after a folder: findings %v\n%s", got, stderr)
	}

	keys := t.TempDir()
	priv, pub := testKey(t, keys, "team")
	m, err := pack.FolderManifest(acme)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(acme, pack.SignatureFile), minisign.Sign(priv, m), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, gather, "-o", t.TempDir(), "--rules", acme, "--rules", low, "--trust", pub); code != 2 || !strings.Contains(stderr, low+" refused: with --trust only signed packs") {
		t.Errorf("--trust with a rule folder among packs: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := run(t, gather, "-o", t.TempDir(), "--rules", acme, "--trust", pub); code != 0 || strings.Contains(stderr, "warning: pack") {
		t.Errorf("--trust with the signed pack: exit %d\n%s", code, stderr)
	}
}
