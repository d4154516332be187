package report

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mgtriage/mgtriage/parser/model"
)

// MarkdownOptions tunes WriteMarkdown.
type MarkdownOptions struct {
	// MaxChars bounds the output to MaxChars characters (Unicode code
	// points, as a ticket comment counts them) of the written file; 0 means
	// no limit. When the report does not fit, fit shortens and leaves out
	// parts in a fixed order (see fit), and a note at the top says what. The
	// title and the summary's counts are always written, so a bound smaller
	// than they are is not kept (the note says so).
	MaxChars int
}

// DefaultMarkdownMaxChars is the bound of report.md unless the user sets
// another: a ticket comment holds about 32,000 characters (Jira's limit is
// 32,767), so the whole file pastes into one.
const DefaultMarkdownMaxChars = 30000

// Limits that keep one hostile or huge value from taking over the Markdown.
// report.html and report.json keep everything.
const (
	mdTopFindings   = 10  // findings listed in the summary
	mdHealthItems   = 10  // entries shown of each gather health list
	mdTitleRunes    = 120 // a title in the summary
	mdHintRunes     = 240 // a hint in the summary
	mdTextRunes     = 2000
	mdEvidenceRunes = 500 // one evidence line
	mdEvidenceLines = 20  // evidence lines per finding (after folding)
	// mdGroupEvidenceLines bounds the evidence shown for a group of low or
	// info findings of one rule (the first finding's).
	mdGroupEvidenceLines = 6
	// mdShortEvidenceLines bounds the evidence of a finding fit shortened.
	mdShortEvidenceLines = 3
	mdObjects            = 20  // objects listed per finding
	mdAllNodesUpTo       = 20  // above this, only nodes that are not healthy are listed
	mdWorkloads          = 400 // workloads the summary names when the pod table is cut
)

// WriteMarkdown writes r as GitHub-flavoured Markdown that also reads well as
// plain text: a title, a summary short enough for a ticket comment, then the
// findings, the pods that are not healthy, the nodes and the gather problems.
// Near-identical evidence lines of a finding are folded into one with their
// count and time range (foldEvidence); report.json keeps each.
func WriteMarkdown(w io.Writer, r *Report, opt MarkdownOptions) error {
	doc := markdownDoc(r)
	if opt.MaxChars > 0 {
		doc.fit(opt.MaxChars)
	}
	_, err := io.WriteString(w, doc.String())
	return err
}

// chars is the length of s in Unicode code points, the unit of the bound.
func chars(s string) int { return utf8.RuneCountInString(s) }

// mdSection is one section of the Markdown: its heading (title), fixed text
// (head, tail) and items that fit may shorten (to their shorter forms) or
// leave out from the end.
type mdSection struct {
	title      string // "## Heading\n\n"; "" for the header above the summary
	head, tail string
	items      []string // each item in its current form
	// forms[i] are the shorter forms of item i, in the order fit uses them;
	// level[i] is how many of them it used (0: items[i] is the full form).
	forms     [][]string
	level     []int
	short     int // kept items in a shorter form
	kept      int
	keptChars int    // characters of items[:kept]
	fixed     int    // characters of title, head and tail
	unit, one string // what an item is, plural and singular, for the cut note; "" when none can be cut
	// keepHead: with every item cut, head and tail are still written (the summary's counts).
	keepHead bool
}

// cutAll reports whether fit left out every item of a section that had
// some: the section is then not written at all (never an empty heading or
// table); the cut note at the top names it.
func (s *mdSection) cutAll() bool {
	return s.unit != "" && s.title != "" && !s.keepHead && len(s.items) > 0 && s.kept == 0
}

// size is the section's length in characters as String writes it (without
// the summary's closing line and workloads, which mdDoc writes).
func (s *mdSection) size() int {
	if s.cutAll() {
		return 0
	}
	return s.fixed + s.keptChars
}

// shorten puts item i in its next shorter form; false when it has none.
func (s *mdSection) shorten(i int) bool {
	if i >= len(s.forms) || s.level[i] >= len(s.forms[i]) {
		return false
	}
	next := s.forms[i][s.level[i]]
	if i < s.kept {
		s.keptChars += chars(next) - chars(s.items[i])
		if s.level[i] == 0 {
			s.short++
		}
	}
	s.items[i] = next
	s.level[i]++
	return true
}

// shortened counts the kept items in a shorter form.
func (s *mdSection) shortened() int { return s.short }

// drop leaves out the last kept item.
func (s *mdSection) drop() {
	s.kept--
	s.keptChars -= chars(s.items[s.kept])
	if s.kept < len(s.level) && s.level[s.kept] > 0 {
		s.short--
	}
}

// setForms gives item i its shorter forms.
func (s *mdSection) setForms(i int, forms ...string) {
	if s.forms == nil {
		s.forms, s.level = make([][]string, len(s.items)), make([]int, len(s.items))
	}
	s.forms[i] = forms
}

type mdDoc struct {
	sections []*mdSection
	// summary and findings are the sections whose kept entries the summary's
	// closing line ("… and 8 more findings below") counts; groupSizes is the
	// number of findings in each finding entry, in order, ranks the
	// SeverityRank of each entry.
	summary, findings *mdSection
	groupSizes        []int
	ranks             []int
	groupsBefore      []int // findings in the entries before entry i; len(groupSizes)+1
	// gather's lines point at the health and coverage sections ("see
	// Coverage"); when fit leaves every line of one out, they point at
	// report.html instead.
	gather, health, coverage *mdSection
	pods, nodes, problems    *mdSection
	ask                      *mdSection
	// workloads is the summary's paragraph naming the workloads of the pods
	// that are not healthy, written when fit left out pod rows;
	// workloadForms are its shorter forms, naming fewer.
	workloads      string
	workloadsChars int
	workloadForms  []string
	limit          int  // the bound in characters that made cuts, for the note
	over           bool // only the header and the summary counts are written
}

func markdownDoc(r *Report) *mdDoc {
	d := &mdDoc{summary: mdSummary(r), findings: mdFindings(r), gather: mdGather(r), health: mdHealth(r), coverage: mdCoverage(r),
		pods: mdPods(r), nodes: mdNodes(r), problems: mdProblems(r), ask: mdAsk(r), workloads: mdWorkloadsLine(r, mdWorkloads)}
	d.workloadsChars = chars(d.workloads)
	if d.workloads != "" {
		for _, n := range []int{100, 30, 10, 0} {
			if w := mdWorkloadsLine(r, n); chars(w) < chars(d.workloads) {
				d.workloadForms = append(d.workloadForms, w)
			}
		}
	}
	d.groupsBefore = []int{0}
	for _, g := range groupFindings(r.Findings) {
		d.groupSizes = append(d.groupSizes, len(g.Findings))
		d.ranks = append(d.ranks, SeverityRank(g.Findings[0].Severity))
		d.groupsBefore = append(d.groupsBefore, d.groupsBefore[len(d.groupsBefore)-1]+len(g.Findings))
	}
	d.sections = []*mdSection{
		newSection("", RunComment(r.Run.RunID())+mdHeader(r), "", "", "", nil),
		d.summary,
		d.gather,
		d.ask,
		d.findings,
		d.pods,
		d.nodes,
		d.health,
		d.coverage,
		d.problems,
	}
	return d
}

// podsCut reports whether fit left out pod rows, so the summary names the workloads.
func (d *mdDoc) podsCut() bool {
	return d.pods.unit != "" && d.pods.kept < len(d.pods.items) && d.workloads != ""
}

// fit shortens and leaves out parts until the document, with its cut note,
// is at most limit characters (code points). Near-identical evidence lines
// are folded already, bound or not. Then, each step only while the
// document is over:
//
//  1. gather problems, node rows and gather health lines down to a few;
//  2. the low and info findings: first without remediation, docs and most
//     evidence, then each its heading and one line;
//  3. the coverage and gather health lines, the problem lines down to 3;
//  4. the medium findings as in 2; the other findings but the top one
//     without their details; the node rows; those findings to one line;
//  5. the commands to ask for; the problem lines; the low and info
//     findings' entries;
//  6. the pod rows (the summary then names every failing workload with
//     its count of pods);
//  7. the cluster and gather lines; the summary's hints; the other
//     finding entries; the top finding's remediation and details (its
//     evidence stays); the workloads the summary names beyond those with
//     most pods (the rest counted); the summary's lines; the top finding.
//
// When even the header and the summary's counts are over limit, only they
// are written (d.over), with a note that says so.
func (d *mdDoc) fit(limit int) {
	if chars(d.String()) <= limit {
		return
	}
	d.limit = limit
	// What String adds to size: the note and its blank line, the summary's
	// closing line, the pointers at sections cut whole.
	over := func() bool {
		return d.size()+chars(d.note())+1+chars(d.moreLine())+2*len(inReportHTML) > limit
	}
	drop := func(s *mdSection, keep int, want func(i int) bool) {
		for s.unit != "" && s.kept > keep && over() && (want == nil || want(s.kept-1)) {
			s.drop()
		}
	}
	shorten := func(s *mdSection, from, level int, want func(i int) bool) {
		for i := s.kept - 1; i >= from && over(); i-- {
			if want != nil && !want(i) {
				continue
			}
			for s.level[i] < level && over() && s.shorten(i) {
			}
		}
	}
	f := d.findings
	rankAtLeast := func(rank int) func(int) bool {
		return func(i int) bool { return i < len(d.ranks) && d.ranks[i] >= rank }
	}
	low, medium := SeverityRank(SeverityLow), SeverityRank(SeverityMedium)
	drop(d.problems, 10, nil)
	drop(d.nodes, 20, nil)
	drop(d.health, 10, nil)
	if f.forms != nil {
		shorten(f, 1, 1, rankAtLeast(low))
		shorten(f, 1, 2, rankAtLeast(low))
	}
	drop(d.coverage, 0, nil)
	drop(d.health, 0, nil)
	drop(d.problems, 3, nil)
	if f.forms != nil {
		shorten(f, 1, 1, rankAtLeast(medium))
		shorten(f, 1, 2, rankAtLeast(medium))
		shorten(f, 1, 1, nil)
	}
	drop(d.nodes, 0, nil)
	if f.forms != nil {
		shorten(f, 1, 2, nil)
	}
	drop(d.ask, 0, nil)
	// The files the tool could not read say what the findings may miss:
	// they go after the asks, before any finding entry.
	drop(d.problems, 0, nil)
	drop(f, 1, rankAtLeast(low))
	drop(d.pods, 0, nil)
	drop(d.gather, 0, nil)
	if d.summary.forms != nil {
		shorten(d.summary, 0, 1, nil)
	}
	drop(f, 1, nil)
	if f.forms != nil {
		shorten(f, 0, 2, nil)
	}
	for len(d.workloadForms) > 0 && d.podsCut() && over() {
		d.workloads, d.workloadForms = d.workloadForms[0], d.workloadForms[1:]
		d.workloadsChars = chars(d.workloads)
	}
	drop(d.summary, 0, nil)
	drop(f, 0, nil)
	if over() && chars(d.String()) > limit {
		d.over = true
	}
}

// size is the document's length in characters without the note and the
// summary's closing line.
func (d *mdDoc) size() int {
	n := 0
	for _, s := range d.sections {
		n += s.size()
	}
	if d.podsCut() {
		n += d.workloadsChars
	}
	return n
}

// inReportHTML is what pointer adds to "(see Coverage)".
const inReportHTML = " in report.html"

// pointer rewrites a cluster and gather line's "(see Gather health)" or
// "(see Coverage)" to "(see Coverage in report.html)" when fit left every
// line of that section out of this file.
func (d *mdDoc) pointer(line string) string {
	for _, p := range []struct {
		s    *mdSection
		name string
	}{{d.health, "Gather health"}, {d.coverage, "Coverage"}} {
		if p.s != nil && p.s.cutAll() {
			line = strings.Replace(line, "(see "+p.name+")", "(see "+p.name+inReportHTML+")", 1)
		}
	}
	return line
}

// moreLine closes the summary when it lists fewer finding entries than the
// report has: how many findings it leaves unnamed and where they are, below
// under Findings or, when fit left them out there, only in report.html.
func (d *mdDoc) moreLine() string {
	k, m := d.summary.kept, d.findings.kept
	if d.over {
		m = 0
	}
	if k >= len(d.groupSizes) {
		return ""
	}
	n := len(d.groupSizes)
	rest := d.groupsBefore[n] - d.groupsBefore[k]
	below := d.groupsBefore[max(k, min(m, n))] - d.groupsBefore[k]
	what := countNoun(rest, "finding", "findings")
	if k > 0 {
		what = "… and " + countNoun(rest, "more finding", "more findings")
	}
	switch {
	case below == rest:
		return "- " + what + " below\n"
	case below == 0:
		return "- " + what + " in report.html\n"
	}
	return fmt.Sprintf("- %s: %d below, %d only in report.html\n", what, below, rest-below)
}

// note says what fit shortened and left out, section by section. With
// d.over it says instead that the bound is below what the header and
// summary counts need, and what was written.
func (d *mdDoc) note() string {
	if d.over {
		// The note's own length counts: the short form when the header, the
		// summary counts and it fit, else the form that says the bound is not kept.
		base := chars(d.sections[0].head) + d.summary.size() + chars(d.moreLine()) + 1
		short := fmt.Sprintf("**Shortened to fit %d characters:** only the title, input, tool and summary counts were written. report.html has everything.\n", d.limit)
		if base+chars(short) <= d.limit {
			return short
		}
		const form = "**Over the size bound:** %d characters is less than the %d characters that the title, input, tool and summary counts need; only these were written. report.html has everything.\n"
		need := base + chars(fmt.Sprintf(form, d.limit, base))
		return fmt.Sprintf(form, d.limit, need)
	}
	return d.cutNote(func(s *mdSection) (int, int) { return s.shortened(), len(s.items) - s.kept })
}

// cutNote is the note for the counts of items each section has shortened
// and left out.
func (d *mdDoc) cutNote(counts func(s *mdSection) (shortened, cut int)) string {
	var short, out []string
	for _, s := range d.sections {
		if s.unit == "" {
			continue
		}
		noun := s.unit
		if len(s.items) == 1 {
			noun = s.one
		}
		n, cut := counts(s)
		if n > 0 {
			short = append(short, fmt.Sprintf("%d of %d %s", n, len(s.items), noun))
		}
		if cut > 0 {
			what := fmt.Sprintf("%d of %d %s", cut, len(s.items), noun)
			if s == d.pods && d.workloads != "" {
				what += " (the summary names their workloads)"
			}
			out = append(out, what)
		}
	}
	var parts []string
	if len(short) > 0 {
		parts = append(parts, "shortened "+joinAnd(short))
	}
	if len(out) > 0 {
		parts = append(parts, "left out "+joinAnd(out))
	}
	return fmt.Sprintf("**Shortened to fit %d characters:** %s. report.html has everything.\n", d.limit, strings.Join(parts, "; "))
}

// String writes the sections in order, with the cut note (when fit left
// anything out) right after the header, above the summary, where a reader
// sees it before anything it qualifies.
func (d *mdDoc) String() string {
	cut := d.over
	for _, s := range d.sections {
		cut = cut || s.kept < len(s.items) || s.shortened() > 0
	}
	var b strings.Builder
	b.Grow(d.size() + 512)
	for i, s := range d.sections {
		if d.over && i > 0 && s != d.summary {
			continue
		}
		if s.cutAll() {
			continue
		}
		b.WriteString(s.title + s.head)
		for _, it := range s.items[:s.kept] {
			if s == d.gather {
				it = d.pointer(it)
			}
			b.WriteString(it)
		}
		if s == d.summary && len(d.groupSizes) > 0 {
			b.WriteString(d.moreLine())
		}
		b.WriteString(s.tail)
		if s == d.summary && !d.over && d.podsCut() {
			b.WriteString(d.workloads)
		}
		if i == 0 && cut {
			b.WriteString(d.note() + "\n")
		}
	}
	return b.String()
}

func newSection(title, head, tail, unit, one string, items []string) *mdSection {
	n := 0
	for _, it := range items {
		n += chars(it)
	}
	return &mdSection{title: title, head: head, tail: tail, items: items, kept: len(items), keptChars: n, unit: unit, one: one,
		fixed: chars(title) + chars(head) + chars(tail)}
}

func joinAnd(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// mdHeader is the title and what ties the report to the ticket's
// attachment: the input's name, size and SHA-256 (or that it is a folder),
// the tool's and the rule table's versions; then, when the input was not read
// to its end, a notice saying so before anything else.
func mdHeader(r *Report) string {
	var b strings.Builder
	g := r.Gather
	b.WriteString("# mgtriage report")
	if g.ClusterVersion != "" {
		b.WriteString(": OpenShift " + mdText(g.ClusterVersion))
	}
	b.WriteString("\n\n")
	name, detail := inputText(g)
	line := "- **Input:** " + mdCode(name)
	if detail != "" {
		line += ", " + mdText(detail)
	}
	b.WriteString(line + "\n")
	tool := mdText(orUnknown(r.Tool.Name)) + " " + mdText(orUnknown(r.Tool.Version)) + ", rule table " + mdText(orUnknown(r.Rules.Version))
	if r.Rules.Count > 0 {
		tool += " (" + countNoun(r.Rules.Count, "rule", "rules") + ")"
	}
	b.WriteString("- **Tool:** " + tool + "\n")
	for _, p := range r.Rules.Packs {
		b.WriteString("- **Rule pack:** " + mdText(p.Words()) + "\n")
	}
	if r.Window != nil {
		b.WriteString("- **Incident window:** " + mdText(r.Window.Words()) + "\n")
	}
	b.WriteString("\n")
	if label, text, tail := InputNotice(g); label != "" {
		b.WriteString("**" + label + ":** " + mdText(text) + ". " + tail + "\n\n")
	}
	if g.Mixed != "" {
		b.WriteString("**Mixed gather:** " + mdText(g.Mixed) + ".\n\n")
	}
	return b.String()
}

// mdSummaryEntries bounds the finding lines of the summary, which with its
// heading, count line and closing line stays within 15 lines.
const mdSummaryEntries = 10

// mdSummary is what a ticket comment starts with: the counts in one line,
// then one line per finding (low and info findings of one rule as one line
// with their count and examples): severity, title, where, and the hint (why).
func mdSummary(r *Report) *mdSection {
	var b strings.Builder
	s := r.Summary
	var counts []string
	for _, c := range severityCounts(r) {
		if c.Count > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", c.Count, mdText(c.Severity)))
		}
	}
	total := countNoun(totalFindings(r), "finding", "findings")
	if len(counts) > 0 {
		total += " (" + strings.Join(counts, ", ") + ")"
	}
	fmt.Fprintf(&b, "**%s** on %s, %d not healthy; %s.\n\n", total, countNoun(s.Pods, "pod", "pods"), s.UnhealthyPods, countNoun(s.Nodes, "node", "nodes"))
	if len(r.Findings) == 0 {
		if note := windowNote(r); note != "" {
			b.WriteString(mdText(note) + "\n\n")
		} else if missing := coverageGaps(r); len(missing) > 0 {
			fmt.Fprintf(&b, "No rule fired on what the input holds; it has no %s, so this is not a clean bill of health.\n\n", joinOr(missing))
		} else {
			b.WriteString("No rule fired.\n\n")
		}
		return newSection("## Summary\n\n", b.String(), "", "", "", nil)
	}
	// The closing line ("… and 8 more findings below") is mdDoc.moreLine's:
	// it depends on what fit keeps here and under Findings.
	var lines, short []string
	for i, g := range groupFindings(r.Findings) {
		if i == mdSummaryEntries {
			break
		}
		lines = append(lines, mdSummaryLine(g)+"\n")
		short = append(short, mdSummaryShortLine(g)+"\n")
	}
	sec := newSection("## Summary\n\n", b.String(), "\n", "summary lines", "summary line", lines)
	for i := range lines {
		sec.setForms(i, short[i])
	}
	sec.keepHead = true
	return sec
}

// mdSummaryShortLine is a summary line without its hint: "**HIGH** title —
// where", the form fit shortens a summary line to.
func mdSummaryShortLine(g findingGroup) string {
	f := g.Findings[0]
	title := mdText(truncateWords(cleanLine(f.Title), mdTitleRunes))
	if len(g.Findings) == 1 {
		return fmt.Sprintf("- **%s** %s — %s", mdSeverity(f.Severity), title, mdText(objectsSummary(f)))
	}
	return fmt.Sprintf("- **%s** ×%d %s — %s", mdSeverity(f.Severity), len(g.Findings), title, mdText(examples(groupObjects(g), 3)))
}

// mdWorkloadsLine is the summary's paragraph that fit writes when it left
// out pod rows: every workload of the pods that are not healthy with its
// count of pods, by namespace ("shop: ReplicaSet/web-7d9f (2),
// StatefulSet/db (1)"), the namespaces and the workloads in each with most
// pods first. At most limit workloads are named, those with most pods; the
// rest are counted. A pod's workload is its controller as the pod names it
// (Kind/name, Pod.Owner), or the pod itself (Pod/name) when it has none.
// "" when every pod is healthy.
func mdWorkloadsLine(r *Report, limit int) string {
	type workload struct {
		ns, name string
		pods     int
	}
	var all []*workload
	at := map[string]*workload{}
	nsPods := map[string]int{}
	pods := 0
	for _, p := range r.Pods {
		if p.Healthy {
			continue
		}
		pods++
		ns := cleanLine(p.Namespace)
		name := "Pod/" + cleanLine(p.Name)
		if p.Owner != "" {
			name = cleanLine(p.Owner)
		}
		w := at[ns+"\x00"+name]
		if w == nil {
			w = &workload{ns: ns, name: name}
			at[ns+"\x00"+name] = w
			all = append(all, w)
		}
		w.pods++
		nsPods[ns]++
	}
	if pods == 0 {
		return ""
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].pods > all[j].pods })
	named := all[:min(limit, len(all))]
	rest := 0
	for _, w := range all[len(named):] {
		rest += w.pods
	}
	// Named ones by namespace, most pods first, each namespace's in order.
	sort.SliceStable(named, func(i, j int) bool { return nsPods[named[i].ns] > nsPods[named[j].ns] })
	var groups []string
	for i := 0; i < len(named); {
		j := i
		var names []string
		for ; j < len(named) && named[j].ns == named[i].ns; j++ {
			names = append(names, fmt.Sprintf("%s (%d)", mdText(named[j].name), named[j].pods))
		}
		groups = append(groups, mdText(orDot(named[i].ns))+": "+strings.Join(names, ", "))
		i = j
	}
	switch {
	case len(named) == 0:
		groups = append(groups, fmt.Sprintf("%s, named in report.html", countNoun(len(all), "workload", "workloads")))
	case len(named) < len(all):
		groups = append(groups, fmt.Sprintf("and %s with %s", countNoun(len(all)-len(named), "more workload", "more workloads"), countNoun(rest, "pod", "pods")))
	}
	return fmt.Sprintf("**Not healthy, by workload** (%s, pods of each in brackets; the pod table is cut): %s.\n\n", countNoun(pods, "pod", "pods"), strings.Join(groups, "; "))
}

// mdSummaryLine is one summary line: "**HIGH** title — where: hint", or for a
// group "**LOW** ×13 title — a, b, c and 10 more: first hint".
func mdSummaryLine(g findingGroup) string {
	f := g.Findings[0]
	title := mdText(truncateWords(cleanLine(f.Title), mdTitleRunes))
	hint := mdText(truncateWords(cleanLine(f.Hint), mdHintRunes))
	if sig := f.Signature; sig != nil {
		// The cause the deciding line states, then that line in its own
		// words: a ticket reader sees both without opening the finding.
		hint = mdText(truncateWords(cleanLine(sig.Cause), mdHintRunes)) + " — " + mdCode(citeLine(sig.Path, sig.Line)) + ": \"" + mdText(cleanLine(sig.Quote)) + "\""
	}
	if len(g.Findings) == 1 {
		return fmt.Sprintf("- **%s** %s — %s: %s", mdSeverity(f.Severity), title, mdText(objectsSummary(f)), hint)
	}
	return fmt.Sprintf("- **%s** ×%d %s — %s; for example: %s", mdSeverity(f.Severity), len(g.Findings), title,
		mdText(examples(groupObjects(g), 3)), hint)
}

// citeLine is path:line, or the path alone when the line is unknown.
func citeLine(path string, line int) string {
	if line > 0 {
		return fmt.Sprintf("%s:%d", path, line)
	}
	return path
}

// examples is "a, b, c and 10 more".
func examples(list []string, n int) string {
	if len(list) <= n {
		return joinAnd(list)
	}
	return strings.Join(list[:n], ", ") + fmt.Sprintf(" and %d more", len(list)-n)
}

// mdGather is the cluster and gather detail under the summary.
func mdGather(r *Report) *mdSection {
	var lines []string
	g := r.Gather
	cluster := mdText(versionWords(g).Cluster)
	var extra []string
	if g.Platform != "" {
		extra = append(extra, "platform "+mdText(g.Platform))
	}
	if g.ClusterID != "" {
		extra = append(extra, "cluster ID "+mdText(g.ClusterID))
	}
	if len(extra) > 0 {
		cluster += " (" + strings.Join(extra, ", ") + ")"
	}
	lines = append(lines, fmt.Sprintf("- **Cluster:** %s\n", cluster))
	if g.Printer != nil {
		lines = append(lines, fmt.Sprintf("- **Columns:** %s\n", mdText(printerLine(g.Printer))))
	}
	lines = append(lines, fmt.Sprintf("- **Gathered:** %s\n", gatherTime(g)))
	input := mdCode(truncateRunes(cleanLine(orUnknown(g.Path)), 300))
	if g.Files > 0 {
		input += fmt.Sprintf(" (%s, %s)", countNoun(g.Files, "file", "files"), humanBytes(g.Bytes))
	}
	lines = append(lines, fmt.Sprintf("- **Read from:** %s\n", input))
	if c := g.Coverage.Combined; len(c) > 0 {
		// Which parts of the upload were read as one cluster, and why: the
		// ticket must say it even when the Coverage section is cut.
		var parts []string
		for i, p := range c {
			if i == 3 {
				parts = append(parts, fmt.Sprintf("and %d more", len(c)-3))
				break
			}
			parts = append(parts, truncateWords(cleanLine(p), 400))
		}
		lines = append(lines, fmt.Sprintf("- **Combined:** %s (see Coverage)\n", mdText(strings.Join(parts, "; "))))
	}
	s := r.Summary
	lines = append(lines, fmt.Sprintf("- **Pods:** %s; %s; %s\n",
		mdText(withNote(fmt.Sprintf("%d, %d not healthy", s.Pods, s.UnhealthyPods), limitNote(s, model.CutPods))),
		mdText(withNote(countNoun(s.Nodes, "node", "nodes"), limitNote(s, model.CutNodes))),
		mdText(withNote(fmt.Sprintf("%s (%s)", countNoun(s.Events, "event", "events"), countNoun(s.WarningEvents, "warning", "warnings")), limitNote(s, model.CutEvents)))))
	if other := otherLimits(s); len(other) > 0 {
		lines = append(lines, fmt.Sprintf("- **Cut by a limit:** %s (see Coverage)\n", mdText(strings.Join(other, "; "))))
	}
	if gaps := healthGaps(g.Health); len(gaps) > 0 {
		lines = append(lines, fmt.Sprintf("- **Gather gaps:** %s (see Gather health)\n", strings.Join(gaps, ", ")))
	}
	missing := coverageGaps(r)
	if len(missing) > 0 {
		lines = append(lines, fmt.Sprintf("- **Not in the input:** %s (see Coverage)\n", joinAnd(missing)))
	}
	return newSection("## Cluster and gather\n\n", "", "\n", "cluster and gather lines", "cluster and gather line", lines)
}

func mdFindings(r *Report) *mdSection {
	if len(r.Findings) == 0 {
		return newSection("## Findings\n\n", "None.\n\n", "", "", "", nil)
	}
	groups := groupFindings(r.Findings)
	items := make([]string, len(groups))
	forms := make([][2]string, len(groups))
	for i, g := range groups {
		last := mdCompact
		if i == 0 {
			last = mdTopEvidence
		}
		if len(g.Findings) == 1 {
			items[i] = mdFinding(i+1, g.Findings[0], mdFull)
			forms[i] = [2]string{mdFinding(i+1, g.Findings[0], mdShort), mdFinding(i+1, g.Findings[0], last)}
		} else {
			items[i] = mdFindingGroup(i+1, g, mdFull)
			forms[i] = [2]string{mdFindingGroup(i+1, g, mdShort), mdFindingGroup(i+1, g, last)}
		}
	}
	// Findings of one rule with the same cause share an entry: the cut note
	// then counts entries, not findings, and says so.
	unit, one := "findings", "finding"
	if len(groups) != len(r.Findings) {
		unit, one = fmt.Sprintf("finding entries (%d findings)", len(r.Findings)), fmt.Sprintf("finding entry (%d findings)", len(r.Findings))
	}
	sec := newSection("## Findings\n\n", "", "", unit, one, items)
	for i, f := range forms {
		sec.setForms(i, f[0], f[1])
	}
	return sec
}

// mdForm is how much of a finding entry the Markdown writes: all of it,
// or a shorter form fit uses to keep the size bound.
type mdForm int

const (
	mdFull mdForm = iota
	// mdShort leaves out remediation and docs and shows at most
	// mdShortEvidenceLines evidence lines.
	mdShort
	// mdCompact is the heading and one line: the rule and the objects.
	mdCompact
	// mdTopEvidence, the top finding's last form, is the heading, the
	// objects and mdShortEvidenceLines evidence lines.
	mdTopEvidence
)

// mdLeftOutRemediation stands for the remediation and docs of a finding
// fit shortened.
const mdLeftOutRemediation = "**Remediation** and **Docs**: left out to fit the size bound; see report.html.\n\n"

// mdInHTML ends a finding entry fit shortened to one line: where the rest is.
const mdInHTML = "hint, remediation and all evidence are in report.html"

// mdFindingGroup writes several low or info findings of one rule as one
// entry: the objects, the first finding's hint, remediation and docs; each
// finding's own hint and evidence are in report.html and report.json.
func mdFindingGroup(n int, g findingGroup, form mdForm) string {
	f := g.Findings[0]
	var b strings.Builder
	fmt.Fprintf(&b, "### %d. %s ×%d: %s\n\n", n, mdSeverity(f.Severity), len(g.Findings), mdHeading(f.Title))
	rule := mdCode(cleanLine(f.RuleID)) + " v" + strconv.Itoa(f.RuleVersion)
	objs := groupObjects(g)
	if form == mdCompact || form == mdTopEvidence {
		fmt.Fprintf(&b, "- %s, %s on %s; %s\n\n", rule, countNoun(len(g.Findings), "finding", "findings"), mdText(examples(objs, 5)), mdInHTML)
		if form == mdTopEvidence && len(f.Evidence) > 0 {
			b.WriteString(mdEvidenceN(f.Evidence, mdShortEvidenceLines) + "\n")
		}
		return b.String()
	}
	if f.Category != "" {
		rule += ", category " + mdText(f.Category)
	}
	fmt.Fprintf(&b, "- **Rule:** %s, %s; each one's hint and evidence are in report.html\n", rule, countNoun(len(g.Findings), "finding", "findings"))
	shown := objs
	if len(shown) > mdObjects {
		shown = shown[:mdObjects]
	}
	var cells []string
	for _, o := range shown {
		cells = append(cells, mdText(o))
	}
	if len(objs) > len(shown) {
		cells = append(cells, fmt.Sprintf("and %d more", len(objs)-len(shown)))
	}
	fmt.Fprintf(&b, "- **Objects:** %s\n", strings.Join(cells, "; "))
	fmt.Fprintf(&b, "- **Hint** (first of them): %s\n\n", mdText(f.Hint))
	lines := mdGroupEvidenceLines
	if form == mdShort {
		lines = mdShortEvidenceLines
		if len(f.Remediation)+len(f.Docs) > 0 {
			b.WriteString(mdLeftOutRemediation)
		}
	} else {
		mdRemediationDocs(&b, f, " (first of them)")
	}
	if len(f.Evidence) > 0 {
		b.WriteString("**Evidence** (first of them)\n\n")
		b.WriteString(mdEvidenceN(f.Evidence, lines))
		b.WriteString("\n")
	}
	return b.String()
}

// mdRemediationDocs writes a finding's numbered remediation steps and its
// docs links; note follows the Remediation heading (" (first of them)" for
// a group of findings).
func mdRemediationDocs(b *strings.Builder, f Finding, note string) {
	if len(f.Remediation) > 0 {
		b.WriteString("**Remediation**" + note + "\n\n")
		for i, step := range f.Remediation {
			fmt.Fprintf(b, "%d. %s\n", i+1, mdStep(step))
		}
		b.WriteString("\n")
	}
	if len(f.Docs) > 0 {
		b.WriteString("**Docs**\n\n")
		for _, d := range f.Docs {
			fmt.Fprintf(b, "- %s\n", mdLink(d))
		}
		b.WriteString("\n")
	}
}

// mdFindingObjects is a finding's objects as its Objects line lists them:
// "3 pods (same workload …): a; b; c", at most mdObjects named.
func mdFindingObjects(f Finding) string {
	var objs []string
	for i, o := range f.Objects {
		if i == mdObjects {
			objs = append(objs, fmt.Sprintf("and %d more", len(f.Objects)-mdObjects))
			break
		}
		objs = append(objs, mdText(objectDetail(o)))
	}
	lead := ""
	if n := podObjects(f); n > 1 {
		lead = mdText(objectsSummary(f)) + ": "
	}
	return lead + strings.Join(objs, "; ")
}

func mdFinding(n int, f Finding, form mdForm) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### %d. %s: %s\n\n", n, mdSeverity(f.Severity), mdHeading(f.Title))
	rule := mdCode(cleanLine(f.RuleID)) + " v" + strconv.Itoa(f.RuleVersion)
	if form == mdCompact || form == mdTopEvidence {
		on := ""
		if len(f.Objects) > 0 {
			on = " on " + mdFindingObjects(f)
		}
		fmt.Fprintf(&b, "- %s%s; %s\n\n", rule, on, mdInHTML)
		if form == mdTopEvidence && len(f.Evidence) > 0 {
			b.WriteString(mdEvidenceN(f.Evidence, mdShortEvidenceLines) + "\n")
		}
		return b.String()
	}
	if f.Category != "" {
		rule += ", category " + mdText(f.Category)
	}
	fmt.Fprintf(&b, "- **Rule:** %s\n", rule)
	fmt.Fprintf(&b, "- **Severity:** %s\n", mdText(f.Severity))
	if len(f.Objects) > 0 {
		fmt.Fprintf(&b, "- **Objects:** %s\n", mdFindingObjects(f))
	}
	if len(f.Explains) > 0 {
		var refs []string
		for i, o := range f.Explains {
			if i == mdObjects {
				refs = append(refs, fmt.Sprintf("and %d more", len(f.Explains)-mdObjects))
				break
			}
			refs = append(refs, mdText(explainRef(o)))
		}
		fmt.Fprintf(&b, "- **Explains:** %s: %s\n", countNoun(len(f.Explains), "pod finding", "pod findings"), strings.Join(refs, "; "))
	}
	fmt.Fprintf(&b, "- **Hint:** %s\n", mdText(f.Hint))
	if len(f.Missing) > 0 {
		var miss []string
		for _, m := range f.Missing {
			miss = append(miss, mdText(m))
		}
		fmt.Fprintf(&b, "- **Missing evidence:** %s\n", strings.Join(miss, "; "))
	}
	b.WriteString("\n")
	lines := mdEvidenceLines
	if form == mdShort {
		lines = mdShortEvidenceLines
		if len(f.Remediation)+len(f.Docs) > 0 {
			b.WriteString(mdLeftOutRemediation)
		}
	} else {
		mdRemediationDocs(&b, f, "")
	}
	if len(f.Evidence) > 0 {
		b.WriteString("**Evidence**\n\n")
		b.WriteString(mdEvidenceN(f.Evidence, lines))
		b.WriteString("\n")
	}
	return b.String()
}

// mdEvidence writes evidence lines as "path:line: text" in a fenced block whose
// fence is longer than any run of backticks in it, so no text can close it.
// A line break inside a text continues on an indented line. Near-identical
// lines are folded into the first (foldEvidence), which ends with their
// count and time range.
func mdEvidence(ev []Evidence) string { return mdEvidenceN(ev, mdEvidenceLines) }

// mdEvidenceN is mdEvidence with at most limit lines after folding.
func mdEvidenceN(ev []Evidence, limit int) string {
	var body strings.Builder
	folded := foldEvidence(ev)
	for i, e := range folded {
		if i == limit {
			rest := 0
			for _, f := range folded[i:] {
				rest += f.Lines
			}
			fmt.Fprintf(&body, "… %s in report.html\n", countNoun(rest, "more evidence line", "more evidence lines"))
			break
		}
		text := truncateRunes(strings.TrimRight(cleanText(e.Text), "\n"), mdEvidenceRunes)
		text = strings.ReplaceAll(text, "\n", "\n    ")
		body.WriteString(evidenceCite(e.Evidence) + ": " + text + e.foldNote() + "\n")
	}
	fence := strings.Repeat("`", max(3, longestRun(body.String(), '`')+1))
	return fence + "text\n" + body.String() + fence + "\n"
}

func mdPods(r *Report) *mdSection {
	const head = "## Pods that are not healthy\n\n"
	var rows []string
	for _, p := range r.Pods {
		if !p.Healthy {
			rows = append(rows, mdRow(p.Namespace, p.Name, p.Ready, p.Status, p.Restarts, p.Age, stageCell(p), p.Node))
		}
	}
	if len(rows) == 0 {
		return newSection(head, "None.\n\n", "", "", "", nil)
	}
	table := "| NAMESPACE | NAME | READY | STATUS | RESTARTS | AGE | STAGE | NODE |\n|---|---|---|---|---|---|---|---|\n"
	return newSection(head, table, "\n", "pod rows", "pod row", rows)
}

func mdNodes(r *Report) *mdSection {
	const head = "## Nodes\n\n"
	if len(r.Nodes) == 0 {
		return newSection(head, "None in the gather.\n\n", "", "", "", nil)
	}
	var rows []string
	hidden := 0
	for _, n := range r.Nodes {
		if len(r.Nodes) > mdAllNodesUpTo && n.Ready == "True" && len(n.Conditions) == 0 {
			hidden++
			continue
		}
		rows = append(rows, mdRow(n.Name, n.Ready, strings.Join(n.Roles, ","), n.KubeletVersion, strings.Join(n.Conditions, "; ")))
	}
	if len(rows) == 0 {
		return newSection(head, fmt.Sprintf("All %d nodes are Ready with no other condition.\n\n", hidden), "", "", "", nil) // hidden > mdAllNodesUpTo
	}
	tail := "\n"
	if hidden > 0 {
		tail = "\n" + countNoun(hidden, "other node is", "other nodes are") + " Ready with no other condition.\n\n"
	}
	table := "| NAME | READY | ROLES | VERSION | CONDITIONS |\n|---|---|---|---|---|\n"
	return newSection(head, table, tail, "node rows", "node row", rows)
}

// mdHealth is the Gather health section: the gathers found in the input, then
// each list of what the gather lacks, mdHealthItems entries each.
func mdHealth(r *Report) *mdSection {
	const head = "## Gather health\n\n"
	g := r.Gather
	var items []string
	if len(g.Layouts) > 0 {
		items = append(items, "| ROOT | KIND | IMAGE | NODE | PODS |\n|---|---|---|---|---|\n")
		more := 0
		for i, l := range g.Layouts {
			if i == mdHealthItems {
				more = len(g.Layouts) - mdHealthItems
				break
			}
			items = append(items, mdRow(orDot(l.Root), l.Kind, l.Image, l.Node, strconv.Itoa(l.Pods)))
		}
		if more > 0 {
			items = append(items, "\n… and "+countNoun(more, "more gather", "more gathers")+"\n")
		}
		items = append(items, "\n")
	}
	h := g.Health
	lists := []struct {
		title string
		list  []string
		// quiet: an empty list is not named among the fine ones (only
		// sosreports have a manifest).
		quiet bool
	}{
		{"must-gather.logs errors", h.MustGatherErrors, false},
		{"Namespaces without pods.yaml", h.NamespacesWithoutPods, false},
		{"Pods without logs", h.PodsWithoutLogs, false},
		{"Nodes without kubelet logs", h.NodesWithoutLogs, false},
		{"sos commands that failed or were cut", h.SosCommands, true},
	}
	var fine []string
	for _, l := range lists {
		total := listTotal(l.list)
		if total == 0 {
			if !l.quiet {
				fine = append(fine, strings.ToLower(l.title[:1])+l.title[1:])
			}
			continue
		}
		items = append(items, fmt.Sprintf("**%s** (%d)\n\n", l.title, total))
		shown, more := boundedList(l.list, mdHealthItems)
		for _, s := range shown {
			items = append(items, "- "+mdEscape(strings.TrimSpace(truncateWords(cleanLine(s), mdEvidenceRunes)), true)+"\n")
		}
		if more > 0 {
			items = append(items, fmt.Sprintf("- … and %d more\n", more))
		}
		items = append(items, "\n")
	}
	tail := ""
	if len(fine) > 0 {
		tail = "No " + joinOr(fine) + ".\n\n"
	}
	if len(items) == 0 {
		return newSection(head, tail, "", "", "", nil)
	}
	return newSection(head, "", tail, "gather health lines", "gather health line", items)
}

// mdAskItems bounds the commands the Markdown lists; the others are counted.
const mdAskItems = 15

// mdAsk is the "What to ask the customer for" section: the first
// mdAskItems commands of r.Ask, numbered, each with where it runs and why;
// nothing when the report asks for nothing.
func mdAsk(r *Report) *mdSection {
	if len(r.Ask) == 0 {
		return newSection("", "", "", "", "", nil)
	}
	cli := "`kubectl`"
	if r.Gather.Distribution == "OpenShift" {
		cli = "`oc`"
	}
	head := "The evidence below is not in the upload, and a finding or a gather health check needs it. Ask for the output of these commands (run where " + cli + " is logged in to the cluster, or on the node named):\n\n"
	var items []string
	for i, a := range r.Ask {
		if i == mdAskItems {
			break
		}
		on := ""
		if a.On != "" {
			on = " (on " + mdText(a.On) + ")"
		}
		items = append(items, fmt.Sprintf("%d. %s%s: %s\n", i+1, mdCode(a.Command), on, mdText(a.Why)))
	}
	tail := "\n"
	if n := len(r.Ask) - len(items); n > 0 {
		tail = "\n" + countNoun(n, "more command is", "more commands are") + " in report.html and report.json.\n\n"
	}
	return newSection("## What to ask the customer for\n\n", head, tail, "commands to ask for", "command to ask for", items)
}

// mdCoverage is the Coverage section: what was read and used, recognised
// and not used, not placed, and the state of each kind the analysis reads.
func mdCoverage(r *Report) *mdSection {
	var lines []string
	for _, l := range coverageLines(r) {
		lines = append(lines, fmt.Sprintf("- **%s:** %s\n", l.Label, mdText(truncateWords(cleanLine(l.Text), mdCoverageRunes))))
	}
	return newSection("## Coverage\n\n", "", "\n", "coverage lines", "coverage line", lines)
}

// mdCoverageRunes bounds one line of the Coverage section.
const mdCoverageRunes = 2000

// healthGaps names the gather health lists that are not empty, with their sizes.
func healthGaps(h Health) []string {
	var out []string
	for _, l := range []struct {
		list      []string
		one, many string
	}{
		{h.MustGatherErrors, "must-gather error", "must-gather errors"},
		{h.NamespacesWithoutPods, "namespace without pods.yaml", "namespaces without pods.yaml"},
		{h.PodsWithoutLogs, "pod without logs", "pods without logs"},
		{h.NodesWithoutLogs, "node without kubelet logs", "nodes without kubelet logs"},
		{h.SosCommands, "sos command problem", "sos command problems"},
	} {
		switch n := listTotal(l.list); n {
		case 0:
		case 1:
			out = append(out, "1 "+l.one)
		default:
			out = append(out, fmt.Sprintf("%d %s", n, l.many))
		}
	}
	return out
}

func joinOr(s []string) string {
	if len(s) < 2 {
		return joinAnd(s)
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

func orDot(s string) string {
	if s == "" {
		return "."
	}
	return s
}

func mdProblems(r *Report) *mdSection {
	const head = "## Gather problems\n\n"
	if len(r.Problems) == 0 {
		return newSection(head, "None.\n\n", "", "", "", nil)
	}
	items := make([]string, len(r.Problems))
	for i, p := range r.Problems {
		items[i] = "- " + mdCode(truncateRunes(cleanLine(p.Path), 300)) + ": " + mdText(p.Error) + "\n"
	}
	return newSection(head, "", "\n", "gather problems", "gather problem", items)
}

// mdRow is one GFM table row of escaped cells.
func mdRow(cells ...string) string {
	var b strings.Builder
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" ")
		b.WriteString(mdCell(c))
		b.WriteString(" |")
	}
	b.WriteString("\n")
	return b.String()
}

// mdSeverity is a severity in capitals, for headings and summary lines.
func mdSeverity(s string) string {
	if s == "" {
		return "UNKNOWN"
	}
	return mdText(strings.ToUpper(s))
}

// mdActive lists the characters escaped with a backslash in Markdown text:
// emphasis, code, links, HTML, entities, table pipes, strikethrough and math.
const mdActive = "\\`*_[]<>&|~$"

// mdCell makes s safe as one GFM table cell: control characters stripped, line
// breaks turned into spaces and every Markdown-active character, the pipe and
// HTML escaped.
func mdCell(s string) string {
	return mdEscape(cleanLine(s), false)
}

// mdText makes s safe as inline Markdown text after a line's own prefix:
// like mdCell, trimmed and cut to mdTextRunes.
func mdText(s string) string {
	return mdEscape(strings.TrimSpace(truncateWords(cleanLine(s), mdTextRunes)), false)
}

// mdHeading is mdText for a heading, whose trailing #s would be dropped.
func mdHeading(s string) string {
	t := mdText(s)
	if strings.HasSuffix(t, "#") {
		t = t[:len(t)-1] + "\\#"
	}
	return t
}

// mdEscape backslash-escapes the characters of mdActive in s. With blockStart,
// for text that begins a list item's content, a leading character that would
// start a heading, list, rule or quote is escaped too.
func mdEscape(s string, blockStart bool) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	if blockStart {
		if s != "" && strings.ContainsRune("#-+=", rune(s[0])) {
			b.WriteByte('\\')
		} else if i := leadingDigits(s); i > 0 && i < len(s) && (s[i] == '.' || s[i] == ')') {
			b.WriteString(s[:i])
			b.WriteByte('\\')
			s = s[i:]
		}
	}
	for _, r := range s {
		if r < utf8.RuneSelf && strings.ContainsRune(mdActive, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func leadingDigits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// mdCode writes s as an inline code span on one line, with a fence of backticks
// longer than any run inside it. Inside a code span nothing is active, so s
// needs no other escaping.
func mdCode(s string) string {
	s = cleanLine(s)
	if strings.TrimSpace(s) == "" {
		return mdText(s)
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if s[0] == '`' || s[len(s)-1] == '`' || (s[0] == ' ' && s[len(s)-1] == ' ') {
		s = " " + s + " "
	}
	return fence + s + fence
}

// mdStep writes a remediation step with its commands as code spans.
func mdStep(s string) string {
	var b strings.Builder
	for _, p := range splitStep(s) {
		if p.Code {
			b.WriteString(mdCode(p.Text))
		} else {
			b.WriteString(mdEscape(p.Text, b.Len() == 0))
		}
	}
	return b.String()
}

// mdLink writes an http(s) URL as an autolink and anything else as code, not a link.
func mdLink(s string) string {
	if u, ok := webLink(s); ok {
		return "<" + u + ">"
	}
	return mdCode(truncateRunes(cleanLine(s), 300)) + " (not a web link)"
}

func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// humanBytes formats n bytes with a binary unit.
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
