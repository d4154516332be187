package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

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
)

// TestHTMLLoadsNothing checks that the page names no resource to load: no
// src, no stylesheet link, no @import or url(), and that its only links are
// in-page anchors and the http(s) docs links, opened without a referrer.
func TestHTMLLoadsNothing(t *testing.T) {
	out := render(t, func(b *bytes.Buffer, r *Report) error { return WriteHTML(b, r) })
	lower := strings.ToLower(out)
	for _, bad := range []string{"src=", "<link", "@import", "url(", "<iframe", "<object", "<embed", "<img", "<base", "<form", "javascript:alert(1)\""} {
		if strings.Contains(lower, bad) {
			t.Errorf("HTML contains %q", bad)
		}
	}
	if !strings.Contains(out, `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">`) {
		t.Errorf("HTML lacks the Content-Security-Policy meta tag")
	}
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
	if n := strings.Count(strings.ToLower(out), "</script"); n != 2 {
		t.Fatalf("found %d </script, want 2 (the data and the code)", n)
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
		{"openshift-dns", "</script><script>alert(1)</script><!--", "2/2", "Running", "0", "12d", "", "worker-0", "0"},
		{"shop", "web-7d9f|`x`", "0/1", "CrashLoopBackOff", "12 (2m ago)", "3h", "ContainersReady", "worker-0", "1"},
		{"shop", "api-5c6b9d-xk2pq", "0/1", "ImagePullBackOff", "0", "47m", "ContainersReady", "worker-1", "1"},
		{"shop", "report-28577520-abcde", "0/1", "Completed", "0", "2d", "", "worker-1", "0"},
		{"batch", "loader-0", "0/1", "Pending", "0", "5m", "PodScheduled", "", "1"},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("pod rows (-want +got):\n%s", diff)
	}
}

// TestHTMLLargeReport renders 20,000 pods: the page holds only the first page
// of unhealthy pods as HTML, and every pod in the JSON rows.
func TestHTMLLargeReport(t *testing.T) {
	r := &Report{SchemaVersion: SchemaVersion}
	for i := range 20000 {
		r.Pods = append(r.Pods, Pod{Namespace: "ns", Name: fmt.Sprintf("pod-%05d", i), Ready: "1/1", Status: "Running",
			Restarts: "0", Age: "1d", Node: "worker", Healthy: i%3 != 0})
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
}

func TestHTMLEmptyReport(t *testing.T) {
	out := writeHTML(t, &Report{})
	for _, want := range []string{"No rule fired.", "No nodes in the gather.", "None: every file of the gather was read.", `id="pod-data">[]</script>`} {
		if !strings.Contains(out, want) {
			t.Errorf("empty report lacks %q", want)
		}
	}
}
