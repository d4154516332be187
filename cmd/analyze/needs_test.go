package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mgtriage/mgtriage/report"
)

// keptLineGather returns the gather and the rule folder of fixtures/keptline
// (see its README) and the id of the user rule there, which matches a
// kubelet line only the rule table's literals keep.
func keptLineGather(t *testing.T) (gather, rulesDir, ruleID string) {
	t.Helper()
	dir := filepath.Join("..", "..", "fixtures", "keptline")
	return filepath.Join(dir, "gather"), filepath.Join(dir, "rules"), "site-volume-settle"
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
