package parser

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/store"
)

func TestCoverageSaysWhatWasReadUsedAndPlaced(t *testing.T) {
	top := filepath.Join(t.TempDir(), "case-1")
	img := "must-gather.local.7/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-ccc/"
	writeTree(t, top, map[string]string{
		"must-gather.local.7/timestamp":                                  "2026-11-20 09:00:00.0 +0000 UTC m=+0.1\n",
		"must-gather.local.7/event-filter.html":                          "<html></html>",
		img + "timestamp":                                                "2026-11-20 09:00:00.0 +0000 UTC m=+0.1\n",
		img + "namespaces/shop/core/pods.yaml":                           podList("shop", "web-1", "11111111-0000-0000-0000-000000000001"),
		img + "namespaces/shop/core/events.yaml":                         "---\napiVersion: v1\nitems: []\nkind: EventList\n",
		img + "namespaces/shop/apps/deployments.yaml":                    "---\napiVersion: apps/v1\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: web\n    namespace: shop\nkind: DeploymentList\n",
		img + "namespaces/shop/pods/web-1/app/app/logs/rotated/0.log.gz": "",
		img + "monitoring/prometheus/status/tsdb.json":                   "{}",
		img + "web_hooks/validating/x.yaml":                              "{}",
		"notes/customer-notes.txt":                                       "hello",
		"notes/screenshots/a.png":                                        "png",
		"README.txt":                                                     "hi",
	})
	g, err := LoadWith(context.Background(), top, Options{Decode: []store.Kind{store.PersistentVolumes}})
	if err != nil {
		t.Fatal(err)
	}
	c := g.Coverage
	wantUsed := []FileCount{{"pod lists", 1}, {"event lists", 1}, {"other object lists", 1}, {"timestamp files", 2}}
	if diff := cmp.Diff(wantUsed, c.Used); diff != "" {
		t.Errorf("used (-want +got):\n%s", diff)
	}
	wantUnused := []FileCount{
		{"must-gather.local.7/(files at the top)", 1},
		{img + "monitoring/", 1},
		{img + "namespaces/*/pods/", 1},
		{img + "web_hooks/", 1},
	}
	if diff := cmp.Diff(wantUnused, c.Unused); diff != "" {
		t.Errorf("recognised, not used (-want +got):\n%s", diff)
	}
	wantUnplaced := []FileCount{{"(files at the top)", 1}, {"notes/", 1}, {"notes/screenshots/", 1}}
	if diff := cmp.Diff(wantUnplaced, c.Unplaced); diff != "" {
		t.Errorf("not placed (-want +got):\n%s", diff)
	}
	wantKinds := []KindCoverage{
		{Kind: "deployments.apps", State: KindGathered, Objects: 1, Namespaces: 1},
		{Kind: "events", State: KindGathered, Objects: 0, Namespaces: 1},
		{Kind: "nodes", State: KindNotGathered},
		{Kind: "persistentvolumes", State: KindNotGathered},
		{Kind: "pods", State: KindGathered, Objects: 1, Namespaces: 1},
	}
	if diff := cmp.Diff(wantKinds, c.Kinds); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
	if !g.Analysable() {
		t.Error("a gather with a pod is analysable")
	}
}

func TestFolderCountsAreBounded(t *testing.T) {
	m := map[string]int{}
	for i := range MaxCoverageFolders + 5 {
		m[filepath.Join("d", string(rune('a'+i%26)), string(rune('a'+i/26)))+"/"] = 2
	}
	out := folderCounts(m)
	if len(out) != MaxCoverageFolders+1 || out[MaxCoverageFolders] != (FileCount{"… 5 more folders", 10}) {
		t.Errorf("got %d entries, last %+v", len(out), out[len(out)-1])
	}
}
