package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mgtriage/mgtriage/report"
)

// selfPair copies the fixture gather dir to a folder named like a real
// upload's (must-gather.local.<n>) and packs that folder into its own
// .tar.gz: one collection given twice.
func selfPair(t *testing.T, dir string) (folder, archive string) {
	t.Helper()
	folder = filepath.Join(t.TempDir(), "must-gather.local.7730291845")
	if err := os.CopyFS(folder, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	return folder, tarGz(t, folder)
}

// readDiffSet reads diff.md, diff.html and diff.json of out.
func readDiffSet(t *testing.T, out string) map[string]string {
	t.Helper()
	set := map[string]string{}
	for _, f := range []string{"diff.md", "diff.html", "diff.json"} {
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		set[f] = string(b)
	}
	return set
}

// TestDiffSelfArchive: a fixture folder against its own .tar.gz is the same
// collection in every format and on stdout, and no duration is given: the
// StatefulSet pod that restarted and is Running 1/1 (container-restarted)
// is not "failing for" anything.
func TestDiffSelfArchive(t *testing.T) {
	folder, archive := selfPair(t, changesNew)
	checkSelfDiff(t, folder, archive, "2026-11-20T15:00:00Z")
}

// TestDiffSelfArchiveCorpus: the same for the corpus metal gather, whose
// self-diff said three Running containers were "failing for at least 31m"
// (the time since their previous termination).
func TestDiffSelfArchiveCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus gather: not in -short")
	}
	folder := filepath.Join(corpusDir(t, "mg-metal-ocp49"), "must-gather-metal")
	checkSelfDiff(t, folder, tarGz(t, folder), "2021-09-14T14:43:46Z")
}

// checkSelfDiff runs `analyze diff folder archive`, one collection given
// twice, and checks that every format and stdout say the same collection and
// give no duration.
func checkSelfDiff(t *testing.T, folder, archive, collected string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := run(t, "diff", folder, archive, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "the same collection: both inputs were collected at "+collected) {
		t.Errorf("stdout does not say the same collection:\n%s", stdout)
	}
	set := readDiffSet(t, out)
	for name, text := range set {
		if !strings.Contains(text, "the same collection") {
			t.Errorf("%s does not say the same collection", name)
		}
		for _, bad := range []string{"failing for", "fired in both", "Fired in both", `"failingSeconds"`, `"since"`} {
			if strings.Contains(text, bad) {
				t.Errorf("%s holds %q: a duration that two copies of one collection cannot show", name, bad)
			}
		}
	}
	var d report.Diff
	if err := json.Unmarshal([]byte(set["diff.json"]), &d); err != nil {
		t.Fatal(err)
	}
	if !d.SameCollection || d.IntervalSeconds != 0 || d.Summary.StillFailing == 0 || d.Summary.New+d.Summary.Resolved+d.Summary.Changed != 0 {
		t.Errorf("same collection %v, interval %ds, summary %+v", d.SameCollection, d.IntervalSeconds, d.Summary)
	}
}

// TestDiffRedactOneMap: `diff --redact --redact-map` redacts both gathers
// with one map, and no original value (key) of that map is in any format
// nor on stdout: for a self-diff (a folder and its own archive) and for a
// pair six hours apart.
func TestDiffRedactOneMap(t *testing.T) {
	folder, archive := selfPair(t, changesNew)
	for _, c := range []struct{ name, old, cur string }{
		{"self", folder, archive},
		{"changes", changesOld, changesNew},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			out, mapFile := filepath.Join(dir, "out"), filepath.Join(dir, "map.json")
			code, stdout, stderr := run(t, "diff", "--redact", "--redact-map", mapFile, c.old, c.cur, "-o", out)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			b, err := os.ReadFile(mapFile)
			if err != nil {
				t.Fatal(err)
			}
			var mapping map[string]string
			if err := json.Unmarshal(b, &mapping); err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{c.old, c.cur, "worker-2", "master-0"} {
				if _, ok := mapping[want]; !ok {
					t.Errorf("the map lacks %q: %v", want, mapping)
				}
			}
			if c.name == "self" && mapping["must-gather.local.7730291845"] == "" {
				t.Errorf("the archive's folder is not in the map: %v", mapping)
			}
			set := readDiffSet(t, out)
			set["stdout"] = stdout
			for name, text := range set {
				for k := range mapping {
					if strings.Contains(text, k) {
						t.Errorf("%s holds %q, a key of the redaction map", name, k)
					}
				}
			}
			var d report.Diff
			if err := json.Unmarshal([]byte(set["diff.json"]), &d); err != nil {
				t.Fatal(err)
			}
			if d.Old.Path != mapping[c.old] || d.New.Path != mapping[c.cur] || d.Old.Path == d.New.Path {
				t.Errorf("paths %q and %q, want the placeholders of %q and %q", d.Old.Path, d.New.Path, c.old, c.cur)
			}
		})
	}
	if code, _, stderr := run(t, "diff", "--redact-map", filepath.Join(t.TempDir(), "m.json"), changesOld, changesNew, "-o", t.TempDir()); code != exitUsage || !strings.Contains(stderr, "--redact-map needs --redact") {
		t.Errorf("--redact-map without --redact: exit %d, %s", code, stderr)
	}
}
