package model

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/nodelog"
	"github.com/mgtriage/mgtriage/parser/openshift"
	"github.com/mgtriage/mgtriage/parser/podstatus"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Analysable reports whether anything the analysis works on was read: pods,
// nodes, events, node journal lines, container logs, or objects of any kind.
func (g *Gather) Analysable() bool {
	return len(g.Pods) > 0 || len(g.Nodes) > 0 || len(g.Events) > 0 || g.Coverage.JournalLines > 0 ||
		g.Coverage.ContainerLogs > 0 || g.Objects.Len() > 0 || len(g.Operators) > 0 || len(g.Alerts) > 0 || g.Etcd != nil
}

// Kept returns the log's tail (its last lines, oldest first, at most
// TailLines, each cut to MaxLineBytes) and its error-looking lines (the first
// ErrorLines/2 and the last ErrorLines/2 of them, in file order); both are nil
// when none are kept (a container that never failed: see ContainerLog). Every
// call decodes them anew, so a caller that reads them twice keeps the slices.
// Times are in UTC.
func (l *ContainerLog) Kept() (tail, errs []LogLine) {
	if l.kept == "" {
		return nil, nil
	}
	tail, errs, err := decodeKept(l.kept)
	if err != nil {
		// The string was made by encodeKept in this process: a failure is a
		// bug, not hostile input.
		panic(err)
	}
	return tail, errs
}

// HasKept reports whether the log keeps any line (Kept returns some).
func (l *ContainerLog) HasKept() bool { return l.kept != "" }

// SetKept sets the lines Kept returns; an error line whose number is that of
// a tail line with the same text is stored once. It returns the bytes of text
// kept, counting such a line twice (the measure MaxKeptLogBytes bounds).
func (l *ContainerLog) SetKept(tail, errs []LogLine) int {
	if len(tail) == 0 && len(errs) == 0 {
		l.kept = ""
		return 0
	}
	var n int
	l.kept, n = encodeKept(tail, errs)
	return n
}

// DropKept forgets the kept lines and the error count; the matched lines
// (Matched) stay.
func (l *ContainerLog) DropKept() { l.kept, l.ErrorCount = "", 0 }

// Matched returns the lines of the log that hold a literal the run asked for
// (Needs.LogLines), kept whatever the container's state: at most the first
// and the last few of them, in file order; nil when none.
func (l *ContainerLog) Matched() []LogLine {
	if l.matched == "" {
		return nil
	}
	lines, _, err := decodeKept(l.matched)
	if err != nil {
		panic(err) // made by encodeKept in this process
	}
	return lines
}

// HasMatched reports whether Matched returns any line.
func (l *ContainerLog) HasMatched() bool { return l.matched != "" }

// SetMatched sets the lines Matched returns and returns the bytes of their
// text.
func (l *ContainerLog) SetMatched(lines []LogLine) int {
	if len(lines) == 0 {
		l.matched = ""
		return 0
	}
	var n int
	l.matched, n = encodeKept(lines, nil)
	return n
}

// Gather is everything read from one input. The reader fills it and calls
// Freeze once, which builds the edges between its subjects (edges.go); from
// then on it is read-only: its pods, events, nodes and store objects are
// shared (by the edges, by findings, by several reports) and no reader may
// change them.
type Gather struct {
	// Input is the path the user gave.
	Input string
	// Roots are the image folders found, relative to Input ("" for Input itself).
	Roots []string
	// Layouts says what kind of gather each root is.
	Layouts []Layout
	// Health lists what the gather lacks: must-gather errors, namespaces
	// without pods.yaml, pods without logs, nodes without a kubelet journal.
	Health Health
	// CollectedAt and FinishedAt are the start and end of the gather from its
	// timestamp file; zero when there is none. CollectedAt is the "now" of
	// every AGE and "ago".
	CollectedAt, FinishedAt time.Time
	// CollectedAtInferred is empty when CollectedAt comes from a timestamp
	// file; otherwise it says how CollectedAt was inferred from the times in
	// the gather ("inferred: the latest of 5171 times in the gather (...)").
	CollectedAtInferred string
	// Incomplete is empty when the whole input was read; else it says why
	// reading stopped early (an archive cut short, --max-read or
	// --max-members reached): the analysis covers only what came before.
	Incomplete string
	// Faults lists the streams of the input that were not whole, at most
	// MaxFaults, in the order the walk met them: a compressed stream whose
	// checksum or footer did not match or that holds data after its end
	// (FaultDamaged), or one that ends early (FaultTruncated). nil when every
	// stream was read to its end and checked. The one reading stopped at is
	// marked Stopped, and Incomplete says so too.
	Faults []StreamFault
	// Mixed is empty for a consistent gather; else it says why the gather,
	// although read as one cluster, holds two: Node objects of one cluster
	// and pods and journals of another (parser's mixedGather).
	Mixed string

	ClusterVersion string
	ClusterID      string
	// InfrastructureName, APIServerURL and APIServerInternalURL come from the
	// Infrastructure config's status, BaseDomain from the DNS config's spec;
	// empty when the gather lacks them.
	InfrastructureName   string
	APIServerURL         string
	APIServerInternalURL string
	BaseDomain           string
	// Distribution is DistributionOpenShift or DistributionKubernetes: what
	// the gather comes from, for the words and commands of the report (oc or
	// kubectl). ContainerRuntime is the runtime most nodes report ("cri-o",
	// "containerd", "docker"; "" when no node says).
	Distribution     string
	ContainerRuntime string

	Platform          string
	KubernetesVersion string // from the nodes' kubeletVersion, e.g. "v1.22.0-rc.0+75ee307"
	// Printer is the API server release whose pod printer the kubectl
	// columns follow, and where that release was read.
	Printer PrinterChoice
	// ClusterHistory is the ClusterVersion's update history, newest first
	// (the same object ClusterVersion was read from); nil when not gathered.
	ClusterHistory []openshift.UpdateHistory

	Pods      []*Pod
	Events    []*Event
	Nodes     []*Node
	Operators []Operator
	Problems  []Problem

	// Alerts are the alerts firing or pending in the gather's Prometheus
	// rules dump; Etcd is etcd's own health report (nil when not gathered).
	Alerts []Alert
	Etcd   *EtcdHealth

	// Installs are the install log bundles of the input (openshift-install
	// gather bootstrap), with the steps their journals show.
	Installs []*InstallBundle

	// Objects indexes every object of the gather (pods and nodes included)
	// by kind, namespace, name and UID, with its coverage; see package store.
	Objects *Store
	// Kept holds the object files' bytes when the load was asked to keep
	// them (parser.Options.KeepFiles); nil otherwise.
	Kept *KeptFiles

	// NodeLog holds node-level node-log groups (PLEG, network not ready,
	// certificates, API and lease failures, OOM kills and evictions not tied to
	// a pod), by host as the journal names it, oldest first.
	NodeLog map[string][]*LogGroup

	// JournalNodes stand for the hosts whose journal or runtime pods the
	// gather holds but of which it has no Node object (JournalOnly set),
	// sorted by name; node rules judge them like Nodes.
	JournalNodes []*Node

	// KubeletLogNodes are the hosts whose kubelet journal the gather holds, as
	// the journal names them (short or full host name), and the hosts a
	// journal's path names (ceph_logs/journal_<node>/, nodes/<node>/), sorted.
	KubeletLogNodes []string

	// JournalFiles are the node journal files the gather holds (must-gather
	// host_service_logs, a sosreport's journalctl outputs, nodes/<node>/
	// journals), whatever lines the analysis kept of them, sorted by path;
	// JournalFilesOf finds a host's.
	JournalFiles []JournalFile

	// Coverage says what was read and used, recognised and not used, or not
	// placed, and what the store holds of each kind (coverage.go).
	Coverage InputCoverage

	// Files and Bytes count the members read (all of them, not only the ones analysed).
	Files int
	Bytes int64

	// edges are the indexes between subjects, built by Freeze (edges.go).
	edges gatherEdges
}

// PrinterChoice is the Kubernetes release whose pod printer the columns
// follow (the zero Version: the newest) and, for the report, where it was
// read: "ClusterVersion 4.8.0", "kube-apiserver ClusterOperator version
// 1.22.1", "highest kubelet version v1.21.1+...".
type PrinterChoice struct {
	Version podstatus.Version
	From    string
}

// FaultKind is what was wrong with a stream of the input (StreamFault).
type FaultKind string

// The kinds of StreamFault.
const (
	// FaultDamaged: the stream's checksum or footer does not match what was
	// read, it cannot be decoded, or data follows its end: its bytes changed
	// after it was written.
	FaultDamaged FaultKind = "damaged"
	// FaultTruncated: the stream ends early (an upload cut short).
	FaultTruncated FaultKind = "truncated"
)

// MaxFaults bounds Gather.Faults.
const MaxFaults = 32

// StreamFault is one stream of the input that was not whole.
type StreamFault struct {
	Kind FaultKind
	// Stream is the path, inside the input, of the nested archive or zip
	// member the fault concerns; "" for the input file itself.
	Stream string
	// Format is the stream's compression or archive format: "gz", "zst",
	// "xz", "bz2", "tar" or "zip".
	Format string
	// Error is the decompressor's or archive reader's own words
	// ("gzip: invalid checksum"), at most 1 KiB.
	Error string
	// Stopped: reading stopped at this fault; what followed it in the
	// stream was not read (Gather.Incomplete says so).
	Stopped bool
}

// Damaged reports whether any of faults is FaultDamaged.
func Damaged(faults []StreamFault) bool {
	for _, f := range faults {
		if f.Kind == FaultDamaged {
			return true
		}
	}
	return false
}

// Problem is a member that could not be read or decoded, and why.
type Problem struct {
	Path  string
	Error string
}

// Pod is one pod with everything derived from it and tied to it. It is the
// only pod of the model: the store's object of kind Pods holds &Object as its
// Typed, and Object.Pod leads from it to the pod (set by Gather.Freeze). Read-only after Freeze; its slices are shared.
type Pod struct {
	Object  corev1.Pod
	Source  Source
	Columns podstatus.Columns
	Stage   podstatus.Stage
	// Containers describes each container with a status: state, exit code and
	// meaning, restarts, back-off, probes.
	Containers []podstatus.Container
	// Events are the events whose involved object is this pod, oldest first.
	Events []*Event
	// Logs are the container logs of this pod that the gather holds: the
	// current and previous run's of each container and its rotated files
	// (ContainerLog.Rotated), in CompareLogs order once the load is done.
	Logs []*ContainerLog
	// NodeLog holds the node-log lines (kubelet, CRI-O) that name this pod,
	// repeats collapsed, oldest first.
	NodeLog []*LogGroup
	// Fields holds the lines of the status fields of a pod that is not
	// healthy, for evidence that cites the deciding field (see FieldLines);
	// nil for healthy pods and for JSON files.
	Fields FieldLines

	// Runtime is set for a pod known only from a node's container runtime
	// (crictl output in a sosreport): Columns then state what the runtime
	// shows (see sosreport.RuntimeColumns), not what kubectl prints.
	Runtime *RuntimeView
	// Now is the collection time of the part of the upload the pod was
	// read from (its gather's timestamp, its sosreport's date): the "now"
	// of its AGE and "ago" columns. Zero when that part has no time of its
	// own and the upload holds other parts: its ages are then unknown,
	// never measured by another part's clock.
	Now time.Time

	// Partial marks a list item that its file cut short (a truncated copy):
	// the reader prefers any complete copy of the same pod.
	Partial bool

	// node is the pod's Node (Node), set by Gather.Freeze.
	node *Node
}

// Healthy reports whether the pod is healthy by its columns at the gather's
// time (podstatus.Columns.Healthy: Running with every container ready, or
// Completed).
func (p *Pod) Healthy() bool { return p.Columns.Healthy() }

// Key returns "namespace/name".
func (p *Pod) Key() string { return p.Object.Namespace + "/" + p.Object.Name }

// Log returns the log of container c (previous or current), or nil; never
// a rotated file (ContainerLog.Rotated), which holds older lines.
func (p *Pod) Log(container string, previous bool) *ContainerLog {
	for _, l := range p.Logs {
		if l.Container == container && l.Previous == previous && l.Rotated == "" {
			return l
		}
	}
	return nil
}

// Event is one Event object with the time it last happened.
type Event struct {
	Object EventObject
	Source Source
	// At is when the event last happened: series.lastObservedTime, else
	// lastTimestamp, else eventTime, else firstTimestamp, else
	// creationTimestamp. When returns it as a time.Time.
	At Stamp
}

// MessageLine is the 1-based line of the event's message field in its file;
// 0 when unknown (JSON, a flow mapping, a line past 2³¹).
func (e *Event) MessageLine() int { return int(e.Object.messageLine) }

// SetMessageLine sets what MessageLine returns; a line that does not fit 31
// bits is unknown (0).
func (e *Event) SetMessageLine(line int) {
	if line < 0 || line > math.MaxInt32 {
		line = 0
	}
	e.Object.messageLine = int32(line)
}

// When is At as a time.Time in UTC; the zero time when the event names no time.
func (e *Event) When() time.Time { return e.At.Time() }

// EventObject is the part of a core/v1 Event the model keeps: the fields
// readers use, under the names corev1.Event gives them, with times as Stamps.
// Left out are the event's own metadata (name, namespace, UID,
// resourceVersion, labels, annotations, managed fields: a reader takes the
// involved object's namespace), what no reader looks at (source, reporting
// controller and instance, action, related object) and the times only
// Event.At needs (the series' last observed time, lastTimestamp, the
// creation time): a gather holds hundreds of thousands of events, and each
// kept field costs that many times over (a whole corev1.Event is about 650
// bytes, an Event 112). Strings are interned, and the events of one object
// in one file share their InvolvedObject.
type EventObject struct {
	// InvolvedObject is the object the event is about; never nil. The
	// events of one object read from one file share it: readers must not
	// modify it.
	InvolvedObject *EventReference
	Reason         string
	Message        string
	// Type is Normal or Warning.
	Type           string
	FirstTimestamp Stamp
	EventTime      Stamp
	// Count is series.count when the event has a series that counts, else
	// count; Event.Count reads it.
	Count int32
	// messageLine is Event.MessageLine, kept here where the struct has room
	// for it: an Event is 112 bytes, not 128.
	messageLine int32
}

// Stamp is a point in time as microseconds since the Unix epoch (UTC), the
// precision of the finest event time (eventTime, series.lastObservedTime);
// 0 stands for no time, so an instant exactly at the epoch reads as none.
// It is the compact form the model keeps for event times: 8 bytes and no
// pointer, where a metav1.Time is 24 bytes with one.
type Stamp int64

// StampOf returns t as a Stamp, 0 for the zero time; below a microsecond
// is dropped. Every time a gather can hold fits (Kubernetes writes years of
// four digits; an int64 of microseconds spans about ±292,000 years).
func StampOf(t time.Time) Stamp {
	if t.IsZero() {
		return 0
	}
	return Stamp(t.UnixMicro())
}

// Time returns the Stamp in UTC, the zero time for 0.
func (s Stamp) Time() time.Time {
	if s == 0 {
		return time.Time{}
	}
	return time.UnixMicro(int64(s)).UTC()
}

// IsZero reports whether the Stamp names no time.
func (s Stamp) IsZero() bool { return s == 0 }

// EventReference is an event's involvedObject without its apiVersion and
// resourceVersion, which no reader uses.
type EventReference struct {
	Kind      string
	Namespace string
	Name      string
	UID       types.UID
	// FieldPath names the container of a pod, e.g. "spec.containers{app}".
	FieldPath string
}

// Count is how many times the event happened (series.count, else count, at least 1).
func (e *Event) Count() int {
	return max(1, int(e.Object.Count))
}

// Node is one Node object, or a host known only from its journal or its
// runtime's pods (JournalOnly: Object holds the name alone).
type Node struct {
	Object      corev1.Node
	Source      Source
	JournalOnly bool
	// Fields are the lines of its fields in its file (see FieldLines):
	// "status.conditions[Ready].message", "status.allocatable.cpu",
	// "spec.taints[1]", "spec.unschedulable"; nil when not known.
	Fields FieldLines
}

// Operator is a ClusterOperator's name and its Available/Degraded/Progressing
// conditions ("True", "False", "Unknown" or "" when absent).
type Operator struct {
	Name                             string
	Available, Degraded, Progressing string
	Message                          string
	Source                           Source
	// Fields are the lines of its status fields in its file (see
	// FieldLines): "status.conditions[Degraded].message".
	Fields FieldLines
}

// ContainerLog is one container log file: its line count and, for a
// container that failed, its bounded tail and error lines (see Kept).
type ContainerLog struct {
	Container string
	// Previous is true for the previous run's log (previous.log), false
	// for the current run's (current.log) and for a rotated file.
	Previous bool
	// Rotated is, for a file the kubelet rotated out of a run's log
	// (logs/rotated/ of oc adm inspect --rotated-pod-logs), its file name:
	// "<restart count>.log.<YYYYMMDD-HHMMSS>", ".gz" at the end when
	// compressed; "" for the current and previous run's logs. It holds
	// older lines of the run whose restart count its name starts with;
	// which run that is (current or previous) the gather does not say for
	// sure, so Pod.Log never returns it.
	Rotated string
	// Lines is the number of lines in the file.
	Lines int
	// ErrorCount is how many lines looked like errors in all (panics, stack
	// traces, level=error, klog E/F lines, exceptions); 0 when no line is
	// kept.
	ErrorCount int
	// kept holds the tail and the error lines that Kept returns, encoded
	// (keptlines.go); "" when none are kept.
	kept string
	// matched holds the lines Matched returns, encoded as kept is.
	matched string
	// Root is the gather root the log was read under (the image folder of a
	// must-gather, relative to the input): whether its container is quiet
	// is read from that root's pod.
	Root string
	// dir and file are the log's path split before its last four elements
	// (see SetPath), each interned: a gather holds tens of thousands of
	// logs whose paths share the pod's folder and its container's
	// "<container>/<container>/logs/current.log", and a whole path is
	// about 280 bytes.
	dir, file string
}

// CompareLogs orders two logs of a pod for the report: by container, then
// the previous run's log, the current run's, and the rotated files by the
// restart count their name starts with, then by name (the rotation time),
// oldest first. It returns 0 for two logs of one container and run
// (current.log and current.insecure.log), which keep their order in a
// stable sort.
func CompareLogs(a, b *ContainerLog) int {
	if c := strings.Compare(a.Container, b.Container); c != 0 {
		return c
	}
	rank := func(l *ContainerLog) int {
		switch {
		case l.Rotated != "":
			return 2
		case l.Previous:
			return 0
		}
		return 1
	}
	if c := rank(a) - rank(b); c != 0 {
		return c
	}
	if a.Rotated == "" {
		return 0
	}
	if c := cmp.Compare(rotatedRestarts(a.Rotated), rotatedRestarts(b.Rotated)); c != 0 {
		return c
	}
	return strings.Compare(a.Rotated, b.Rotated)
}

// rotatedRestarts is the restart count a rotated log's file name starts
// with ("3.log.20211027-082023" → 3): the kubelet names a run's log after
// the container's restart count when the run began. It is -1 when the name
// starts with no digit, and math.MaxInt when the count does not fit an int.
func rotatedRestarts(name string) int {
	n, digits := 0, 0
	for ; digits < len(name) && name[digits] >= '0' && name[digits] <= '9'; digits++ {
		d := int(name[digits] - '0')
		if n > (math.MaxInt-d)/10 {
			n = math.MaxInt
			continue
		}
		n = n*10 + d
	}
	if digits == 0 {
		return -1
	}
	return n
}

// Path returns the member path the log was read from ("" when unknown); it
// is made on each call.
func (l *ContainerLog) Path() string { return l.dir + l.file }

// SetPath sets the member path the log was read from; Path returns it as
// given. It is kept as two interned strings: the path up to its last four
// elements (the pod's folder in a must-gather) and those four
// ("<container>/<container>/logs/current.log"), or "" and the whole path
// when it has fewer. intern, when not nil, gives the canonical copy of each
// part (the load's string table), so that the logs of one gather share them.
func (l *ContainerLog) SetPath(p string, intern func(string) string) {
	if intern == nil {
		intern = func(s string) string { return s }
	}
	i := len(p)
	for range 4 {
		j := strings.LastIndexByte(p[:i], '/')
		if j < 0 {
			l.dir, l.file = "", intern(p)
			return
		}
		i = j
	}
	l.dir, l.file = intern(p[:i+1]), intern(p[i+1:])
}

// LogLine is one line of a log with its 1-based line number. Time is the
// line's own timestamp when it has one.
type LogLine struct {
	Line int
	Time time.Time
	Text string
}

// LogGroup is a run of node-log lines of one class with the same message for
// the same pod (or node), collapsed: the first line is kept as the example.
type LogGroup struct {
	Source   Source // path:line of the first occurrence
	Node     string // the host as the journal names it
	Unit     nodelog.Unit
	Severity byte // klog severity I, W, E, F; 0 when the line has none
	Class    nodelog.Class
	First    time.Time
	Last     time.Time
	Count    int
	// Text is the first occurrence's message with its fields, without the
	// journal and klog prefixes.
	Text string
	// Container, Image, Probe and Detail are the class's fields (see nodelog.Entry).
	Container, Image, Probe, Detail string
}

// JournalFile is one node journal file of the gather: its Path (as
// Source.Path), its Lines, the Hosts its lines name (as written, at most
// MaxJournalFileNames, sorted), their Units (nodelog's kubelet, crio,
// kernel, other; sorted) and Idents, the syslog identifiers of its lines
// ("kubenswrapper", "NetworkManager", "snap.kube-scheduler.daemon"; at
// most MaxJournalFileNames, sorted; IdentsCut when there were more).
type JournalFile struct {
	Path  string `json:"path"`
	Lines int    `json:"lines"`
	// Node is the host the file's path names (nodes/<node>/,
	// ceph_logs/journal_<node>/), whose lines are all that host's whatever
	// host they write ("localhost" before the host name is set); Hosts is
	// then Node alone.
	Node      string   `json:"node,omitempty"`
	Hosts     []string `json:"hosts"`
	HostsCut  bool     `json:"hostsCut,omitempty"`
	Units     []string `json:"units"`
	Idents    []string `json:"idents"`
	IdentsCut bool     `json:"identsCut,omitempty"`
}

// MaxJournalFileNames bounds the hosts and the identifiers a JournalFile
// lists (HostsCut, IdentsCut say when there were more): a whole-system
// journal names hundreds of identifiers.
const MaxJournalFileNames = 64

// JournalFilesOf returns the journal files of host (matched by HostKey):
// those whose path or lines name it, in path order. maybe are the files
// whose hosts were too many to list (HostsCut) and do not list host: they
// may hold its lines.
func (g *Gather) JournalFilesOf(host string) (files, maybe []JournalFile) {
	key := HostKey(host)
	for _, f := range g.JournalFiles {
		if slices.ContainsFunc(f.Hosts, func(h string) bool { return HostKey(h) == key }) {
			files = append(files, f)
		} else if f.HostsCut {
			maybe = append(maybe, f)
		}
	}
	return files, maybe
}
