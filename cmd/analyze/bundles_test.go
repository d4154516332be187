package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bundleFinding is a finding a gather must give: the rule, the pod it is
// about, and words its hint or evidence must hold (lower case).
type bundleFinding struct {
	rule, pod string
	words     []string
}

// runBundle analyses input and returns its report.json, decoded.
func runBundle(t *testing.T, input string) map[string]any {
	t.Helper()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := Main([]string{input, "-o", out, "--format", "json"}, IOStreams{Out: &stdout, ErrOut: &stderr, NoColor: true})
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatalf("no report.json (exit %d): %v\n%s", code, err, stderr.String())
	}
	var rep map[string]any
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

// checkBundleFindings reports each wanted finding the report lacks.
func checkBundleFindings(t *testing.T, rep map[string]any, want []bundleFinding) {
	t.Helper()
	findings, _ := rep["findings"].([]any)
	for _, w := range want {
		found := false
		for _, f := range findings {
			f := f.(map[string]any)
			if f["ruleId"] != w.rule {
				continue
			}
			raw, _ := json.Marshal(f)
			text := strings.ToLower(string(raw))
			if !strings.Contains(text, `"name":"`+strings.ToLower(w.pod)+`"`) {
				continue
			}
			found = true
			for _, word := range w.words {
				if !strings.Contains(text, strings.ToLower(word)) {
					t.Errorf("%s on %s does not say %q", w.rule, w.pod, word)
				}
			}
		}
		if !found {
			t.Errorf("no %s finding on %s", w.rule, w.pod)
		}
	}
}

func layoutKinds(rep map[string]any) []string {
	var out []string
	g, _ := rep["gather"].(map[string]any)
	ls, _ := g["layouts"].([]any)
	for _, l := range ls {
		out = append(out, l.(map[string]any)["kind"].(string))
	}
	return out
}

// TestBundleFixtures: the Insights archive, support bundle and pod captures
// of fixtures/bundles report their failing pods with the causes their data
// shows, under their layout's name.
func TestBundleFixtures(t *testing.T) {
	for _, tc := range []struct {
		dir, layout string
		want        []bundleFinding
	}{
		{"insights-archive", "insights archive", []bundleFinding{
			{"init-container-failed", "orders-api-6d9f7c8b5-k2x4q", []string{"wait-db", "connection refused", "wait-db_previous.log"}},
			{"unschedulable-host-ports", "router-default-5b6c7d8e9-q7w8e", []string{"80/tcp, 443/tcp, 1936/tcp", "didn't have free ports"}},
			{"container-exited-error", "nightly-export-29001420-x9z8w", []string{"accessdenied", "job/nightly-export-29001420"}},
		}},
		{"support-bundle", "support bundle", []bundleFinding{
			{"image-pull-x509", "web-5f7d8c9b6-p4m2n", []string{"x509: certificate signed by unknown authority"}},
			{"container-oom-killed", "reindex-28990080-7tq2d", []string{"128mi", "reindex.log"}},
		}},
		{"install-log-bundle", "install log bundle", []bundleFinding{
			{"install-api-never-up", "log-bundle-20261120085830", []string{"never answered", "all 20 files", "bootstrap/journals/bootkube.log",
				"still waiting for the kubernetes api", "timed out waiting for the condition", "bootkube.service: main process exited"}},
			{"install-etcd-not-forming", "log-bundle-20261120085830", []string{"localhost:2379 is unhealthy", "x509: certificate has expired or is not yet valid"}},
		}},
		{"pod-captures", "pod captures", []bundleFinding{
			{"unschedulable-insufficient-resources", "trainer-0", []string{"nvidia.com/gpu"}},
			{"unschedulable-untolerated-taint", "ledger-7c9d8e6f5-2hk4j", []string{"disktype"}},
			{"volume-missing-secret-or-configmap", "backup-agent-x2k9d", []string{`secret \"backup-creds\" not found`}},
			{"container-command-not-found", "report-gen-6f5e4d3c2-wq7rt", []string{"/app/run-report", "containerd cannot start", "`kubectl -n ops get pod"}},
		}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			rep := runBundle(t, filepath.Join("..", "..", "fixtures", "bundles", tc.dir))
			if got := layoutKinds(rep); len(got) != 1 || got[0] != tc.layout {
				t.Errorf("layouts %v, want [%s]", got, tc.layout)
			}
			checkBundleFindings(t, rep, tc.want)
			// Vocabulary follows the source: kubectl for vanilla Kubernetes.
			g := rep["gather"].(map[string]any)
			vanilla := tc.dir == "support-bundle" || tc.dir == "pod-captures"
			if want := map[bool]string{true: "Kubernetes", false: "OpenShift"}[vanilla]; g["distribution"] != want {
				t.Errorf("distribution %v, want %s", g["distribution"], want)
			}
			for _, f := range rep["findings"].([]any) {
				raw, _ := json.Marshal(f.(map[string]any)["remediation"])
				if vanilla && strings.Contains(string(raw), "`oc ") {
					t.Errorf("remediation of %v: %s", f.(map[string]any)["ruleId"], raw)
				}
			}
			if tc.dir == "install-log-bundle" {
				// An empty masters.list says nothing when the API never answered.
				for _, f := range rep["findings"].([]any) {
					if id := f.(map[string]any)["ruleId"]; id == "install-masters-not-joined" {
						t.Errorf("%s fired although the API never answered", id)
					}
				}
			}
		})
	}
}

// TestBundleCorpus runs the public samples of the same shapes when the
// corpus is present.
func TestBundleCorpus(t *testing.T) {
	for _, tc := range []struct {
		dir, layout string
		want        []bundleFinding
	}{
		{"insights-archive-sample", "insights archive", []bundleFinding{
			{"init-container-failed", "vsystem-867f4b77cc-pqcns", []string{"vsystem-hana-init", "could not connect to hana"}},
			{"unschedulable-host-ports", "router-default-7bbdcfcf9b-7xdln", []string{"didn't have free ports"}},
		}},
		{"k8s-failing-pods/analyze-files", "pod captures", []bundleFinding{
			{"image-pull-x509", "no-image-deployment-849c4c4958-rxqmt", []string{"x509"}},
			{"container-oom-killed", "oom-kill-job3-gbb89", nil},
			{"unschedulable-insufficient-resources", "pending-pod-resources-5fddcf7688-djjfc", []string{"nvidia.com/gpu"}},
			{"unschedulable", "kotsadm-b6cb54c8f-zgzrn", []string{"node affinity/selector"}},
			{"container-command-not-found", "init-demo", []string{"executable file not found"}},
			{"volume-mount-failed", "troubleshoot-copyfromhost-4m79m-psdjm", nil},
		}},
		{"k8s-failing-pods/k3s-support-bundle", "support bundle", nil},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			input := filepath.Join(corpusRoot, tc.dir)
			if _, err := os.Stat(input); err != nil {
				t.Skipf("corpus not present: %v", err)
			}
			rep := runBundle(t, input)
			if got := layoutKinds(rep); len(got) != 1 || got[0] != tc.layout {
				t.Errorf("layouts %v, want [%s]", got, tc.layout)
			}
			checkBundleFindings(t, rep, tc.want)
		})
	}
}
