//go:build e2e

// The browser test: `make e2e` (go test -tags e2e -run E2E ./cmd/analyze).
// It writes the sample report, opens report.html from disk in headless
// Chromium with networking off, checks from the dumped DOM that the findings
// render, that filters and the pod detail work from the URL, that no script
// error was logged and that the page started no network request, and saves
// screenshots under $E2E_OUT.

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mgtriage/mgtriage/report"
)

// findChromium returns the Chromium binary: $CHROMIUM, or the first of the
// usual names on PATH.
func findChromium(t *testing.T) string {
	if c := os.Getenv("CHROMIUM"); c != "" {
		return c
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("e2e: no Chromium found (install Debian's chromium, or set CHROMIUM); `make e2e` installs it with apt-get")
	return ""
}

// browserRun is one headless Chromium run: what it printed, its log and the
// requests it started.
type browserRun struct {
	stdout, log string
	requests    []netRequest
}

type netRequest struct {
	URL, Initiator, IsolationKey string
}

// browse opens target in a fresh profile with every network path closed: a
// proxy that points nowhere, host resolution off, background services off.
func browse(t *testing.T, bin, target string, extra ...string) browserRun {
	t.Helper()
	dir := t.TempDir()
	netlog := filepath.Join(dir, "netlog.json")
	args := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--no-default-browser-check",
		"--user-data-dir=" + filepath.Join(dir, "profile"),
		"--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND",
		"--enable-logging=stderr", "--v=0", "--log-net-log=" + netlog,
	}
	args = append(append(args, extra...), target)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %s: %v\n%s", target, err, tail(stderr.String(), 2000))
	}
	return browserRun{stdout: stdout.String(), log: stderr.String(), requests: readNetLog(t, netlog)}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// readNetLog returns the URL requests a net log records as started.
func readNetLog(t *testing.T, path string) []netRequest {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("net log: %v", err)
	}
	var log struct {
		Constants struct {
			LogEventTypes map[string]int `json:"logEventTypes"`
		} `json:"constants"`
		Events []struct {
			Type   int `json:"type"`
			Params struct {
				URL          string `json:"url"`
				Initiator    string `json:"initiator"`
				IsolationKey string `json:"network_isolation_key"`
			} `json:"params"`
		} `json:"events"`
	}
	if err := json.Unmarshal(b, &log); err != nil {
		// A log cut at exit lacks its closing brackets.
		if err2 := json.Unmarshal(append(b, []byte("]}")...), &log); err2 != nil {
			t.Fatalf("net log %s: %v", path, err)
		}
	}
	start, ok := log.Constants.LogEventTypes["URL_REQUEST_START_JOB"]
	if !ok {
		t.Fatalf("net log has no URL_REQUEST_START_JOB event type")
	}
	var out []netRequest
	for _, e := range log.Events {
		if e.Type == start && e.Params.URL != "" {
			out = append(out, netRequest{e.Params.URL, e.Params.Initiator, e.Params.IsolationKey})
		}
	}
	return out
}

// pageRequests are the requests the page made (not the browser's own
// background services, whose initiator is "not an origin") to anything but
// the file itself and in-page data.
func (b browserRun) pageRequests() (page, background []string) {
	for _, r := range b.requests {
		u, err := url.Parse(r.URL)
		if err == nil && (u.Scheme == "file" || u.Scheme == "data" || u.Scheme == "blob" || u.Scheme == "about") {
			continue
		}
		if r.Initiator == "not an origin" && !strings.Contains(r.IsolationKey, "file://") {
			background = append(background, r.URL)
			continue
		}
		page = append(page, r.URL)
	}
	return page, background
}

func (b browserRun) consoleErrors() []string {
	var out []string
	for _, line := range strings.Split(b.log, "\n") {
		if strings.Contains(line, ":CONSOLE") && (strings.Contains(line, "Uncaught") || strings.Contains(line, "Error")) {
			out = append(out, line)
		}
	}
	return out
}

var (
	findingTag = regexp.MustCompile(`<details class="finding [^"]*"[^>]*>`)
	sectionTag = regexp.MustCompile(`<section id="findings"[^>]*data-shown="(\d+)"[^>]*>`)
	drawerTag  = regexp.MustCompile(`<aside class="drawer" id="pod-detail"[^>]*>`)
	// timelineTag is the Timelines section with the script's marker of what
	// the filter left visible: rows, then timelines.
	timelineTag = regexp.MustCompile(`<section id="timelines"[^>]*data-shown="(\d+)"[^>]*data-subjects="(\d+)"[^>]*>`)
)

// timelineFilterCase picks the node with the most timeline entries (its own
// and its pods') and a 30-minute window around the median of their times,
// and counts what the filter must leave: the rows of that node's timelines
// whose span meets the window, and those timelines.
func timelineFilterCase(r *report.Report) (node, from, to string, rows, subjects int) {
	times := map[string][]time.Time{}
	for _, tl := range r.Timelines {
		for _, e := range tl.Entries {
			times[tl.Node] = append(times[tl.Node], e.Time)
		}
	}
	for n, ts := range times {
		if len(ts) > len(times[node]) || (len(ts) == len(times[node]) && n < node) {
			node = n
		}
	}
	ts := times[node]
	if len(ts) == 0 {
		return "", "", "", 0, 0
	}
	slices.SortFunc(ts, time.Time.Compare)
	mid := ts[len(ts)/2].Truncate(time.Minute)
	from, to = mid.Add(-15*time.Minute).Format(time.RFC3339), mid.Add(15*time.Minute).Format(time.RFC3339)
	lo, _ := time.Parse(time.RFC3339, from)
	hi, _ := time.Parse(time.RFC3339, to)
	for _, tl := range r.Timelines {
		if tl.Node != node {
			continue
		}
		n := 0
		for _, e := range tl.Entries {
			last := e.Time
			if e.Last != nil {
				last = *e.Last
			}
			if !last.Before(lo) && !e.Time.After(hi) {
				n++
			}
		}
		if n > 0 {
			rows += n
			subjects++
		}
	}
	return node, from, to, rows, subjects
}

func TestE2EReportInChromium(t *testing.T) {
	bin := findChromium(t)
	artefacts := os.Getenv("E2E_OUT")
	if artefacts == "" {
		artefacts = t.TempDir()
	}
	artefacts, _ = filepath.Abs(artefacts)
	out := filepath.Join(artefacts, "report")
	if code, _, stderr := run(t, sampleGather, "-o", out); code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, stderr)
	}
	f, err := os.Open(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := report.ReadJSON(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	page := (&url.URL{Scheme: "file", Path: filepath.Join(out, "report.html")}).String()
	t.Logf("chromium: %s; page: %s", bin, page)

	t.Run("detector sees a remote load", func(t *testing.T) {
		canary := filepath.Join(t.TempDir(), "canary.html")
		os.WriteFile(canary, []byte(`<!DOCTYPE html><img src="http://example.invalid/x.png"><script>fetch("https://example.org/y").catch(function(){})</script>`), 0o644)
		b := browse(t, bin, "file://"+canary, "--dump-dom")
		if got, _ := b.pageRequests(); len(got) < 2 {
			t.Fatalf("the net log check missed a page's remote loads (saw %v): it cannot prove the report loads nothing", got)
		}
	})

	// The page's policy allows its own script by hash: markup that slipped
	// past escaping (here planted in a copy of the page) must not run, while
	// the page's own script still does.
	t.Run("an inline script of the gather's does not run", func(t *testing.T) {
		html, err := os.ReadFile(filepath.Join(out, "report.html"))
		if err != nil {
			t.Fatal(err)
		}
		planted := strings.Replace(string(html), "</body>", `<script>document.body.setAttribute("data-planted", "ran")</script><div onclick="x()" id="planted-handler"></div></body>`, 1)
		copyPath := filepath.Join(t.TempDir(), "report.html")
		if err := os.WriteFile(copyPath, []byte(planted), 0o644); err != nil {
			t.Fatal(err)
		}
		b := browse(t, bin, "file://"+copyPath, "--dump-dom")
		if !strings.Contains(b.stdout, `data-script="ready"`) {
			t.Fatalf("the page's own script did not run under its policy; log:\n%s", tail(b.log, 3000))
		}
		if strings.Contains(b.stdout, `data-planted="ran"`) {
			t.Errorf("a planted inline script ran: the Content-Security-Policy allows it")
		}
	})

	tests := []struct {
		name, hash string
		shown      int // findings left visible
		pod        string
	}{
		{"all findings", "", len(r.Findings), ""},
		{"severity filter", "#sev=medium", countFindings(r, "medium", ""), ""},
		{"severity and node filter", "#filter=high&node=" + url.QueryEscape(firstPodNode(r)), countFindings(r, "high", firstPodNode(r)), ""},
		{"pod detail", "#pod=" + url.QueryEscape(firstUnhealthy(r)), len(r.Findings), firstUnhealthy(r)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := browse(t, bin, page+tt.hash, "--dump-dom")
			dom := b.stdout
			if !strings.Contains(dom, `data-script="ready"`) {
				t.Fatalf("the page script did not finish; log:\n%s", tail(b.log, 3000))
			}
			tags := findingTag.FindAllString(dom, -1)
			if len(tags) != len(r.Findings) {
				t.Errorf("%d findings rendered, report.json has %d", len(tags), len(r.Findings))
			}
			hidden := 0
			for _, tag := range tags {
				if strings.Contains(tag, " hidden") {
					hidden++
				}
			}
			m := sectionTag.FindStringSubmatch(dom)
			if m == nil || m[1] != fmt.Sprint(tt.shown) || len(tags)-hidden != tt.shown {
				t.Errorf("filter %q: marker %v, %d of %d findings visible; want %d", tt.hash, m, len(tags)-hidden, len(tags), tt.shown)
			}
			drawer := drawerTag.FindString(dom)
			if tt.pod != "" {
				if !strings.Contains(drawer, `data-pod="`+tt.pod+`"`) || strings.Contains(drawer, "hidden") {
					t.Errorf("pod detail of %s not open: %s", tt.pod, drawer)
				}
				if !strings.Contains(dom, `<svg class="timeline"`) || !strings.Contains(dom, "Containers") {
					t.Errorf("pod detail lacks its timeline or containers")
				}
				if !strings.Contains(dom, "<h4>Log tail</h4>") {
					t.Errorf("pod detail lacks its log tail")
				}
			} else if !strings.Contains(drawer, "hidden") {
				t.Errorf("pod detail open without #pod: %s", drawer)
			}
			if n := strings.Count(dom, `<tr class="unhealthy"`); n != r.Summary.UnhealthyPods && n != min(r.Summary.UnhealthyPods, 200) {
				t.Errorf("pods table shows %d unhealthy rows, want %d", n, r.Summary.UnhealthyPods)
			}
			if errs := b.consoleErrors(); len(errs) > 0 {
				t.Errorf("script errors:\n%s", strings.Join(errs, "\n"))
			}
			got, background := b.pageRequests()
			if len(got) > 0 {
				t.Errorf("the page started network requests: %v", got)
			}
			if len(background) > 0 {
				t.Logf("browser background requests (not from the page; the proxy blocks them): %d", len(background))
			}
		})
	}

	// A Running pod whose container restarted is healthy by kubectl's
	// columns; a finding names it, so its panel opens with its containers,
	// log tail and the link back to the finding, not "This pod is healthy".
	t.Run("healthy pod with a finding", func(t *testing.T) {
		key := healthyNamedPod(r)
		if key == "" {
			t.Skip("the sample has no healthy pod that a finding names")
		}
		dom := browse(t, bin, page+"#pod="+url.QueryEscape(key), "--dump-dom").stdout
		for _, want := range []string{`data-pod="` + key + `"`, "<h4>Containers</h4>", "<h4>Log tail</h4>", `<pre class="logtail">`, `data-finding="finding-`} {
			if !strings.Contains(dom, want) {
				t.Errorf("panel of %s lacks %s", key, want)
			}
		}
		if strings.Contains(dom, `<p class="muted">This pod is healthy`) {
			t.Errorf("panel of %s says the pod is healthy instead of its detail", key)
		}
	})

	// The Timelines section's filter, set from the URL: a window and a node
	// leave only the rows that meet the window, in timelines of that node.
	t.Run("timeline filter", func(t *testing.T) {
		node, from, to, want, subjects := timelineFilterCase(r)
		if want == 0 {
			t.Skip("the sample has no timeline entries")
		}
		hash := "#from=" + url.QueryEscape(from) + "&to=" + url.QueryEscape(to) + "&tnode=" + url.QueryEscape(node)
		b := browse(t, bin, page+hash, "--dump-dom")
		dom := b.stdout
		if !strings.Contains(dom, `data-script="ready"`) {
			t.Fatalf("the page script did not finish; log:\n%s", tail(b.log, 3000))
		}
		m := timelineTag.FindStringSubmatch(dom)
		if m == nil {
			t.Fatalf("the Timelines section has no filter marker")
		}
		t.Logf("timeline filter %s: %d rows in %d timelines expected", hash, want, subjects)
		if m[1] != fmt.Sprint(want) || m[2] != fmt.Sprint(subjects) {
			t.Errorf("filter %s: %s rows in %s timelines shown, want %d in %d", hash, m[1], m[2], want, subjects)
		}
		for _, id := range []string{`id="tl-from"`, `id="tl-to"`, `id="tl-node"`} {
			if !strings.Contains(dom, id) {
				t.Errorf("the timeline filter lacks %s", id)
			}
		}
		if errs := b.consoleErrors(); len(errs) > 0 {
			t.Errorf("script errors:\n%s", strings.Join(errs, "\n"))
		}
		if got, _ := b.pageRequests(); len(got) > 0 {
			t.Errorf("the page started network requests: %v", got)
		}
	})

	t.Run("screenshots", func(t *testing.T) {
		shots := []struct{ file, hash, size string }{
			{"report.png", "", "1400,2600"},
			{"report-pod-detail.png", "#pod=" + url.QueryEscape(firstUnhealthy(r)), "1400,1800"},
		}
		for _, s := range shots {
			path := filepath.Join(artefacts, s.file)
			b := browse(t, bin, page+s.hash, "--screenshot="+path, "--window-size="+s.size, "--hide-scrollbars")
			if fi, err := os.Stat(path); err != nil || fi.Size() < 10000 {
				t.Errorf("screenshot %s not written: %v", path, err)
			}
			if got, _ := b.pageRequests(); len(got) > 0 {
				t.Errorf("the page started network requests: %v", got)
			}
			fmt.Printf("e2e screenshot: %s\n", path)
		}
	})
}

func countFindings(r *report.Report, sev, node string) int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity != sev {
			continue
		}
		if node == "" {
			n++
			continue
		}
		for _, o := range f.Objects {
			if o.Node == node || (o.Kind == "Node" && o.Name == node) {
				n++
				break
			}
		}
	}
	return n
}

func firstPodNode(r *report.Report) string {
	for _, f := range r.Findings {
		for _, o := range f.Objects {
			if o.Kind == "Pod" && o.Node != "" {
				return o.Node
			}
		}
	}
	return ""
}

// firstUnhealthy is the first unhealthy pod a finding names (it has a detail).
func firstUnhealthy(r *report.Report) string {
	for _, f := range r.Findings {
		for _, o := range f.Objects {
			if o.Kind == "Pod" {
				return o.Namespace + "/" + o.Name
			}
		}
	}
	return ""
}

// healthyNamedPod returns "namespace/name" of a healthy pod with a log tail
// that a finding names, or "".
func healthyNamedPod(r *report.Report) string {
	named := map[string]bool{}
	for _, f := range r.Findings {
		for _, o := range f.Objects {
			if o.Kind == "Pod" {
				named[o.Namespace+"/"+o.Name] = true
			}
		}
	}
	for _, p := range r.Pods {
		key := p.Namespace + "/" + p.Name
		if !p.Healthy || !named[key] {
			continue
		}
		for _, l := range p.Logs {
			if len(l.Tail) > 0 {
				return key
			}
		}
	}
	return ""
}
