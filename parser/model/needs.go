package model

import (
	"slices"
	"strings"
)

// Literal is a piece of text that every line a rule can match contains: a
// rule table's cause patterns reduce to such literals (see
// rules.Table.Needs). Fold marks a case-insensitive one (ASCII case).
type Literal struct {
	Text string
	Fold bool
}

// Needs is what a run reads of a gather beyond what every load gives (pods,
// containers, events, nodes, the fixed selection of node-log lines, and the
// metadata of every object): the one declaration a load is made from
// (parser.Options.Needs). The rule table states its own (rules.Table.Needs),
// a comparison its own (report.DiffNeeds); a run that does both merges them.
// The zero Needs asks for nothing beyond the fixed load.
type Needs struct {
	// Decode lists the kinds the object store decodes into typed objects,
	// sorted by Kind.String, each once; every other object is indexed by
	// its metadata alone.
	Decode []Kind
	// KeepLines are literals that widen the node-log lines kept as
	// evidence: a kubelet, CRI-O, kernel or other journal line that holds
	// one of them is kept even where the fixed selection would drop it (an
	// info line, a CRI-O line below warning). In first-seen order, each
	// once; literals shorter than 3 bytes keep nothing.
	KeepLines []Literal
	// KeepLogsOf lists namespaces whose containers' logs are kept (their
	// tail and error lines, as a failing container's) even when the
	// container never failed: the node agents (CNI, CSI) whose logs a
	// failure of another pod involves. Sorted, each once.
	KeepLogsOf []string
	// LogLines are literals that keep a container-log line whatever the
	// container's state (ContainerLog.Matched, a few per log): the failure
	// signatures that a process logs while it goes on running and ready (a
	// refused API call, a failed TLS handshake). In first-seen order, each
	// once; literals shorter than 3 bytes keep nothing.
	LogLines []Literal
}

// Merge returns what n and o need together: the union of their kinds
// (sorted by Kind.String), of their literals (n's first, then o's new
// ones) and of their namespaces (sorted). Neither n nor o is changed.
func (n Needs) Merge(o Needs) Needs {
	out := Needs{Decode: make([]Kind, 0, len(n.Decode)+len(o.Decode))}
	out.Decode = append(append(out.Decode, n.Decode...), o.Decode...)
	slices.SortFunc(out.Decode, func(a, b Kind) int { return strings.Compare(a.String(), b.String()) })
	out.Decode = slices.Compact(out.Decode)
	out.KeepLogsOf = slices.Compact(slices.Sorted(slices.Values(slices.Concat(n.KeepLogsOf, o.KeepLogsOf))))
	seen := map[Literal]bool{}
	for _, l := range slices.Concat(n.KeepLines, o.KeepLines) {
		if !seen[l] {
			seen[l] = true
			out.KeepLines = append(out.KeepLines, l)
		}
	}
	seen = map[Literal]bool{}
	for _, l := range slices.Concat(n.LogLines, o.LogLines) {
		if !seen[l] {
			seen[l] = true
			out.LogLines = append(out.LogLines, l)
		}
	}
	return out
}
