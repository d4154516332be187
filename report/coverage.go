package report

import (
	"fmt"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
)

// Coverage says what the analysis read of the input, in four parts: the
// members read and used (by what they hold), those recognised as part of a
// gather but not read, those that could not be placed in any known layout
// (by folder), and per kind of object whether it was gathered, found,
// filtered or not gathered. Combined lists the gathers read together.
type Coverage struct {
	Used     []FileCount    `json:"used"`
	Unused   []FileCount    `json:"unused"`
	Unplaced []FileCount    `json:"unplaced"`
	Kinds    []KindCoverage `json:"kinds"`
	Combined []string       `json:"combined"`
	// JournalLines is the number of node journal lines read (any unit);
	// ContainerLogs the number of container log files read.
	JournalLines  int `json:"journalLines"`
	ContainerLogs int `json:"containerLogs"`
	// Cuts are the files and counts a limit cut, in path order; empty
	// when none.
	Cuts []Cut `json:"cuts,omitempty"`
}

// FileCount is a number of files of one sort (Used) or in one folder
// (Unused, Unplaced).
type FileCount struct {
	What  string `json:"what"`
	Files int    `json:"files"`
}

// KindCoverage is what the input holds of one kind of object. State is
// "gathered" (its complete list was gathered: a name missing from it is
// absent), "found" (objects without a complete list), "filtered" (the source
// lists only some) or "not gathered".
type KindCoverage struct {
	Kind       string `json:"kind" redact:"keep"`
	State      string `json:"state" redact:"keep"`
	Objects    int    `json:"objects"`
	Namespaces int    `json:"namespaces,omitempty"`
	Cluster    bool   `json:"cluster,omitempty"`
	Used       bool   `json:"used"`
}

func buildCoverage(c model.InputCoverage, short func(string) string) Coverage {
	out := Coverage{Combined: c.Combined, JournalLines: c.JournalLines, ContainerLogs: c.ContainerLogs, Cuts: buildCuts(c.Cuts)}
	for _, f := range c.Used {
		out.Used = append(out.Used, FileCount{What: f.What, Files: f.Files})
	}
	for _, f := range c.Unused {
		out.Unused = append(out.Unused, FileCount{What: short(f.What), Files: f.Files})
	}
	for _, f := range c.Unplaced {
		out.Unplaced = append(out.Unplaced, FileCount{What: f.What, Files: f.Files})
	}
	for _, k := range c.Kinds {
		out.Kinds = append(out.Kinds, KindCoverage{Kind: k.Kind, State: k.State, Objects: k.Objects, Namespaces: k.Namespaces, Cluster: k.Cluster, Used: k.Used})
	}
	return out
}

func (c *Coverage) normalize() {
	for _, l := range []*[]FileCount{&c.Used, &c.Unused, &c.Unplaced} {
		if *l == nil {
			*l = []FileCount{}
		}
	}
	if c.Kinds == nil {
		c.Kinds = []KindCoverage{}
	}
	if c.Combined == nil {
		c.Combined = []string{}
	}
}

// coverageLine is one labelled line of the coverage section, as plain text:
// each writer escapes it for its format.
type coverageLine struct {
	Label, Text string
}

// maxCoverageItems bounds the entries of one coverage line in the views.
const maxCoverageItems = 12

// coverageLines is the compact form of Coverage every view prints: the
// layouts, what was read, the kinds the analysis reads with their state, the
// other kinds in one count, what was recognised but not used, what could not
// be placed, and the gathers combined.
func coverageLines(r *Report) []coverageLine {
	c := r.Gather.Coverage
	if r.SchemaMinor < 1 {
		return []coverageLine{{"Coverage", "not recorded in this report (written by an mgtriage older than schemaMinor 1)"}}
	}
	var out []coverageLine
	var layouts []string
	for _, l := range r.Gather.Layouts {
		s := l.Kind + " at " + orDotSlash(l.Root)
		switch {
		case l.Node != "":
			s += " (host " + l.Node + ")"
		case l.Kind == model.LayoutSosreport:
			s += " (host unknown)"
		}
		layouts = append(layouts, s)
	}
	out = append(out, coverageLine{"Layouts", orNone(bounded(layouts))})
	var read []string
	for _, f := range c.Used {
		read = append(read, fmt.Sprintf("%s %d", f.What, f.Files))
	}
	if c.JournalLines > 0 {
		read = append(read, countNoun(c.JournalLines, "journal line", "journal lines"))
	}
	out = append(out, coverageLine{"Read and used", orNone(bounded(read))})
	if len(c.Cuts) > 0 {
		var cut []string
		for _, x := range c.Cuts {
			cut = append(cut, fmt.Sprintf("%s (%s): %s", orDotSlash(x.Path), x.Read, x.Text))
		}
		out = append(out, coverageLine{"Cut by a limit", bounded(cut)})
	}
	var kinds, gaps []string
	others, otherObjects := 0, 0
	for _, k := range c.Kinds {
		if !k.Used {
			if k.State != "not gathered" {
				others++
				otherObjects += k.Objects
			}
			continue
		}
		if k.State == "not gathered" {
			gaps = append(gaps, k.Kind)
			continue
		}
		kinds = append(kinds, k.Kind+": "+kindState(k))
	}
	if len(gaps) > 0 {
		kinds = append(kinds, "not gathered: "+strings.Join(gaps, ", "))
	}
	out = append(out, coverageLine{"Objects", orNone(strings.Join(kinds, "; "))})
	var unused []string
	if others > 0 {
		unused = append(unused, fmt.Sprintf("%d other kind%s of object indexed but not read by the rules (%d object%s)", others, plural(others), otherObjects, plural(otherObjects)))
	}
	for _, f := range c.Unused {
		unused = append(unused, fmt.Sprintf("%s (%d)", f.What, f.Files))
	}
	out = append(out, coverageLine{"Recognised, not used", orNone(bounded(unused))})
	var unplaced []string
	for _, f := range c.Unplaced {
		unplaced = append(unplaced, fmt.Sprintf("%s (%d)", f.What, f.Files))
	}
	out = append(out, coverageLine{"Not placed", orNone(bounded(unplaced))})
	if len(c.Combined) > 0 {
		out = append(out, coverageLine{"Combined", strings.Join(c.Combined, "; ")})
	}
	return out
}

// coverageGaps names the kinds the analysis rests on (pods, nodes, events)
// that the input does not hold, for the summary: a report without pods must
// say so before it says that no rule fired.
func coverageGaps(r *Report) []string {
	var out []string
	for _, k := range r.Gather.Coverage.Kinds {
		if (k.Kind == "pods" || k.Kind == "nodes" || k.Kind == "events") && k.State == "not gathered" {
			out = append(out, k.Kind)
		}
	}
	return out
}

// kindState is how a kind's coverage reads: "gathered in 52 namespaces (1,204)",
// "gathered (6)", "found (3), no complete list", "filtered (4)", "not gathered".
func kindState(k KindCoverage) string {
	switch k.State {
	case "gathered":
		switch {
		case k.Namespaces > 0 && k.Cluster:
			return fmt.Sprintf("gathered cluster-wide and in %d namespace%s (%d)", k.Namespaces, plural(k.Namespaces), k.Objects)
		case k.Namespaces > 0:
			return fmt.Sprintf("gathered in %d namespace%s (%d)", k.Namespaces, plural(k.Namespaces), k.Objects)
		}
		return fmt.Sprintf("gathered (%d)", k.Objects)
	case "found":
		return fmt.Sprintf("found (%d), no complete list", k.Objects)
	case "filtered":
		return fmt.Sprintf("filtered by the source (%d)", k.Objects)
	}
	return k.State
}

func bounded(items []string) string {
	if len(items) > maxCoverageItems {
		n := len(items) - maxCoverageItems
		items = append(items[:maxCoverageItems:maxCoverageItems], fmt.Sprintf("… and %d more", n))
	}
	return strings.Join(items, ", ")
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func orDotSlash(root string) string {
	if root == "" {
		return "./"
	}
	return root
}

// CoverageLines is the Coverage section of the reports as "Label: text"
// lines (Layouts, Read and used, Cut by a limit, Objects, Recognised, not
// used, Not placed, Combined), with the kinds the analysis rests on that
// the input lacks first ("Not gathered: pods"): what a reader must know
// before trusting that nothing was found.
func CoverageLines(r *Report) []string {
	var out []string
	if gaps := coverageGaps(r); len(gaps) > 0 {
		out = append(out, "Not gathered: "+strings.Join(gaps, ", "))
	}
	for _, l := range coverageLines(r) {
		out = append(out, l.Label+": "+l.Text)
	}
	return out
}
