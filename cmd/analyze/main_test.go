package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser"
	"github.com/mgtriage/mgtriage/report"
)

var update = flag.Bool("update", false, "rewrite golden files")

const sampleGather = "../../fixtures/sample/must-gather.local.5049263173451366137"

func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Main(args, IOStreams{Out: &out, ErrOut: &errOut, NoColor: true})
	return code, out.String(), errOut.String()
}

// tinyGather writes a minimal gather with one crash-looping pod and returns its folder.
func tinyGather(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "must-gather.local.1", "quay-io-image")
	files := map[string]string{
		"timestamp": "2026-11-20 09:12:33.000000000 +0000 UTC m=+0.01\n2026-11-20 09:13:00.000000000 +0000 UTC m=+27.0\n",
		"namespaces/shop/core/pods.yaml": `---
apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata:
    creationTimestamp: "2026-11-19T09:12:33Z"
    name: catalog-1
    namespace: shop
    uid: 11111111-2222-3333-4444-555555555555
  spec:
    containers:
    - image: catalog:1
      name: catalog
    nodeName: worker-0
  status:
    containerStatuses:
    - image: catalog:1
      lastState:
        terminated:
          exitCode: 1
          finishedAt: "2026-11-20T09:10:33Z"
          reason: Error
      name: catalog
      ready: false
      restartCount: 4
      state:
        waiting:
          reason: CrashLoopBackOff
    phase: Running
kind: PodList
`,
		"namespaces/shop/core/events.yaml":                                  "---\napiVersion: v1\nitems: []\nkind: EventList\n",
		"namespaces/shop/pods/catalog-1/catalog/catalog/logs/previous.log":  "2026-11-20T09:10:32.000000000Z panic: boom\n",
		"namespaces/broken/core/pods.yaml":                                  "---\napiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: [not a map\n",
		"cluster-scoped-resources/core/nodes/worker-0.yaml":                 "apiVersion: v1\nkind: Node\nmetadata:\n  name: worker-0\nstatus:\n  nodeInfo:\n    kubeletVersion: v1.31.6\n",
		"cluster-scoped-resources/config.openshift.io/clusterversions.yaml": "apiVersion: config.openshift.io/v1\nitems:\n- apiVersion: config.openshift.io/v1\n  kind: ClusterVersion\n  metadata:\n    name: version\n  status:\n    history:\n    - state: Completed\n      version: 4.18.12\nkind: ClusterVersionList\n",
	}
	writeFiles(t, root, files)
	return filepath.Dir(root)
}

func readReport(t *testing.T, dir string) *report.Report {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := report.ReadJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestAnalyzeWritesThreeReports(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := run(t, tinyGather(t), "-o", out)
	if code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, stderr)
	}
	for _, f := range []string{"report.md", "report.html", "report.json"} {
		if fi, err := os.Stat(filepath.Join(out, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	if !strings.Contains(stdout, "crashloop-back-off") {
		t.Errorf("stdout summary lacks the finding:\n%s", stdout)
	}
	r := readReport(t, out)
	got := []string{r.Pods[0].Ready, r.Pods[0].Status, r.Pods[0].Restarts, r.Pods[0].Age}
	if diff := cmp.Diff([]string{"0/1", "CrashLoopBackOff", "4 (2m ago)", "24h"}, got); diff != "" {
		t.Errorf("pod columns (-want +got):\n%s", diff)
	}
	if r.Gather.ClusterVersion != "4.18.12" || len(r.Problems) != 1 || !strings.Contains(r.Problems[0].Path, "namespaces/broken/core/pods.yaml") {
		t.Errorf("gather %+v problems %+v", r.Gather, r.Problems)
	}
}

func TestAnalyzeFormatSubsetAndFailOn(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := run(t, tinyGather(t), "-o", out, "--format", "json", "--fail-on", "high")
	if code != exitFindings {
		t.Errorf("--fail-on high with a high finding: exit %d (%s)", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "report.md")); !os.IsNotExist(err) {
		t.Errorf("report.md written although --format json: %v", err)
	}
	if code, _, _ := run(t, tinyGather(t), "-o", out, "--fail-on", "critical"); code != 0 {
		t.Errorf("--fail-on critical without critical findings: exit %d", code)
	}
}

func TestAnalyzeUsageErrors(t *testing.T) {
	empty := t.TempDir()
	tests := []struct {
		name string
		args []string
		msg  string
		code int
	}{
		{"no path", nil, "accepts 1 arg", exitUsage},
		{"missing path", []string{filepath.Join(empty, "nope")}, "no such file or directory", exitInput},
		{"folder without a gather", []string{empty}, "nothing analysable in 0 files read", exitInput},
		{"bad format", []string{"--format", "pdf", empty}, "--format \"pdf\"", exitUsage},
		{"bad fail-on", []string{"--fail-on", "urgent", empty}, "--fail-on \"urgent\"", exitUsage},
		{"unknown flag", []string{"--frobnicate", empty}, "unknown flag", exitUsage},
		{"bad flag value", []string{"--top", "many", empty}, "invalid argument", exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := run(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d", code, tt.code)
			}
			lines := 1
			if tt.name == "folder without a gather" {
				lines += len(parser.KnownLayouts) + 1 // "looked for:" and every layout known
			}
			if !strings.Contains(stderr, tt.msg) || strings.Count(stderr, "\n") != lines {
				t.Errorf("stderr should be %d lines naming %q, got:\n%s", lines, tt.msg, stderr)
			}
		})
	}
}

func TestRulesSubcommands(t *testing.T) {
	code, out, _ := run(t, "rules", "list")
	if code != 0 || !strings.Contains(out, "image-pull-not-found") {
		t.Errorf("rules list: %d\n%s", code, out)
	}
	code, out, _ = run(t, "rules", "show", "container-oom-killed")
	if code != 0 || !strings.Contains(out, "matcher: containerTerminated") {
		t.Errorf("rules show: %d\n%s", code, out)
	}
	// What show prints is a rule file validate accepts as is.
	shown := filepath.Join(t.TempDir(), "shown.yaml")
	os.WriteFile(shown, []byte(out), 0o644)
	if code, vout, _ := run(t, "rules", "validate", shown); code != 0 {
		t.Errorf("rules validate of rules show: %d\n%s", code, vout)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("schemaVersion: 1\nrules:\n  - id: x\n    severity: nope\n"), 0o644)
	code, out, _ = run(t, "rules", "validate", bad)
	if code != exitUsage || !strings.Contains(out, "bad.yaml:4: rule x: severity") {
		t.Errorf("rules validate: %d\n%s", code, out)
	}
}

func TestRenderFromJSON(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := run(t, tinyGather(t), "-o", out); code != 0 {
		t.Fatal(stderr)
	}
	code, md, _ := run(t, "render", "--from", filepath.Join(out, "report.json"), "--format", "md")
	want, _ := os.ReadFile(filepath.Join(out, "report.md"))
	if code != 0 || md != string(want) {
		t.Errorf("render md differs from report.md (exit %d)", code)
	}
}

// TestEndToEndSampleGolden runs the whole pipeline on the bundled sample and
// compares report.json, report.md, report.html and report.sarif with the
// golden files testdata/sample-report.* (refresh with -update and review the
// diff). The run ID is the tests' own (testRunID).
func TestEndToEndSampleGolden(t *testing.T) {
	if _, err := os.Stat(sampleGather); err != nil {
		t.Fatalf("bundled sample missing: %v", err)
	}
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := run(t, sampleGather, "-o", out, "--format", "md,html,json,sarif")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, ext := range []string{"json", "md", "html", "sarif"} {
		t.Run(ext, func(t *testing.T) {
			got, err := os.ReadFile(filepath.Join(out, "report."+ext))
			if err != nil {
				t.Fatal(err)
			}
			if ext == "json" || ext == "sarif" {
				var r map[string]any
				if err := json.Unmarshal(got, &r); err != nil {
					t.Fatal(err)
				}
			}
			golden := filepath.Join("testdata", "sample-report."+ext)
			if *update {
				os.MkdirAll("testdata", 0o755)
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./cmd/analyze -run EndToEnd -update)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("report.%s differs from %s (-want +got):\n%s", ext, golden, diff)
			}
		})
	}
}

// TestColorDecision: colour only when stdout is a terminal and NO_COLOR is
// not set; gather strings never carry their own escapes.
func TestColorDecision(t *testing.T) {
	gather := tinyGather(t)
	tests := []struct {
		name              string
		terminal, noColor bool
		want              bool
	}{
		{"terminal", true, false, true},
		{"terminal with NO_COLOR", true, true, false},
		{"pipe", false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := Main([]string{gather, "-o", t.TempDir()}, IOStreams{Out: &out, ErrOut: &errOut, OutIsTerminal: tt.terminal, NoColor: tt.noColor})
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut.String())
			}
			if got := strings.Contains(out.String(), "\x1b["); got != tt.want {
				t.Errorf("colour %v, want %v:\n%q", got, tt.want, out.String())
			}
			if strings.Contains(errOut.String(), "\x1b") {
				t.Errorf("stderr has escapes: %q", errOut.String())
			}
		})
	}
	for v, want := range map[string]bool{"": false, "1": true, "0": true, "false": true} {
		if got := noColorSet(v); got != want {
			t.Errorf("noColorSet(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestOutputReplacesPlantedSymlinksAndStaleReports(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	os.MkdirAll(out, 0o755)
	victim := filepath.Join(t.TempDir(), "victim.txt")
	os.WriteFile(victim, []byte("keep me"), 0o644)
	if err := os.Symlink(victim, filepath.Join(out, "report.md")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(out, "report.html"), []byte("old case"), 0o644)
	if code, _, stderr := run(t, tinyGather(t), "-o", out, "--format", "md,json"); code != 0 {
		t.Fatal(stderr)
	}
	if data, _ := os.ReadFile(victim); string(data) != "keep me" {
		t.Errorf("the symlink's target was written: %q", data)
	}
	if fi, err := os.Lstat(filepath.Join(out, "report.md")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("report.md is not a regular file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "report.html")); !os.IsNotExist(err) {
		t.Errorf("stale report.html from an earlier run kept: %v", err)
	}
}
