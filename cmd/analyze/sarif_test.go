package main

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mgtriage/mgtriage/report"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifModule ships the official SARIF 2.1.0 JSON schema (OASIS errata 01)
// in its source, as the Go string constant schema of sarifSchemaFile. It is
// the library WriteSARIF writes with, so its source is in the module cache
// whenever this package builds.
const (
	sarifModule     = "github.com/owenrumney/go-sarif/v3"
	sarifSchemaFile = "pkg/report/v210/sarif/schema.go"
	sarifSchemaID   = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)

// sarifSchema compiles the SARIF 2.1.0 JSON schema taken, at test time,
// from the go-sarif module's source in the module cache (it is not copied
// into this repository), with format assertions (uri, uri-reference,
// date-time) on.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command on PATH to locate %s in the module cache: %v", sarifModule, err)
	}
	out, err := exec.Command(goBin, "list", "-m", "-f", "{{.Dir}}", sarifModule).Output()
	if err != nil {
		t.Fatalf("go list -m %s: %v", sarifModule, err)
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		t.Fatalf("%s is not in the module cache (go mod download %s)", sarifModule, sarifModule)
	}
	src := filepath.Join(dir, filepath.FromSlash(sarifSchemaFile))
	f, err := parser.ParseFile(token.NewFileSet(), src, nil, 0)
	if err != nil {
		t.Fatalf("the SARIF schema's source: %v", err)
	}
	var text string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "schema" || len(vs.Values) != 1 {
			return true
		}
		if lit, ok := vs.Values[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
			text, _ = strconv.Unquote(lit.Value)
		}
		return false
	})
	if text == "" {
		t.Fatalf("%s holds no string constant schema: the module no longer ships the SARIF schema where this test looks", src)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		t.Fatalf("the SARIF schema in %s: %v", src, err)
	}
	if m, _ := doc.(map[string]any); m["id"] != sarifSchemaID || !strings.Contains(m["title"].(string), "SARIF") {
		t.Fatalf("%s is not the OASIS SARIF 2.1.0 schema: id %v", src, m["id"])
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(sarifSchemaID, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(sarifSchemaID)
	if err != nil {
		t.Fatalf("compile the SARIF schema: %v", err)
	}
	return sch
}

// validateSARIF fails t when b is not a SARIF 2.1.0 log the schema accepts.
func validateSARIF(t *testing.T, sch *jsonschema.Schema, b []byte) map[string]any {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("not valid SARIF 2.1.0: %v", err)
	}
	var log map[string]any
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatal(err)
	}
	return log
}

// sarifRun is the one run of a SARIF log.
func sarifRun(t *testing.T, log map[string]any) map[string]any {
	t.Helper()
	runs, _ := log["runs"].([]any)
	if len(runs) != 1 {
		t.Fatalf("%d runs, want 1", len(runs))
	}
	return runs[0].(map[string]any)
}

// TestSARIFValidates: the SARIF of the sample (plain and redacted, written
// by analyze and by render), of the hostile test report and of a report
// without findings is valid against the official SARIF 2.1.0 schema; one
// result per finding, each with its fingerprint and a location.
func TestSARIFValidates(t *testing.T) {
	sch := sarifSchema(t)
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := run(t, sampleGather, "-o", out, "--format", "json,sarif"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	sample, _ := os.ReadFile(filepath.Join(out, "report.sarif"))
	rj := readReport(t, out)

	t.Run("sample", func(t *testing.T) {
		r := sarifRun(t, validateSARIF(t, sch, sample))
		results := r["results"].([]any)
		if len(results) != len(rj.Findings) || len(results) == 0 {
			t.Fatalf("%d results for %d findings", len(results), len(rj.Findings))
		}
		rulesList := r["tool"].(map[string]any)["driver"].(map[string]any)["rules"].([]any)
		for i, x := range results {
			res := x.(map[string]any)
			f := rj.Findings[i]
			if res["ruleId"] != f.RuleID {
				t.Errorf("result %d: ruleId %v, want %s", i, res["ruleId"], f.RuleID)
			}
			idx := int(res["ruleIndex"].(float64))
			if idx < 0 || idx >= len(rulesList) || rulesList[idx].(map[string]any)["id"] != f.RuleID {
				t.Errorf("result %d: ruleIndex %d does not name rule %s", i, idx, f.RuleID)
			}
			fp, _ := res["partialFingerprints"].(map[string]any)[report.SARIFFingerprintKey].(string)
			if len(fp) != 64 {
				t.Errorf("result %d: fingerprint %q", i, fp)
			}
			if locs, _ := res["locations"].([]any); len(locs) != 1 {
				t.Errorf("result %d: %d locations, want 1", i, len(locs))
			}
		}
		props := r["properties"].(map[string]any)
		if props["collectedAt"] != "2026-11-20T09:12:33.412876203Z" || props["clusterVersion"] != "4.18.12" || props["runId"] != testRunID {
			t.Errorf("run properties: %v", props)
		}
		// render makes the same SARIF from report.json.
		code, got, stderr := run(t, "render", "--from", filepath.Join(out, "report.json"), "--format", "sarif")
		if code != 0 || got != string(sample) {
			t.Errorf("render --format sarif differs from report.sarif (exit %d): %s", code, stderr)
		}
	})
	t.Run("schema rejects a broken log", func(t *testing.T) {
		// The validator is not a rubber stamp: a level SARIF does not know
		// and a result without its message are refused.
		for _, broken := range []string{
			strings.Replace(string(sample), `"level": "error"`, `"level": "fatal"`, 1),
			strings.Replace(string(sample), `"message": {`, `"notMessage": {`, 1),
		} {
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(broken))
			if err != nil {
				t.Fatal(err)
			}
			if sch.Validate(inst) == nil {
				t.Errorf("the schema accepts a broken log")
			}
		}
	})
	t.Run("sample redacted", func(t *testing.T) {
		code, got, stderr := run(t, "render", "--from", filepath.Join(out, "report.json"), "--format", "sarif", "--redact")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		validateSARIF(t, sch, []byte(got))
		if strings.Contains(got, "worker-1.sample.example.com") || strings.Contains(got, "e0666b73-33c5-437e-b12f-04c2a6eb05d9") {
			t.Errorf("the redacted SARIF holds a node name or the cluster ID")
		}
	})
	t.Run("hostile report", func(t *testing.T) {
		code, got, stderr := run(t, "render", "--from", filepath.Join("..", "..", "report", "testdata", "report.json"), "--format", "sarif")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		validateSARIF(t, sch, []byte(got))
	})
	t.Run("no findings", func(t *testing.T) {
		empty := filepath.Join(t.TempDir(), "report.json")
		os.WriteFile(empty, []byte(`{"schemaVersion":1,"tool":{"name":"mgtriage","version":"dev"},"gather":{"path":"x"},"findings":[]}`), 0o644)
		code, got, stderr := run(t, "render", "--from", empty, "--format", "sarif")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		r := sarifRun(t, validateSARIF(t, sch, []byte(got)))
		if res, ok := r["results"].([]any); !ok || len(res) != 0 {
			t.Errorf("results = %v, want []", r["results"])
		}
	})
}

// TestSARIFFormatChoices: analyze writes report.sarif with the others as
// one set and removes it when a later run leaves it out; diff and render
// of a diff.json refuse sarif.
func TestSARIFFormatChoices(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	gather := tinyGather(t)
	if code, _, stderr := run(t, gather, "-o", out, "--format", "md,sarif"); code != 0 {
		t.Fatal(stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "report.sarif"))
	if err != nil || !bytes.Contains(b[:min(len(b), 8<<10)], []byte(testRunID)) {
		t.Errorf("report.sarif missing or without the run ID in its first 8 KiB: %v", err)
	}
	if code, _, stderr := run(t, gather, "-o", out, "--format", "md"); code != 0 {
		t.Fatal(stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "report.sarif")); !os.IsNotExist(err) {
		t.Errorf("report.sarif of the earlier set kept: %v", err)
	}
	if code, _, stderr := run(t, "diff", gather, gather, "-o", t.TempDir(), "--format", "sarif"); code != exitUsage || !strings.Contains(stderr, `--format "sarif"`) {
		t.Errorf("diff --format sarif: exit %d: %s", code, stderr)
	}
}

// rolloutGather writes a gather of one Deployment pod named pod (its
// ReplicaSet's hash in hash) crash-looping in container, on node.
func rolloutGather(t *testing.T, pod, hash, container, node string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "must-gather.local.1", "quay-io-image")
	writeFiles(t, root, map[string]string{
		"timestamp": "2026-11-20 09:12:33.000000000 +0000 UTC m=+0.01\n",
		"namespaces/shop/core/pods.yaml": `---
apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata:
    creationTimestamp: "2026-11-19T09:12:33Z"
    labels:
      pod-template-hash: ` + hash + `
    name: ` + pod + `
    namespace: shop
    ownerReferences:
    - apiVersion: apps/v1
      controller: true
      kind: ReplicaSet
      name: catalog-` + hash + `
      uid: 22222222-2222-3333-4444-555555555555
    uid: 11111111-2222-3333-4444-` + hash + `0000000
  spec:
    containers:
    - image: catalog:1
      name: ` + container + `
    nodeName: ` + node + `
  status:
    containerStatuses:
    - image: catalog:1
      lastState:
        terminated:
          exitCode: 1
          finishedAt: "2026-11-20T09:10:33Z"
          reason: Error
      name: ` + container + `
      ready: false
      restartCount: 4
      state:
        waiting:
          reason: CrashLoopBackOff
    phase: Running
kind: PodList
`,
	})
	return filepath.Dir(root)
}

// sarifFingerprints runs analyze --format sarif on gather and returns each
// result's rule id and fingerprint.
func sarifFingerprints(t *testing.T, gather string) map[string]string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := run(t, gather, "-o", out, "--format", "sarif"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(filepath.Join(out, "report.sarif"))
	var log map[string]any
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, x := range sarifRun(t, log)["results"].([]any) {
		res := x.(map[string]any)
		got[res["ruleId"].(string)] = res["partialFingerprints"].(map[string]any)[report.SARIFFingerprintKey].(string)
	}
	if len(got) == 0 {
		t.Fatalf("no results")
	}
	return got
}

// TestSARIFFingerprintSurvivesRollout: a finding keeps its fingerprint when
// a rollout replaced its pod (new ReplicaSet, new pod name, other node), and
// gets another when it is about another container of the workload.
func TestSARIFFingerprintSurvivesRollout(t *testing.T) {
	before := sarifFingerprints(t, rolloutGather(t, "catalog-5d4f8b7c9-abcde", "5d4f8b7c9", "catalog", "worker-0"))
	after := sarifFingerprints(t, rolloutGather(t, "catalog-7c9e6f5d8-xyz12", "7c9e6f5d8", "catalog", "worker-1"))
	other := sarifFingerprints(t, rolloutGather(t, "catalog-7c9e6f5d8-xyz12", "7c9e6f5d8", "api", "worker-1"))
	for rule, fp := range before {
		if after[rule] != fp {
			t.Errorf("%s: fingerprint %s after the rollout, %s before", rule, after[rule], fp)
		}
		if other[rule] == fp {
			t.Errorf("%s: another container has the same fingerprint %s", rule, fp)
		}
	}
}

// TestSARIFCorpus: the SARIF of every gather of the shared corpus is valid
// SARIF 2.1.0 with one result per finding. Skipped under -short and when the
// corpus is absent.
func TestSARIFCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus gathers: not in -short")
	}
	entries, err := os.ReadDir(corpusRoot)
	if err != nil {
		t.Skipf("corpus absent: %v", err)
	}
	sch := sarifSchema(t)
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			code, _, stderr := run(t, filepath.Join(corpusRoot, e.Name()), "-o", out, "--format", "json,sarif")
			b, err := os.ReadFile(filepath.Join(out, "report.sarif"))
			if err != nil {
				t.Skipf("no report (exit %d): %s", code, stderr)
			}
			results := sarifRun(t, validateSARIF(t, sch, b))["results"].([]any)
			if n := len(readReport(t, out).Findings); len(results) != n {
				t.Errorf("%d results for %d findings", len(results), n)
			}
		})
	}
}
