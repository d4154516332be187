package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mgtriage/mgtriage/report"
)

// TestAskCorpus analyses every gather of the shared corpus and checks that
// every gap that blocks a finding (a missing-evidence line saying something
// is not in the gather, or a container log absent from it) or a gather
// health check has a command in report.json's ask, and that a gather of a
// cluster that is not OpenShift is never asked for with oc. Skipped under
// -short and when the corpus is absent.
func TestAskCorpus(t *testing.T) {
	eachCorpusGather(t, askCorpusReport)
}

// eachCorpusGather runs check on every gather of the shared corpus as a
// subtest, and on each part alone of a gather refused as one input (parts
// of several clusters); check returns false when the input gave no
// report. It skips under -short and when the corpus is absent, saying so.
func eachCorpusGather(t *testing.T, check func(t *testing.T, dir string) bool) {
	t.Helper()
	if testing.Short() {
		t.Skip("corpus gathers: not in -short")
	}
	entries, err := os.ReadDir(corpusRoot)
	if err != nil {
		t.Skipf("corpus absent: %v", err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(corpusRoot, e.Name())
		t.Run(e.Name(), func(t *testing.T) {
			if check(t, dir) {
				return
			}
			// Refused (gathers of several clusters): each part alone.
			parts, _ := os.ReadDir(dir)
			for _, p := range parts {
				if p.IsDir() {
					t.Run(p.Name(), func(t *testing.T) {
						if !check(t, filepath.Join(dir, p.Name())) {
							t.Skip("no report")
						}
					})
				}
			}
		})
	}
}

// askCorpusReport analyses dir and checks its report's asks; false when
// no report was written.
func askCorpusReport(t *testing.T, dir string) bool {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := run(t, dir, "-o", out, "--format", "json")
	f, err := os.Open(filepath.Join(out, "report.json"))
	if err != nil {
		t.Logf("no report (exit %d): %s", code, stderr)
		return false
	}
	defer f.Close()
	r, err := report.ReadJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	checkAsks(t, r)
	return true
}

func checkAsks(t *testing.T, r *report.Report) {
	t.Helper()
	blocked := map[string]bool{}
	for _, a := range r.Ask {
		for _, b := range a.Blocks {
			blocked[b] = true
		}
		if r.Gather.Distribution != "OpenShift" && (strings.HasPrefix(a.Command, "oc ") || strings.Contains(a.Command, " oc ")) {
			t.Errorf("%s cluster asked with oc: %s", r.Gather.Distribution, a.Command)
		}
	}
	for _, f := range r.Findings {
		gap := ""
		for _, m := range f.Missing {
			if strings.Contains(m, "not in the gather") || strings.Contains(m, "absent or empty in the gather") {
				gap = m
			}
		}
		if gap == "" {
			continue
		}
		handle := "finding:" + f.RuleID + ":" + askSubject(f.Objects)
		if !blocked[handle] {
			t.Errorf("finding %s lacks %q and no ask unblocks it", handle, gap)
		}
	}
	for _, h := range []struct {
		handle string
		list   []string
	}{
		{"health:nodesWithoutLogs", r.Gather.Health.NodesWithoutLogs},
		{"health:podsWithoutLogs", r.Gather.Health.PodsWithoutLogs},
		{"health:namespacesWithoutPods", r.Gather.Health.NamespacesWithoutPods},
	} {
		for _, subject := range h.list {
			if strings.HasPrefix(subject, "… and ") {
				continue
			}
			name := subject[strings.LastIndex(subject, "/")+1:]
			found := false
			for _, a := range r.Ask {
				for _, b := range a.Blocks {
					found = found || b == h.handle && (strings.Contains(a.Command, name) || strings.Contains(a.On, name))
				}
			}
			if !found {
				t.Errorf("%s %s: no ask collects it", h.handle, subject)
			}
		}
	}
	t.Logf("%d asks", len(r.Ask))
}

// askSubject is a finding's first object as report.Ask's blocks name it.
func askSubject(objs []report.Object) string {
	if len(objs) == 0 {
		return ""
	}
	o := objs[0]
	s := o.Name
	if o.Namespace != "" {
		s = o.Namespace + "/" + o.Name
	}
	if !strings.HasPrefix(o.Kind, "Pod") {
		s = strings.ToLower(o.Kind) + "/" + s
	}
	return s
}
