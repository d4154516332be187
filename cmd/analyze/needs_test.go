package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mgtriage/mgtriage/report"
)

// keptLineGather writes a gather with one pending pod on worker-0 and a
// kubelet journal whose second line is a plain info line (none of the words
// the parser's fixed selection keeps), and a rule folder with one user rule
// whose cause matches that line. It returns both folders and the rule's id.
func keptLineGather(t *testing.T) (gather, rulesDir, ruleID string) {
	t.Helper()
	gather = t.TempDir()
	files := map[string]string{
		"timestamp": "2026-11-20 09:30:00.000000000 +0000 UTC m=+0.1\n",
		"namespaces/shop/core/pods.yaml": `apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: cart
    namespace: shop
    uid: 0b1f6a9e-4c0d-4a51-9d55-2f8e0a7f1c01
  spec:
    nodeName: worker-0
    containers:
    - name: cart
      image: registry.example.com/shop/cart:v2
  status:
    phase: Pending
    containerStatuses:
    - name: cart
      image: registry.example.com/shop/cart:v2
      ready: false
      restartCount: 0
      state:
        waiting:
          reason: ContainerCreating
kind: List
metadata:
  resourceVersion: ""
`,
		"host_service_logs/masters/kubelet_service.log": "Nov 20 09:19:59.000000 worker-0 kubenswrapper[2150]: I1120 09:19:59.000000    2150 kubelet.go:2406] \"SyncLoop ADD\" source=\"api\" pods=[\"shop/cart\"]\n" +
			"Nov 20 09:20:00.000100 worker-0 kubenswrapper[2150]: I1120 09:20:00.000100    2150 volume_manager.go:401] \"Waiting for volume attachment to settle\" pod=\"shop/cart\" volume=\"data\"\n",
	}
	for rel, text := range files {
		p := filepath.Join(gather, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rulesDir = t.TempDir()
	ruleID = "site-volume-settle"
	if err := os.WriteFile(filepath.Join(rulesDir, "site.yaml"), []byte(`schemaVersion: 1
rules:
  - id: `+ruleID+`
    version: 1
    severity: medium
    title: Volume attachment still settling
    category: storage
    match:
      matcher: podNodeLog
      params: {classes: [other]}
      cause: 'Waiting for volume attachment to settle'
    hint: 'The kubelet on {{.Node}} still waits for a volume of {{.Namespace}}/{{.Pod}}: {{.Cause}}.'
    remediation: [check the storage backend]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	return gather, rulesDir, ruleID
}

// TestUserRuleOnKeptLineInAnalyzeAndDiff: a user rule whose cause matches a
// kubelet line that only the rule table's literals keep fires in `analyze`
// and in `analyze diff` alike: both commands load a gather with what the
// table needs, the lines to keep as much as the kinds to decode.
func TestUserRuleOnKeptLineInAnalyzeAndDiff(t *testing.T) {
	gather, rulesDir, ruleID := keptLineGather(t)

	out := filepath.Join(t.TempDir(), "report")
	if code, _, stderr := run(t, gather, "--rules", rulesDir, "--format", "json", "-o", out); code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r report.Report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	var ids []string
	found := false
	for _, f := range r.Findings {
		ids = append(ids, f.RuleID)
		found = found || f.RuleID == ruleID
	}
	if !found {
		t.Errorf("analyze: no %s finding; findings %q", ruleID, ids)
	}

	diffOut := filepath.Join(t.TempDir(), "diff")
	if code, _, stderr := run(t, "diff", gather, gather, "--rules", rulesDir, "--format", "json", "-o", diffOut); code != 0 {
		t.Fatalf("diff: exit %d: %s", code, stderr)
	}
	b, err = os.ReadFile(filepath.Join(diffOut, "diff.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d report.Diff
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	found = false
	for _, f := range d.Findings {
		found = found || (f.RuleID == ruleID && f.State == report.StateStillFailing)
	}
	if !found {
		t.Errorf("diff: no still-failing %s finding; findings %q", ruleID, findingStates(&d))
	}
}
