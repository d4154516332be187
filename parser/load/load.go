// Package load is what a format's reader sees of the one load it reads
// into: the services the load owns (its problems, its interned strings, its
// line scanner and read buffers, its best "now" so far) and the common
// documents a format may hand back to it (pod captures, event and node
// lists, object lists), which the load reads as any gather's.
//
// Each input format's reader is a package under parser/ that claims its
// members by path and reads them into the model through a Load; none imports
// parser itself, which implements Load and dispatches the one pass's members
// to the formats.
package load

import (
	"io"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
)

// Load is one load's services, safe for concurrent use: members are read
// on the pass's goroutine and by the decode workers at once.
type Load interface {
	// Problem records a gather problem: the member at path could not be
	// read in full, and why.
	Problem(path, why string)
	// ReferenceTime is the latest gather time read so far (zero when none
	// yet): the year of journal lines that carry none.
	ReferenceTime() time.Time
	// GatherTimes records the gather times read from a file of the folder
	// dir (path.Dir of the file, "." for the input's top): a gather's
	// "now", and the latest of them the ReferenceTime.
	GatherTimes(dir string, times []time.Time)
	// Intern returns the load's one copy of s, which lives as long as the
	// model: names that repeat over many members (hosts, containers, units).
	Intern(s string) string
	// CutText bounds a text kept in the model as a problem's or a step's
	// text (MaxProblemBytes of parser), marking the cut with "…".
	CutText(s string) string
	// ScanLines calls fn for every line of r with its 1-based number,
	// without the line ending; a line longer than the load's line bound is
	// cut to it. The slice is valid only during the call. The error is
	// r's, or says that a line was far longer than the bound (a damaged
	// file).
	ScanLines(r io.Reader, fn func(n int, line []byte)) error
	// ReadTail reads a container log into l, keeping its last lines and
	// its error-looking lines (see model.ContainerLog); the error is as
	// ScanLines's.
	ReadTail(r io.Reader, l *model.ContainerLog) error
	// ReadObjects reads data, the member at path, as the common documents
	// o names, into the model (the load records their problems itself);
	// the error is the member's when it does not decode at all.
	ReadObjects(path string, o Objects, data []byte) error
}

// Content is a form of documents that several input formats hold and the
// load reads alike.
type Content int

const (
	// PodCaptures is a Pod or a PodList as `kubectl get -o json` writes it.
	PodCaptures Content = iota + 1
	// Events is an event list, kubectl's or an Insights archive's trimmed form.
	Events
	// NodeList is a v1 List or NodeList of Nodes.
	NodeList
	// ClusterOperatorList is a list of ClusterOperators.
	ClusterOperatorList
	// ClusterOperator is one ClusterOperator, named Objects.Name when it
	// names itself not.
	ClusterOperator
	// ObjectList is a list of objects of Objects.Kind, for the object store.
	ObjectList
)

// Objects names what a member handed back to the load holds: its Content,
// the gather root it belongs to ("" or ending in "/"), for an ObjectList
// the kind of its objects, for Events the namespace of the events that name
// none (the one the file is named for), for a ClusterOperator the name it
// has when it names itself not.
type Objects struct {
	Content   Content
	Root      string
	Kind      model.Kind
	Namespace string
	Name      string
}

// MarkerIndex returns where marker starts in the member path p as whole
// path elements (at the start or after a "/"), -1 when it is not there:
// how a format finds the folder of its gather from one of its members.
func MarkerIndex(p, marker string) int {
	if strings.HasPrefix(p, marker) {
		return 0
	}
	if i := strings.Index(p, "/"+marker); i >= 0 {
		return i + 1
	}
	return -1
}
