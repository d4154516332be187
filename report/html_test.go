package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func writeHTML(t *testing.T, r *Report) string {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteHTML(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

var (
	hrefAttr   = regexp.MustCompile(`(?i)\bhref\s*=\s*"([^"]*)"`)
	anchorTag  = regexp.MustCompile(`(?i)<a\s[^>]*>`)
	podDataTag = regexp.MustCompile(`(?s)<script type="application/json" id="pod-data">(.*?)</script>`)
	detailTag  = regexp.MustCompile(`(?s)<script type="application/json" id="pod-detail-data">(.*?)</script>`)
	jsonData   = regexp.MustCompile(`(?s)(<script type="application/json" id="[a-z-]+">)(.*?)(</script>)`)
)

// withoutData returns the page with the bodies of its JSON data elements
// emptied, after checking that none holds a character that could end the
// element or start markup.
func withoutData(t *testing.T, page string) string {
	t.Helper()
	return jsonData.ReplaceAllStringFunc(page, func(m string) string {
		parts := jsonData.FindStringSubmatch(m)
		if strings.ContainsAny(parts[2], "<>&") {
			t.Errorf("JSON data element holds a raw <, > or &: %.200s", parts[2])
		}
		return parts[1] + parts[3]
	})
}

// TestHTMLLoadsNothing checks that the page names no resource to load: no
// src, no stylesheet link, no @import or url(), and that its only links are
// in-page anchors and the http(s) docs links, opened without a referrer.
func TestHTMLLoadsNothing(t *testing.T) {
	out := withoutData(t, render(t, func(b *bytes.Buffer, r *Report) error { return WriteHTML(b, r) }))
	lower := strings.ToLower(out)
	for _, bad := range []string{"src=", "<link", "@import", "url(", "<iframe", "<object", "<embed", "<img", "<base", "<form", "javascript:alert(1)\""} {
		if strings.Contains(lower, bad) {
			t.Errorf("HTML contains %q", bad)
		}
	}
	checkHTMLContentSecurityPolicy(t, out)
	docs := map[string]bool{}
	for _, f := range loadReport(t).Findings {
		for _, d := range f.Docs {
			docs[d] = true
		}
	}
	external := 0
	for _, m := range hrefAttr.FindAllStringSubmatch(out, -1) {
		href := m[1]
		switch {
		case strings.HasPrefix(href, "#"):
		case docs[href] && strings.HasPrefix(href, "https://"):
			external++
		default:
			t.Errorf("unexpected href %q", href)
		}
	}
	if external != 2 {
		t.Errorf("found %d docs links, want 2", external)
	}
	for _, a := range anchorTag.FindAllString(out, -1) {
		if strings.Contains(a, `href="http`) && !strings.Contains(a, `rel="noopener noreferrer"`) {
			t.Errorf("external link without rel=noopener noreferrer: %s", a)
		}
	}
}

func TestHTMLEscapesGatherStrings(t *testing.T) {
	out := render(t, func(b *bytes.Buffer, r *Report) error { return WriteHTML(b, r) })
	for _, bad := range []string{"<script>alert(1)", "</pre><b>", "\x1b", "\a", "\u202e", `href="javascript`, "<b>bold"} {
		if strings.Contains(out, bad) {
			t.Errorf("HTML contains %q", bad)
		}
	}
	for _, want := range []string{
		"&lt;script&gt;alert(1)&lt;/script&gt;",
		"<code>javascript:alert(1)</code>",
		"<td>web-7d9f|`x`</td>",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
}

// TestHTMLPodData checks the JSON rows of the pods table, with a pod name that
// tries to close the script element.
func TestHTMLPodData(t *testing.T) {
	r := loadReport(t)
	r.Pods[0].Name = "</script><script>alert(1)</script><!--"
	out := writeHTML(t, r)
	if n := strings.Count(strings.ToLower(out), "</script"); n != 3 {
		t.Fatalf("found %d </script, want 3 (the rows, the details and the code)", n)
	}
	m := podDataTag.FindStringSubmatch(out)
	if m == nil {
		t.Fatal("no pod-data script element")
	}
	var rows [][]string
	if err := json.Unmarshal([]byte(m[1]), &rows); err != nil {
		t.Fatalf("pod data is not JSON: %v\n%s", err, m[1])
	}
	want := [][]string{
		{"openshift-dns", "</script><script>alert(1)</script><!--", "2/2", "Running", "0", "12d", "", "worker-0", "0", ""},
		{"shop", "web-7d9f|`x`", "0/1", "CrashLoopBackOff", "12 (2m ago)", "3h", "ContainersReady: ContainersNotReady", "worker-0", "1", "0"},
		{"shop", "api-5c6b9d-xk2pq", "0/1", "ImagePullBackOff", "0", "47m", "ContainersReady: ContainersNotReady", "worker-1", "1", "1"},
		{"shop", "report-28577520-abcde", "0/1", "Completed", "0", "2d", "", "worker-1", "0", ""},
		{"batch", "loader-0", "0/1", "Pending", "0", "5m", "PodScheduled", "", "1", "2"},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("pod rows (-want +got):\n%s", diff)
	}
}

// TestHTMLLargeReport renders 20,000 pods, a third of them unhealthy with
// events and node-log lines: the page holds only the first page of unhealthy
// pods as HTML, every pod in the JSON rows, and pod details within budget.
func TestHTMLLargeReport(t *testing.T) {
	r := &Report{SchemaVersion: SchemaVersion}
	for i := range 20000 {
		p := Pod{Namespace: "ns", Name: fmt.Sprintf("pod-%05d", i), Ready: "1/1", Status: "Running",
			Restarts: "0", Age: "1d", Node: "worker", Healthy: i%3 != 0}
		if !p.Healthy {
			p.Stage, p.StageReason, p.StageMessage = "ContainersReady", "ContainersNotReady", "containers with unready status: [app]"
			p.Containers = []Container{{Name: "app", Kind: "app", State: "waiting", Reason: "CrashLoopBackOff", RestartCount: 9, BackOff: "5m0s"}}
			for j := range 12 {
				p.Events = append(p.Events, PodEvent{Type: "Warning", Reason: "BackOff", Count: j + 1, Path: "namespaces/ns/core/events.yaml", Line: j,
					Message: "Back-off restarting failed container app in pod " + p.Name + strings.Repeat(" detail", 20)})
			}
			p.NodeLog = []LogGroup{{Class: "crash-loop", Unit: "kubelet", Count: 40, Path: "host_service_logs/masters/kubelet_service.log", Line: i, Text: strings.Repeat("kubelet line ", 20)}}
			tl := Timeline{Kind: "Pod", Namespace: p.Namespace, Name: p.Name, Node: p.Node}
			for _, e := range p.Events {
				tl.Entries = append(tl.Entries, TimelineEntry{Time: time.Date(2026, 11, 20, 9, 0, e.Line, 0, time.UTC), Source: "event", Level: "warning",
					What: "Warning BackOff: " + e.Message, Count: e.Count, Path: e.Path, Line: e.Line})
			}
			r.Timelines = append(r.Timelines, tl)
		}
		r.Pods = append(r.Pods, p)
	}
	out := writeHTML(t, r)
	body := out[strings.Index(out, `<tbody id="pod-body">`):]
	body = body[:strings.Index(body, "</tbody>")]
	if n := strings.Count(body, "<tr"); n != htmlPageSize {
		t.Errorf("first page has %d rows, want %d", n, htmlPageSize)
	}
	if strings.Contains(body, "pod-00001") || !strings.Contains(body, "pod-00000") {
		t.Errorf("first page is not the first unhealthy pods")
	}
	if n := strings.Count(podDataTag.FindString(out), `["ns",`); n != 20000 {
		t.Errorf("pod data holds %d rows, want 20000", n)
	}
	detail := detailTag.FindStringSubmatch(out)[1]
	if len(detail) > htmlDetailBudget*11/10 {
		t.Errorf("pod details take %d bytes, over the budget of %d", len(detail), htmlDetailBudget)
	}
	var details []podDetail
	if err := json.Unmarshal([]byte(detail), &details); err != nil || len(details) < 500 || len(details) >= 6667 {
		t.Errorf("%d pod details (%v): want the budget to hold some, not all", len(details), err)
	}
	t.Logf("20,000 pods: page %d KiB, pod details %d KiB for %d of 6667 unhealthy pods", len(out)/1024, len(detail)/1024, len(details))
}

func TestHTMLEmptyReport(t *testing.T) {
	out := writeHTML(t, &Report{})
	for _, want := range []string{"No rule fired.", "No nodes in the gather.", "None: every file of the gather was read.", `id="pod-data">[]</script>`, `id="pod-detail-data">[]</script>`} {
		if !strings.Contains(out, want) {
			t.Errorf("empty report lacks %q", want)
		}
	}
}

// TestHTMLPodDetails checks the embedded pod details: unhealthy pods only,
// those named by findings first, strings cleaned, findings linked.
func TestHTMLPodDetails(t *testing.T) {
	out := writeHTML(t, loadReport(t))
	m := detailTag.FindStringSubmatch(out)
	if m == nil {
		t.Fatal("no pod-detail-data element")
	}
	var details []podDetail
	if err := json.Unmarshal([]byte(m[1]), &details); err != nil {
		t.Fatalf("pod details are not JSON: %v", err)
	}
	var keys []string
	for _, d := range details {
		keys = append(keys, d.Key)
	}
	if diff := cmp.Diff([]string{"shop/web-7d9f|`x`", "shop/api-5c6b9d-xk2pq", "batch/loader-0"}, keys); diff != "" {
		t.Errorf("detail order (-want +got):\n%s", diff)
	}
	web := details[0]
	if len(web.Findings) != 1 || web.Findings[0].Anchor != "finding-1" || len(details[1].Findings) != 2 {
		t.Errorf("findings of the pods: %+v / %+v", web.Findings, details[1].Findings)
	}
	// The panel's timeline is the pod's timelines[] entry, not a second merge.
	if len(web.Timeline) != 4 || web.TimelineMore != 2 || web.NoTimeline || web.Timeline[1].Last != "2024-05-01T09:59:00Z" ||
		web.Timeline[1].Cite != "namespaces/shop/core/events.yaml:412" || web.Timeline[1].Source != "event" || web.Timeline[1].Level != "warning" {
		t.Errorf("timeline: %+v omitted %d", web.Timeline, web.TimelineMore)
	}
	if api := details[1]; !api.NoTimeline || len(api.Timeline) != 0 {
		t.Errorf("a pod without a timeline in the report: %+v", api)
	}
	c := web.Containers[0]
	if c.LastExit != "137 (signal 9): SIGKILL (OOM killer or kubelet)" || c.BackOff != "5m0s" || c.NextRestart == "" || len(c.Probes) != 1 {
		t.Errorf("container: %+v", c)
	}
	for _, s := range []string{m[1], out} {
		if strings.ContainsAny(s, "\x1b\a") || strings.Contains(s, "pwned\u0007") {
			t.Errorf("details hold control characters")
		}
	}
}

// TestHTMLDetailBounds gives a pod more timeline entries and text than a
// detail holds.
func TestHTMLDetailBounds(t *testing.T) {
	p := Pod{Namespace: "ns", Name: "p", Status: "CrashLoopBackOff", StageMessage: strings.Repeat("m", 100000)}
	tl := Timeline{Kind: "Pod", Namespace: "ns", Name: "p", Omitted: 7}
	base := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	for i := range 180 {
		tl.Entries = append(tl.Entries, TimelineEntry{Time: base.Add(time.Duration(i) * time.Second), Source: "event", Level: "warning",
			What: fmt.Sprint("R", i, " ", strings.Repeat("x", 5000)), Count: 1})
	}
	d := newPodDetail(&p, nil, &tl)
	if len(d.Timeline) != htmlDetailTimeline || d.TimelineMore != 180-htmlDetailTimeline+7 || !strings.HasPrefix(d.Timeline[0].What, "R80 ") {
		t.Errorf("timeline: %d kept (first %.4s), %d omitted", len(d.Timeline), d.Timeline[0].What, d.TimelineMore)
	}
	if n := len([]rune(d.Timeline[0].What)); n != htmlDetailTextRunes {
		t.Errorf("timeline text has %d runes", n)
	}
	if n := len([]rune(d.StageMessage)); n != htmlDetailTextRunes {
		t.Errorf("stage message has %d runes", n)
	}
}

func TestHTMLManyNodes(t *testing.T) {
	r := &Report{}
	for i := range 30 {
		r.Nodes = append(r.Nodes, Node{Name: fmt.Sprintf("worker-%02d", i), Ready: "True"})
	}
	r.Nodes[3].Ready = "False"
	r.Nodes[7].Log = []LogGroup{{Class: "pleg", Unit: "kubelet", Count: 3, Text: "PLEG is not healthy"}}
	out := writeHTML(t, r)
	main, hidden, _ := strings.Cut(out, "28 more nodes are Ready with no other condition")
	if hidden == "" {
		t.Fatal("healthy nodes not collapsed")
	}
	if !strings.Contains(main, "worker-03") || !strings.Contains(main, "worker-07") || strings.Contains(main, "worker-00") {
		t.Errorf("the first table should hold only worker-03 and worker-07")
	}
	if !strings.Contains(hidden, "worker-00") {
		t.Errorf("the collapsed table lacks the healthy nodes")
	}
}

func TestHTMLEvidenceBounded(t *testing.T) {
	r := loadReport(t)
	f := &r.Findings[0]
	for i := range 40 {
		f.Evidence = append(f.Evidence, Evidence{Path: "p", Line: i + 1, Kind: "event", Text: strings.Repeat("y", 10000)})
	}
	out := writeHTML(t, r)
	if !strings.Contains(out, "Evidence (25 of 43)") || !strings.Contains(out, "18 more evidence lines are in report.json.") {
		t.Errorf("evidence rows not bounded")
	}
	if strings.Contains(out, strings.Repeat("y", htmlEvidenceRunes+1)) || !strings.Contains(out, "[cut; the whole text is in report.json]") {
		t.Errorf("evidence text not cut")
	}
}

// TestHTMLExplainsPlural: a node finding that explains one pod finding says
// "1 pod finding", not "1 pod finding(s)".
func TestHTMLExplainsPlural(t *testing.T) {
	out := render(t, func(b *bytes.Buffer, r *Report) error { return WriteHTML(b, r) })
	if !strings.Contains(out, "<dd>1 pod finding on this node:") || strings.Contains(out, "finding(s)") {
		t.Errorf("the Explains field does not say \"1 pod finding on this node\"")
	}
}

// TestHTMLTimelines: the Timelines section holds one table per subject with
// entries, rows carrying their times for the filter, the filter's controls
// (from, to, node), gather strings escaped, and the window as the filter's
// start when the report has one.
func TestHTMLTimelines(t *testing.T) {
	r := loadReport(t)
	out := writeHTML(t, r)
	for _, want := range []string{
		`<section id="timelines" class="card">`, `id="timeline-controls" hidden`, `<input type="text" id="tl-from"`, `<input type="text" id="tl-to"`,
		`<select id="tl-node" aria-label="Node">`, `<option value="worker-0">worker-0</option>`, `id="tl-clear"`,
		`<details class="timeline" id="timeline-1" data-kind="Node" data-node="worker-0">`,
		`<details class="timeline" id="timeline-2" data-kind="Pod" data-node="worker-0">`,
		`<tr data-t="2024-05-01T07:30:00Z" data-t2="2024-05-01T09:59:00Z">`,
		`&lt;svg onload=alert(1)&gt;`, `2 older entries are not shown (see report.json).`, `1 node or pod has no timed entry.`,
		`<a href="#timelines">Timelines (2)</a>`, `value=""`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("HTML lacks %s", want)
		}
	}
	section := out[strings.Index(out, `<section id="timelines"`):]
	section = section[:strings.Index(section, "</section>")]
	if n := strings.Count(section, "<tr data-t="); n != 6 {
		t.Errorf("%d timeline rows, want 6", n)
	}
	if strings.Contains(section, "<svg onload") || strings.Contains(section, "<script") || strings.Contains(section, "\x1b") {
		t.Errorf("the Timelines section holds unescaped gather strings")
	}
	from := time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC)
	r.Window = &Window{From: &from, FindingsOutside: 2}
	out = writeHTML(t, r)
	for _, want := range []string{`id="tl-from" placeholder="2026-11-20T09:00:00Z" value="2024-05-01T09:00:00Z"`, "from 2024-05-01T09:00:00Z on (2 findings outside it left out", "window 2024-05-01T09:00:00Z.."} {
		if !strings.Contains(out, want) {
			t.Errorf("HTML with a window lacks %s", want)
		}
	}
}

// TestHTMLContentSecurityPolicy: the page allows no inline script or style
// but its own, by hash; each hash is that of the element the page holds, and
// the page has exactly one executable script (the others are JSON data
// blocks, which a policy does not run).
func TestHTMLContentSecurityPolicy(t *testing.T) {
	checkHTMLContentSecurityPolicy(t, render(t, func(b *bytes.Buffer, r *Report) error { return WriteHTML(b, r) }))
}

// checkHTMLContentSecurityPolicy checks page's policy: the one style
// element and the executable script, when the page has one, allowed by
// their hashes; nothing else.
func checkHTMLContentSecurityPolicy(t *testing.T, page string) {
	t.Helper()
	meta := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindAllStringSubmatch(page, -1)
	if len(meta) != 1 {
		t.Fatalf("want one Content-Security-Policy meta tag, found %d", len(meta))
	}
	policy := map[string][]string{}
	for _, d := range strings.Split(meta[0][1], ";") {
		f := strings.Fields(d)
		if len(f) > 0 {
			policy[f[0]] = f[1:]
		}
	}
	hashOf := func(text string) string {
		sum := sha256.Sum256([]byte(text))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	scripts := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindAllStringSubmatch(page, -1)
	styles := regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindAllStringSubmatch(page, -1)
	executable := len(regexp.MustCompile(`<script[ >]`).FindAllString(page, -1)) - len(regexp.MustCompile(`<script type="application/json"`).FindAllString(page, -1))
	if executable > 1 || executable != len(scripts) {
		t.Fatalf("want at most one executable <script> element, without attributes; found %d (%d without attributes)", executable, len(scripts))
	}
	if len(styles) != 1 {
		t.Fatalf("want one <style> element, found %d", len(styles))
	}
	want := map[string][]string{
		"default-src": {"'none'"},
		"style-src":   {hashOf(styles[0][1])},
		"img-src":     {"data:"},
	}
	if len(scripts) == 1 {
		want["script-src"] = []string{hashOf(scripts[0][1])}
	}
	if diff := cmp.Diff(want, policy); diff != "" {
		t.Errorf("Content-Security-Policy (-want +got):\n%s", diff)
	}
	if strings.Contains(page, "unsafe-inline") {
		t.Errorf("the page allows 'unsafe-inline'")
	}
}
