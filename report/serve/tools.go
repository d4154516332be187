package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/report"
)

// MaxArgBytes bounds a free-text argument (a name, a filter, a pattern).
const MaxArgBytes = 512

// checkArgs refuses an argument over MaxArgBytes or holding a control
// character: names, filters and patterns are short, printable text.
func checkArgs(args map[string]string) error {
	for _, k := range sortedKeys(args) {
		v := args[k]
		if len(v) > MaxArgBytes {
			return fmt.Errorf("%s is %d bytes long; at most %d", k, len(v), MaxArgBytes)
		}
		for _, r := range v {
			if r < 0x20 || r == 0x7f {
				return fmt.Errorf("%s holds a control character; refused", k)
			}
		}
	}
	return nil
}

// ---- overview ----

// OverviewIn takes no argument.
type OverviewIn struct{}

// OverviewOut is the gather at a glance, as the Markdown summary says it.
type OverviewOut struct {
	Cluster  Cluster  `json:"cluster"`
	Input    InputOut `json:"input"`
	Coverage []string `json:"coverage" jsonschema:"what was read and used, what the input lacks, what could not be placed"`
	// Notice is set when the input was damaged, cut short or mixes clusters.
	Notice   string         `json:"notice,omitempty"`
	Counts   report.Summary `json:"counts"`
	Top      []FindingBrief `json:"topFindings" jsonschema:"the most severe findings first; see the findings tool for all"`
	Rules    string         `json:"rules" jsonschema:"the rule table version the findings come from"`
	KeptData KeptData       `json:"kept" jsonschema:"what this server kept from the one read to answer questions"`
}

// Cluster names the cluster the gather is of.
type Cluster struct {
	Distribution       string `json:"distribution,omitempty"`
	Version            string `json:"version,omitempty"`
	Kubernetes         string `json:"kubernetesVersion,omitempty"`
	Platform           string `json:"platform,omitempty"`
	ClusterID          string `json:"clusterID,omitempty"`
	InfrastructureName string `json:"infrastructureName,omitempty"`
}

// InputOut describes the input and its collection.
type InputOut struct {
	Path        string            `json:"path"`
	Input       *report.InputFile `json:"file,omitempty"`
	CollectedAt *time.Time        `json:"collectedAt,omitempty"`
	Layouts     []report.Layout   `json:"layouts"`
	Files       int               `json:"files"`
	Bytes       int64             `json:"bytes"`
	Problems    int               `json:"problems" jsonschema:"files that could not be read or decoded"`
}

// KeptData says what answers can draw on beyond the model.
type KeptData struct {
	ObjectFiles model.KeptFilesStats `json:"objectFiles"`
	// FolderInput is true when the input is a folder whose files are read
	// again on demand (confined to it) for logs and sources.
	FolderInput bool `json:"folderInput"`
}

// FindingBrief is one finding in a list: its handle, what it says and the
// first evidence.
type FindingBrief struct {
	Handle   string `json:"handle"`
	Severity string `json:"severity"`
	RuleID   string `json:"ruleId"`
	Title    string `json:"title"`
	Subject  string `json:"subject" jsonschema:"the objects it is about, kind/namespace/name"`
	Hint     string `json:"hint"`
	Cites    string `json:"cites,omitempty" jsonschema:"the first evidence as path:line"`
}

// Overview is the overview tool.
func (s *Server) Overview(OverviewIn) (*OverviewOut, error) {
	r := s.in.Report
	g := r.Gather
	out := &OverviewOut{
		Cluster: Cluster{Distribution: g.Distribution, Version: g.ClusterVersion, Kubernetes: g.KubernetesVersion, Platform: g.Platform,
			ClusterID: g.ClusterID, InfrastructureName: g.InfrastructureName},
		Input:    InputOut{Path: g.Path, Input: g.Input, CollectedAt: g.CollectedAt, Layouts: g.Layouts, Files: g.Files, Bytes: g.Bytes, Problems: len(r.Problems)},
		Coverage: report.CoverageLines(r),
		Counts:   r.Summary,
		Rules:    r.Rules.Version,
		KeptData: KeptData{ObjectFiles: s.in.Gather.Kept.Stats(), FolderInput: s.in.Reread != nil},
	}
	if label, text, _ := report.InputNotice(g); label != "" {
		out.Notice = label + ": " + text
	} else if g.Mixed != "" {
		out.Notice = "mixed input: " + g.Mixed
	}
	for i := range r.Findings {
		if len(out.Top) == 10 {
			break
		}
		out.Top = append(out.Top, s.brief(i))
	}
	if out.Top == nil {
		out.Top = []FindingBrief{}
	}
	return out, nil
}

func (s *Server) brief(i int) FindingBrief {
	f := &s.in.Report.Findings[i]
	b := FindingBrief{Handle: findingHandle(i), Severity: f.Severity, RuleID: f.RuleID, Title: f.Title, Subject: subjectOf(f), Hint: f.Hint}
	if len(f.Evidence) > 0 {
		b.Cites = fmt.Sprintf("%s:%d", f.Evidence[0].Path, f.Evidence[0].Line)
	}
	return b
}

func subjectOf(f *report.Finding) string {
	var parts []string
	for i, o := range f.Objects {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(f.Objects)-3))
			break
		}
		s := o.Kind + "/"
		if o.Namespace != "" {
			s += o.Namespace + "/"
		}
		s += o.Name
		if o.Container != "" {
			s += " container " + o.Container
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// ---- findings ----

// FindingsIn filters and pages the findings; every filter is optional.
type FindingsIn struct {
	Severity  string `json:"severity,omitempty" jsonschema:"the lowest severity to list: critical, high, medium, low or info"`
	Rule      string `json:"rule,omitempty" jsonschema:"a rule id"`
	Namespace string `json:"namespace,omitempty"`
	Node      string `json:"node,omitempty"`
	Workload  string `json:"workload,omitempty" jsonschema:"text the finding's workload grouping contains, e.g. a Deployment's name"`
	Text      string `json:"text,omitempty" jsonschema:"text the title, hint or evidence contains (case-insensitive)"`
	Handle    string `json:"handle,omitempty" jsonschema:"one finding by its handle (F1, F2, ...)"`
	Limit     int    `json:"limit,omitempty" jsonschema:"at most this many findings (the byte budget may give fewer)"`
	Cursor    string `json:"cursor,omitempty" jsonschema:"the next value of an earlier answer"`
}

// FindingsOut is a page of findings.
type FindingsOut struct {
	Total   int           `json:"total" jsonschema:"findings in the report"`
	Matched int           `json:"matched" jsonschema:"findings the filters keep"`
	Items   []FindingItem `json:"items"`
	Next    string        `json:"next,omitempty"`
}

// FindingItem is one finding with its handle: the report's finding.
type FindingItem struct {
	Handle string `json:"handle"`
	report.Finding
}

// Findings is the findings tool.
func (s *Server) Findings(in FindingsIn) (*FindingsOut, error) {
	if err := checkArgs(map[string]string{"severity": in.Severity, "rule": in.Rule, "namespace": in.Namespace, "node": in.Node, "workload": in.Workload, "text": in.Text, "handle": in.Handle}); err != nil {
		return nil, err
	}
	limit := 99
	if in.Severity != "" {
		limit = report.SeverityRank(strings.ToLower(in.Severity))
		if limit >= report.SeverityRank("no-such-severity") {
			return nil, fmt.Errorf("severity %q: choose from critical, high, medium, low, info", in.Severity)
		}
	}
	text := strings.ToLower(in.Text)
	var all []FindingItem
	fs := s.in.Report.Findings
	for i := range fs {
		f := &fs[i]
		switch {
		case in.Handle != "" && findingHandle(i) != in.Handle,
			report.SeverityRank(f.Severity) > limit,
			in.Rule != "" && f.RuleID != in.Rule,
			in.Workload != "" && !strings.Contains(f.GroupedBy, in.Workload) && !objectsHave(f, func(o report.Object) bool { return strings.Contains(o.Name, in.Workload) }),
			in.Namespace != "" && !objectsHave(f, func(o report.Object) bool { return o.Namespace == in.Namespace }),
			in.Node != "" && !objectsHave(f, func(o report.Object) bool { return o.Node == in.Node || o.Kind == "Node" && o.Name == in.Node }),
			text != "" && !findingHas(f, text):
			continue
		}
		all = append(all, FindingItem{Handle: findingHandle(i), Finding: *f})
	}
	if in.Handle != "" && len(all) == 0 {
		return nil, fmt.Errorf("no finding %q: handles run F1 to F%d", clip(in.Handle, 20), len(fs))
	}
	items, next, err := page(all, in.Cursor, in.Limit, s.opt.AnswerBytes)
	if err != nil {
		return nil, err
	}
	return &FindingsOut{Total: len(fs), Matched: len(all), Items: nonNil(items), Next: next}, nil
}

func objectsHave(f *report.Finding, ok func(report.Object) bool) bool {
	return slices.ContainsFunc(f.Objects, ok) || slices.ContainsFunc(f.Explains, ok)
}

func findingHas(f *report.Finding, lower string) bool {
	if strings.Contains(strings.ToLower(f.Title), lower) || strings.Contains(strings.ToLower(f.Hint), lower) {
		return true
	}
	for _, e := range f.Evidence {
		if strings.Contains(strings.ToLower(e.Text), lower) {
			return true
		}
	}
	return false
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// ---- pod ----

// PodIn names one pod.
type PodIn struct {
	Namespace string `json:"namespace" jsonschema:"the pod's namespace"`
	Name      string `json:"name" jsonschema:"the pod's name"`
	Cursor    string `json:"cursor,omitempty" jsonschema:"the next value of an earlier answer, to page the timeline"`
}

// PodOut is one pod as the report shows it, with its findings and a page
// of its timeline. The pod's events and log tails are left to the events
// and logs tools (Events and Logs say how many there are).
type PodOut struct {
	Pod      report.Pod             `json:"pod"`
	Findings []FindingBrief         `json:"findings"`
	Timeline []report.TimelineEntry `json:"timeline"`
	Next     string                 `json:"next,omitempty"`
	Events   int                    `json:"events" jsonschema:"events whose involved object is the pod (see the events tool)"`
	Logs     []LogFile              `json:"logs" jsonschema:"the pod's container log files (see the logs tool)"`
	// Omitted counts what a pod of many containers had over the budget:
	// findings, containers and log files left out of this answer.
	Omitted *PodOmitted `json:"omitted,omitempty" jsonschema:"what was left out for the answer budget (see the findings, get and logs tools)"`
}

// PodOmitted counts the parts of a pod left out of a pod answer.
type PodOmitted struct {
	Findings   int `json:"findings,omitempty"`
	Containers int `json:"containers,omitempty"`
	Logs       int `json:"logs,omitempty"`
}

// fitting returns how many leading items of list fit in budget bytes of
// JSON (at least one).
func fitting[T any](list []T, budget int) int {
	used := 0
	for i, it := range list {
		b, _ := json.Marshal(it)
		if used += len(b) + 1; used > budget && i > 0 {
			return i
		}
	}
	return len(list)
}

// LogFile is one log file of the gather: its path and line count, and for
// a node journal its units.
type LogFile struct {
	Container string `json:"container,omitempty"`
	Previous  bool   `json:"previous,omitempty"`
	Rotated   string `json:"rotated,omitempty"`
	Path      string `json:"path"`
	Lines     int    `json:"lines"`
	// Units are a node journal's units and syslog identifiers (the logs
	// tool's unit argument takes any of them).
	Units []string `json:"units,omitempty" jsonschema:"a node journal's units (kubelet, crio, kernel, other) and syslog identifiers: give one as unit"`
}

// Pod is the pod tool.
func (s *Server) Pod(in PodIn) (*PodOut, error) {
	if err := checkArgs(map[string]string{"namespace": in.Namespace, "name": in.Name}); err != nil {
		return nil, err
	}
	p, err := s.findPod(in.Namespace, in.Name)
	if err != nil {
		return nil, err
	}
	out := &PodOut{Pod: *p}
	out.Pod.Events, out.Pod.Logs, out.Pod.NodeLog = nil, nil, nil
	out.Events = len(p.Events) + p.EventsOmitted
	for i := range s.in.Report.Findings {
		f := &s.in.Report.Findings[i]
		if objectsHave(f, func(o report.Object) bool { return o.Kind == "Pod" && o.Namespace == p.Namespace && o.Name == p.Name }) {
			out.Findings = append(out.Findings, s.brief(i))
		}
	}
	var entries []report.TimelineEntry
	for _, t := range s.in.Report.Timelines {
		if t.Kind == "Pod" && t.Namespace == p.Namespace && t.Name == p.Name {
			entries = t.Entries
			break
		}
	}
	if mp := s.mpods[in.Namespace+"/"+in.Name]; mp != nil {
		for _, l := range mp.Logs {
			out.Logs = append(out.Logs, LogFile{Container: l.Container, Previous: l.Previous, Rotated: l.Rotated, Path: s.short(l.Path()), Lines: l.Lines})
		}
	}
	// The parts that grow with the pod's containers share half the budget.
	var om PodOmitted
	quarter := s.opt.AnswerBytes / 4
	if n := fitting(out.Findings, quarter); n < len(out.Findings) {
		om.Findings, out.Findings = len(out.Findings)-n, out.Findings[:n]
	}
	if n := fitting(out.Pod.Containers, quarter); n < len(out.Pod.Containers) {
		om.Containers, out.Pod.Containers = len(out.Pod.Containers)-n, out.Pod.Containers[:n]
	}
	if n := fitting(out.Logs, quarter/2); n < len(out.Logs) {
		om.Logs, out.Logs = len(out.Logs)-n, out.Logs[:n]
	}
	if om != (PodOmitted{}) {
		out.Omitted = &om
	}
	// The timeline gets what the rest of the answer leaves of the budget
	// (at least one entry).
	rest, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	out.Timeline, out.Next, err = page(entries, in.Cursor, 0, s.opt.AnswerBytes-len(rest))
	if err != nil {
		return nil, err
	}
	out.Findings, out.Timeline, out.Logs = nonNil(out.Findings), nonNil(out.Timeline), nonNil(out.Logs)
	return report.Value(s.in.Redactor, out), nil
}

// findPod finds a pod of the report by namespace and name; the error names
// close pods.
func (s *Server) findPod(ns, name string) (*report.Pod, error) {
	if ns == "" || name == "" {
		return nil, errors.New("give the pod's namespace and name")
	}
	if p := s.pods[ns+"/"+name]; p != nil {
		return p, nil
	}
	var close []string
	for _, k := range sortedKeys(s.pods) {
		if strings.HasPrefix(k, ns+"/") && (strings.Contains(k, name) || strings.Contains(name, strings.TrimPrefix(k, ns+"/"))) {
			close = append(close, k)
		}
		if len(close) == 5 {
			break
		}
	}
	msg := fmt.Sprintf("no pod %s/%s in the gather", clip(ns, 80), clip(name, 120))
	if len(close) > 0 {
		msg += "; did you mean " + strings.Join(close, ", ") + "?"
	} else if s.in.Store != nil {
		cov := s.in.Store.Coverage(model.Pods, ns)
		msg += fmt.Sprintf(" (pods of namespace %s: %s)", clip(ns, 80), cov)
	}
	return nil, errors.New(msg)
}
