// Package report owns the report schema and one writer per output format.
//
// The JSON form (Report) is canonical: Markdown, HTML and the terminal table are
// views of it and never look at the gather, the clock or the environment, so the
// same Report always renders to the same bytes. Every string in a Report comes
// from a customer's gather and is treated as hostile by every writer.
package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"
)

// SchemaVersion is the version of the JSON report layout. It changes when a
// field is removed or changes meaning; adding a field does not change it.
const SchemaVersion = 1

// SchemaMinor counts the additions made within SchemaVersion (1:
// gather.coverage; 2: ask, timelines and window; 3: run; 4:
// findings[].subject).
const SchemaMinor = 4

// Severity names, from the most to the least urgent.
const (
	SeverityCritical = "critical"
	SeverityHigh     = "high"
	SeverityMedium   = "medium"
	SeverityLow      = "low"
	SeverityInfo     = "info"
)

// Severities lists the severity names from the most to the least urgent.
var Severities = []string{SeverityCritical, SeverityHigh, SeverityMedium, SeverityLow, SeverityInfo}

// SeverityRank returns 0 for critical up to 4 for info, and 5 for an unknown name.
func SeverityRank(s string) int {
	for i, v := range Severities {
		if v == s {
			return i
		}
	}
	return len(Severities)
}

// Report is the canonical result of one analysis. Slices are never nil after
// Normalize, so the JSON always has arrays, not nulls. Fields tagged
// redact:"keep" hold words the tool writes itself (rule ids, kubectl's
// columns, kinds); Redact leaves them as they are.
type Report struct {
	SchemaVersion int  `json:"schemaVersion" redact:"keep"`
	SchemaMinor   int  `json:"schemaMinor" redact:"keep"`
	Tool          Tool `json:"tool" redact:"keep"`
	// Run identifies the run that wrote the report set (report.md,
	// report.html and report.json carry the same Run.ID); nil when the
	// report was built without one (tests, a library caller).
	Run    *Run      `json:"run,omitempty" redact:"keep"`
	Rules  RuleTable `json:"rules" redact:"keep"`
	Gather Gather    `json:"gather"`
	// Window is the incident window the findings and timelines were
	// narrowed to (--window); nil when none was given.
	Window   *Window   `json:"window,omitempty" redact:"keep"`
	Summary  Summary   `json:"summary"`
	Findings []Finding `json:"findings"`
	Pods     []Pod     `json:"pods"`
	Nodes    []Node    `json:"nodes"`
	// Timelines are the incident timelines of every node and of every pod
	// that is not healthy or that a finding names (timeline.go).
	Timelines []Timeline `json:"timelines"`
	Problems  []Problem  `json:"problems"`
	// Ask lists the commands that collect what the input lacks and a
	// finding or a gather health check needs (askFor).
	Ask []Ask `json:"ask"`
}

// Tool names the program that wrote the report.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Run identifies one run of the tool: every file of the report set it
// writes carries ID (report.json as run.id, report.md in an HTML comment on
// its first line, report.html in a <meta name="mgtriage-run"> tag), so a
// reader can tell files of two runs apart. ID is the UTC start time and a
// random suffix, "20261120T091233Z-3f9a1c02".
type Run struct {
	ID string `json:"id"`
}

// RunID is r's ID when it is one the tool writes (ValidRunID), else "".
func (r *Run) RunID() string {
	if r == nil || !ValidRunID(r.ID) {
		return ""
	}
	return r.ID
}

// ValidRunID reports whether id has the shape of a run ID: 1 to 64 ASCII
// letters, digits, '-', '.' and '_'. Writers leave out any other (a
// report.json read back is hostile text).
func ValidRunID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_') {
			return false
		}
	}
	return true
}

// RunComment is the Markdown's first line for a run ID id,
// "<!-- mgtriage run 20261120T091233Z-3f9a1c02 -->\n"; "" when id is not
// valid.
func RunComment(id string) string {
	if !ValidRunID(id) {
		return ""
	}
	return "<!-- mgtriage run " + id + " -->\n"
}

// RuleTable identifies the rule table the findings came from.
type RuleTable struct {
	SchemaVersion int    `json:"schemaVersion"`
	Version       string `json:"version"`
	Released      string `json:"released,omitempty"`
	Count         int    `json:"count"`
}

// Gather describes the input. CollectedAt is the gather's start and the "now"
// of every AGE and "ago" in the report; FinishedAt is its end. Both are nil when
// the gather has no readable timestamp file.
type Gather struct {
	Path string `json:"path"`
	// Input ties the report to the attachment it was made from.
	Input *InputFile `json:"input,omitempty"`
	// Incomplete is empty when the whole input was read; else it says why
	// reading stopped early, and the analysis covers only what came before.
	Incomplete string `json:"incomplete,omitempty"`
	// Faults lists the streams of the input that were not whole: damaged
	// (checksum or footer mismatch, data after the end) or truncated.
	Faults []StreamFault `json:"faults,omitempty"`
	// Mixed is empty for a consistent gather; else it says why the gather
	// holds two clusters (Node objects of one, pods and journals of another).
	Mixed       string     `json:"mixed,omitempty"`
	Roots       []string   `json:"roots"`
	CollectedAt *time.Time `json:"collectedAt,omitempty"`
	FinishedAt  *time.Time `json:"finishedAt,omitempty"`
	// CollectedAtInferred says how CollectedAt was inferred from the times in
	// the gather when it has no timestamp file; empty otherwise.
	CollectedAtInferred string `json:"collectedAtInferred,omitempty" redact:"keep"`
	ClusterVersion      string `json:"clusterVersion,omitempty" redact:"keep"`
	KubernetesVersion   string `json:"kubernetesVersion,omitempty" redact:"keep"`
	// Printer is the API server release whose pod printer the pods' columns
	// follow and where that release was read.
	Printer *Printer `json:"printer,omitempty"`
	// Distribution is "OpenShift" or "Kubernetes" (a vanilla-Kubernetes
	// support bundle or pod captures); "" in reports of older versions.
	Distribution string `json:"distribution,omitempty" redact:"keep"`
	ClusterID    string `json:"clusterID,omitempty"`
	// InfrastructureName (Infrastructure status.infrastructureName, the
	// cluster name with a random suffix), BaseDomain (DNS spec.baseDomain)
	// and APIServerURL (Infrastructure status.apiServerURL) name the cluster;
	// empty when the gather lacks them.
	InfrastructureName string `json:"infrastructureName,omitempty"`
	BaseDomain         string `json:"baseDomain,omitempty"`
	APIServerURL       string `json:"apiServerURL,omitempty"`
	Platform           string `json:"platform,omitempty" redact:"keep"`
	Files              int    `json:"files"`
	Bytes              int64  `json:"bytes"`
	// Layouts says what kind of gather each root is.
	Layouts []Layout `json:"layouts"`
	// Health lists what the gather itself lacks.
	Health Health `json:"health"`
	// Coverage says what was read and used, recognised and not used, and
	// could not be placed, and what the input holds of each kind.
	Coverage Coverage `json:"coverage"`
}

// Printer names the Kubernetes release ("1.21", or "newest" when the gather
// shows none) whose pod printer READY, STATUS and RESTARTS follow, and From
// where it was read ("ClusterVersion 4.8.0", "kube-apiserver ClusterOperator
// version 1.22.1", "highest kubelet version v1.21.1").
type Printer struct {
	Kubernetes string `json:"kubernetes" redact:"keep"`
	From       string `json:"from" redact:"keep"`
}

// InputFile identifies what the user gave. Kind is "archive" (a file:
// Size in bytes and SHA256 in lower-case hex, as sha256sum prints it, so the
// report can be matched to a ticket's attachment), "folder" (Files and
// Bytes of the Gather say how much was read) or "other" (a pipe or device,
// read once, so not checksummed). Name is the base name.
type InputFile struct {
	Name   string `json:"name"`
	Kind   string `json:"kind" redact:"keep"`
	Size   int64  `json:"size,omitempty"`
	SHA256 string `json:"sha256,omitempty" redact:"keep"`
}

// Layout is one gather found in the input: Kind is must-gather, inspect,
// sosreport or "namespace folder"; Image the must-gather image and version;
// Node the host of a sosreport.
type Layout struct {
	Root  string `json:"root"`
	Kind  string `json:"kind" redact:"keep"`
	Image string `json:"image,omitempty"`
	Node  string `json:"node,omitempty"`
	Pods  int    `json:"pods"`
}

// Health lists what a support engineer checks about the gather itself; each
// list is bounded (its last entry then says how many more there were).
type Health struct {
	MustGatherErrors      []string `json:"mustGatherErrors"`
	NamespacesWithoutPods []string `json:"namespacesWithoutPods"`
	// NamespacesWithoutWorkloads have no pods.yaml and nothing that runs
	// pods: normally empty namespaces, not a gap.
	NamespacesWithoutWorkloads []string `json:"namespacesWithoutWorkloads,omitempty"`
	PodsWithoutLogs            []string `json:"podsWithoutLogs"`
	NodesWithoutLogs           []string `json:"nodesWithoutLogs"`
	// SosCommands say which commands of a sosreport timed out, were not
	// found, failed or were truncated, from its manifest.
	SosCommands []string `json:"sosCommands,omitempty"`
}

// Summary holds the counts a ticket comment starts with.
type Summary struct {
	Pods          int            `json:"pods"`
	UnhealthyPods int            `json:"unhealthyPods"`
	Events        int            `json:"events"`
	WarningEvents int            `json:"warningEvents"`
	Nodes         int            `json:"nodes"`
	Findings      int            `json:"findings"`
	BySeverity    map[string]int `json:"bySeverity"`
	// Limits say what a limit of the reader cut of a count, one per count
	// cut (gather.coverage.cuts grouped); empty when none did.
	Limits []SummaryLimit `json:"limits,omitempty"`
}

// Finding is one rule that fired, with the objects it fired on and the lines
// that prove it. Hint and Remediation are already expanded from the rule's
// templates with the evidence's values.
type Finding struct {
	RuleID      string     `json:"ruleId" redact:"keep"`
	RuleVersion int        `json:"ruleVersion"`
	Severity    string     `json:"severity" redact:"keep"`
	Title       string     `json:"title" redact:"keep"`
	Category    string     `json:"category,omitempty" redact:"keep"`
	Hint        string     `json:"hint"`
	Remediation []string   `json:"remediation"`
	Docs        []string   `json:"docs" redact:"keep"`
	Objects     []Object   `json:"objects"`
	Evidence    []Evidence `json:"evidence"`
	// Subject is what the finding is about across gathers, the identity
	// that survives a rollout (SnapFinding.Subject): "Deployment/ns/name"
	// for a workload's pods, "pod/ns/name" for a pod with a stable name,
	// "node/name", "clusteroperator/name" or "Kind/ns/name"; empty in
	// reports of older versions.
	Subject string `json:"subject,omitempty"`
	// Missing names evidence the gather lacks that would decide the cause.
	Missing []string `json:"missing,omitempty"`
	// GroupedBy says what the objects share when one finding covers several
	// pods ("workload shop/Deployment/cart", "registry quay.io (...)").
	GroupedBy string `json:"groupedBy,omitempty"`
	// Explains lists the pod findings a node-level finding accounts for.
	Explains []Object `json:"explains,omitempty"`
	// Signature is the catalogue signature whose cause the hint states
	// first, with its deciding line.
	Signature *Signature `json:"signature,omitempty"`
	// AlsoMatched lists the rules that explained the same container with the
	// same evidence and were folded into this finding.
	AlsoMatched []string `json:"alsoMatched,omitempty" redact:"keep"`
}

// Signature is the failure signature a finding states (rules.SignatureMatch):
// its id and version in the catalogue, the cause it states (docs/rules.md), whether its decider
// confirmed it, and the deciding line cited as path:line with its quote
// (shortened around the part that decides).
type Signature struct {
	ID      string `json:"id" redact:"keep"`
	Version int    `json:"version"`
	Decided bool   `json:"decided"`
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Quote   string `json:"quote"`
	// Cause is the cause the signature states, as the hint's first words.
	Cause string `json:"cause"`
}

// Object is a Kubernetes object a finding is about. RuleID is set in
// Explains: the rule that fired on that pod.
type Object struct {
	RuleID    string `json:"ruleId,omitempty" redact:"keep"`
	Kind      string `json:"kind" redact:"keep"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	Container string `json:"container,omitempty"`
	Node      string `json:"node,omitempty"`
}

// Evidence is one line from the gather, cited as path:line (path relative to the
// input; line 1-based, 0 when unknown). Kind is one of status, spec, event,
// node-log, container-log, object (a joined object of the store), alert, log
// (an install bundle's container log): rules.EvidenceKinds.
type Evidence struct {
	Path string     `json:"path"`
	Line int        `json:"line"`
	Kind string     `json:"kind" redact:"keep"`
	Time *time.Time `json:"time,omitempty"`
	Text string     `json:"text"`
	// Count is how many times an event or log line repeated (1 when it did not).
	Count int `json:"count,omitempty"`
	// Summary is true when Text is the tool's own summary of the cited object
	// or field (kinds status, spec, object, alert), not a quote of the line.
	Summary bool `json:"summary,omitempty" redact:"keep"`
}

// Pod is one row of `kubectl get pods -o wide` at the gather time. Ready,
// Status, Restarts and Age are the exact strings kubectl prints.
type Pod struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	UID       string `json:"uid" redact:"keep"`
	Node      string `json:"node"`
	Phase     string `json:"phase" redact:"keep"`
	Ready     string `json:"ready" redact:"keep"`
	Status    string `json:"status" redact:"keep"`
	Restarts  string `json:"restarts" redact:"keep"`
	Age       string `json:"age" redact:"keep"`
	// Healthy is false when the pod is neither Running with every container
	// ready nor Completed.
	Healthy bool `json:"healthy" redact:"keep"`
	// View is "runtime" for a pod known only from its node's container
	// runtime (crictl output in a sosreport): READY counts running
	// containers, STATUS is the runtime's state of the worst container
	// ("Exited (OOMKilled, 137)"), RESTARTS its highest attempt, AGE the
	// sandbox's; phase and stage are unknown. Empty for pods from the API.
	View string `json:"view,omitempty" redact:"keep"`
	// Stage is the first of the startup conditions that is not True
	// (PodScheduled, PodReadyToStartContainers, Initialized, ContainersReady,
	// Ready), "Started" when all are, "Terminated" for Succeeded and Failed
	// pods; with that condition's reason and message, since when, and what to
	// look at for a pod stopped there.
	Stage        string     `json:"stage,omitempty" redact:"keep"`
	StageReason  string     `json:"stageReason,omitempty" redact:"keep"`
	StageMessage string     `json:"stageMessage,omitempty"`
	StageSince   *time.Time `json:"stageSince,omitempty"`
	StageLookAt  string     `json:"stageLookAt,omitempty" redact:"keep"`
	Owner        string     `json:"owner,omitempty"`
	Source       string     `json:"source,omitempty"`
	// Containers lists init, sidecar and app containers with their state.
	Containers []Container `json:"containers,omitempty"`
	// NodeLog lists the kubelet, CRI-O and kernel lines that name this pod,
	// repeats collapsed, oldest first.
	NodeLog []LogGroup `json:"nodeLog,omitempty"`
	// Events are the pod's own events, oldest first: the newest MaxPodEvents
	// of them, each message cut to MaxEventMessageRunes.
	Events []PodEvent `json:"events,omitempty"`
	// EventsOmitted is how many older events of the pod were left out of Events.
	EventsOmitted int `json:"eventsOmitted,omitempty"`
	// Logs are the tails of the pod's container logs (current, previous and rotated),
	// set only for pods that are not healthy or that a finding names: at most
	// MaxLogTailLines last lines of each, each cut to MaxTextRunes.
	Logs []LogTail `json:"logs,omitempty"`
}

// MaxLogTailLines bounds the lines of one LogTail.
const MaxLogTailLines = 20

// LogTail is the end of one container log file. Lines is how many lines the
// file has; Tail its last lines, oldest first, each with its 1-based line
// number. Tail is empty when the gather's log is empty or was not kept.
// Rotated is the file name of a log the kubelet rotated
// ("3.log.20211027-082023.gz", under logs/rotated/; Previous is then
// false), "" for the current and previous run's logs.
type LogTail struct {
	Container string    `json:"container"`
	Previous  bool      `json:"previous"`
	Rotated   string    `json:"rotated,omitempty"`
	Path      string    `json:"path"`
	Lines     int       `json:"lines"`
	Tail      []LogLine `json:"tail"`
}

// LogLine is one line of a log with its 1-based line number, and its own
// timestamp when it has one.
type LogLine struct {
	Line int        `json:"line"`
	Time *time.Time `json:"time,omitempty"`
	Text string     `json:"text"`
}

// MaxTextRunes bounds every free text copied from the gather into a Report
// (evidence and log lines, stage and container messages, problems): a
// hostile or broken gather can hold lines of megabytes. A longer text is cut
// and ends with "…".
const MaxTextRunes = 8192

// Bounds of Pod.Events: a pod stuck for days can hold thousands of events, and
// a hostile event message can be megabytes long.
const (
	MaxPodEvents         = 50
	MaxEventMessageRunes = 2000
)

// PodEvent is one event whose involved object is the pod. Time is when it
// last happened, FirstTime when it first did (set only when different); Count
// is how many times it happened (at least 1). Path and Line cite it.
type PodEvent struct {
	Time      *time.Time `json:"time,omitempty"`
	FirstTime *time.Time `json:"firstTime,omitempty"`
	Type      string     `json:"type" redact:"keep"`
	Reason    string     `json:"reason" redact:"keep"`
	Count     int        `json:"count"`
	Message   string     `json:"message"`
	Path      string     `json:"path"`
	Line      int        `json:"line"`
}

// LogGroup is a run of node-log lines of one class with the same message,
// collapsed: Path and Line cite the first, Count says how many there were.
// Class is one of image-pull, sandbox, probe, container-start, crash-loop,
// oom-kill, eviction, volume, pleg, node-not-ready, network-not-ready,
// certificate, api, sync-error, other.
type LogGroup struct {
	Class     string     `json:"class" redact:"keep"`
	Severity  string     `json:"severity,omitempty" redact:"keep"` // klog letter I, W, E, F
	Node      string     `json:"node,omitempty"`
	Unit      string     `json:"unit" redact:"keep"`
	Path      string     `json:"path"`
	Line      int        `json:"line"`
	First     *time.Time `json:"first,omitempty"`
	Last      *time.Time `json:"last,omitempty"`
	Count     int        `json:"count"`
	Container string     `json:"container,omitempty"`
	Text      string     `json:"text"`
}

// Container is one container of a pod. ExitCode is set for a terminated
// state; BackOff ("2m40s") and NextRestart only while in CrashLoopBackOff.
type Container struct {
	Name         string       `json:"name"`
	Kind         string       `json:"kind" redact:"keep"` // init, sidecar, app
	Image        string       `json:"image,omitempty"`
	State        string       `json:"state,omitempty" redact:"keep"` // waiting, running, terminated
	Reason       string       `json:"reason,omitempty" redact:"keep"`
	Message      string       `json:"message,omitempty"`
	ExitCode     *int32       `json:"exitCode,omitempty"`
	Signal       int32        `json:"signal,omitempty"`
	ExitMeaning  string       `json:"exitMeaning,omitempty" redact:"keep"`
	Ready        bool         `json:"ready"`
	RestartCount int32        `json:"restartCount"`
	Last         *Termination `json:"lastState,omitempty"`
	BackOff      string       `json:"backOff,omitempty" redact:"keep"`
	NextRestart  *time.Time   `json:"nextRestart,omitempty"`
	// CrashLoopSince is the first BackOff event for the container still in the
	// gather: the crash loop began at this time or earlier.
	CrashLoopSince *time.Time `json:"crashLoopSince,omitempty"`
	// Probes describe startup, readiness and liveness probes as kubectl describe does.
	Probes []string `json:"probes,omitempty"`
}

// Termination is a container's previous run.
type Termination struct {
	Reason      string     `json:"reason,omitempty" redact:"keep"`
	ExitCode    int32      `json:"exitCode"`
	Signal      int32      `json:"signal,omitempty"`
	ExitMeaning string     `json:"exitMeaning,omitempty" redact:"keep"`
	FinishedAt  *time.Time `json:"finishedAt,omitempty"`
}

// Node is one node of the cluster with its Ready condition.
type Node struct {
	Name string `json:"name"`
	// Addresses are the node's status.addresses (InternalIP, ExternalIP,
	// Hostname, ...) as "Type address".
	Addresses      []string `json:"addresses,omitempty"`
	Ready          string   `json:"ready" redact:"keep"`
	Roles          []string `json:"roles" redact:"keep"`
	KubeletVersion string   `json:"kubeletVersion,omitempty" redact:"keep"`
	// NoObject is true for a host the gather holds no Node object of, known
	// from its journal or its container runtime's pods.
	NoObject bool `json:"noObject,omitempty" redact:"keep"`
	// Conditions lists the node conditions that are not in their healthy state.
	Conditions []string `json:"conditions"`
	// Log lists node-level log groups: PLEG, network not ready, certificates,
	// API and lease failures, OOM kills and evictions not tied to a pod.
	Log []LogGroup `json:"log,omitempty"`
}

// Problem is a file of the gather that could not be read or decoded, and why.
type Problem struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// Normalize replaces nil slices and maps by empty ones so the JSON form is stable.
func (r *Report) Normalize() {
	if r.Findings == nil {
		r.Findings = []Finding{}
	}
	if r.Pods == nil {
		r.Pods = []Pod{}
	}
	if r.Nodes == nil {
		r.Nodes = []Node{}
	}
	if r.Problems == nil {
		r.Problems = []Problem{}
	}
	if r.Timelines == nil {
		r.Timelines = []Timeline{}
	}
	for i := range r.Timelines {
		if r.Timelines[i].Entries == nil {
			r.Timelines[i].Entries = []TimelineEntry{}
		}
	}
	if r.Ask == nil {
		r.Ask = []Ask{}
	}
	for i := range r.Ask {
		if r.Ask[i].Blocks == nil {
			r.Ask[i].Blocks = []string{}
		}
	}
	if r.Gather.Roots == nil {
		r.Gather.Roots = []string{}
	}
	if r.Gather.Layouts == nil {
		r.Gather.Layouts = []Layout{}
	}
	r.Gather.Coverage.normalize()
	for _, l := range []*[]string{&r.Gather.Health.MustGatherErrors, &r.Gather.Health.NamespacesWithoutPods, &r.Gather.Health.PodsWithoutLogs, &r.Gather.Health.NodesWithoutLogs} {
		if *l == nil {
			*l = []string{}
		}
	}
	if r.Summary.BySeverity == nil {
		r.Summary.BySeverity = map[string]int{}
	}
	for i := range r.Findings {
		f := &r.Findings[i]
		if f.Remediation == nil {
			f.Remediation = []string{}
		}
		if f.Docs == nil {
			f.Docs = []string{}
		}
		if f.Objects == nil {
			f.Objects = []Object{}
		}
		if f.Evidence == nil {
			f.Evidence = []Evidence{}
		}
	}
	for i := range r.Nodes {
		if r.Nodes[i].Roles == nil {
			r.Nodes[i].Roles = []string{}
		}
		if r.Nodes[i].Conditions == nil {
			r.Nodes[i].Conditions = []string{}
		}
	}
}

// WriteJSON writes r as indented JSON followed by a newline. Besides what
// encoding/json escapes (control characters, <, >, &, U+2028, U+2029), C1
// controls, bidirectional controls and the BOM are written as \uXXXX escapes,
// so the file shows no hidden text in an editor or terminal; the decoded
// strings are unchanged.
func WriteJSON(w io.Writer, r *Report) error {
	r.Normalize()
	return writeIndentedJSON(w, r)
}

// escapeHidden replaces the hidden control characters (see isHiddenControl)
// in encoded JSON by \uXXXX escapes. In JSON output such characters can only
// be inside strings, where the escape means the same character.
func escapeHidden(b []byte) []byte {
	if isPlain(string(b)) {
		return b
	}
	var out []byte
	last := 0
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r >= utf8.RuneSelf && isHiddenControl(r) {
			out = append(out, b[last:i]...)
			out = fmt.Appendf(out, "\\u%04x", r)
			last = i + size
		}
		i += size
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// ReadJSON decodes a report written by WriteJSON. It returns an error when the
// schemaVersion is newer than this program understands.
func ReadJSON(rd io.Reader) (*Report, error) {
	var r Report
	dec := json.NewDecoder(rd)
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("decode report: %w", err)
	}
	if r.SchemaVersion > SchemaVersion {
		return nil, fmt.Errorf("report schemaVersion %d is newer than %d", r.SchemaVersion, SchemaVersion)
	}
	r.Normalize()
	return &r, nil
}

// JSONErrorText words an error of ReadJSON or ReadDiffJSON for a person:
// which field holds what kind of value where another belongs, or where the
// JSON breaks, instead of Go's type names.
func JSONErrorText(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "the top level"
		}
		return fmt.Sprintf("field %s holds %s where %s belongs (byte %d)", field, jsonValueWords(te.Value), jsonTypeWords(te.Type), te.Offset)
	case errors.As(err, &se):
		return fmt.Sprintf("not valid JSON at byte %d (%v)", se.Offset, se)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return "the JSON ends early (a truncated file?)"
	case strings.Contains(err.Error(), "Time.UnmarshalJSON") || strings.Contains(err.Error(), "parsing time"):
		return "a time is not an RFC 3339 string such as \"2026-11-20T09:12:33Z\""
	}
	return err.Error()
}

func jsonValueWords(v string) string {
	switch v {
	case "string", "number", "bool", "array", "object":
		return map[string]string{"string": "a string", "number": "a number", "bool": "true or false", "array": "an array", "object": "an object"}[v]
	}
	if strings.HasPrefix(v, "number") {
		return "a number (" + strings.TrimSpace(strings.TrimPrefix(v, "number")) + ")"
	}
	return v
}

func jsonTypeWords(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeOf(time.Time{}) {
		return "a time string"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "another kind of value"
}
