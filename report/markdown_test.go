package report

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestMarkdownCell(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "CrashLoopBackOff", "CrashLoopBackOff"},
		{"pipe", "a|b", `a\|b`},
		{"backticks", "web-`x`", "web-\\`x\\`"},
		{"html", "<script>alert(1)</script>", `\<script\>alert(1)\</script\>`},
		{"entity", "&lt;", `\&lt;`},
		{"emphasis and links", "*a* _b_ [c](d)", `\*a\* \_b\_ \[c\](d)`},
		{"backslash before pipe", `a\|b`, `a\\\|b`},
		{"strike and math", "~~x~~ $y$", `\~\~x\~\~ \$y\$`},
		{"newlines become spaces", "a\nb\r\nc\rd", "a b c d"},
		{"tab becomes space", "a\tb", "a b"},
		{"controls stripped", "a\x00b\x1b[31mc\x7f", "abc"},
		{"leading dash kept", "-", "-"},
		{"unicode", "容器 ✓", "容器 ✓"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mdCell(tt.in); got != tt.want {
				t.Errorf("mdCell(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestMarkdownText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"version", "4.14.8", "4.14.8"},
		{"trimmed", "  padded \n", "padded"},
		{"html", "<b>x</b>", `\<b\>x\</b\>`},
		{"autolink syntax", "<https://evil>", `\<https://evil\>`},
		{"image", "![x](y)", `!\[x\](y)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mdText(tt.in); got != tt.want {
				t.Errorf("mdText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestMarkdownHeading(t *testing.T) {
	if got, want := mdHeading("Issue #"), `Issue \#`; got != want {
		t.Errorf("mdHeading = %q, want %q", got, want)
	}
}

func TestMarkdownCode(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "oc get pods", "`oc get pods`"},
		{"inner backtick", "a`b", "``a`b``"},
		{"fence run", "a```b``c", "````a```b``c````"},
		{"leading backtick", "`x", "`` `x ``"},
		{"trailing backtick", "x`", "`` x` ``"},
		{"both-side spaces", " x ", "`  x  `"},
		{"html is literal in code", "<script>", "`<script>`"},
		{"newline", "a\nb", "`a b`"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mdCode(tt.in); got != tt.want {
				t.Errorf("mdCode(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestMarkdownStep(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"command", "oc get pods -n x", "`oc get pods -n x`"},
		{"prose then command", "Check logs: oc logs p", "Check logs: `oc logs p`"},
		{"quoted command", "Run `oc get x` now", "Run `oc get x` now"},
		{"list marker at start", "- not a list", `\- not a list`},
		{"heading at start", "# not a heading", `\# not a heading`},
		{"ordered marker at start", "2. not a list", `2\. not a list`},
		{"paren marker at start", "3) not a list", `3\) not a list`},
		{"indent trimmed", "      not code", "not code"},
		{"prose escaped", "see <b>[x](y)</b>", `see \<b\>\[x\](y)\</b\>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mdStep(tt.in); got != tt.want {
				t.Errorf("mdStep(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestMarkdownLink(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://docs.openshift.com/x.html", "<https://docs.openshift.com/x.html>"},
		{"javascript:alert(1)", "`javascript:alert(1)` (not a web link)"},
		{"https://x.example/?a=<b>", "`https://x.example/?a=<b>` (not a web link)"},
	}
	for _, tt := range tests {
		if got := mdLink(tt.in); got != tt.want {
			t.Errorf("mdLink(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMarkdownEvidenceFence(t *testing.T) {
	out := mdEvidence([]Evidence{
		{Path: "a.log", Line: 3, Text: "````` five\nsecond line"},
		{Path: "b.log", Text: "plain", Count: 4},
	})
	want := "``````text\n" +
		"a.log:3: ````` five\n" +
		"    second line\n" +
		"b.log: plain  [repeated 4 times]\n" +
		"``````\n"
	if out != want {
		t.Errorf("mdEvidence =\n%s\nwant\n%s", out, want)
	}
}

func TestMarkdownHostileFixture(t *testing.T) {
	out := render(t, func(b *bytes.Buffer, r *Report) error { return WriteMarkdown(b, r, MarkdownOptions{}) })
	for _, bad := range []string{"<script>", "\x1b", "\r", "\a", "\u202e", "(javascript:", "<javascript:"} {
		if strings.Contains(out, bad) {
			t.Errorf("Markdown contains %q", bad)
		}
	}
	// Every table row has exactly as many unescaped pipes as its header.
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "| ") {
			if n := unescapedPipes(line); n != 9 && n != 6 {
				t.Errorf("table row with %d cell separators: %s", n, line)
			}
		}
	}
}

// unescapedPipes counts the | in s that no backslash escapes.
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

// bigReport has more findings and pods than 60 KB can hold.
func bigReport() *Report {
	r := &Report{SchemaVersion: SchemaVersion, Gather: Gather{ClusterVersion: "4.16.2", Path: "/big"}}
	for i := range 300 {
		f := Finding{
			RuleID: "rule-" + fmt.Sprint(i%7), RuleVersion: 1, Severity: Severities[i%5],
			Title: fmt.Sprintf("Finding number %d", i), Hint: strings.Repeat("hint text ", 20),
			Remediation: []string{"oc describe pod p -n ns"}, Docs: []string{"https://docs.example.com/x"},
			Objects: []Object{{Kind: "Pod", Namespace: "ns", Name: fmt.Sprintf("pod-%d", i)}},
		}
		for j := range 5 {
			f.Evidence = append(f.Evidence, Evidence{Path: "namespaces/ns/core/events.yaml", Line: j + 1, Text: strings.Repeat("x", 120)})
		}
		r.Findings = append(r.Findings, f)
	}
	for i := range 5000 {
		r.Pods = append(r.Pods, Pod{Namespace: "ns", Name: fmt.Sprintf("pod-%05d", i), Ready: "0/1", Status: "CrashLoopBackOff",
			Restarts: "7 (1m ago)", Age: "2d", Node: "worker-1", Healthy: i%4 == 0})
	}
	for i := range 40 {
		r.Problems = append(r.Problems, Problem{Path: fmt.Sprintf("namespaces/ns/pods/p%d/p%d.yaml", i, i), Error: "unexpected EOF"})
	}
	r.Nodes = []Node{{Name: "worker-1", Ready: "True"}}
	r.Summary = Summary{Pods: 5000, UnhealthyPods: 3750, Findings: 300, Nodes: 1}
	for i := range 200 {
		r.Gather.Health.PodsWithoutLogs = append(r.Gather.Health.PodsWithoutLogs, fmt.Sprintf("ns/pod-%05d", i))
		r.Gather.Health.MustGatherErrors = append(r.Gather.Health.MustGatherErrors, strings.Repeat("error ", 60))
	}
	return r
}

var (
	cutNote     = regexp.MustCompile(`\*\*Shortened to fit (\d+) characters:\*\* (shortened [^;]*?)?(?:; )?(left out .*?)?\. report\.html has everything\.\n`)
	cutFindings = regexp.MustCompile(`(\d+) of (\d+) finding(?:s| entries \(\d+ findings\))`)
	cutPodRows  = regexp.MustCompile(`(\d+) of (\d+) pod rows`)
	summaryMore = regexp.MustCompile(`(?m)^- (… and )?\d+ (more )?findings?[ :].*\n`)
)

// TestMarkdownSmallBounds renders the hand-made report and the big one at
// bounds from 1,000 to 14,000 characters: the file keeps the bound (counted
// in code points) or says plainly that the bound is below what its header
// and summary counts need; the cut note is above the summary; the summary's
// closing line counts exactly the findings that are below it and the ones
// only in report.html; no section is left as an empty heading or table; no
// bullet ends in a cut word.
func TestMarkdownSmallBounds(t *testing.T) {
	long := bigReport()
	long.Gather.Incomplete = strings.Repeat("the input ended early ", 100) // a header over 2,000 characters
	for name, r := range map[string]*Report{"golden": loadReport(t), "big": bigReport(), "long header": long} {
		entries := groupFindings(r.Findings)
		full := markdown(t, r, MarkdownOptions{})
		for bound := 1000; bound <= 14000; bound += 1000 {
			t.Run(fmt.Sprintf("%s/%d", name, bound), func(t *testing.T) {
				out := markdown(t, r, MarkdownOptions{MaxChars: bound})
				if chars(full) <= bound {
					if out != full {
						t.Errorf("the report fits in %d characters but was changed", bound)
					}
					return
				}
				over := regexp.MustCompile(`\*\*Over the size bound:\*\* (\d+) characters is less than the (\d+) characters that the title, input, tool and summary counts need; only these were written\. report\.html has everything\.\n`).FindStringSubmatch(out)
				switch {
				case over != nil:
					if over[1] != fmt.Sprint(bound) || chars(out) <= bound {
						t.Errorf("says it is over %s characters but is %d", over[1], chars(out))
					}
					if strings.Contains(out, "## Findings") || strings.Contains(out, "## Cluster and gather") {
						t.Errorf("over the bound, but more than the header and summary written:\n%s", out)
					}
				case chars(out) > bound:
					t.Fatalf("%d characters, over %d, and no note says so:\n%s", chars(out), bound, out[:min(len(out), 3000)])
				case cutNote.FindString(out) == "" && !strings.Contains(out, "only the title, input, tool and summary counts were written. report.html has everything.\n"):
					t.Fatalf("cut without the note:\n%s", out[:min(len(out), 3000)])
				}
				if note := strings.Index(out, "**Shortened to fit"); note >= 0 && note > strings.Index(out, "## Summary") {
					t.Errorf("the cut note is below the summary")
				}
				checkBulletsWhole(t, out, full)
				summary := out[strings.Index(out, "## Summary"):]
				if end := strings.Index(summary, "\n\n## "); end >= 0 {
					summary = summary[:end+1]
				}
				listed := strings.Count(summary, "\n- **")
				below := strings.Count(out, "\n### ")
				rest, inBelow := 0, 0
				for i, g := range entries {
					if i >= listed {
						rest += len(g.Findings)
						if i < below {
							inBelow += len(g.Findings)
						}
					}
				}
				line := summaryMore.FindString(out)
				if rest == 0 {
					if line != "" {
						t.Errorf("every finding is in the summary, but it closes with %q", line)
					}
					return
				}
				var want string
				switch {
				case inBelow == rest:
					want = fmt.Sprintf("%d", rest) + ".* below\n"
				case inBelow == 0:
					want = fmt.Sprintf("%d", rest) + ".* in report.html\n"
				default:
					want = fmt.Sprintf("%d.*: %d below, %d only in report.html\n", rest, inBelow, rest-inBelow)
				}
				if !regexp.MustCompile(want).MatchString(line) {
					t.Errorf("summary lists %d entries, %d are below: closing line %q, want /%s/", listed, below, line, want)
				}
				for _, section := range []string{"Coverage", "Gather health"} {
					if strings.Contains(out, "(see "+section+")") && !strings.Contains(out, "## "+section+"\n\n") {
						t.Errorf("a line points at %s, whose lines were all left out", section)
					}
				}
				for _, empty := range []string{"|\n\n", "## Findings\n\n## ", "## Findings\n\n\n", "## Pods that are not healthy\n\n## ", "## Coverage\n\n## ", "## Coverage\n\n\n"} {
					if strings.Contains(out, empty) {
						t.Errorf("an empty table or section (%q) in:\n%s", empty, out)
					}
				}
			})
		}
	}
}

// checkBulletsWhole fails when a bullet of out ends in a cut word: each
// bullet that ends with "…" ends with a word that full (the same report
// without a bound) has whole, followed by a space or punctuation.
func checkBulletsWhole(t *testing.T, out, full string) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "- ") || !strings.HasSuffix(line, "…") {
			continue
		}
		body := strings.TrimSuffix(line, "…")
		word := body[strings.LastIndexAny(body, " (\"'")+1:]
		if word == "" {
			continue
		}
		if !regexp.MustCompile(regexp.QuoteMeta(word) + `([^\pL\pN]|$)`).MatchString(full) {
			t.Errorf("a bullet ends in a cut word %q: %s", word, line)
		}
	}
}

// TestMarkdownMaxChars: the big report at 12,000, 30,000 and 60,000
// characters keeps each bound and uses most of it, says what it cut at the
// top, and cuts in the order: the pod table only once every finding
// but the top one is shortened, and then the summary names the workloads of
// the pods that are not healthy.
func TestMarkdownMaxChars(t *testing.T) {
	r := bigReport()
	full := markdown(t, r, MarkdownOptions{})
	entries := len(groupFindings(r.Findings))
	if chars(full) <= 200000 {
		t.Fatalf("the big report is %d characters; the cases below need more than 200,000", chars(full))
	}
	for _, bound := range []int{12000, 30000, 60000} {
		t.Run(fmt.Sprint(bound), func(t *testing.T) {
			out := markdown(t, r, MarkdownOptions{MaxChars: bound})
			if chars(out) > bound {
				t.Fatalf("output is %d characters, over %d", chars(out), bound)
			}
			if chars(out) < bound*7/10 {
				t.Errorf("output is %d characters, far under %d: cut too much", chars(out), bound)
			}
			m := cutNote.FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("no cut note:\n%s", out[:min(len(out), 1200)])
			}
			if at, summary := strings.Index(out, m[0]), strings.Index(out, "## Summary"); summary < 0 || at > summary {
				t.Errorf("the cut note is at byte %d, not above the summary (byte %d)", at, summary)
			}
			if m[1] != fmt.Sprint(bound) {
				t.Errorf("note names the bound %s, want %d", m[1], bound)
			}
			keptRows := strings.Count(out, "| ns | pod-")
			if pm := cutPodRows.FindStringSubmatch(m[0]); pm == nil || pm[2] != "3750" || fmt.Sprint(3750-keptRows) != pm[1] {
				t.Errorf("note %q, but %d pod rows are in the output", m[0], keptRows)
			}
			wl := regexp.MustCompile(`\*\*Not healthy, by workload\*\* \(3750 pods, pods of each in brackets; the pod table is cut\): (?:ns: (Pod/pod-00001 \(1\).*); )?and (\d+) more workloads with (\d+) pods\.\n`).FindStringSubmatch(out)
			if wl == nil || wl[2] != wl[3] || strings.Count(wl[1], " (1)")+atoi(t, wl[2]) != 3750 {
				t.Errorf("the summary does not name or count every workload of the cut pod rows:\n%s", section(out, "Summary"))
			}
			keptFindings := strings.Count(out, "\n### ")
			if keptFindings < 1 || !strings.Contains(out, "### 1. ") {
				t.Errorf("the top finding was left out")
			}
			if full := strings.Count(out, "**Remediation**"); full > 1 {
				t.Errorf("%d finding entries keep their remediation though the pod table was cut", full)
			}
			if fm := cutFindings.FindAllStringSubmatch(m[0], -1); len(fm) == 0 || fm[0][2] != fmt.Sprint(entries) {
				t.Errorf("note has the wrong finding totals: %q", m[0])
			}
			if entries != len(r.Findings) && !strings.Contains(m[0], fmt.Sprintf("of %d finding entries (%d findings)", entries, len(r.Findings))) {
				t.Errorf("the note counts entries without saying they are not findings: %q", m[0])
			}
		})
	}
	t.Run("fits", func(t *testing.T) {
		if out := markdown(t, r, MarkdownOptions{MaxChars: chars(full)}); out != full {
			t.Errorf("a report at the bound changed")
		}
	})
}

// TestMarkdownBoundCountsCodePoints: a report whose text is mostly
// three-byte characters is cut to the bound in characters, not in bytes.
func TestMarkdownBoundCountsCodePoints(t *testing.T) {
	r := restartFindings(30)
	for i := range r.Findings {
		r.Findings[i].Hint = strings.Repeat("容器が再起動しました ", 40)
	}
	full := markdown(t, r, MarkdownOptions{})
	bound := chars(full) - 1000
	out := markdown(t, r, MarkdownOptions{MaxChars: bound})
	if chars(out) > bound {
		t.Errorf("%d characters, over the bound %d", chars(out), bound)
	}
	if len(out) <= bound {
		t.Errorf("%d bytes: cut to the bound in bytes, not characters (%d)", len(out), chars(out))
	}
}

// TestMarkdownFoldsEvidence: twelve kubelet lines that differ only in the
// sandbox ID and time are one line in the Markdown, with the count and the
// time range; report.json keeps the twelve.
func TestMarkdownFoldsEvidence(t *testing.T) {
	r := restartFindings(0)
	base := time.Date(2026, 11, 20, 10, 1, 2, 0, time.UTC)
	for i := range 12 {
		at := base.Add(time.Duration(i) * 75 * time.Second)
		r.Findings[0].Evidence = append(r.Findings[0].Evidence, Evidence{Path: "host_service_logs/masters/kubelet_service.log", Line: 100 + i, Kind: "node-log", Time: &at,
			Text: fmt.Sprintf("worker-1 kubelet: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to create pod network sandbox k8s_web-1_shop_2f948e50-db21-4e53-82c5-720161162c71_0(%064x): timed out at %s", i*7919+1, at.Format(time.RFC3339))})
	}
	md := markdown(t, r, MarkdownOptions{})
	ev := md[strings.Index(md, "**Evidence**"):]
	if n := strings.Count(ev, "Failed to create pod sandbox"); n != 1 {
		t.Errorf("%d sandbox lines in the Markdown, want 1:\n%s", n, ev)
	}
	if !strings.Contains(ev, "kubelet_service.log:100: worker-1 kubelet: Failed to create pod sandbox") || !strings.Contains(ev, " (×12, 10:01:02–10:14:47)\n") {
		t.Errorf("the folded line does not cite the first line or lacks the count and range:\n%s", ev)
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(js.String(), "Failed to create pod sandbox"); n != 12 {
		t.Errorf("report.json has %d of the 12 lines", n)
	}
}

func FuzzMarkdownEscape(f *testing.F) {
	for _, s := range []string{"a|b", "`x`", "\\|", "line\nbreak\r", "<script>", "[a](javascript:x)", "\x1b[31m|", "\u2028|\u0085"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, out := range map[string]string{"mdCell": mdCell(s), "mdText": mdText(s)} {
			if strings.ContainsAny(out, "\n\r") {
				t.Fatalf("%s(%q) = %q has a line break", name, s, out)
			}
			if hasControl(out) {
				t.Fatalf("%s(%q) = %q has a control character", name, s, out)
			}
			for i := 0; i < len(out); i++ {
				if out[i] == '\\' {
					i++
					continue
				}
				if strings.IndexByte(mdActive, out[i]) >= 0 {
					t.Fatalf("%s(%q) = %q has an unescaped %q at %d", name, s, out, out[i], i)
				}
			}
		}
		if code := mdCode(s); code != "" {
			n := leadingRun(code, '`')
			inner := code[n : len(code)-n]
			if strings.ContainsAny(code, "\n\r") || longestRun(inner, '`') >= n || !strings.HasSuffix(code, strings.Repeat("`", n)) {
				t.Fatalf("mdCode(%q) = %q can be closed early", s, code)
			}
		}
	})
}

func leadingRun(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

func TestMarkdownManyNodes(t *testing.T) {
	r := &Report{}
	for i := range 30 {
		r.Nodes = append(r.Nodes, Node{Name: fmt.Sprintf("worker-%02d", i), Ready: "True"})
	}
	if s := mdNodes(r); s.title+s.head != "## Nodes\n\nAll 30 nodes are Ready with no other condition.\n\n" {
		t.Errorf("healthy nodes: %q", s.title+s.head)
	}
	r.Nodes[3].Ready = "False"
	r.Nodes[7].Conditions = []string{"MemoryPressure=True"}
	s := mdNodes(r)
	if len(s.items) != 2 || !strings.Contains(s.tail, "28 other nodes are Ready") {
		t.Errorf("nodes section: %d rows, tail %q", len(s.items), s.tail)
	}
}

func TestMarkdownGroupsAndExplains(t *testing.T) {
	out := render(t, func(b *bytes.Buffer, r *Report) error { return WriteMarkdown(b, r, MarkdownOptions{}) })
	for _, want := range []string{
		"- **HIGH** Image cannot be pulled — 3 pods (same workload shop/Deployment/api):",
		"- **Objects:** 3 pods (same workload shop/Deployment/api): Pod shop/api-5c6b9d-xk2pq (container api, node worker-1); Pod shop/api-5c6b9d-zz9qq",
		"- **Explains:** 1 pod finding: shop/api-5c6b9d-xk2pq (image-pull-backoff)\n",
		"| NAMESPACE | NAME | READY | STATUS | RESTARTS | AGE | STAGE | NODE |\n",
		"| batch | loader-0 | 0/1 | Pending | 0 | 5m | PodScheduled |  |\n",
		"- **Gather gaps:** 1 must-gather error, 12 namespaces without pods.yaml, 5 pods without logs, 1 node without kubelet logs (see Gather health)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
}

func TestMarkdownHealth(t *testing.T) {
	r := &Report{Gather: Gather{
		Layouts: []Layout{{Root: "", Kind: "namespace folder", Pods: 3}},
		Health: Health{
			MustGatherErrors: []string{"# not a heading", "1. not a list"},
			PodsWithoutLogs:  append(make([]string, 0), "a/1", "a/2", "a/3", "a/4", "a/5", "a/6", "a/7", "a/8", "a/9", "a/10", "a/11", "… and 189 more"),
		},
	}}
	var b strings.Builder
	s := mdHealth(r)
	b.WriteString(s.title + s.head)
	for _, it := range s.items {
		b.WriteString(it)
	}
	b.WriteString(s.tail)
	got := b.String()
	want := "## Gather health\n\n" +
		"| ROOT | KIND | IMAGE | NODE | PODS |\n|---|---|---|---|---|\n| . | namespace folder |  |  | 3 |\n\n" +
		"**must-gather.logs errors** (2)\n\n- \\# not a heading\n- 1\\. not a list\n\n" +
		"**Pods without logs** (200)\n\n- a/1\n- a/2\n- a/3\n- a/4\n- a/5\n- a/6\n- a/7\n- a/8\n- a/9\n- a/10\n- … and 190 more\n\n" +
		"No namespaces without pods.yaml or nodes without kubelet logs.\n\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("health section (-want +got):\n%s", diff)
	}
	if h := mdHealth(&Report{}); h.title+h.head != "## Gather health\n\nNo must-gather.logs errors, namespaces without pods.yaml, pods without logs or nodes without kubelet logs.\n\n" {
		t.Errorf("empty health: %q", h.title+h.head)
	}
}

func TestTruncateWords(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"app containers only start after every init container succeeds (0 restarts so far).", 74, "app containers only start after every init container succeeds…"},
		{"one two three", 8, "one two…"},
		{"one two three", 9, "one two…"},
		{"one, two three", 8, "one…"},
		{"a (b c d e f) g", 9, "a…"},
		{"supercalifragilistic", 8, "superca…"},
		{"容器が 再起動しました", 6, "容器が…"},
	}
	for _, tt := range tests {
		if got := truncateWords(tt.in, tt.n); got != tt.want {
			t.Errorf("truncateWords(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
		if got := truncateWords(tt.in, tt.n); chars(got) > max(tt.n, 0) && chars(tt.in) > tt.n {
			t.Errorf("truncateWords(%q, %d) = %q is longer than %d", tt.in, tt.n, got, tt.n)
		}
	}
}

func TestMarkdownWorkloadsLine(t *testing.T) {
	r := &Report{Pods: []Pod{
		{Namespace: "shop", Name: "web-7d9f-a", Owner: "ReplicaSet/web-7d9f"},
		{Namespace: "shop", Name: "web-7d9f-b", Owner: "ReplicaSet/web-7d9f"},
		{Namespace: "shop", Name: "db-0", Owner: "StatefulSet/db"},
		{Namespace: "shop", Name: "ok-1", Owner: "ReplicaSet/ok", Healthy: true},
		{Namespace: "batch", Name: "loader|x", Owner: ""},
	}}
	want := "**Not healthy, by workload** (4 pods, pods of each in brackets; the pod table is cut): shop: ReplicaSet/web-7d9f (2), StatefulSet/db (1); batch: Pod/loader\\|x (1).\n\n"
	if got := mdWorkloadsLine(r, mdWorkloads); got != want {
		t.Errorf("mdWorkloadsLine =\n%q\nwant\n%q", got, want)
	}
	if got := mdWorkloadsLine(&Report{Pods: []Pod{{Name: "a", Healthy: true}}}, mdWorkloads); got != "" {
		t.Errorf("every pod healthy, but %q", got)
	}
}

func TestFoldNote(t *testing.T) {
	at := func(s string) *time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return &v
	}
	tests := []struct {
		name string
		ev   []Evidence
		want []string
	}{
		{"one line once", []Evidence{{Path: "a", Text: "x"}}, []string{""}},
		{"one line repeated", []Evidence{{Path: "a", Text: "x", Count: 4}}, []string{"  [repeated 4 times]"}},
		{"no times, counts summed", []Evidence{{Path: "a", Text: "id 0a1b2c3d"}, {Path: "a", Text: "id 9f8e7d6c", Count: 3}}, []string{" (×4)"}},
		{"one day", []Evidence{{Path: "a", Text: "t 1", Time: at("2026-11-20T10:14:55Z")}, {Path: "a", Text: "t 2", Time: at("2026-11-20T10:01:02Z")}}, []string{" (×2, 10:01:02–10:14:55)"}},
		{"two days", []Evidence{{Path: "a", Text: "t 1", Time: at("2026-11-20T23:59:00Z")}, {Path: "a", Text: "t 2", Time: at("2026-11-21T00:01:00Z")}}, []string{" (×2, 2026-11-20 23:59:00–2026-11-21 00:01:00)"}},
		{"same second", []Evidence{{Path: "a", Text: "t 1", Time: at("2026-11-20T10:00:00Z")}, {Path: "a", Text: "t 2", Time: at("2026-11-20T10:00:00Z")}}, []string{" (×2, 10:00:00)"}},
		{"other path or kind not folded", []Evidence{{Path: "a", Text: "t 1"}, {Path: "b", Text: "t 2"}, {Path: "a", Kind: "event", Text: "t 3"}}, []string{"", "", ""}},
		{"words differ", []Evidence{{Path: "a", Text: "pull failed"}, {Path: "a", Text: "push failed"}}, []string{"", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range foldEvidence(tt.ev) {
				got = append(got, f.foldNote())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
