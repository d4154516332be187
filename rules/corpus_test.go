package rules

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mgtriage/mgtriage/parser"
	"github.com/mgtriage/mgtriage/parser/model"
)

// TestHealthyCorpusRaisesNothingOnHealthyPods checks, on the real gathers of
// ../shared/corpus (skipped when absent), that no finding above low is
// raised for a pod that is Running and ready with no restarts, or Completed.
func TestHealthyCorpusRaisesNothingOnHealthyPods(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus tests skipped with -short")
	}
	for _, name := range []string{"mg-metal-ocp49", "mg-aws-ocp48"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("..", "..", "shared", "corpus", name)
			if _, err := os.Stat(dir); err != nil {
				t.Skipf("corpus %s not present", name)
			}
			g, err := parser.Load(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			fs := Evaluate(Builtin(), g)
			for _, f := range fs {
				pods := []*model.Pod{f.Pod}
				for _, m := range f.Also {
					pods = append(pods, m.Pod)
				}
				for _, p := range pods {
					if p == nil || severityRank(f.Severity) > severityRank("medium") {
						continue
					}
					healthy := (p.Columns.Status == "Running" && p.Columns.ReadyContainers == p.Columns.TotalContainers && p.Columns.RestartCount == 0) ||
						p.Columns.Status == "Completed"
					if healthy {
						t.Errorf("%s (%s) raised on healthy pod %s (%s %s %s)", f.Rule.ID, f.Severity, p.Key(), p.Columns.Ready, p.Columns.Status, p.Columns.Restarts)
					}
				}
			}
			t.Logf("%s: %d findings", name, len(fs))
		})
	}
}
