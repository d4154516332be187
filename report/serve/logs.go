package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/nodelog"
	"github.com/mgtriage/mgtriage/report"
)

// ---- logs ----

// LogsIn selects the lines of one log: a container's (namespace, pod,
// container, previous) or a host's journal (host, unit).
type LogsIn struct {
	Namespace string `json:"namespace,omitempty"`
	Pod       string `json:"pod,omitempty"`
	Container string `json:"container,omitempty" jsonschema:"the container; may be left out when the pod has one log"`
	Previous  bool   `json:"previous,omitempty" jsonschema:"the previous run's log (previous.log)"`
	Host      string `json:"host,omitempty" jsonschema:"a node: its journal lines (kubelet, crio, kernel, ...)"`
	Unit      string `json:"unit,omitempty" jsonschema:"with host: kubelet, crio, kernel, or a syslog identifier of its journal (NetworkManager, kube-scheduler; a host answer without unit lists them)"`
	Pattern   string `json:"pattern,omitempty" jsonschema:"an RE2 regular expression the line must match (within its first 16 KiB)"`
	Since     string `json:"since,omitempty" jsonschema:"RFC 3339 time: lines at or after it (lines without a time are kept)"`
	Until     string `json:"until,omitempty" jsonschema:"RFC 3339 time: lines at or before it"`
	Limit     int    `json:"limit,omitempty" jsonschema:"at most this many lines (default 200)"`
	Cursor    string `json:"cursor,omitempty" jsonschema:"the next value of an earlier answer, to page on"`
}

// LogsOut is a page of a log's lines.
type LogsOut struct {
	Path string `json:"path"`
	// Lines is how many lines the file has (0 when unknown).
	Lines int `json:"lines,omitempty"`
	// Searched is "whole file" (read from the input folder) or "kept
	// lines" (the analysis kept only some lines of an archive's log: its
	// tail, its error lines and the lines the rules look for; or the
	// collapsed journal groups of a host).
	Searched string    `json:"searched"`
	Note     string    `json:"note,omitempty"`
	Matched  int       `json:"matched"`
	Items    []LogLine `json:"items"`
	Next     string    `json:"next,omitempty"`
	// Logs lists the pod's or host's log files when the question did not
	// name one.
	Logs []LogFile `json:"logs,omitempty"`
}

// LogLine is one line as the report gives it (report.LogLine: its number,
// time and text), with what an answer adds: Count > 1 for a journal group
// of repeated lines (Time to Last), and Path when the line is of another
// file than the answer's.
type LogLine struct {
	report.LogLine
	Last  *time.Time `json:"last,omitempty"`
	Count int        `json:"count,omitempty"`
	Path  string     `json:"path,omitempty" jsonschema:"set when the line is of another file than the answer's path"`
}

// MaxPatternBytes bounds an RE2 pattern.
const MaxPatternBytes = 512

// MaxScanTime bounds the time one logs answer spends matching a whole log
// file (RE2 is linear, but a long pattern over 256 MiB of lines takes
// minutes): the scan stops there, and the answer says at which line.
var MaxScanTime = 10 * time.Second

// MaxMatchBytes bounds the bytes of one line a pattern is matched
// against (its start): a line of megabytes costs no more than one of
// MaxMatchBytes.
const MaxMatchBytes = 16 << 10

// Logs is the logs tool.
func (s *Server) Logs(in LogsIn) (*LogsOut, error) { return s.LogsContext(context.Background(), in) }

// LogsContext is the logs tool; the scan of a log stops when ctx ends (the
// client cancelled or went away).
func (s *Server) LogsContext(ctx context.Context, in LogsIn) (*LogsOut, error) {
	if err := checkArgs(map[string]string{"namespace": in.Namespace, "pod": in.Pod, "container": in.Container, "host": in.Host, "unit": in.Unit, "since": in.Since, "until": in.Until}); err != nil {
		return nil, err
	}
	if len(in.Pattern) > MaxPatternBytes {
		return nil, fmt.Errorf("pattern is %d bytes long; at most %d", len(in.Pattern), MaxPatternBytes)
	}
	var re *regexp.Regexp
	if in.Pattern != "" {
		var err error
		if re, err = regexp.Compile(in.Pattern); err != nil {
			return nil, fmt.Errorf("pattern: %v (RE2 syntax)", err)
		}
	}
	since, until, err := parseWindow(in.Since, in.Until)
	if err != nil {
		return nil, err
	}
	release, err := s.rereadSlot(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	keep := func(l *LogLine, raw []byte) bool {
		if re != nil && (raw != nil && !re.Match(raw[:min(len(raw), MaxMatchBytes)]) || raw == nil && !re.MatchString(l.Text[:min(len(l.Text), MaxMatchBytes)])) {
			return false
		}
		if since.IsZero() && until.IsZero() {
			return true
		}
		if l.Time == nil && raw != nil {
			l.Time = lineTime(raw)
		}
		if l.Time != nil && (!since.IsZero() && l.Time.Before(since) || !until.IsZero() && l.Time.After(until)) {
			return false
		}
		return true
	}
	var out *LogsOut
	var all logSeq
	switch {
	case in.Pod != "" && in.Host != "":
		return nil, errors.New("give either a pod (namespace, pod, container) or a host, not both")
	case in.Pod != "":
		out, all, err = s.containerLog(in)
	case in.Host != "":
		out, all, err = s.hostLog(in)
	default:
		return nil, errors.New("give a pod (namespace, pod and container) or a host")
	}
	if err != nil || out.Logs != nil && out.Path == "" {
		if out != nil {
			out.Items = []LogLine{}
			return report.Value(s.in.Redactor, out), err
		}
		return nil, err
	}
	limit := in.Limit
	if limit < 0 {
		return nil, fmt.Errorf("limit %d: give a count of at least 1 (0 or none: 200)", limit)
	}
	if limit == 0 {
		limit = 200
	}
	limit = min(limit, MaxLimit)
	start, err := parseCursor(in.Cursor)
	if err != nil {
		return nil, err
	}
	// One pass: count the matched lines, keep only the page's.
	var window []LogLine
	matched, stopped, seen, work := 0, 0, 0, 0
	deadline := time.Now().Add(MaxScanTime)
	all(func(l LogLine, raw []byte) bool {
		// The clock is read every 1024 lines or 1 MiB matched.
		if seen, work = seen+1, work+min(len(raw)+len(l.Text), MaxMatchBytes); seen&1023 == 0 || work > 1<<20 {
			if work = 0; ctx.Err() != nil || time.Now().After(deadline) {
				stopped = l.Line
				return false
			}
		}
		if !keep(&l, raw) {
			return true
		}
		if matched >= start && matched < start+limit {
			if raw != nil {
				l.Text = string(raw)
				if l.Time == nil {
					l.Time = lineTime(raw)
				}
			}
			l.Text = clipRunes(l.Text, MaxLineRunes)
			window = append(window, l)
		}
		matched++
		return true
	})
	if start > matched {
		return nil, fmt.Errorf("cursor %q is past the end (%d items)", in.Cursor, matched)
	}
	items, next, err := page(window, "", limit, s.opt.AnswerBytes)
	if err != nil {
		return nil, err
	}
	if next != "" || start+len(items) < matched {
		next = cursorAt(start + len(items))
	}
	if stopped > 0 {
		out.Note = strings.TrimSpace(fmt.Sprintf("the search stopped at line %d (after %s, or the question was cancelled): matched counts the lines before it only; narrow the pattern or the time window. %s", stopped, MaxScanTime, out.Note))
	}
	out.Matched, out.Items, out.Next = matched, nonNil(items), next
	return report.Value(s.in.Redactor, out), nil
}

// logSeq yields a log's lines in order: a line made (Text set, raw nil), or
// a line of a file being scanned (Line and, for a journal, Time set; raw
// its bytes, valid during the call only), until yield returns false.
type logSeq func(yield func(l LogLine, raw []byte) bool)

// keptSeq yields lines already made.
func keptSeq(lines []LogLine) logSeq {
	return func(yield func(LogLine, []byte) bool) {
		for _, l := range lines {
			if !yield(l, nil) {
				return
			}
		}
	}
}

// eachLine calls f with each line of data (1-based, without its line
// break, "\r\n" or "\n") until f returns false; a last line without a
// break counts.
func eachLine(data []byte, f func(n int, line []byte) bool) {
	for n := 1; len(data) > 0; n++ {
		i := bytes.IndexByte(data, '\n')
		line := data
		if i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if !f(n, bytes.TrimSuffix(line, []byte("\r"))) {
			return
		}
	}
}

// fileSeq yields the lines of a whole container log file.
func fileSeq(data []byte) logSeq {
	return func(yield func(LogLine, []byte) bool) {
		eachLine(data, func(n int, line []byte) bool { return yield(LogLine{LogLine: report.LogLine{Line: n}}, line) })
	}
}

// lineTime reads a leading RFC 3339 time (the kubelet's and CRI-O's
// container log format, and oc logs --timestamps); nil when none.
func lineTime(l []byte) *time.Time {
	if sp := bytes.IndexByte(l, ' '); sp >= 20 && sp <= 40 {
		if t, err := time.Parse(time.RFC3339Nano, string(l[:sp])); err == nil {
			return &t
		}
	}
	return nil
}

// containerLog finds the pod's log file the question names and returns
// its lines: the whole file from a folder input, else the kept ones.
func (s *Server) containerLog(in LogsIn) (*LogsOut, logSeq, error) {
	if _, err := s.findPod(in.Namespace, in.Pod); err != nil {
		return nil, nil, err
	}
	mp := s.mpods[in.Namespace+"/"+in.Pod]
	var files []LogFile
	var pick []*model.ContainerLog
	if mp != nil {
		for _, l := range mp.Logs {
			files = append(files, LogFile{Container: l.Container, Previous: l.Previous, Rotated: l.Rotated, Path: s.short(l.Path()), Lines: l.Lines})
			if (in.Container == "" || l.Container == in.Container) && l.Previous == in.Previous && l.Rotated == "" {
				pick = append(pick, l)
			}
		}
	}
	if len(pick) != 1 {
		out := &LogsOut{Searched: "none", Logs: nonNil(files)}
		switch {
		case len(files) == 0:
			out.Note = fmt.Sprintf("the gather holds no container log of pod %s/%s", in.Namespace, in.Pod)
		case len(pick) == 0:
			out.Note = "no log of that container and run; logs lists the pod's log files"
		default:
			out.Note = "the pod has several containers: name one; logs lists them"
		}
		return out, nil, nil
	}
	l := pick[0]
	out := &LogsOut{Path: s.short(l.Path()), Lines: l.Lines}
	if s.in.Reread != nil {
		b, err := s.in.Reread(l.Path())
		if err == nil {
			out.Searched = "whole file"
			return out, fileSeq(b), nil
		}
		out.Note = fmt.Sprintf("the file could not be read again (%v); the kept lines are searched", err)
	}
	out.Searched = "kept lines"
	tail, errs := l.Kept()
	seen := map[int]bool{}
	var lines []LogLine
	for _, set := range [][]model.LogLine{errs, tail, l.Matched()} {
		for _, x := range set {
			if seen[x.Line] {
				continue
			}
			seen[x.Line] = true
			ll := LogLine{LogLine: report.LogLine{Line: x.Line, Text: x.Text}}
			if !x.Time.IsZero() {
				t := x.Time
				ll.Time = &t
			}
			lines = append(lines, ll)
		}
	}
	slices.SortFunc(lines, func(a, b LogLine) int { return a.Line - b.Line })
	if out.Note == "" {
		out.Note = fmt.Sprintf("the archive is read once: of the %d lines of this log the analysis kept %d (its tail, its error lines and the lines the rules look for)", l.Lines, len(lines))
		if len(lines) == 0 {
			out.Note = fmt.Sprintf("the archive is read once and the analysis kept no line of this log (%d lines; the container did not fail)", l.Lines)
		}
	}
	return out, keptSeq(lines), nil
}

// hostLog returns a host's journal lines: with a unit, on a folder input,
// the lines of that unit in the journal file that holds it (the file with
// the fewest other identifiers: a unit's own journal before the whole
// system's); otherwise the collapsed groups the analysis kept (node-level
// and per-pod). The answer lists the host's journal files with their units
// (Logs), so that a unit can be named.
func (s *Server) hostLog(in LogsIn) (*LogsOut, logSeq, error) {
	groups := append([]*model.LogGroup(nil), s.in.Gather.NodeLogOf(in.Host)...)
	hostKey := model.HostKey(in.Host)
	for _, p := range s.in.Gather.Pods {
		for _, g := range p.NodeLog {
			if model.HostKey(g.Node) == hostKey {
				groups = append(groups, g)
			}
		}
	}
	journals, maybe := s.in.Gather.JournalFilesOf(in.Host)
	if len(groups) == 0 && len(journals) == 0 && s.in.Gather.NodeNamed(in.Host) == nil && !s.in.Gather.HasKubeletLog(in.Host) {
		if len(maybe) == 0 {
			return nil, nil, fmt.Errorf("no host %q in the gather (no Node object, no journal)", clip(in.Host, 80))
		}
	}
	if len(journals) == 0 {
		// Files that name more hosts than were listed may hold its lines:
		// searched, never said to lack them.
		journals = maybe
	}
	var files []LogFile
	var best *model.JournalFile
	for i, f := range journals {
		files = append(files, LogFile{Path: s.short(f.Path), Lines: f.Lines, Units: journalUnits(f)})
		if in.Unit != "" && journalHolds(f, in.Unit) && (best == nil || identCount(f) < identCount(*best)) {
			best = &journals[i]
		}
	}
	if in.Unit != "" {
		groups = slices.DeleteFunc(groups, func(g *model.LogGroup) bool { return string(g.Unit) != in.Unit })
	}
	slices.SortFunc(groups, func(a, b *model.LogGroup) int {
		if c := strings.Compare(a.Source.Path, b.Source.Path); c != 0 {
			return c
		}
		return a.Source.Line - b.Source.Line
	})
	out := &LogsOut{Logs: files}
	switch {
	case best != nil:
		out.Path, out.Lines = s.short(best.Path), best.Lines
	case len(groups) > 0:
		out.Path = s.short(groups[0].Source.Path)
	}
	if best != nil && s.in.Reread != nil {
		b, err := s.in.Reread(best.Path)
		if err == nil {
			out.Searched = "whole file"
			out.Lines = bytes.Count(b, []byte("\n"))
			if len(b) > 0 && b[len(b)-1] != '\n' {
				out.Lines++
			}
			out.Logs = nil
			host := in.Host
			if best.Node != "" {
				host = "" // every line of the file is the host's its path names
			}
			return out, s.journalSeq(b, host, in.Unit), nil
		}
		out.Note = fmt.Sprintf("the journal could not be read again (%v); the kept groups are searched", err)
	}
	out.Searched = "kept lines"
	if out.Note == "" {
		switch {
		case len(files) == 0 && len(groups) == 0:
			out.Note = "the gather holds no journal file of this host that could be read (the host is known from its Node object or from lines of other files)"
		case in.Unit != "" && best == nil:
			out.Note = fmt.Sprintf("no journal of this host holds unit %q; logs lists its journals with their units and identifiers", clip(in.Unit, 80))
		case len(groups) == 0 && in.Unit == "":
			out.Note = "the analysis kept no journal line of this host; logs lists its journals: name a unit to read one" + map[bool]string{true: "", false: " (this input is an archive, read once: only the kept lines can be searched)"}[s.in.Reread != nil]
		case len(groups) == 0:
			out.Note = fmt.Sprintf("the archive is read once and the analysis kept no line of unit %s of this host (%s has %d lines)", clip(in.Unit, 80), out.Path, out.Lines)
		case in.Unit == "":
			out.Note = "the journal lines the analysis kept, repeats collapsed into one line with a count; the path of each is given where it differs; name a unit (see logs) to read a journal's lines"
		default:
			out.Note = "the journal lines the analysis kept, repeats collapsed into one line with a count; the path of each is given where it differs"
		}
	}
	if len(groups) == 0 && out.Path != "" {
		// Nothing to page through, but the file is named.
		out.Logs = nil
		return out, keptSeq(nil), nil
	}
	if len(groups) > 0 && in.Unit != "" {
		out.Logs = nil
	}
	var lines []LogLine
	for _, g := range groups {
		l := LogLine{LogLine: report.LogLine{Line: g.Source.Line, Text: string(g.Unit) + ": " + g.Text}, Count: g.Count}
		if p := s.short(g.Source.Path); p != out.Path {
			l.Path = p
		}
		if !g.First.IsZero() {
			t := g.First
			l.Time = &t
		}
		if !g.Last.IsZero() && !g.Last.Equal(g.First) {
			t := g.Last
			l.Last = &t
		}
		lines = append(lines, l)
	}
	return out, keptSeq(lines), nil
}

// journalUnits are a journal file's units (kubelet, crio, kernel, other)
// and syslog identifiers, as the logs tool's unit argument takes them.
func journalUnits(f model.JournalFile) []string {
	out := append([]string(nil), f.Units...)
	for _, id := range f.Idents {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// identCount orders the journals holding a unit: the fewer identifiers,
// the more the file is that unit's own journal.
func identCount(f model.JournalFile) int {
	if f.IdentsCut {
		return model.MaxJournalFileNames + 1
	}
	return len(f.Idents)
}

// journalHolds reports whether journal f has lines of unit: one of
// nodelog's units (kubelet, crio, kernel, other), or a syslog identifier
// that contains it ("kube-scheduler" holds "snap.kube-scheduler.daemon").
func journalHolds(f model.JournalFile, unit string) bool {
	if slices.Contains(f.Units, unit) {
		return true
	}
	for _, id := range f.Idents {
		if identHas([]byte(id), unit) {
			return true
		}
	}
	return f.IdentsCut
}

// unitMatch reports whether a journal line's identifier is of unit, as
// journalHolds reads unit.
func unitMatch(ident []byte, unit string) bool {
	switch nodelog.Unit(unit) {
	case nodelog.UnitKubelet, nodelog.UnitCRIO, nodelog.UnitKernel, nodelog.UnitOther:
		return nodelog.UnitOf(ident) == nodelog.Unit(unit)
	}
	return identHas(ident, unit)
}

func identHas(ident []byte, unit string) bool {
	return bytes.Contains(bytes.ToLower(ident), []byte(strings.ToLower(unit)))
}

// journalSeq yields a journal file's lines of host and unit (a service
// log of must-gather's host_service_logs holds every control plane host's
// lines; a sosreport's whole journal every unit's): a line whose journal
// prefix names another host or unit is left out, with the continuation
// lines after it. An empty host or unit keeps every host or unit.
func (s *Server) journalSeq(data []byte, host, unit string) logSeq {
	ref := s.in.Gather.CollectedAt
	key := model.HostKey(host)
	return func(yield func(LogLine, []byte) bool) {
		keep := false // the lines before the first entry ("-- Logs begin at ...") are the file's, not the host's
		eachLine(data, func(n int, l []byte) bool {
			if j, ok := nodelog.ParseJournal(l, ref); ok {
				if keep = (host == "" || model.HostKey(string(j.Host)) == key) && (unit == "" || unitMatch(j.Ident, unit)); keep {
					t := j.Time
					return yield(LogLine{LogLine: report.LogLine{Line: n, Time: &t}}, l)
				}
				return true
			}
			if keep {
				return yield(LogLine{LogLine: report.LogLine{Line: n}}, l)
			}
			return true
		})
	}
}

// ---- source ----

// SourceIn names a cited line.
type SourceIn struct {
	Path    string `json:"path" jsonschema:"the path as cited (relative to the gather)"`
	Line    int    `json:"line,omitempty" jsonschema:"the cited line (1-based); 0 or absent for the file's start"`
	Context *int   `json:"context,omitempty" jsonschema:"lines before and after (default 5, at most 100)"`
}

// SourceOut is the lines around a citation.
type SourceOut struct {
	Path string `json:"path"`
	// Lines is how many lines the file has (0 when unknown).
	Lines int       `json:"lines,omitempty"`
	From  int       `json:"from,omitempty"`
	To    int       `json:"to,omitempty"`
	Items []LogLine `json:"items"`
	// Origin says where the lines came from: the kept object file, the
	// input folder, or the log lines the analysis kept.
	Origin string `json:"origin"`
	Note   string `json:"note,omitempty"`
}

// Source is the source tool.
func (s *Server) Source(in SourceIn) (*SourceOut, error) {
	// A citation pasted whole ("namespaces/shop/core/events.yaml:3083", as
	// the reports print it) names its line.
	if i := strings.LastIndexByte(in.Path, ':'); i > 0 && in.Line == 0 {
		if n, err := strconv.Atoi(in.Path[i+1:]); err == nil && n > 0 {
			in.Path, in.Line = in.Path[:i], n
		}
	}
	p, err := gatherPath(in.Path)
	if err != nil {
		return nil, err
	}
	p = s.inGather(p)
	if in.Line < 0 {
		return nil, errors.New("line must be 1 or more (0: the file's start)")
	}
	ctxLines := 5
	if in.Context != nil {
		ctxLines = *in.Context
	}
	if ctxLines < 0 || ctxLines > 100 {
		return nil, errors.New("context must be 0 to 100 lines")
	}
	full := s.full(p)
	out := &SourceOut{Path: s.short(full), Items: []LogLine{}}
	if secretPath(full) {
		out.Origin = "none"
		out.Note = "files of Secrets and ConfigMaps are never quoted: their values never leave this server"
		return out, nil
	}
	lines, origin, ferr := s.fileLines(full)
	if ferr == nil {
		out.Lines, out.Origin = len(lines), origin
		line := max(in.Line, 1)
		if line > len(lines) {
			return nil, fmt.Errorf("%s has %d lines; line %d is past its end", out.Path, len(lines), in.Line)
		}
		out.From, out.To = max(1, line-ctxLines), min(len(lines), line+ctxLines)
		used := 0
		for i := out.From; i <= out.To; i++ {
			t := clipRunes(lines[i-1], MaxLineRunes)
			if used+len(t) > s.opt.AnswerBytes && i > line {
				out.To = i - 1
				out.Note = "cut at the answer budget"
				break
			}
			used += len(t)
			out.Items = append(out.Items, LogLine{LogLine: report.LogLine{Line: i, Text: t}})
		}
		return report.Value(s.in.Redactor, out), nil
	}
	// A container log: the lines the analysis kept.
	for _, mp := range s.in.Gather.Pods {
		for _, l := range mp.Logs {
			if l.Path() != full {
				continue
			}
			lo, seq, _ := s.containerLog(LogsIn{Namespace: mp.Object.Namespace, Pod: mp.Object.Name, Container: l.Container, Previous: l.Previous})
			var lines []LogLine
			if seq != nil {
				seq(func(x LogLine, raw []byte) bool {
					if raw != nil {
						x.Text = string(raw)
					}
					lines = append(lines, x)
					return true
				})
			}
			if lo == nil || lo.Path != out.Path {
				// A rotated log or a pod of another root under the same key.
				lines = nil
				tail, errs := l.Kept()
				for _, x := range append(errs, tail...) {
					lines = append(lines, LogLine{LogLine: report.LogLine{Line: x.Line, Text: x.Text}})
				}
			}
			out.Lines, out.Origin = l.Lines, "kept log lines"
			var nums []int
			for _, x := range lines {
				nums = append(nums, x.Line)
				if in.Line == 0 || x.Line >= in.Line-ctxLines && x.Line <= in.Line+ctxLines {
					x.Text = clipRunes(x.Text, MaxLineRunes)
					out.Items = append(out.Items, x)
				}
			}
			slices.SortFunc(out.Items, func(a, b LogLine) int { return a.Line - b.Line })
			out.Note = fmt.Sprintf("only some lines of this log were kept at the read (the archive is read once); kept: %s", ranges(nums))
			if len(out.Items) > 0 {
				out.From, out.To = out.Items[0].Line, out.Items[len(out.Items)-1].Line
			}
			return report.Value(s.in.Redactor, out), nil
		}
	}
	// A journal: the groups' example lines.
	var groups []LogLine
	for _, g := range s.journalGroups(full) {
		if in.Line == 0 || g.Source.Line >= in.Line-ctxLines && g.Source.Line <= in.Line+ctxLines {
			groups = append(groups, LogLine{LogLine: report.LogLine{Line: g.Source.Line, Text: string(g.Unit) + ": " + g.Text}, Count: g.Count})
		}
	}
	if len(groups) > 0 {
		slices.SortFunc(groups, func(a, b LogLine) int { return a.Line - b.Line })
		out.Items, out.Origin = groups, "kept journal groups"
		out.Note = "the journal is read once: only the first line of each group of repeated lines was kept, with its count; the text is the message without the journal prefix"
		return report.Value(s.in.Redactor, out), nil
	}
	return nil, ferr
}

// journalGroups are the kept node-log groups cited at path.
func (s *Server) journalGroups(path string) []*model.LogGroup {
	var out []*model.LogGroup
	seen := map[*model.LogGroup]bool{}
	add := func(gs []*model.LogGroup) {
		for _, g := range gs {
			if g.Source.Path == path && !seen[g] {
				seen[g] = true
				out = append(out, g)
			}
		}
	}
	for _, gs := range s.in.Gather.NodeLog {
		add(gs)
	}
	for _, p := range s.in.Gather.Pods {
		add(p.NodeLog)
	}
	return out
}

// secretPath reports whether path is a file of Secrets or ConfigMaps.
func secretPath(path string) bool {
	lp := strings.ToLower(path)
	return strings.Contains(lp, "secret") || strings.Contains(lp, "configmap")
}

// ranges writes sorted line numbers as "1-3, 7, 9-12" (at most 20 ranges).
func ranges(nums []int) string {
	slices.Sort(nums)
	var parts []string
	for i := 0; i < len(nums); {
		j := i
		for j+1 < len(nums) && nums[j+1] <= nums[j]+1 {
			j++
		}
		if len(parts) == 20 {
			parts = append(parts, "…")
			break
		}
		if i == j {
			parts = append(parts, fmt.Sprint(nums[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", nums[i], nums[j]))
		}
		i = j + 1
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
