package model

// InputCoverage says what the reader made of the input: which members it read and
// used, which it recognised as part of a gather but does not read, which it
// could not place in any layout, and what the object store holds of each
// kind. Reports print it so that an empty section is never mistaken for a
// healthy cluster.
type InputCoverage struct {
	// Used counts the members read and used, by what they hold ("pod lists",
	// "node journals", ...), in a fixed order; kinds with no member are left out.
	Used []FileCount
	// Unused counts the members that lie inside a recognised gather root but
	// that no part of the analysis reads, by folder (see unusedFolder).
	Unused []FileCount
	// Unplaced counts the members that lie outside every gather root, by
	// folder: what the reader could not place in any known layout.
	Unplaced []FileCount
	// Kinds is the object coverage of every kind the store holds, plus the
	// kinds the analysis always reads (pods, events, nodes) and those the
	// rule table's joins read, even when nothing of them was gathered.
	Kinds []KindCoverage
	// Combined names the gathers read together, one line each, when the
	// input held more than one; empty otherwise.
	Combined []string
	// JournalLines is the number of lines read in the journal's short form
	// (any unit, kept as evidence or not).
	JournalLines int
	// ContainerLogs is the number of container log files read.
	ContainerLogs int
	// Cuts are the files and counts a limit cut, in path order: the files
	// under Used read in part or not at all, the objects over a count
	// limit.
	Cuts []Cut
}

// FileCount is a number of members of one sort, or in one folder.
type FileCount struct {
	What  string
	Files int
}

// Object coverage states of a kind, from most to least complete.
const (
	KindGathered    = "gathered"     // its complete list was gathered (cluster-wide, or in some namespaces)
	KindFound       = "found"        // objects were found, but no complete list of the kind
	KindFiltered    = "filtered"     // the source lists only some of its objects
	KindNotGathered = "not gathered" // nothing of the kind is in the input
)

// KindCoverage is what the input holds of one kind.
type KindCoverage struct {
	// Kind is "resource" for the core group, else "resource.group" (kubectl's form).
	Kind string
	// State is KindGathered, KindFound, KindFiltered or KindNotGathered.
	State string
	// Objects is the number of objects read (events: every event read).
	Objects int
	// Namespaces is the number of namespaces whose complete list was
	// gathered (0 for a cluster-scoped kind); Cluster is true when the
	// cluster-scoped list (or any per-object folder) was gathered.
	Namespaces int
	Cluster    bool
	// Used is true for the kinds the analysis reads: pods, events, nodes,
	// the kinds the reader itself decodes (ClusterVersion, ClusterOperators,
	// Infrastructure), ConfigMap and Secret key names, Namespaces, and the
	// kinds the loaded rules' joins decode. Others are indexed by metadata only.
	Used bool
}

// Cut is data a limit dropped: a file read only in part or not at all, or
// objects or lines over a count limit. Reports say it next to the count it
// affects and in the coverage, not only among the gather problems.
type Cut struct {
	// Count names the count it affects: CutPods, CutEvents, CutNodes,
	// CutObjects or CutLogLines.
	Count string
	// Path is the file cut, or where a count limit was reached.
	Path string
	// Read is CutInPart or CutNotRead.
	Read string
	// Text says it in a few words ("events file of 703 MiB read only to
	// the 192 MiB limit"), plain text from the load, never from the gather.
	Text string
}

// The counts a Cut affects, and how much of its file was read.
const (
	CutPods     = "pods"
	CutEvents   = "events"
	CutNodes    = "nodes"
	CutObjects  = "objects"
	CutLogLines = "log lines"

	CutInPart  = "read in part"
	CutNotRead = "not read"
)
