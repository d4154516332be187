package report

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

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
	cutNote     = regexp.MustCompile(`\*\*Shortened to fit (\d+) KB:\*\* .* were left out of this file\. report\.html has everything\.\n`)
	cutFindings = regexp.MustCompile(`(\d+) of (\d+) findings`)
	cutPodRows  = regexp.MustCompile(`(\d+) of (\d+) pod rows`)
	summaryMore = regexp.MustCompile(`(?m)^- (… and )?\d+ (more )?findings?[ :].*\n`)
)

// TestMarkdownSmallBounds renders the hand-made report and the big one at
// every bound from 1 to 14 KB: the file keeps the bound or says plainly that
// the bound is below what its header and summary counts need; the summary's
// closing line counts exactly the findings that are below it and the ones
// only in report.html; no section is left as an empty heading or table.
func TestMarkdownSmallBounds(t *testing.T) {
	long := bigReport()
	long.Gather.Incomplete = strings.Repeat("the input ended early ", 100) // a header over 2 KB
	for name, r := range map[string]*Report{"golden": loadReport(t), "big": bigReport(), "long header": long} {
		entries := groupFindings(r.Findings)
		for kb := 1; kb <= 14; kb++ {
			t.Run(fmt.Sprintf("%s/%dKB", name, kb), func(t *testing.T) {
				var buf bytes.Buffer
				if err := WriteMarkdown(&buf, r, MarkdownOptions{MaxKB: kb}); err != nil {
					t.Fatal(err)
				}
				out := buf.String()
				var full bytes.Buffer
				if err := WriteMarkdown(&full, r, MarkdownOptions{}); err != nil {
					t.Fatal(err)
				}
				if full.Len() <= kb*1024 {
					if out != full.String() {
						t.Errorf("the report fits in %d KB but was changed", kb)
					}
					return
				}
				over := regexp.MustCompile(`\*\*Over the size bound:\*\* (\d+) KB is less than the ([0-9.]+ KiB|\d+ B) that the title, input, tool and summary counts need; only these were written\. report\.html has everything\.\n`).FindStringSubmatch(out)
				switch {
				case over != nil:
					if over[1] != fmt.Sprint(kb) || len(out) <= kb*1024 {
						t.Errorf("says it is over %s KB but is %d bytes", over[1], len(out))
					}
					if strings.Contains(out, "## Findings") || strings.Contains(out, "## Cluster and gather") {
						t.Errorf("over the bound, but more than the header and summary written:\n%s", out)
					}
				case len(out) > kb*1024:
					t.Fatalf("%d bytes, over %d KB, and no note says so:\n%s", len(out), kb, out[:min(len(out), 3000)])
				case cutNote.FindString(out) == "" && !strings.Contains(out, "only the title, input, tool and summary counts were written. report.html has everything.\n"):
					t.Fatalf("cut without the note:\n%s", out[:min(len(out), 3000)])
				}
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
				for section, cut := range map[string]string{"Coverage": "coverage line", "Gather health": "gather health line"} {
					if strings.Contains(out, "(see "+section+")") && strings.Contains(out, "## "+section+"\n\n") && regexp.MustCompile(`## `+section+`\n\n\d+ `+cut+`s? left out`).MatchString(out) {
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

func TestMarkdownMaxKB(t *testing.T) {
	r := bigReport()
	var full bytes.Buffer
	if err := WriteMarkdown(&full, r, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	// Low and info findings of one rule are one entry each: the note counts entries.
	entries := len(groupFindings(r.Findings))
	if full.Len() <= 200*1024 {
		t.Fatalf("the big report is %d bytes; the cases below need more than 200 KB", full.Len())
	}
	for _, kb := range []int{12, 60, 200} {
		t.Run(fmt.Sprint(kb, "KB"), func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteMarkdown(&buf, r, MarkdownOptions{MaxKB: kb}); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			if len(out) > kb*1024 {
				t.Fatalf("output is %d bytes, over %d KB", len(out), kb)
			}
			if len(out) < kb*1024*8/10 {
				t.Errorf("output is %d bytes, far under %d KB: cut too much", len(out), kb)
			}
			m := cutNote.FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("no cut note:\n%s", out[:min(len(out), 1200)])
			}
			if at, summary := strings.Index(out, m[0]), strings.Index(out, "## Summary"); summary < 0 || at > summary {
				t.Errorf("the cut note is at byte %d, not above the summary (byte %d)", at, summary)
			}
			fm, pm := cutFindings.FindStringSubmatch(m[0]), cutPodRows.FindStringSubmatch(m[0])
			if m[1] != fmt.Sprint(kb) || fm == nil || pm == nil || fm[2] != fmt.Sprint(entries) || pm[2] != "3750" {
				t.Fatalf("note has the wrong totals: %q", m[0])
			}
			keptFindings := strings.Count(out, "\n### ")
			keptRows := strings.Count(out, "| ns | pod-")
			if fmt.Sprint(entries-keptFindings) != fm[1] || fmt.Sprint(3750-keptRows) != pm[1] {
				t.Errorf("note %q, but %d findings and %d pod rows are in the output", m[0], keptFindings, keptRows)
			}
			if kb <= 60 && !strings.Contains(m[0], "gather health lines") {
				t.Errorf("note does not say gather health lines were cut: %q", m[0])
			}
			if kb >= 60 && (keptFindings < mdTopFindings || keptRows < 50) {
				t.Errorf("kept %d findings and %d pod rows, want at least %d and 50", keptFindings, keptRows, mdTopFindings)
			}
			// What is kept is the start of the full report, cut at whole units
			// (the summary's closing line says where the rest is, so it differs).
			// So do the pointers at sections whose lines were all cut.
			body := summaryMore.ReplaceAllString(strings.Replace(out, m[0]+"\n", "", 1), "")
			body = strings.ReplaceAll(body, inReportHTML+")", ")")
			if !strings.HasPrefix(summaryMore.ReplaceAllString(full.String(), ""), body[:strings.Index(body, "## Pods")]) {
				t.Errorf("the findings kept are not the first ones of the full report")
			}
		})
	}
	t.Run("fits", func(t *testing.T) {
		var buf bytes.Buffer
		if err := WriteMarkdown(&buf, r, MarkdownOptions{MaxKB: full.Len()/1024 + 1}); err != nil {
			t.Fatal(err)
		}
		if buf.String() != full.String() {
			t.Errorf("a report under the bound changed")
		}
	})
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
