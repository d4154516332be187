package parser

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestSkipDirs: a folder named in Options.SkipDirs (the tool's own output
// folder inside the input, by any path to it) is walked without: its files
// are neither read nor counted, nor listed as unplaced.
func TestSkipDirs(t *testing.T) {
	top := filepath.Join(t.TempDir(), "must-gather.local.1")
	writeTree(t, top, map[string]string{
		"timestamp":                           "2026-11-20 09:00:00.0 +0000 UTC m=+0.1\n2026-11-20 09:01:00.0 +0000 UTC m=+60.1\n",
		"img/namespaces/shop/core/pods.yaml":  podList("shop", "cart-1", "u1"),
		"reports/report.json":                 `{"schemaVersion": 1}`,
		"reports/namespaces/x/core/pods.yaml": podList("x", "ghost-1", "u2"),
	})
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(filepath.Join(top, "reports"), link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		skip      []string
		wantFiles int
		wantPods  int
	}{
		{"no skip", nil, 4, 2},
		{"the folder", []string{filepath.Join(top, "reports")}, 2, 1},
		{"a link to it", []string{link}, 2, 1},
		{"a folder that does not exist", []string{filepath.Join(top, "nope")}, 4, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := LoadWith(context.Background(), top, Options{SkipDirs: tc.skip})
			if err != nil {
				t.Fatal(err)
			}
			if g.Files != tc.wantFiles || len(g.Pods) != tc.wantPods {
				t.Errorf("files %d, pods %d; want %d and %d", g.Files, len(g.Pods), tc.wantFiles, tc.wantPods)
			}
			if tc.skip != nil && tc.wantFiles == 2 && len(g.Coverage.Unplaced) != 0 {
				t.Errorf("the skipped folder is listed as unplaced: %+v", g.Coverage.Unplaced)
			}
		})
	}
}
