package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// DiffSchemaVersion is the version of the JSON diff layout (docs/diff-schema.md).
// It changes when a field is removed or changes meaning.
const DiffSchemaVersion = 1

// Finding states of a comparison.
const (
	StateNew           = "new"
	StateResolved      = "resolved"
	StateStillFailing  = "still-failing"
	StateChanged       = "changed"
	StateNotComparable = "not-comparable"
)

// Diff is what changed between two gathers of one cluster, OLD before NEW.
// Every slice is non-nil after Normalize.
type Diff struct {
	SchemaVersion int  `json:"schemaVersion" redact:"keep"`
	Tool          Tool `json:"tool" redact:"keep"`
	// Run identifies the run that wrote the diff set (Report.Run); nil
	// when the diff was made without one.
	Run   *Run      `json:"run,omitempty" redact:"keep"`
	Rules RuleTable `json:"rules" redact:"keep"`
	Old   DiffSide  `json:"old"`
	New   DiffSide  `json:"new"`
	// Swapped is true when the inputs were given newest first and were put
	// in time order.
	Swapped bool `json:"swapped"`
	// IntervalSeconds is NEW's gather time minus OLD's (0 when either is
	// unknown or both are the same).
	IntervalSeconds int64 `json:"intervalSeconds"`
	// SameCollection is true when both gathers have a collection time and
	// it is the same (to the second, as the timestamp file holds it): one
	// collection given twice, such as a folder and its own .tar.gz.
	SameCollection bool `json:"sameCollection,omitempty"`
	// SameCluster says how the two were recognised as one cluster:
	// "cluster ID", "node UIDs", "namespace UIDs" or "not verified".
	SameCluster string           `json:"sameCluster" redact:"keep"`
	Notes       []string         `json:"notes"`
	Summary     DiffSummary      `json:"summary"`
	Findings    []FindingChange  `json:"findings"`
	Pods        PodChanges       `json:"pods"`
	Nodes       []NodeChange     `json:"nodes"`
	Cluster     VersionChange    `json:"cluster"`
	Operators   []OperatorChange `json:"operators"`
	Pools       []PoolChange     `json:"machineConfigPools"`
	Config      []ConfigChange   `json:"config"`
	Events      EventChanges     `json:"events"`
}

// DiffSide describes one of the two gathers.
type DiffSide struct {
	Path           string     `json:"path"`
	CollectedAt    *time.Time `json:"collectedAt,omitempty"`
	ClusterID      string     `json:"clusterID,omitempty"`
	ClusterVersion string     `json:"clusterVersion,omitempty" redact:"keep"`
	Findings       int        `json:"findings"`
	Pods           int        `json:"pods"`
	// EventsFrom and EventsTo bound the times of the gather's events: the
	// only part of the past it shows events for.
	EventsFrom *time.Time `json:"eventsFrom,omitempty"`
	EventsTo   *time.Time `json:"eventsTo,omitempty"`
}

// DiffSummary counts each section.
type DiffSummary struct {
	New             int `json:"new"`
	Resolved        int `json:"resolved"`
	StillFailing    int `json:"stillFailing"`
	Changed         int `json:"changed"`
	NotComparable   int `json:"notComparable"`
	NewlyUnhealthy  int `json:"newlyUnhealthy"`
	Recovered       int `json:"recovered"`
	Replaced        int `json:"replaced"`
	Gone            int `json:"gone"`
	Restarted       int `json:"restartedContainers"`
	NodeChanges     int `json:"nodeChanges"`
	OperatorChanges int `json:"operatorChanges"`
	ConfigChanges   int `json:"configChanges"`
	WarningEvents   int `json:"warningEventsBetween"`
}

// FindingChange is one finding subject and rule across the two gathers.
// State is new, resolved, still-failing, changed (same subject, another
// rule or severity) or not-comparable (the list that would hold the subject
// was gathered in one gather only; Why says which). Old and New are the
// finding in each gather (nil where it did not fire). For still-failing,
// Since is OLD's gather time and FailingSeconds NEW's gather time minus it:
// the finding fired at both ends of that span (not necessarily throughout);
// both are absent when either time is unknown or the two are the same
// collection. No evidence time is used: a previous termination or an
// event's first time is not when a failure began. Config lists the
// configuration that changed along the finding's chain (node, pool,
// namespace, workload).
type FindingChange struct {
	State          string         `json:"state" redact:"keep"`
	Subject        string         `json:"subject"`
	Container      string         `json:"container,omitempty"`
	RuleID         string         `json:"ruleId" redact:"keep"`
	Severity       string         `json:"severity" redact:"keep"`
	Title          string         `json:"title" redact:"keep"`
	Why            string         `json:"why,omitempty"`
	Since          *time.Time     `json:"since,omitempty"`
	FailingSeconds int64          `json:"failingSeconds,omitempty"`
	Old            *Finding       `json:"old,omitempty"`
	New            *Finding       `json:"new,omitempty"`
	Config         []ConfigChange `json:"config,omitempty"`
}

// PodChanges lists pods whose state changed. NewlyUnhealthy and Recovered
// compare a pod with the same identity (same pod, or the pod that replaced
// it); Replaced pairs a pod that is gone with the new pod of the same owner;
// Gone lists pods neither completed nor replaced that NEW does not hold
// (their namespace's pods gathered in NEW). Restarts lists containers of the
// same pod (same UID) whose restart count rose. Appeared and CompletedGone
// count healthy new pods and completed pods that left (installer, pruner and
// CronJob runs): normal churn, not listed.
type PodChanges struct {
	NewlyUnhealthy []PodChange     `json:"newlyUnhealthy"`
	Recovered      []PodChange     `json:"recovered"`
	Replaced       []PodChange     `json:"replaced"`
	Gone           []PodChange     `json:"gone"`
	Restarts       []RestartChange `json:"restarts"`
	Appeared       int             `json:"appeared"`
	CompletedGone  int             `json:"completedGone"`
}

// PodChange is one pod (or pod pair) with kubectl's STATUS and READY in
// each gather.
type PodChange struct {
	Workload  string `json:"workload"`
	Namespace string `json:"namespace"`
	OldPod    string `json:"oldPod,omitempty"`
	NewPod    string `json:"newPod,omitempty"`
	OldStatus string `json:"oldStatus,omitempty" redact:"keep"`
	NewStatus string `json:"newStatus,omitempty" redact:"keep"`
	OldReady  string `json:"oldReady,omitempty" redact:"keep"`
	NewReady  string `json:"newReady,omitempty" redact:"keep"`
	Node      string `json:"node,omitempty"`
}

// RestartChange is a container's restart count in each gather, the
// difference and the rate per hour over the interval between the gathers.
type RestartChange struct {
	Namespace string  `json:"namespace"`
	Pod       string  `json:"pod"`
	Container string  `json:"container"`
	Old       int32   `json:"old"`
	New       int32   `json:"new"`
	Delta     int32   `json:"delta"`
	PerHour   float64 `json:"perHour"`
	Status    string  `json:"status" redact:"keep"` // kubectl STATUS in NEW
}

// NodeChange is one node whose Ready condition, pressure conditions,
// kubelet version or taints changed, or that appeared or left.
type NodeChange struct {
	Name    string   `json:"name"`
	Changes []string `json:"changes"`
}

// VersionChange is the cluster version in each gather and the updates the
// NEW history shows started after OLD was gathered (or absent from OLD's history).
type VersionChange struct {
	Old     string        `json:"old,omitempty" redact:"keep"`
	New     string        `json:"new,omitempty" redact:"keep"`
	Updates []VersionStep `json:"updates"`
}

// OperatorChange is a ClusterOperator whose Available, Degraded or
// Progressing condition changed ("True→False").
type OperatorChange struct {
	Name    string   `json:"name"`
	Changes []string `json:"changes"`
	Message string   `json:"message,omitempty"`
}

// PoolChange is a MachineConfigPool whose rendered configuration,
// conditions or machine counts changed.
type PoolChange struct {
	Name    string   `json:"name"`
	Changes []string `json:"changes"`
}

// ConfigChange is a configuration object on a chain whose content differs:
// Change is added, removed or changed; Old and New summarise its content.
type ConfigChange struct {
	Kind   string `json:"kind" redact:"keep"`
	Ref    string `json:"ref"`
	Change string `json:"change" redact:"keep"`
	Old    string `json:"old,omitempty"`
	New    string `json:"new,omitempty"`
}

// EventChanges are NEW's events whose time falls after OLD was gathered,
// grouped per type, reason and involved object (warnings first), with the
// window each gather's events cover. Unseen is the part of the interval
// that no gather's events cover, in seconds.
type EventChanges struct {
	Groups        []EventGroup `json:"groups"`
	UnseenSeconds int64        `json:"unseenSeconds"`
	Omitted       int          `json:"omitted,omitempty"`
}

// EventGroup counts the events of one type, reason and involved object.
type EventGroup struct {
	Type   string     `json:"type" redact:"keep"`
	Reason string     `json:"reason" redact:"keep"`
	Object string     `json:"object"`
	Count  int        `json:"count"`
	First  *time.Time `json:"first,omitempty"`
	Last   *time.Time `json:"last,omitempty"`
}

// MaxEventGroups bounds Diff.Events.Groups; Omitted says how many more there were.
const MaxEventGroups = 200

// Normalize replaces nil slices by empty ones so the JSON form is stable.
func (d *Diff) Normalize() {
	for _, l := range []*[]string{&d.Notes} {
		if *l == nil {
			*l = []string{}
		}
	}
	if d.Findings == nil {
		d.Findings = []FindingChange{}
	}
	p := &d.Pods
	for _, l := range []*[]PodChange{&p.NewlyUnhealthy, &p.Recovered, &p.Replaced, &p.Gone} {
		if *l == nil {
			*l = []PodChange{}
		}
	}
	if p.Restarts == nil {
		p.Restarts = []RestartChange{}
	}
	if d.Nodes == nil {
		d.Nodes = []NodeChange{}
	}
	if d.Cluster.Updates == nil {
		d.Cluster.Updates = []VersionStep{}
	}
	if d.Operators == nil {
		d.Operators = []OperatorChange{}
	}
	if d.Pools == nil {
		d.Pools = []PoolChange{}
	}
	if d.Config == nil {
		d.Config = []ConfigChange{}
	}
	if d.Events.Groups == nil {
		d.Events.Groups = []EventGroup{}
	}
	for i := range d.Findings {
		for _, f := range []*Finding{d.Findings[i].Old, d.Findings[i].New} {
			if f != nil {
				normalizeFinding(f)
			}
		}
	}
}

func normalizeFinding(f *Finding) {
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

// WriteDiffJSON writes d as indented JSON followed by a newline, with the
// same escaping as WriteJSON.
func WriteDiffJSON(w io.Writer, d *Diff) error {
	d.Normalize()
	return writeIndentedJSON(w, d)
}

// ClusterMismatchError says two gathers are of different clusters; its
// message names both. By is "cluster ID" (OldID and NewID are the two
// ClusterVersion spec.clusterIDs), "namespace UIDs" or "node names"; Detail
// says what the gathers share and do not.
type ClusterMismatchError struct {
	OldPath, NewPath string
	OldID, NewID     string
	By, Detail       string
}

func (e *ClusterMismatchError) Error() string {
	if e.By == "cluster ID" {
		return fmt.Sprintf("the two gathers are of different clusters: %s is cluster %s, %s is cluster %s", e.OldPath, e.OldID, e.NewPath, e.NewID)
	}
	return fmt.Sprintf("the two gathers are of different clusters: %s and %s %s", e.OldPath, e.NewPath, e.Detail)
}

// sameCluster decides whether a and b are gathers of one cluster: by the
// ClusterVersion's clusterID when both have one; else by a node or a
// namespace of the same name with the same UID. Namespaces of the same name
// that all differ in UID, or two sets of nodes without a name in common (and
// no namespace to decide), are two clusters; with nothing to compare the
// answer is "not verified".
func sameCluster(a, b *Snapshot) (string, error) {
	if a.ClusterID != "" && b.ClusterID != "" {
		if a.ClusterID == b.ClusterID {
			return "cluster ID", nil
		}
		return "", &ClusterMismatchError{OldPath: a.Path, NewPath: b.Path, OldID: a.ClusterID, NewID: b.ClusterID, By: "cluster ID"}
	}
	shared := func(x, y map[string]string) (same, differ []string) {
		for _, name := range sortedKeysOf(x) {
			if other, ok := y[name]; ok && x[name] != "" && other != "" {
				if x[name] == other {
					same = append(same, name)
				} else {
					differ = append(differ, name)
				}
			}
		}
		return same, differ
	}
	if same, _ := shared(a.NodeUIDs, b.NodeUIDs); len(same) > 0 {
		return "node UIDs", nil
	}
	same, differ := shared(a.NamespaceUIDs, b.NamespaceUIDs)
	if len(same) > 0 {
		return "namespace UIDs", nil
	}
	if len(differ) > 0 {
		return "", &ClusterMismatchError{OldPath: a.Path, NewPath: b.Path, By: "namespace UIDs",
			Detail: fmt.Sprintf("hold %s (%s)", countNoun(len(differ), "namespace of the same name with a different UID", "namespaces of the same names with different UIDs"), strings.Join(firstN(differ, 3), ", "))}
	}
	if len(a.NodeUIDs) > 0 && len(b.NodeUIDs) > 0 && !sharesKey(a.NodeUIDs, b.NodeUIDs) {
		return "", &ClusterMismatchError{OldPath: a.Path, NewPath: b.Path, By: "node names",
			Detail: fmt.Sprintf("have no node name in common (%s; %s)", strings.Join(firstN(sortedKeysOf(a.NodeUIDs), 3), ", "), strings.Join(firstN(sortedKeysOf(b.NodeUIDs), 3), ", "))}
	}
	return "not verified", nil
}

func sharesKey(a, b map[string]string) bool {
	for k := range a {
		if _, ok := b[k]; ok {
			return true
		}
	}
	return false
}

func firstN(list []string, n int) []string {
	if len(list) > n {
		return append(list[:n:n], fmt.Sprintf("and %d more", len(list)-n))
	}
	return list
}

func durationText(d time.Duration) string {
	if d < 0 {
		d = -d
	}
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%dd%dh", int(d.Hours())/24, int(d.Hours())%24)
	case d >= time.Hour:
		return fmt.Sprintf("%dh%dm", int(d.Hours()), int(d.Minutes())%60)
	case d >= time.Minute:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
	return fmt.Sprintf("%ds", int(d.Seconds()))
}

func sortedKeysOf[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func arrow(a, b string) string {
	if a == "" {
		a = "—"
	}
	if b == "" {
		b = "—"
	}
	return a + " → " + b
}

// ReadDiffJSON decodes a diff written by WriteDiffJSON. It returns an error
// when the schemaVersion is newer than this program understands.
func ReadDiffJSON(rd io.Reader) (*Diff, error) {
	var d Diff
	if err := json.NewDecoder(rd).Decode(&d); err != nil {
		return nil, fmt.Errorf("decode diff: %w", err)
	}
	if d.SchemaVersion > DiffSchemaVersion {
		return nil, fmt.Errorf("diff schemaVersion %d is newer than %d", d.SchemaVersion, DiffSchemaVersion)
	}
	d.Normalize()
	return &d, nil
}

// JSON document kinds that JSONKind tells apart.
const (
	KindReport = "report" // report.json of analyze: a "gather" object
	KindDiff   = "diff"   // diff.json of analyze diff: "old", "new" and "sameCluster"
)

// JSONKind says which mgtriage document b is by its top-level keys:
// KindReport, KindDiff, or "" when b is not a JSON object or has the keys of
// neither (then why, in words, for an error message).
func JSONKind(b []byte) (kind, why string) {
	if len(bytes.TrimSpace(b)) == 0 {
		return "", "empty"
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return "", fmt.Sprintf("not valid JSON (byte %d: %s)", syn.Offset, strings.TrimPrefix(err.Error(), "json: "))
		}
		return "", "JSON, but not an object"
	}
	_, gather := top["gather"]
	_, old := top["old"]
	_, cur := top["new"]
	_, same := top["sameCluster"]
	switch {
	case gather:
		return KindReport, ""
	case old && cur && same:
		return KindDiff, ""
	}
	return "", "a JSON object with neither a \"gather\" object (report.json) nor \"old\", \"new\" and \"sameCluster\" (diff.json)"
}
