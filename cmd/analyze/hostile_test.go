package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mgtriage/mgtriage/report"
)

// hostile is what a gather may hold in any string: markup, Markdown table
// and code syntax, terminal escapes (colour, clear screen, window title),
// control characters and bidirectional overrides.
const hostile = "<script>alert(1)</script> | `tick` ``` **bold** [x](javascript:alert(2)) \x1b[31mred\x1b[0m \x1b[2J\x1b]0;pwned\x07 bell\a nul\x00 \u202eevil"

// megaLine is a line of one megabyte; 64 KiB with -short (the race pass),
// where the rules' regular expressions over a megabyte take most of a minute.
func megaLine() string {
	size := 1 << 20
	if testing.Short() {
		size = 64 << 10
	}
	return "BEGIN " + strings.Repeat("A|<b>`", size/6) + " END"
}

// q quotes s as a YAML double-quoted string (JSON is YAML).
func q(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// hostileGather writes a small must-gather whose event messages, container
// state messages, container log lines and kubelet journal lines are hostile,
// and returns its folder.
func hostileGather(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "must-gather.local.7", "quay-io-image")
	const uid = "99999999-2222-3333-4444-555555555555"
	pod := "web-" + "7d9f"
	megaLine := megaLine()
	files := map[string]string{
		"timestamp":        "2026-11-20 09:12:33.000000000 +0000 UTC m=+0.01\n2026-11-20 09:13:00.000000000 +0000 UTC m=+27.0\n",
		"must-gather.logs": "[must-gather-abc] OUT gather output\n[must-gather-abc] POD error: " + hostile + "\n",
		"namespaces/evil/core/pods.yaml": `apiVersion: v1
kind: PodList
items:
- apiVersion: v1
  kind: Pod
  metadata:
    creationTimestamp: "2026-11-19T09:12:33Z"
    name: ` + pod + `
    namespace: evil
    uid: ` + uid + `
    labels:
      note: x
  spec:
    nodeName: worker-0
    containers:
    - image: "registry.example.com/evil/web:1"
      name: app
  status:
    phase: Running
    conditions:
    - type: ContainersReady
      status: "False"
      reason: ContainersNotReady
      message: ` + q("containers with unready status: [app] "+hostile) + `
      lastTransitionTime: "2026-11-20T08:00:00Z"
    containerStatuses:
    - name: app
      image: "registry.example.com/evil/web:1"
      ready: false
      restartCount: 9
      lastState:
        terminated:
          exitCode: 1
          reason: Error
          message: ` + q(hostile+" "+megaLine) + `
          finishedAt: "2026-11-20T09:10:33Z"
      state:
        waiting:
          reason: CrashLoopBackOff
          message: ` + q("back-off 5m0s restarting failed container=app "+hostile) + `
`,
		"namespaces/evil/core/events.yaml": `apiVersion: v1
kind: EventList
items:
- apiVersion: v1
  kind: Event
  metadata:
    name: web.1
    namespace: evil
  involvedObject:
    kind: Pod
    name: ` + pod + `
    namespace: evil
    uid: ` + uid + `
  reason: BackOff
  type: Warning
  count: 40
  firstTimestamp: "2026-11-20T08:10:00Z"
  lastTimestamp: "2026-11-20T09:10:00Z"
  message: ` + q("Back-off restarting failed container app in pod "+pod+" "+hostile) + `
- apiVersion: v1
  kind: Event
  metadata:
    name: web.2
    namespace: evil
  involvedObject:
    kind: Pod
    name: ` + pod + `
    namespace: evil
    uid: ` + uid + `
  reason: Failed
  type: Warning
  count: 3
  lastTimestamp: "2026-11-20T09:11:00Z"
  message: ` + q(megaLine) + `
`,
		"namespaces/evil/pods/" + pod + "/app/app/logs/previous.log": "2026-11-20T09:10:30.000000000Z starting " + hostile + "\n" +
			"2026-11-20T09:10:31.000000000Z " + megaLine + "\n" +
			"2026-11-20T09:10:32.000000000Z panic: " + hostile + "\n",
		"namespaces/evil/pods/" + pod + "/app/app/logs/current.log": "",
		"host_service_logs/masters/kubelet_service.log": "Nov 20 09:10:01.000000 worker-0 kubenswrapper[2187]: E1120 09:10:01.000000    2187 pod_workers.go:1301] \"Error syncing pod, skipping\" err=" +
			q("failed to \"StartContainer\" for \"app\" with CrashLoopBackOff: \"back-off 5m0s restarting failed container=app pod="+pod+"_evil("+uid+")\" "+hostile) +
			" pod=\"evil/" + pod + "\" podUID=\"" + uid + "\"\n" +
			"Nov 20 09:10:02.000000 worker-0 kubenswrapper[2187]: E1120 09:10:02.000000    2187 kubelet.go:1] " + megaLine + " pod=\"evil/" + pod + "\"\n",
		"cluster-scoped-resources/core/nodes/worker-0.yaml": `apiVersion: v1
kind: Node
metadata:
  name: worker-0
  labels:
    node-role.kubernetes.io/worker: ""
status:
  nodeInfo:
    kubeletVersion: v1.31.6
  conditions:
  - type: Ready
    status: "False"
    reason: KubeletNotReady
    message: ` + q(hostile) + `
    lastTransitionTime: "2026-11-20T08:00:00Z"
`,
		"cluster-scoped-resources/config.openshift.io/clusterversions.yaml": "apiVersion: config.openshift.io/v1\nitems:\n- apiVersion: config.openshift.io/v1\n  kind: ClusterVersion\n  metadata:\n    name: version\n  status:\n    history:\n    - state: Completed\n      version: 4.18.12\nkind: ClusterVersionList\n",
		"namespaces/empty-ns/core/configmaps.yaml":                          "apiVersion: v1\nkind: ConfigMapList\nitems: []\n",
	}
	writeFiles(t, root, files)
	return filepath.Dir(root)
}

var (
	mdFence    = regexp.MustCompile("(?ms)^(`{3,})text\n.*?^`{3,}\n")
	jsonScript = regexp.MustCompile(`(?s)(<script type="application/json" id="[a-z-]+">)(.*?)(</script>)`)
)

// TestHostileGather runs the whole CLI on a gather full of hostile strings
// and megabyte lines, with and without --redact: every format is written,
// escaped for its syntax, free of control characters and bounded in size.
func TestHostileGather(t *testing.T) {
	gather := hostileGather(t)
	for _, args := range [][]string{nil, {"--redact"}} {
		t.Run(fmt.Sprint("args", args), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			code, stdout, stderr := run(t, append([]string{gather, "-o", out}, args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			read := func(name string) string {
				b, err := os.ReadFile(filepath.Join(out, name))
				if err != nil {
					t.Fatal(err)
				}
				return string(b)
			}
			md, page, js := read("report.md"), read("report.html"), read("report.json")
			for name, s := range map[string]string{"report.md": md, "report.html": page, "report.json": js, "stdout": stdout, "stderr": stderr} {
				if i := strings.IndexFunc(s, func(r rune) bool {
					return (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == '\u202e'
				}); i >= 0 {
					t.Errorf("%s holds control character %q at %d: %q", name, s[i], i, s[max(0, i-40):min(len(s), i+40)])
				}
			}
			checkHostileMarkdown(t, md)
			checkHostileHTML(t, page)
			checkHostileJSON(t, js)
			if !strings.Contains(md, "web-7d9f") && !strings.Contains(md, "CrashLoopBackOff") {
				t.Errorf("report.md lost the pod")
			}
		})
	}
}

func checkHostileMarkdown(t *testing.T, md string) {
	t.Helper()
	if n := utf8.RuneCountInString(md); n > report.DefaultMarkdownMaxChars {
		t.Errorf("report.md is %d characters, over the default --md-max-chars %d", n, report.DefaultMarkdownMaxChars)
	}
	// Outside code blocks and spans no gather text may be active markup.
	for _, bad := range activeOutsideCode(md) {
		t.Errorf("report.md holds active markup outside code: %q", bad)
	}
	header := -1
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			header = -1
			continue
		}
		n := unescapedPipes(line)
		if header < 0 {
			header = n
		} else if n != header {
			t.Errorf("table row with %d cell separators, header has %d: %.200s", n, header, line)
		}
	}
	for _, f := range mdFence.FindAllStringSubmatch(md, -1) {
		body := strings.TrimPrefix(f[0], f[1]+"text\n")
		if strings.Contains(strings.TrimSuffix(body, f[1]+"\n"), "\n"+f[1]) {
			t.Errorf("a fenced block is closed early")
		}
	}
	if strings.Contains(md, strings.Repeat("A|<b>`", 200)) {
		t.Errorf("report.md holds a megabyte line uncut")
	}
}

// activeOutsideCode scans Markdown the way a renderer would and returns the
// raw "<" (other than autolinks) and "](" met outside fenced blocks and code
// spans, with what follows them.
// runCommentLine is the first line report.RunComment writes.
var runCommentLine = regexp.MustCompile(`^<!-- mgtriage run [A-Za-z0-9._-]{1,64} -->$`)

func activeOutsideCode(md string) []string {
	var bad []string
	lines := strings.Split(md, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if i == 0 && runCommentLine.MatchString(line) {
			continue // the tool's own run ID (report.RunComment), not gather text
		}
		if fence := strings.TrimSuffix(line, "text"); len(fence) >= 3 && strings.Trim(fence, "`") == "" {
			for i++; i < len(lines) && lines[i] != fence; i++ {
			}
			continue
		}
		for j := 0; j < len(line); j++ {
			switch c := line[j]; {
			case c == '\\':
				j++
			case c == '`':
				n := 1
				for j+n < len(line) && line[j+n] == '`' {
					n++
				}
				closing := strings.Index(line[j+n:], strings.Repeat("`", n))
				for closing >= 0 && j+n+closing+n < len(line) && line[j+n+closing+n] == '`' {
					next := strings.Index(line[j+n+closing+n:], strings.Repeat("`", n))
					if next < 0 {
						closing = -1
						break
					}
					closing += n + next
				}
				if closing < 0 {
					j += n - 1
					continue
				}
				j += n + closing + n - 1
			case c == '<' && !strings.HasPrefix(line[j:], "<http"):
				bad = append(bad, line[j:min(len(line), j+20)])
			case c == ']' && j+1 < len(line) && line[j+1] == '(':
				bad = append(bad, line[j:min(len(line), j+20)])
			}
		}
	}
	return bad
}

func unescapedPipes(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n
}

func checkHostileHTML(t *testing.T, page string) {
	t.Helper()
	if len(page) > 512*1024 {
		t.Errorf("report.html is %d bytes: megabyte lines not cut", len(page))
	}
	if n := strings.Count(strings.ToLower(page), "<script"); n != 3 {
		t.Errorf("report.html has %d script elements, want 3 (rows, details, code)", n)
	}
	markup := jsonScript.ReplaceAllStringFunc(page, func(m string) string {
		parts := jsonScript.FindStringSubmatch(m)
		if strings.ContainsAny(parts[2], "<>") {
			t.Errorf("embedded JSON holds a raw < or >")
		}
		var v any
		if err := json.Unmarshal([]byte(parts[2]), &v); err != nil {
			t.Errorf("embedded JSON does not parse: %v", err)
		}
		return parts[1] + parts[3]
	})
	for _, bad := range []string{"<script>alert", "<b>`", `href="javascript`, "src="} {
		if strings.Contains(markup, bad) {
			t.Errorf("report.html holds %q as markup", bad)
		}
	}
	if !strings.Contains(markup, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Errorf("report.html lacks the escaped hostile text")
	}
}

func checkHostileJSON(t *testing.T, js string) {
	t.Helper()
	if len(js) > 512*1024 {
		t.Errorf("report.json is %d bytes: megabyte lines not cut", len(js))
	}
	if strings.ContainsAny(js, "<>") {
		t.Errorf("report.json holds a raw < or >")
	}
	r, err := report.ReadJSON(bytes.NewReader([]byte(js)))
	if err != nil {
		t.Fatal(err)
	}
	var p *report.Pod
	for i := range r.Pods {
		if r.Pods[i].Namespace == "evil" {
			p = &r.Pods[i]
		}
	}
	if p == nil || len(p.Events) != 2 || len([]rune(p.Events[1].Message)) > report.MaxEventMessageRunes {
		t.Fatalf("pod events not kept or not cut: %+v", p)
	}
	if len(r.Findings) == 0 {
		t.Errorf("no finding on the crash-looping pod")
	}
	for _, f := range r.Findings {
		for _, e := range f.Evidence {
			if len([]rune(e.Text)) > report.MaxTextRunes {
				t.Errorf("evidence of %s has %d runes", f.RuleID, len([]rune(e.Text)))
			}
		}
	}
}

func TestActiveOutsideCode(t *testing.T) {
	md := "ok \\<b\\> `<code>` ``a ` <x>`` <https://x.y/>\n```text\n<pre> [a](b)\n```\nbad <b> and [l](javascript:x)\n"
	got := activeOutsideCode(md)
	if len(got) != 2 || !strings.HasPrefix(got[0], "<b>") || !strings.HasPrefix(got[1], "](javascript") {
		t.Errorf("activeOutsideCode = %q", got)
	}
}
