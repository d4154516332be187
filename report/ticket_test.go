package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/mgtriage/mgtriage/parser/model"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// restartFindings is n low findings of one rule on n pods, as an install
// that restarted its operators together produces, plus one high finding.
func restartFindings(n int) *Report {
	r := &Report{Tool: Tool{Name: "mgtriage", Version: "1.2.3"}, Rules: RuleTable{Version: "1.4.0", Count: 82}}
	r.Findings = append(r.Findings, Finding{RuleID: "crashloop-back-off", Severity: SeverityHigh, Title: "Container in CrashLoopBackOff",
		Hint: "Container app exits with code 1.", Objects: []Object{{Kind: "Pod", Namespace: "shop", Name: "cart-1", Container: "app"}},
		Evidence: []Evidence{{Path: "namespaces/shop/core/pods.yaml", Line: 12, Kind: "status", Text: "reason: CrashLoopBackOff"}}})
	for i := 0; i < n; i++ {
		r.Findings = append(r.Findings, Finding{RuleID: "container-restarted", Severity: SeverityLow, Title: "Container running again after repeated restarts",
			Hint:        fmt.Sprintf("Container op-%d runs now, but it has restarted 3 times.", i),
			Remediation: []string{"Read the run that ended: `oc logs --previous`"},
			Objects:     []Object{{Kind: "Pod", Namespace: fmt.Sprintf("openshift-op-%d", i), Name: fmt.Sprintf("op-%d-abc", i), Container: fmt.Sprintf("op-%d", i)}},
			Evidence:    []Evidence{{Path: fmt.Sprintf("namespaces/openshift-op-%d/core/pods.yaml", i), Line: 40, Kind: "status", Text: "restartCount: 3"}}})
	}
	r.Summary = Summary{Pods: 200, Nodes: 1, Findings: len(r.Findings)}
	r.Normalize()
	return r
}

func markdown(t *testing.T, r *Report, opt MarkdownOptions) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteMarkdown(&b, r, opt); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// section returns the text of the "## name" section, up to the next "## ".
func section(md, name string) string {
	i := strings.Index(md, "## "+name+"\n")
	if i < 0 {
		return ""
	}
	rest := md[i+len(name)+4:]
	if j := strings.Index(rest, "\n## "); j >= 0 {
		rest = rest[:j+1]
	}
	return rest
}

func TestMarkdownGroupsLowFindingsOfOneRule(t *testing.T) {
	r := restartFindings(13)
	md := markdown(t, r, MarkdownOptions{})
	if n := strings.Count(md, "\n### "); n != 2 {
		t.Errorf("want 2 finding entries (the high one, the 13 low ones as one), got %d", n)
	}
	if !strings.Contains(md, "### 2. LOW ×13: Container running again after repeated restarts") {
		t.Errorf("no grouped entry with its count:\n%s", md)
	}
	for i := 0; i < 13; i++ {
		if !strings.Contains(md, fmt.Sprintf("openshift-op-%d/op-%d-abc (op-%d)", i, i, i)) {
			t.Errorf("grouped entry does not name pod %d", i)
		}
	}
	sum := section(md, "Summary")
	if !strings.Contains(sum, "**LOW** ×13 Container running again") || !strings.Contains(sum, "and 10 more") {
		t.Errorf("summary does not give the group as one line with examples:\n%s", sum)
	}
	if strings.Count(sum, "container-restarted")+strings.Count(sum, "restarted 3 times") > 1 {
		t.Errorf("summary repeats the low findings:\n%s", sum)
	}
}

func TestMarkdownSummaryFirstAndShort(t *testing.T) {
	r := bigReport()
	md := markdown(t, r, MarkdownOptions{})
	heads := regexp.MustCompile(`(?m)^## .*$`).FindAllString(md, 2)
	if len(heads) == 0 || heads[0] != "## Summary" {
		t.Fatalf("the first section is %q, want ## Summary", heads)
	}
	sum := section(md, "Summary")
	if n := strings.Count(strings.TrimRight(sum, "\n"), "\n") + 1 + 1; n > 15 { // +1: the heading
		t.Errorf("summary is %d lines, want at most 15:\n%s", n, sum)
	}
	if !strings.Contains(sum, "more findings below") {
		t.Errorf("summary of 300 findings does not say more follow:\n%s", sum)
	}
}

func TestMarkdownHeaderTiesToAttachment(t *testing.T) {
	sha := strings.Repeat("ab", 32)
	tests := []struct {
		name string
		in   *InputFile
		want []string
	}{
		{"archive", &InputFile{Name: "case-0420.tar.gz", Kind: "archive", Size: 1536, SHA256: sha},
			[]string{"`case-0420.tar.gz`", "1.5 KiB (1536 bytes)", "sha256 " + sha}},
		{"folder", &InputFile{Name: "must-gather.local.1", Kind: "folder"},
			[]string{"`must-gather.local.1`", "a folder, not an archive: 1 file, 10 B read"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := restartFindings(1)
			r.Gather.Input, r.Gather.Files, r.Gather.Bytes = tt.in, 1, 10
			md := markdown(t, r, MarkdownOptions{})
			head := md[:strings.Index(md, "## Summary")]
			for _, w := range append(tt.want, "mgtriage 1.2.3", "rule table 1.4.0 (82 rules)") {
				if !strings.Contains(head, w) {
					t.Errorf("header lacks %q:\n%s", w, head)
				}
			}
		})
	}
}

func TestIncompleteInputSaidFirst(t *testing.T) {
	r := restartFindings(2)
	r.Gather.Incomplete = "input ends early, analysed what was read before: unexpected EOF"
	md := markdown(t, r, MarkdownOptions{})
	at := strings.Index(md, "**Input incomplete:** input ends early")
	if at < 0 || at > strings.Index(md, "## Summary") {
		t.Errorf("the incomplete notice is not above the summary:\n%s", md)
	}
	var term bytes.Buffer
	if err := WriteTerminal(&term, r, TerminalOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(term.String(), "INPUT INCOMPLETE: input ends early") {
		t.Errorf("terminal output does not start with the notice:\n%s", term.String())
	}
	page := writeHTML(t, r)
	notice := strings.Index(page, "Input incomplete")
	if notice < 0 || notice > strings.Index(page, "<h2") {
		t.Errorf("report.html does not say the input is incomplete before its first section")
	}
}

func TestPluralsInEveryView(t *testing.T) {
	r := restartFindings(0) // one finding
	r.Summary.Pods, r.Summary.Nodes, r.Summary.Events, r.Summary.WarningEvents = 1, 1, 1, 1
	r.Problems = []Problem{{Path: "x", Error: "y"}}
	r.Gather.Files = 1
	var term bytes.Buffer
	if err := WriteTerminal(&term, r, TerminalOptions{}); err != nil {
		t.Fatal(err)
	}
	views := map[string]string{"md": markdown(t, r, MarkdownOptions{}), "html": writeHTML(t, r), "terminal": term.String()}
	bad := regexp.MustCompile(`\b1 (findings|pods|nodes|events|warnings|files|gather problems|problems|rules|more findings|pod findings)\b`)
	for name, text := range views {
		if m := bad.FindAllString(text, -1); m != nil {
			t.Errorf("%s: %q", name, m)
		}
	}
	if !strings.Contains(views["md"], "**1 finding (1 high)** on 1 pod") {
		t.Errorf("md summary count line:\n%s", section(views["md"], "Summary"))
	}
}

func TestGroupFindings(t *testing.T) {
	fs := []Finding{
		{RuleID: "a", Severity: SeverityHigh}, {RuleID: "a", Severity: SeverityHigh},
		{RuleID: "b", Severity: SeverityLow}, {RuleID: "c", Severity: SeverityLow}, {RuleID: "b", Severity: SeverityLow},
		{RuleID: "d", Severity: SeverityInfo},
	}
	var got [][]string
	for _, g := range groupFindings(fs) {
		var ids []string
		for _, f := range g.Findings {
			ids = append(ids, f.RuleID)
		}
		got = append(got, ids)
	}
	want := [][]string{{"a"}, {"a"}, {"b", "b"}, {"c"}, {"d"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("groups (-want +got):\n%s", diff)
	}
}

// TestHTMLHealthyPodWithFindingHasDetail: a Running pod whose container
// restarted is healthy by kubectl's columns but named by a finding; its panel
// must show its containers, log tail and the link to the finding, and its
// row must open it.
func TestHTMLHealthyPodWithFindingHasDetail(t *testing.T) {
	r := restartFindings(1)
	zero := int32(0)
	r.Pods = []Pod{
		{Namespace: "openshift-op-0", Name: "op-0-abc", Ready: "1/1", Status: "Running", Restarts: "3 (145m ago)", Age: "145m", Healthy: true,
			Containers: []Container{{Name: "op-0", Kind: "app", State: "running", Ready: true, RestartCount: 3, Last: &Termination{Reason: "Error", ExitCode: 1}}},
			Logs: []LogTail{{Container: "op-0", Previous: true, Path: "namespaces/openshift-op-0/pods/op-0-abc/op-0/op-0/logs/previous.log", Lines: 80,
				Tail: []LogLine{{Line: 79, Text: "level=fatal msg=\"connection refused\""}, {Line: 80, Text: "exiting"}}},
				{Container: "op-0", Rotated: "2.log.20261120-080000.gz", Path: "namespaces/openshift-op-0/pods/op-0-abc/op-0/op-0/logs/rotated/2.log.20261120-080000.gz", Lines: 3}}},
		{Namespace: "openshift-op-1", Name: "quiet", Ready: "1/1", Status: "Running", Restarts: "0", Age: "1d", Healthy: true,
			Containers: []Container{{Name: "c", State: "running", Ready: true, ExitCode: &zero}}},
		{Namespace: "shop", Name: "cart-1", Ready: "0/1", Status: "CreateContainerConfigError", Restarts: "0", Age: "145m"},
	}
	page := writeHTML(t, r)
	m := detailTag.FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no pod-detail-data element")
	}
	var details []podDetail
	if err := json.Unmarshal([]byte(m[1]), &details); err != nil {
		t.Fatal(err)
	}
	byKey := map[string]podDetail{}
	for _, d := range details {
		byKey[d.Key] = d
	}
	op, ok := byKey["openshift-op-0/op-0-abc"]
	if !ok {
		t.Fatalf("the healthy pod with a finding has no detail; details: %v", keys(details))
	}
	if len(op.Containers) != 1 || op.Containers[0].LastExit == "" {
		t.Errorf("containers: %+v", op.Containers)
	}
	if len(op.Findings) != 1 || op.Findings[0].Anchor != "finding-2" {
		t.Errorf("findings: %+v", op.Findings)
	}
	want := []detailLogTail{{Container: "op-0", Previous: true, Cite: "namespaces/openshift-op-0/pods/op-0-abc/op-0/op-0/logs/previous.log", Lines: 80,
		Tail: []detailLogLine{{79, `level=fatal msg="connection refused"`}, {80, "exiting"}}},
		{Container: "op-0", Rotated: "2.log.20261120-080000.gz", Cite: "namespaces/openshift-op-0/pods/op-0-abc/op-0/op-0/logs/rotated/2.log.20261120-080000.gz", Lines: 3, Tail: []detailLogLine{}}}
	if diff := cmp.Diff(want, op.Logs); diff != "" {
		t.Errorf("log tail (-want +got):\n%s", diff)
	}
	if _, ok := byKey["openshift-op-1/quiet"]; ok {
		t.Errorf("a healthy pod without a finding got a detail")
	}
	if _, ok := byKey["shop/cart-1"]; !ok {
		t.Errorf("the unhealthy pod lost its detail")
	}
	rows := podDataTag.FindStringSubmatch(page)
	if rows == nil {
		t.Fatal("no pod-data element")
	}
	var data [][]string
	if err := json.Unmarshal([]byte(rows[1]), &data); err != nil {
		t.Fatal(err)
	}
	for _, row := range data {
		if row[1] == "op-0-abc" && row[9] == "" {
			t.Errorf("the row of the healthy pod with a finding does not open its detail: %q", row)
		}
	}
	// The panel's script draws the log tail and the short columns do not wrap.
	for _, s := range []string{`"Log tail"`, `" (rotated, older lines)"`, "#pod-table td:nth-child(3), #pod-table td:nth-child(4), #pod-table td:nth-child(5), #pod-table td:nth-child(6)", "white-space: nowrap"} {
		if !strings.Contains(page, s) {
			t.Errorf("page lacks %s", s)
		}
	}
}

func keys(ds []podDetail) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Key)
	}
	return out
}

// TestLogTailsOrder: the reader adds logs in the order its workers finish;
// the report's order is fixed (container, previous first, then current,
// then the rotated files by restart count, then path).
func TestLogTailsOrder(t *testing.T) {
	p := &model.Pod{}
	for _, l := range []struct {
		container string
		previous  bool
		rotated   string
	}{{"b", false, ""}, {"a", false, "10.log.20261120-090000"}, {"a", false, ""}, {"b", true, ""}, {"a", false, "9.log.20261120-080000.gz"}, {"a", true, ""}} {
		log := &model.ContainerLog{Container: l.container, Previous: l.previous, Rotated: l.rotated}
		name := map[bool]string{true: "previous", false: "current"}[l.previous] + ".log"
		if l.rotated != "" {
			name = "rotated/" + l.rotated
		}
		log.SetPath(l.container+"/"+name, nil)
		p.Logs = append(p.Logs, log)
	}
	var got []string
	for _, l := range buildLogTails(p, func(s string) string { return s }) {
		got = append(got, l.Path+" "+l.Rotated)
	}
	want := []string{"a/previous.log ", "a/current.log ", "a/rotated/9.log.20261120-080000.gz 9.log.20261120-080000.gz",
		"a/rotated/10.log.20261120-090000 10.log.20261120-090000", "b/previous.log ", "b/current.log "}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}
