package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jedib0t/go-pretty/v6/table"
)

// TerminalOptions tunes WriteTerminal. The caller decides Color (from whether
// stdout is a terminal and NO_COLOR); the writer never looks at the environment.
type TerminalOptions struct {
	// Color adds ANSI colours to severities and headings.
	Color bool
	// MaxFindings limits the findings table; 0 or less lists every finding.
	MaxFindings int
	// Reports names the report files written beside this output
	// ("report.json"), where the findings the table leaves out are; empty
	// when none was written.
	Reports []string
	// Width is the terminal's width in columns; the findings table fits it by
	// cutting hints. 0 means 160 (output to a file or a pipe).
	Width int
}

// How much of a hint, and of a rule id or object name, fits in the findings table.
const (
	terminalHintRunes = 90
	terminalNameRunes = 60
)

// SGR sequences, written by hand so that go-pretty's own reading of the
// environment (NO_COLOR, FORCE_COLOR, TERM) never changes the output.
const (
	sgrReset = "\x1b[0m"
	sgrBold  = "\x1b[1m"
)

var sgrSeverity = map[string]string{
	SeverityCritical: "\x1b[1;97;41m", // bold white on red
	SeverityHigh:     "\x1b[1;31m",    // bold red
	SeverityMedium:   "\x1b[33m",      // yellow/orange
	SeverityLow:      "\x1b[36m",      // cyan
	SeverityInfo:     "\x1b[2m",       // dim
}

// WriteTerminal writes a short summary for a terminal: one header line, the
// counts by severity and the top findings, each gather string stripped of
// escape sequences and control characters.
func WriteTerminal(w io.Writer, r *Report, opt TerminalOptions) error {
	paint := func(sgr, s string) string {
		if !opt.Color || sgr == "" || s == "" {
			return s
		}
		return sgr + s + sgrReset
	}
	var b strings.Builder
	if label, text, tail := InputNotice(r.Gather); label != "" {
		b.WriteString(paint(sgrSeverity[SeverityHigh], strings.ToUpper(label)+": "+truncateRunes(cleanLine(text), 600)) + "\n")
		b.WriteString(tail + "\n\n")
	}
	if r.Gather.Mixed != "" {
		b.WriteString(paint(sgrSeverity[SeverityHigh], "MIXED GATHER: "+truncateRunes(cleanLine(r.Gather.Mixed), 600)) + "\n\n")
	}
	for _, l := range r.Summary.Limits {
		b.WriteString(paint(sgrSeverity[SeverityHigh], "CUT BY A LIMIT: "+truncateRunes(cleanLine(l.Count)+": "+cleanLine(l.Text), 400)) + "\n")
	}
	if len(r.Summary.Limits) > 0 {
		b.WriteString("The counts below leave out what was cut (see Gather problems and Coverage).\n\n")
	}
	b.WriteString(paint(sgrBold, terminalHeader(r)) + "\n")
	if r.Window != nil {
		b.WriteString("Incident window: " + r.Window.Words() + "\n")
	}
	for _, l := range terminalCoverage(r) {
		b.WriteString(truncateRunes(l, max(opt.Width, 160)) + "\n")
	}
	b.WriteString("\n")

	counts := newTerminalTable()
	counts.AppendHeader(table.Row{"SEVERITY", "FINDINGS"})
	for _, c := range severityCounts(r) {
		counts.AppendRow(table.Row{paint(sgrSeverity[c.Severity], c.Severity), c.Count})
	}
	counts.AppendFooter(table.Row{"total", totalFindings(r)})
	b.WriteString(counts.Render() + "\n")

	if len(r.Findings) == 0 {
		if note := windowNote(r); note != "" {
			b.WriteString("\n" + cleanLine(note) + "\n")
		} else if missing := coverageGaps(r); len(missing) > 0 {
			fmt.Fprintf(&b, "\nNo rule fired on what the input holds; it has no %s, so this is not a clean bill of health.\n", joinOr(missing))
		} else {
			b.WriteString("\nNo rule fired.\n")
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	groups := groupFindings(r.Findings)
	shown := groups
	if opt.MaxFindings > 0 && len(shown) > opt.MaxFindings {
		shown = shown[:opt.MaxFindings]
	}
	top := newTerminalTable()
	top.AppendHeader(table.Row{"SEVERITY", "RULE", "OBJECT", "HINT"})
	type row struct{ sev, rule, obj, hint string }
	rows := make([]row, 0, len(shown))
	ruleW, objW := len("RULE"), len("OBJECT")
	width := opt.Width
	if width <= 0 {
		width = 160
	}
	nameRunes := terminalNameRunes
	if width < 120 {
		nameRunes = 24 // a narrow terminal: names give way to the hint
	}
	for _, g := range shown {
		f := g.Findings[0]
		obj := objectsSummary(f)
		if len(g.Findings) > 1 {
			obj = fmt.Sprintf("×%d: %s", len(g.Findings), examples(groupObjects(g), 1))
		}
		rw := row{orUnknown(cleanLine(f.Severity)), truncateRunes(cleanLine(f.RuleID), nameRunes),
			truncateRunes(obj, nameRunes), strings.TrimSpace(cleanLine(f.Hint))}
		ruleW, objW = max(ruleW, utf8.RuneCountInString(rw.rule)), max(objW, utf8.RuneCountInString(rw.obj))
		rows = append(rows, rw)
	}
	// borders and padding of a 4-column light table take 13 columns
	hintW := min(terminalHintRunes, max(20, width-13-len("SEVERITY")-ruleW-objW))
	for i, rw := range rows {
		top.AppendRow(table.Row{paint(sgrSeverity[shown[i].Findings[0].Severity], rw.sev), rw.rule, rw.obj, truncateRunes(rw.hint, hintW)})
	}
	b.WriteString("\n" + top.Render() + "\n")
	more := 0
	for _, g := range groups[len(shown):] {
		more += len(g.Findings)
	}
	if more > 0 {
		where := "not listed"
		if len(opt.Reports) > 0 {
			where = "in " + joinAnd(opt.Reports)
		}
		fmt.Fprintf(&b, "… and %s %s.\n", countNoun(more, "more finding", "more findings"), where)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func newTerminalTable() table.Writer {
	t := table.NewWriter()
	t.SetStyle(table.StyleLight)
	return t
}

// terminalHeader is the one-line summary: cluster, gather time, pods.
func terminalHeader(r *Report) string {
	g := r.Gather
	parts := []string{"mgtriage: " + versionWords(g).Short}
	parts = append(parts,
		"gathered "+gatherTime(g),
		countNoun(r.Summary.Pods, "pod", "pods")+", "+strconv.Itoa(r.Summary.UnhealthyPods)+" not healthy",
		"rules "+cleanLine(orUnknown(r.Rules.Version)),
	)
	return strings.Join(parts, " · ")
}

// terminalCoverage is the coverage in a few lines: the layouts, the state of
// pods, events and nodes and how many of the kinds the rules read were
// gathered, what could not be placed, and the gathers combined.
func terminalCoverage(r *Report) []string {
	c := r.Gather.Coverage
	if r.SchemaMinor < 1 {
		return []string{"coverage: not recorded in this report (written by an mgtriage older than schemaMinor 1)"}
	}
	var layouts []string
	for _, l := range r.Gather.Layouts {
		layouts = append(layouts, cleanLine(l.Kind)+" at "+cleanLine(orDotSlash(l.Root)))
	}
	out := []string{"coverage: " + orNone(bounded(layouts))}
	var kinds []string
	used, gathered := 0, 0
	for _, k := range c.Kinds {
		switch k.Kind {
		case "pods", "events", "nodes":
			kinds = append(kinds, k.Kind+" "+kindState(k))
			continue
		}
		if k.Used {
			used++
			if k.State != "not gathered" {
				gathered++
			}
		}
	}
	if used > 0 {
		kinds = append(kinds, fmt.Sprintf("other kinds the rules read: %d of %d gathered", gathered, used))
	}
	out = append(out, "  objects: "+orNone(strings.Join(kinds, "; ")))
	files, folders := 0, len(c.Unplaced)
	for _, f := range c.Unplaced {
		files += f.Files
	}
	if files > 0 {
		out = append(out, fmt.Sprintf("  not placed: %d file%s in %d folder%s (see the Coverage section of the reports)", files, plural(files), folders, plural(folders)))
	}
	for _, l := range c.Combined {
		out = append(out, "  combined: "+cleanLine(l))
	}
	return out
}
