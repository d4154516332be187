package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/report"
)

// phantomGather writes a must-gather whose pods.yaml holds a pod with no
// metadata (crash-looping, so that a rule would fire on it) before a real
// one, and an events.yaml of n events.
func phantomGather(t *testing.T, events int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "must-gather.local.1")
	pods := "apiVersion: v1\nitems:\n" +
		"- apiVersion: v1\n  kind: Pod\n  status:\n    phase: Running\n    containerStatuses:\n    - name: web\n      ready: false\n      restartCount: 7\n      state:\n        waiting:\n          reason: CrashLoopBackOff\n" +
		"- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: web-1\n    namespace: shop\n  spec:\n    containers:\n    - image: quay.io/shop/web:1\n      name: web\n  status:\n    phase: Running\n" +
		"- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: web-2\n    namespace: shop\n  spec:\n    containers:\n    - image: quay.io/shop/web:1\n      name: web\n  status:\n    phase: Running\n" +
		"kind: PodList\n"
	var ev strings.Builder
	ev.WriteString("apiVersion: v1\nitems:\n")
	for i := range events {
		fmt.Fprintf(&ev, "- apiVersion: v1\n  involvedObject:\n    kind: Pod\n    name: web-1\n    namespace: shop\n  kind: Event\n  lastTimestamp: \"2026-11-20T08:00:00Z\"\n  message: pulled image %d\n  metadata:\n    name: web-1.%d\n    namespace: shop\n  reason: Pulled\n  type: Normal\n", i, i)
	}
	ev.WriteString("kind: EventList\n")
	for name, body := range map[string]string{
		"timestamp":                        "2026-11-20 09:00:00.0 +0000 UTC m=+0.1\n",
		"namespaces/shop/core/pods.yaml":   pods,
		"namespaces/shop/core/events.yaml": ev.String(),
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// analyzeWith runs analyze on input with lowered limits (the loadOptions
// seam) and returns stdout, report.json, report.md and the -o folder.
func analyzeWith(t *testing.T, input string, lo loadOptions) (stdout string, rep map[string]any, md, out string) {
	t.Helper()
	out = t.TempDir()
	var so, se bytes.Buffer
	o := &analyzeOptions{IO: IOStreams{Out: &so, ErrOut: &se, NoColor: true}, Path: input, Output: out,
		Formats: []string{"md", "html", "json"}, MarkdownMaxChars: report.DefaultMarkdownMaxChars, Top: 10, loadOptions: lo}
	if err := runAnalyze(context.Background(), o); err != nil {
		t.Fatalf("analyze: %v\n%s", err, se.String())
	}
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	mdData, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	return so.String(), rep, string(mdData), out
}

// TestPhantomPodNotReported: a pods.yaml item without metadata is a gather
// problem with its line, never a pod with a finding of its own, in
// report.json and on stdout.
func TestPhantomPodNotReported(t *testing.T) {
	stdout, rep, _, _ := analyzeWith(t, phantomGather(t, 3), loadOptions{})
	var pods []string
	for _, p := range rep["pods"].([]any) {
		p := p.(map[string]any)
		pods = append(pods, fmt.Sprint(p["namespace"], "/", p["name"]))
	}
	if d := cmp.Diff([]string{"shop/web-1", "shop/web-2"}, pods); d != "" {
		t.Errorf("pods (-want +got):\n%s", d)
	}
	for _, f := range rep["findings"].([]any) {
		for _, o := range f.(map[string]any)["objects"].([]any) {
			if o.(map[string]any)["name"] == "" {
				t.Errorf("a finding on an object without a name: %v", f)
			}
		}
	}
	if strings.Contains(stdout, "pod/ ") || strings.Contains(stdout, "crashloop-back-off") {
		t.Errorf("stdout shows the phantom pod:\n%s", stdout)
	}
	var problems []string
	for _, p := range rep["problems"].([]any) {
		p := p.(map[string]any)
		problems = append(problems, fmt.Sprint(p["path"], ": ", p["error"]))
	}
	want := []string{"namespaces/shop/core/pods.yaml: item at line 3: a Pod without metadata.name and metadata.namespace: not read as a pod"}
	if d := cmp.Diff(want, problems); d != "" {
		t.Errorf("problems (-want +got):\n%s", d)
	}
}

// TestLimitsSaidWhereTheCountsAre: an events.yaml over the (lowered) file
// limit is decoded up to it, and the pods over the (lowered) pod limit are
// not read; both are said on stdout, next to the count in the summary of
// report.json and report.md, and in the coverage.
func TestLimitsSaidWhereTheCountsAre(t *testing.T) {
	const limit = 64 << 10
	stdout, rep, md, out := analyzeWith(t, phantomGather(t, 2000), loadOptions{maxObjectFile: limit, maxPods: 1})
	summary := rep["summary"].(map[string]any)
	events := int(summary["events"].(float64))
	if events == 0 || events >= 2000 {
		t.Fatalf("%d events read, want those whole within the %d-byte limit", events, limit)
	}
	wantLimits := []any{
		map[string]any{"count": "pods", "text": "pods over the 1-pod limit not read"},
		map[string]any{"count": "events", "text": "1 events file of 492 KiB read only to the 64 KiB limit"},
	}
	if d := cmp.Diff(wantLimits, summary["limits"]); d != "" {
		t.Errorf("summary.limits (-want +got):\n%s", d)
	}
	cuts := rep["gather"].(map[string]any)["coverage"].(map[string]any)["cuts"]
	wantCuts := []any{
		map[string]any{"count": "events", "path": "namespaces/shop/core/events.yaml", "read": "read in part", "text": "1 events file of 492 KiB read only to the 64 KiB limit"},
		map[string]any{"count": "pods", "path": "namespaces/shop/core/pods.yaml", "read": "read in part", "text": "pods over the 1-pod limit not read"},
	}
	if d := cmp.Diff(wantCuts, cuts); d != "" {
		t.Errorf("gather.coverage.cuts (-want +got):\n%s", d)
	}
	for _, want := range []string{
		"CUT BY A LIMIT: pods: pods over the 1-pod limit not read\n",
		"CUT BY A LIMIT: events: 1 events file of 492 KiB read only to the 64 KiB limit\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	wantMD := fmt.Sprintf("- **Pods:** 1, 1 not healthy; pods over the 1-pod limit not read; 0 nodes; %d events (0 warnings); 1 events file of 492 KiB read only to the 64 KiB limit\n", events)
	if !strings.Contains(md, wantMD) {
		t.Errorf("report.md lacks %q", wantMD)
	}
	if !strings.Contains(md, "namespaces/shop/core/events.yaml (read in part): 1 events file of 492 KiB read only to the 64 KiB limit") {
		t.Errorf("report.md's coverage does not say the cut file")
	}
	html, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("%d, 0 warnings; 1 events file of 492 KiB read only to the 64 KiB limit", events); !strings.Contains(string(html), want) {
		t.Errorf("report.html lacks %q next to the events count", want)
	}
}
