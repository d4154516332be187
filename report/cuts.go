package report

import (
	"fmt"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
)

// Cut is data a limit of the reader dropped (model.Cut): a file read only
// in part or not at all, or the objects over a count limit. Count names the
// summary count it affects ("pods", "events", "nodes", "objects", "log
// lines"), Read is "read in part" or "not read", Text says it in a few
// words without the path.
type Cut struct {
	Count string `json:"count" redact:"keep"`
	Path  string `json:"path"`
	Read  string `json:"read" redact:"keep"`
	Text  string `json:"text"`
}

// SummaryLimit is what the limits cut of one summary count, said next to
// it: Count as in Cut, Text the cuts' texts joined ("1 events file of 703
// MiB read only to the 192 MiB limit").
type SummaryLimit struct {
	Count string `json:"count" redact:"keep"`
	Text  string `json:"text"`
}

// maxLimitTexts bounds the cuts named in one SummaryLimit; the rest are
// counted.
const maxLimitTexts = 3

func buildCuts(cuts []model.Cut) []Cut {
	var out []Cut
	for _, c := range cuts {
		out = append(out, Cut{Count: c.Count, Path: c.Path, Read: c.Read, Text: c.Text})
	}
	return out
}

// summaryLimits groups the coverage's cuts by the count they affect, in
// the summary's order of counts.
func summaryLimits(cuts []Cut) []SummaryLimit {
	var out []SummaryLimit
	for _, count := range []string{model.CutPods, model.CutEvents, model.CutNodes, model.CutObjects, model.CutLogLines} {
		var texts []string
		n := 0
		for _, c := range cuts {
			if c.Count != count {
				continue
			}
			n++
			if len(texts) < maxLimitTexts {
				texts = append(texts, c.Text)
			}
		}
		if n == 0 {
			continue
		}
		text := strings.Join(texts, "; ")
		if n > len(texts) {
			text += fmt.Sprintf("; and %d more (see Coverage)", n-len(texts))
		}
		out = append(out, SummaryLimit{Count: count, Text: text})
	}
	return out
}

// limitNote is the text the limits cut of count, "" when none: what the
// views print next to the count.
func limitNote(s Summary, count string) string {
	for _, l := range s.Limits {
		if l.Count == count {
			return cleanLine(l.Text)
		}
	}
	return ""
}

// otherLimits are the limit texts of the counts the summary line does not
// print (objects, log lines), as "count: text".
func otherLimits(s Summary) []string {
	var out []string
	for _, l := range s.Limits {
		switch l.Count {
		case model.CutPods, model.CutEvents, model.CutNodes:
			continue
		}
		out = append(out, cleanLine(l.Count)+": "+cleanLine(l.Text))
	}
	return out
}

// withNote appends "; note" to a count's text when the note is not empty.
func withNote(text, note string) string {
	if note == "" {
		return text
	}
	return text + "; " + note
}
