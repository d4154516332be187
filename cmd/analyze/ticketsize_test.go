package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mgtriage/mgtriage/report"
)

// TestTicketSized analyses the bundled sample and every gather of the
// shared corpus with the default flags: each report.md is at most
// report.DefaultMarkdownMaxChars characters (code points) and still names
// every pod that is not healthy (or, when the pod table is cut, every
// workload of them with its count of pods) and every finding above low.
// It logs each file's size, and its size with no bound. The corpus gathers
// are skipped under -short and when the corpus is absent.
func TestTicketSized(t *testing.T) {
	t.Run("sample", func(t *testing.T) { checkTicketSized(t, sampleGather) })
	t.Run("corpus", func(t *testing.T) { eachCorpusGather(t, checkTicketSized) })
}

// checkTicketSized analyses dir with the defaults and checks its report.md;
// false when no report was written.
func checkTicketSized(t *testing.T, dir string) bool {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := run(t, dir, "-o", out, "--format", "md,json")
	mdBytes, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Logf("no report (exit %d): %s", code, stderr)
		return false
	}
	f, err := os.Open(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := report.ReadJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	md := string(mdBytes)
	unbound := filepath.Join(t.TempDir(), "unbound")
	run(t, dir, "-o", unbound, "--format", "md", "--md-max-chars", "0")
	full, _ := os.ReadFile(filepath.Join(unbound, "report.md"))
	n := utf8.RuneCountInString(md)
	t.Logf("report.md: %d characters (%d with no bound)", n, utf8.RuneCountInString(string(full)))
	if n > report.DefaultMarkdownMaxChars {
		t.Errorf("report.md is %d characters, over %d", n, report.DefaultMarkdownMaxChars)
	}
	checkNamesFailing(t, md, r)
	return true
}

// mdUnescape undoes the Markdown's backslash escapes, for finding names.
var mdEscaped = regexp.MustCompile(`\\([[:punct:]])`)

// checkNamesFailing fails when md does not name a pod of r that is not
// healthy (its row, or its workload with its count of pods when the pod
// table is cut) or a finding above low (its title and its first object).
func checkNamesFailing(t *testing.T, md string, r *report.Report) {
	t.Helper()
	plain := mdEscaped.ReplaceAllString(md, "$1")
	workloads := strings.Contains(md, "**Not healthy, by workload**")
	count := map[string]int{}
	for _, p := range r.Pods {
		if !p.Healthy {
			w := "Pod/" + p.Name
			if p.Owner != "" {
				w = p.Owner
			}
			count[p.Namespace+"\x00"+w]++
		}
	}
	for _, p := range r.Pods {
		if p.Healthy {
			continue
		}
		if !workloads {
			if !strings.Contains(plain, "| "+p.Namespace+" | "+p.Name+" |") {
				t.Errorf("report.md names neither pod %s/%s nor its workload", p.Namespace, p.Name)
			}
			continue
		}
		w := "Pod/" + p.Name
		if p.Owner != "" {
			w = p.Owner
		}
		line := plain[strings.Index(plain, "**Not healthy, by workload**"):]
		line = line[:strings.Index(line, "\n")]
		ns := strings.Index(line, " "+p.Namespace+": ")
		if ns < 0 || !strings.Contains(line[ns:], w+" ("+strconv.Itoa(count[p.Namespace+"\x00"+w])+")") {
			t.Errorf("the pod table is cut, and the summary does not name workload %s/%s of pod %s with its count of pods:\n%s", p.Namespace, w, p.Name, line)
		}
	}
	for _, f := range r.Findings {
		if report.SeverityRank(f.Severity) >= report.SeverityRank(report.SeverityLow) {
			continue
		}
		obj := ""
		if len(f.Objects) > 0 {
			obj = f.Objects[0].Name
		}
		if !strings.Contains(plain, f.Title) || !strings.Contains(plain, obj) {
			t.Errorf("report.md does not name %s finding %q on %q", f.Severity, f.Title, obj)
		}
	}
}

// TestTicketTinyBound: the sample at 3,000 characters (and at
// --md-max-kb 3, the alias, 3,072) keeps the bound, says the cut at the
// top, keeps the summary and the top finding's evidence, and cuts no bullet
// in a word.
func TestTicketTinyBound(t *testing.T) {
	for _, tt := range []struct {
		flag, value string
		bound       int
	}{{"--md-max-chars", "3000", 3000}, {"--md-max-kb", "3", 3072}} {
		t.Run(tt.flag, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			if code, _, stderr := run(t, sampleGather, "-o", out, "--format", "md,json", tt.flag, tt.value); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			b, err := os.ReadFile(filepath.Join(out, "report.md"))
			must(t, err)
			md := string(b)
			if n := utf8.RuneCountInString(md); n > tt.bound {
				t.Errorf("report.md is %d characters, over %d", n, tt.bound)
			}
			note := strings.Index(md, "**Shortened to fit "+strconv.Itoa(tt.bound)+" characters:**")
			if note < 0 || note > strings.Index(md, "## Summary") {
				t.Errorf("no cut note above the summary:\n%s", md)
			}
			f, err := os.Open(filepath.Join(out, "report.json"))
			must(t, err)
			defer f.Close()
			r, err := report.ReadJSON(f)
			must(t, err)
			summary := md[strings.Index(md, "## Summary"):]
			if !strings.Contains(summary, "**18 findings (13 high, 4 medium, 1 low)** on 29 pods, 15 not healthy") || !strings.Contains(summary, "- **HIGH** "+r.Findings[0].Title) {
				t.Errorf("the summary lost its counts or its first line:\n%s", summary)
			}
			top := r.Findings[0]
			if len(top.Evidence) == 0 || !strings.Contains(md, "### 1. ") || !strings.Contains(md, top.Evidence[0].Path+":") {
				t.Errorf("the top finding's evidence did not survive:\n%s", md)
			}
			checkNamesFailing(t, md, &report.Report{Pods: r.Pods})
			unbound := filepath.Join(t.TempDir(), "unbound")
			run(t, sampleGather, "-o", unbound, "--format", "md", "--md-max-chars", "0")
			full, err := os.ReadFile(filepath.Join(unbound, "report.md"))
			must(t, err)
			for _, line := range strings.Split(md, "\n") {
				if !strings.HasPrefix(line, "- ") || !strings.HasSuffix(line, "…") {
					continue
				}
				body := strings.TrimSuffix(line, "…")
				word := body[strings.LastIndexAny(body, " (\"'")+1:]
				if word != "" && !regexp.MustCompile(regexp.QuoteMeta(word)+`([^\pL\pN]|$)`).Match(full) {
					t.Errorf("a bullet ends in a cut word %q: %s", word, line)
				}
			}
			if strings.Contains(md, "(0 restart…") {
				t.Errorf("a summary bullet ends mid-word")
			}
		})
	}
}

// TestRenderMarkdownBound: render takes --md-max-chars (and the alias) too.
func TestRenderMarkdownBound(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := run(t, sampleGather, "-o", out, "--format", "json"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	from := filepath.Join(out, "report.json")
	for _, args := range [][]string{{"--md-max-chars", "5000"}, {"--md-max-kb", "5"}} {
		code, stdout, stderr := run(t, append([]string{"render", "--from", from, "--format", "md"}, args...)...)
		bound := map[string]int{"--md-max-chars": 5000, "--md-max-kb": 5120}[args[0]]
		if code != 0 || utf8.RuneCountInString(stdout) > bound || !strings.Contains(stdout, "**Shortened to fit "+strconv.Itoa(bound)+" characters:**") {
			t.Errorf("render %v: exit %d, %d characters: %s", args, code, utf8.RuneCountInString(stdout), stderr)
		}
	}
	if code, _, stderr := run(t, "render", "--from", from, "--md-max-chars", "-1"); code != exitUsage || !strings.Contains(stderr, "--md-max-chars") {
		t.Errorf("a negative bound: exit %d: %s", code, stderr)
	}
}

// TestMarkdownBoundFlagErrors: a negative or unreadable bound is a usage
// error (exit 64) that names the flag, before the input is read.
func TestMarkdownBoundFlagErrors(t *testing.T) {
	for _, args := range [][]string{{"--md-max-chars", "-1"}, {"--md-max-kb", "-1"}, {"--md-max-kb", "x"}, {"--md-max-kb", "99999999999999999"}} {
		code, _, stderr := run(t, append([]string{"/nonexistent", "-o", t.TempDir()}, args...)...)
		if code != exitUsage || !strings.Contains(stderr, args[0]) {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
	}
}

// TestTicketEveryBound renders the sample's report.json at bounds from
// 1,000 to 50,000 characters: each file keeps its bound (or, below what
// the title and summary counts need, says so), says its cut at the top,
// and while the pod table is cut names every failing workload or counts
// the ones it does not name.
func TestTicketEveryBound(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "sample-report.json"))
	must(t, err)
	defer f.Close()
	r, err := report.ReadJSON(f)
	must(t, err)
	var full strings.Builder
	must(t, report.WriteMarkdown(&full, r, report.MarkdownOptions{}))
	for bound := 1000; bound <= 50000; bound += 997 {
		var b strings.Builder
		must(t, report.WriteMarkdown(&b, r, report.MarkdownOptions{MaxChars: bound}))
		md := b.String()
		n := utf8.RuneCountInString(md)
		switch {
		case utf8.RuneCountInString(full.String()) <= bound:
			if md != full.String() {
				t.Errorf("%d: the report fits but was changed", bound)
			}
			continue
		case strings.Contains(md, "**Over the size bound:**"):
			continue
		case n > bound:
			t.Errorf("%d: %d characters", bound, n)
		}
		note := strings.Index(md, "**Shortened to fit "+strconv.Itoa(bound)+" characters:**")
		if note < 0 || note > strings.Index(md, "## Summary") {
			t.Errorf("%d: no cut note above the summary", bound)
		}
		if strings.Contains(md, "pod rows (the summary names their workloads)") {
			if !regexp.MustCompile(`\*\*Not healthy, by workload\*\* \(15 pods, pods of each in brackets; the pod table is cut\): (shop: .*\(1\)|15 workloads, named in report\.html)[.;]`).MatchString(md) {
				t.Errorf("%d: pod rows cut, but no workloads line:\n%s", bound, md)
			}
		}
	}
}
