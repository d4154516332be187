package parser

import (
	"bytes"

	"github.com/mgtriage/mgtriage/parser/internal/lit"
	"github.com/mgtriage/mgtriage/parser/model"
)

// lineFilter keeps the node-log lines that contain one of its literals, on
// top of the fixed selection (kubelet warnings and errors and the info lines
// of pod trouble, CRI-O warnings and errors, kernel OOM lines), so that a
// rule's cause pattern can match a line the fixed selection drops. The zero
// value and nil keep nothing more.
type lineFilter struct {
	exact [][]byte
	fold  [][]byte // lower-cased
	// index finds any exact literal in one pass (nil: too many literals
	// for it, the loop over exact is used).
	index *lit.Index
}

// minLiteral is the shortest literal a filter takes: shorter ones would keep
// most lines of a journal.
const minLiteral = 3

func newLineFilter(lits []model.Literal) *lineFilter {
	if len(lits) == 0 {
		return nil
	}
	f := &lineFilter{}
	seen := map[model.Literal]bool{}
	for _, l := range lits {
		if len(l.Text) < minLiteral || seen[l] {
			continue
		}
		seen[l] = true
		if l.Fold {
			f.fold = append(f.fold, bytes.ToLower([]byte(l.Text)))
		} else {
			f.exact = append(f.exact, []byte(l.Text))
		}
	}
	if len(f.exact) == 0 && len(f.fold) == 0 {
		return nil
	}
	// lit.New takes at most 255 distinct leading byte pairs; each literal
	// brings one.
	if len(f.exact) > 0 && len(f.exact) <= 255 {
		var words []string
		for _, e := range f.exact {
			words = append(words, string(e))
		}
		f.index = lit.New([][]string{words})
	}
	return f
}

// match reports whether line holds one of the filter's literals; scratch is
// reused for the lower-cased copy of the line.
func (f *lineFilter) match(line []byte, scratch *[]byte) bool {
	if f == nil {
		return false
	}
	if f.index != nil {
		if f.index.FirstBytes(line) >= 0 {
			return true
		}
	} else {
		for _, l := range f.exact {
			if bytes.Contains(line, l) {
				return true
			}
		}
	}
	if len(f.fold) == 0 {
		return false
	}
	low := append((*scratch)[:0], line...)
	for i, c := range low {
		if 'A' <= c && c <= 'Z' {
			low[i] = c + 'a' - 'A'
		}
	}
	*scratch = low
	for _, l := range f.fold {
		if bytes.Contains(low, l) {
			return true
		}
	}
	return false
}
