package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/report"
)

// TestSampleTimelinesGolden compares the timelines of the bundled sample's
// report.json with testdata/sample-timelines.json (refresh with -update and
// review the diff): one file that shows what the merge gives on a whole
// gather, apart from the rest of the report.
func TestSampleTimelinesGolden(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := run(t, sampleGather, "-o", out, "--format", "json"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := readReport(t, out)
	var got bytes.Buffer
	enc := json.NewEncoder(&got)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r.Timelines); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "sample-timelines.json")
	if *update {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/analyze -run SampleTimelines -update)", err)
	}
	if diff := cmp.Diff(string(want), got.String()); diff != "" {
		t.Errorf("timelines differ from %s (-want +got):\n%s", golden, diff)
	}
	// Every node of the sample, and every pod that is not healthy, has one.
	subjects := map[string]bool{}
	for _, tl := range r.Timelines {
		subjects[tl.Kind+" "+tl.Namespace+"/"+tl.Name] = true
	}
	for _, n := range r.Nodes {
		if !subjects["Node /"+n.Name] {
			t.Errorf("node %s has no timeline", n.Name)
		}
	}
	for _, p := range r.Pods {
		if !p.Healthy && !subjects["Pod "+p.Namespace+"/"+p.Name] {
			t.Errorf("unhealthy pod %s/%s has no timeline", p.Namespace, p.Name)
		}
	}
}

// TestWindowNarrowsFindings: on the sample, a window around 06:00–07:00 keeps
// the finding whose evidence lies in it (the nightly export's failed run at
// 06:33) and drops one before it (the orders restart at 05:52) and one whose
// evidence carries no time, judged by the gather time (09:12). Timelines hold
// only entries that meet the window, and every report says the window.
func TestWindowNarrowsFindings(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := run(t, sampleGather, "-o", out, "--window", "2026-11-20T06:00:00Z..2026-11-20T07:00:00Z")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := readReport(t, out)
	rules := map[string]bool{}
	for _, f := range r.Findings {
		rules[f.RuleID] = true
	}
	if !rules["container-exited-error"] {
		t.Errorf("the finding inside the window (container-exited-error at 06:33) was dropped: %v", rules)
	}
	for _, id := range []string{"container-restarted", "clusteroperator-degraded", "crashloop-back-off"} {
		if rules[id] {
			t.Errorf("finding %s lies outside the window but was kept", id)
		}
	}
	if r.Window == nil || r.Window.From == nil || r.Window.To == nil || r.Window.FindingsOutside != 18-len(r.Findings) {
		t.Fatalf("report.json window: %+v (findings kept %d of 18)", r.Window, len(r.Findings))
	}
	if r.Summary.Findings != len(r.Findings) {
		t.Errorf("summary counts %d findings, the report holds %d", r.Summary.Findings, len(r.Findings))
	}
	from, to := *r.Window.From, *r.Window.To
	entries := 0
	for _, tl := range r.Timelines {
		for _, e := range tl.Entries {
			entries++
			last := e.Time
			if e.Last != nil {
				last = *e.Last
			}
			if last.Before(from) || e.Time.After(to) {
				t.Errorf("%s %s: entry %s..%s lies outside the window", tl.Kind, tl.Name, e.Time, last)
			}
		}
	}
	if entries == 0 {
		t.Errorf("no timeline entry in the window; the nightly export's run should be there")
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	page, _ := os.ReadFile(filepath.Join(out, "report.html"))
	for name, text := range map[string]string{"report.md": string(md), "report.html": string(page), "stdout": stdout} {
		if !strings.Contains(text, "from 2026-11-20T06:00:00Z to 2026-11-20T07:00:00Z") {
			t.Errorf("%s does not say the window", name)
		}
	}
	if !strings.Contains(string(page), `value="2026-11-20T06:00:00Z"`) {
		t.Errorf("report.html's time filter does not start at the window")
	}
}

// TestWindowOpenEnd: "FROM.." keeps what happened from FROM on.
func TestWindowOpenEnd(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := run(t, sampleGather, "-o", out, "--format", "json", "--window", "2026-11-20T09:00:00Z.."); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := readReport(t, out)
	if r.Window == nil || r.Window.To != nil || !r.Window.From.Equal(time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)) {
		t.Fatalf("window %+v", r.Window)
	}
	for _, f := range r.Findings {
		if f.RuleID == "container-restarted" || f.RuleID == "container-exited-error" {
			t.Errorf("finding %s (before 07:00) kept by a window from 09:00", f.RuleID)
		}
	}
	if len(r.Findings) == 0 {
		t.Errorf("every finding dropped by a window that holds the gather time")
	}
}

// TestWindowFlagErrors: a malformed --window is a usage error (exit 64, like
// every bad flag value) said in one line, before the input is read: the
// input here does not exist, and the message is about the flag.
func TestWindowFlagErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	for _, tt := range []struct{ value, msg string }{
		{"2026-11-20T09:00:00Z", "want FROM..TO"},
		{"..", "names neither FROM nor TO"},
		{"2026-11-20 09:00..", `FROM "2026-11-20 09:00" is not an RFC 3339 time`},
		{"..2026-11-20T09:00:00", `TO "2026-11-20T09:00:00" is not an RFC 3339 time with a zone`},
		{"2026-11-20T10:00:00Z..2026-11-20T09:00:00Z", "FROM 2026-11-20T10:00:00Z is after TO 2026-11-20T09:00:00Z"},
		{"a..b..c", "want FROM..TO"},
	} {
		t.Run(tt.value, func(t *testing.T) {
			code, _, stderr := run(t, missing, "--window", tt.value)
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(stderr, "--window") || !strings.Contains(stderr, tt.msg) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr should be one line about --window naming %q, got:\n%s", tt.msg, stderr)
			}
		})
	}
	if _, err := report.ParseWindow("2026-11-20T09:00:00+02:00..2026-11-20T08:00:00Z"); err != nil {
		t.Errorf("a FROM with a zone that is before TO in UTC: %v", err)
	}
}

// A window that holds none of the findings says so where the findings
// would be, in every view, and says when it starts after the gather time:
// never a bare "No rule fired" over findings it hid.
func TestWindowAfterTheGather(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := run(t, sampleGather, "-o", out, "--window", "2030-01-01T00:00:00Z..")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	html, _ := os.ReadFile(filepath.Join(out, "report.html"))
	for name, text := range map[string]string{"stdout": stdout, "report.md": string(md), "report.html": string(html)} {
		if strings.Contains(text, "No rule fired") {
			t.Errorf("%s says no rule fired", name)
		}
		for _, w := range []string{"No finding falls in the window from 2030-01-01T00:00:00Z on", "outside it were left out", "starts after the gather time (2026-11-20T09:12:33"} {
			if !strings.Contains(text, w) {
				t.Errorf("%s lacks %q", name, w)
			}
		}
	}
}
