package parser

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/model"
)

func TestCoverageSaysWhatWasReadUsedAndPlaced(t *testing.T) {
	top := filepath.Join(t.TempDir(), "case-1")
	img := "must-gather.local.7/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-ccc/"
	writeTree(t, top, map[string]string{
		"must-gather.local.7/timestamp":                                   "2026-11-20 09:00:00.0 +0000 UTC m=+0.1\n",
		"must-gather.local.7/event-filter.html":                           "<html></html>",
		img + "timestamp":                                                 "2026-11-20 09:00:00.0 +0000 UTC m=+0.1\n",
		img + "namespaces/shop/core/pods.yaml":                            podList("shop", "web-1", "11111111-0000-0000-0000-000000000001"),
		img + "namespaces/shop/core/events.yaml":                          "---\napiVersion: v1\nitems: []\nkind: EventList\n",
		img + "namespaces/shop/apps/deployments.yaml":                     "---\napiVersion: apps/v1\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: web\n    namespace: shop\nkind: DeploymentList\n",
		img + "namespaces/shop/pods/web-1/app/app/logs/rotated/0.log.gz":  "",
		img + "namespaces/shop/pods/web-1/app/app/logs/rotated/notes.txt": "",
		img + "monitoring/prometheus/status/tsdb.json":                    "{}",
		img + "web_hooks/validating/x.yaml":                               "{}",
		"notes/customer-notes.txt":                                        "hello",
		"notes/screenshots/a.png":                                         "png",
		"README.txt":                                                      "hi",
	})
	g, err := LoadWith(context.Background(), top, Options{Needs: &model.Needs{Decode: []model.Kind{model.PersistentVolumes}}})
	if err != nil {
		t.Fatal(err)
	}
	c := g.Coverage
	// A rotated container log is a container log; the note beside it is
	// recognised and not used.
	wantUsed := []model.FileCount{{What: "pod lists", Files: 1}, {What: "event lists", Files: 1}, {What: "other object lists", Files: 1},
		{What: "container logs", Files: 1}, {What: "timestamp files", Files: 2}}
	if diff := cmp.Diff(wantUsed, c.Used); diff != "" {
		t.Errorf("used (-want +got):\n%s", diff)
	}
	wantUnused := []model.FileCount{
		{What: "must-gather.local.7/(files beside the gather root)", Files: 1},
		{What: img + "monitoring/", Files: 1},
		{What: img + "namespaces/*/pods/", Files: 1},
		{What: img + "web_hooks/", Files: 1},
	}
	if diff := cmp.Diff(wantUnused, c.Unused); diff != "" {
		t.Errorf("recognised, not used (-want +got):\n%s", diff)
	}
	wantUnplaced := []model.FileCount{{What: "(files at the top of the input)", Files: 1}, {What: "notes/", Files: 1}, {What: "notes/screenshots/", Files: 1}}
	if diff := cmp.Diff(wantUnplaced, c.Unplaced); diff != "" {
		t.Errorf("not placed (-want +got):\n%s", diff)
	}
	wantKinds := []model.KindCoverage{
		{Kind: "deployments.apps", State: model.KindGathered, Objects: 1, Namespaces: 1},
		{Kind: "events", State: model.KindGathered, Objects: 0, Namespaces: 1, Used: true},
		{Kind: "nodes", State: model.KindNotGathered, Used: true},
		{Kind: "persistentvolumes", State: model.KindNotGathered, Used: true},
		{Kind: "pods", State: model.KindGathered, Objects: 1, Namespaces: 1, Used: true},
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
	if len(out) != MaxCoverageFolders+1 || out[MaxCoverageFolders] != (model.FileCount{What: "… 5 more folders", Files: 10}) {
		t.Errorf("got %d entries, last %+v", len(out), out[len(out)-1])
	}
}

func TestNothingAnalysable(t *testing.T) {
	random := t.TempDir()
	writeTree(t, random, map[string]string{
		"notes.txt":           "customer says the cluster is slow",
		"screens/one.png":     "\x89PNG\r\n",
		"screens/two.png":     "\x89PNG\r\n",
		"data/export/x.csv":   "a,b\n1,2\n",
		"data/export/y/z.bin": "\x00\x01",
	})
	// A gather root with nothing in it that can be read: a namespace folder
	// of unrelated text and a pods.yaml that is not YAML.
	hollow := t.TempDir()
	writeTree(t, hollow, map[string]string{
		"must-gather.local.3/img-sha256-ddd/namespaces/shop/README.txt":     "not an object",
		"must-gather.local.3/img-sha256-ddd/namespaces/shop/core/pods.yaml": "\x00\x01\x02 not yaml: [",
	})
	tests := []struct {
		name  string
		input string
		want  []string // in the message
	}{
		{"folder of random files", random, []string{"nothing analysable in 5 files read", "data/export/ (2)", "screens/ (2)"}},
		{"empty archive", tarGz(t, nil, nil), []string{"nothing analysable in 0 files read"}},
		{"tarball of unrelated text", tarGz(t, []string{"logs/app.log", "logs/db.log", "README"}, func(n string) string { return "2026-11-20 started " + n + "\n" }),
			[]string{"nothing analysable in 3 files read", "logs/ (2)"}},
		{"gather root with nothing readable", hollow, []string{"recognised inspect at \"must-gather.local.3/img-sha256-ddd/\"", "problem: must-gather.local.3/img-sha256-ddd/namespaces/shop/core/pods.yaml"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := Load(context.Background(), tt.input)
			var nothing *NothingError
			if !errors.As(err, &nothing) || !errors.Is(err, ErrNoGather) || g != nil {
				t.Fatalf("want a *NothingError and no gather, got %v (gather %v)", err, g != nil)
			}
			msg := err.Error()
			for _, w := range append(tt.want, KnownLayouts...) {
				if !strings.Contains(msg, w) {
					t.Errorf("message lacks %q:\n%s", w, msg)
				}
			}
		})
	}
}

// An input with only node journals is analysable: the report says what it had.
func TestOnlyJournalsIsAnalysable(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"sosreport-w0/hostname": "w0\n",
		"sosreport-w0/sos_commands/logs/journalctl_--no-pager_--unit_kubelet": "Nov 20 08:45:05.394575 w0 kubenswrapper[2201]: E1120 08:45:05.394501    2201 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"connection refused\" node=\"w0\"\n",
	})
	g, err := Load(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if g.Coverage.JournalLines != 1 || len(g.Pods) != 0 {
		t.Errorf("journal lines %d, pods %d", g.Coverage.JournalLines, len(g.Pods))
	}
	if k := kindState(g.Coverage, "pods"); k != model.KindNotGathered {
		t.Errorf("pods: %q, want %q", k, model.KindNotGathered)
	}
}

func kindState(c model.InputCoverage, kind string) string {
	for _, k := range c.Kinds {
		if k.Kind == kind {
			return k.State
		}
	}
	return ""
}

// FuzzCoverageFolders feeds member paths (hostile: any bytes, any depth) to
// the coverage counting: it must not panic, every member is counted once,
// and no folder name is longer than the path it came from.
func FuzzCoverageFolders(f *testing.F) {
	for _, s := range []string{"a/b/c.txt", "mg/img-sha256-1/namespaces/ns/pods/p/x.log", "sos/sos_commands/crio/crictl_pods", "x", "/", "//..//", "a/../../b", "\x00/\xff/k"} {
		f.Add(s, "mg/img-sha256-1/")
	}
	f.Fuzz(func(t *testing.T, p, root string) {
		b := newBuilder("in")
		b.countMember(p, classified{Kind: kindOther})
		unused, unplaced := b.placeOthers([]string{root})
		n := 0
		for k, v := range unused {
			n += v
			if len(k) > len(p)+len(root)+len("(files beside the gather root)")+2 {
				t.Errorf("folder %q longer than its path %q", k, p)
			}
		}
		for _, v := range unplaced {
			n += v
		}
		if n != 1 {
			t.Errorf("%q counted %d times", p, n)
		}
	})
}

func TestEveryMemberKindHasACoverageLabel(t *testing.T) {
	labelled := map[fileKind]bool{}
	for _, u := range usedLabels {
		labelled[u.kind] = true
	}
	for _, r := range pathRules {
		if !labelled[r.kind] {
			t.Errorf("member kind %d (path rule %s) has no label in usedLabels: its files would count as \"other files read\"", r.kind, r.re)
		}
	}
	// Kinds given by content or by the readers of other layouts (bundles.go),
	// not by a path rule; kindInstall's members are counted by their reader.
	for k := kindOther + 1; k < kindInstall; k++ {
		if !labelled[k] {
			t.Errorf("member kind %d has no label in usedLabels", k)
		}
	}
}

// Journals recognised by their content count as read, not as unused files of
// their folder.
func TestCoverageCountsJournalsFoundByContent(t *testing.T) {
	g := loadFixture(t, "journals/mg-odf-ceph-journals")
	used := map[string]int{}
	for _, u := range g.Coverage.Used {
		used[u.What] = u.Files
	}
	if used["node journals (found by content)"] != 2 {
		t.Errorf("Used = %+v, want 2 node journals found by content", g.Coverage.Used)
	}
	for _, u := range append(g.Coverage.Unused, g.Coverage.Unplaced...) {
		if strings.Contains(u.What, "journal_") {
			t.Errorf("a journal folder is counted as not read: %+v", u)
		}
	}
}
