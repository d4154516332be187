package report

import (
	"fmt"
	"time"

	"github.com/mgtriage/mgtriage/parser/nodelog"
)

// foldedEvidence is one line of a finding's evidence as the Markdown shows
// it: the first of the evidence lines that differ only in IDs, numbers and
// times (same path, kind and nodelog.IDSignature of the text), with how many
// lines were folded into it, how many times they occurred in all (the sum
// of their counts) and the time range of those with a time. report.json
// keeps every line.
type foldedEvidence struct {
	Evidence
	Lines       int        // evidence lines folded into this one, itself included
	Total       int        // occurrences: the sum of the folded lines' counts (a count of 0 is 1)
	First, Last *time.Time // earliest and latest time of the folded lines; nil when none has one
}

// foldEvidence folds near-identical lines of ev (see foldedEvidence), each
// group where its first line is.
func foldEvidence(ev []Evidence) []foldedEvidence {
	out := make([]foldedEvidence, 0, len(ev))
	at := map[string]int{}
	for _, e := range ev {
		key := e.Path + "\x00" + e.Kind + "\x00" + nodelog.IDSignature(e.Text)
		i, ok := at[key]
		if !ok {
			i = len(out)
			at[key] = i
			out = append(out, foldedEvidence{Evidence: e})
		}
		f := &out[i]
		f.Lines++
		f.Total += max(e.Count, 1)
		if e.Time != nil {
			if f.First == nil || e.Time.Before(*f.First) {
				f.First = e.Time
			}
			if f.Last == nil || e.Time.After(*f.Last) {
				f.Last = e.Time
			}
		}
	}
	return out
}

// foldNote is what a folded line ends with: " (×12, 10:01:02–10:14:55)"
// for 12 occurrences in that range (times in UTC; with the dates when they
// are not of one day), " (×12)" without times, "  [repeated 9 times]" for
// one line that repeated, "" for one line once.
func (f foldedEvidence) foldNote() string {
	if f.Lines == 1 {
		if f.Count > 1 {
			return fmt.Sprintf("  [repeated %d times]", f.Count)
		}
		return ""
	}
	if f.First == nil {
		return fmt.Sprintf(" (×%d)", f.Total)
	}
	a, b := f.First.UTC(), f.Last.UTC()
	layout := "15:04:05"
	if a.YearDay() != b.YearDay() || a.Year() != b.Year() {
		layout = "2006-01-02 15:04:05"
	}
	span := a.Format(layout)
	if b.Format(layout) != span {
		span += "–" + b.Format(layout)
	}
	return fmt.Sprintf(" (×%d, %s)", f.Total, span)
}
