package load

import "github.com/mgtriage/mgtriage/parser/model"

// Label names, for the coverage, what the members of one kind of a format
// hold ("pod captures", "timestamp files").
type Label[K comparable] struct {
	Kind K
	Text string
}

// Tally counts the members a format's reader read, by the format's own
// kinds, for the coverage (model.InputCoverage.Used). A format's Reader
// embeds one; Count is for the load's sequential pass, not for concurrent
// use.
type Tally[K comparable] struct {
	labels []Label[K]
	counts map[K]int
}

// NewTally returns a Tally that reports the kinds of labels, in their order.
func NewTally[K comparable](labels []Label[K]) Tally[K] {
	return Tally[K]{labels: labels, counts: map[K]int{}}
}

// Count counts a member of kind k as read.
func (t *Tally[K]) Count(k K) { t.counts[k]++ }

// Used returns the members counted, by what they hold, in the labels'
// order; kinds with no member are left out.
func (t *Tally[K]) Used() []model.FileCount {
	var out []model.FileCount
	for _, l := range t.labels {
		if n := t.counts[l.Kind]; n > 0 {
			out = append(out, model.FileCount{What: l.Text, Files: n})
		}
	}
	return out
}
