package report

import (
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// This file holds what the three views share: cleaning hostile gather strings,
// and the small facts (counts, object names, times) every view prints the same way.

// cleanText removes from s everything that can act on a terminal or fool a
// reader: ANSI/VT escape sequences as a whole, C0 controls except tab and
// newline, DEL, C1 controls and Unicode bidirectional controls. CR LF and lone
// CR become LF and invalid UTF-8 becomes U+FFFD. Printable text is kept as is.
func cleanText(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			i = skipEscape(s, i)
			continue
		case c == '\r':
			b.WriteByte('\n')
			i++
			if i < len(s) && s[i] == '\n' {
				i++
			}
			continue
		case c == '\t' || c == '\n':
			b.WriteByte(c)
			i++
			continue
		case c < 0x20 || c == 0x7f:
			i++
			continue
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case isHiddenControl(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// CleanText returns s with what a terminal or a report must not receive
// from a gather removed: control characters (C0 but tab and line feed, DEL,
// C1), bidirectional controls and the BOM; invalid UTF-8 becomes U+FFFD. The
// command line cleans its messages with it, as the reports clean every
// value.
func CleanText(s string) string { return cleanText(s) }

// ClipLine is CleanText for a value shown on one line of a terminal (tabs and
// line breaks become spaces), cut to n runes with "…" when longer (n ≤ 0:
// not cut).
func ClipLine(s string, n int) string { return truncateRunes(cleanLine(s), n) }

// cleanLine is cleanText for a value shown on one line: tabs and line breaks
// become spaces.
func cleanLine(s string) string {
	s = cleanText(s)
	if !strings.ContainsAny(s, "\t\n") {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' {
			return ' '
		}
		return r
	}, s)
}

// isPlain reports whether s is printable ASCII (plus tab and LF) and needs no cleaning.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 0x20 && c != '\t' && c != '\n') || c >= 0x7f {
			return false
		}
	}
	return true
}

// isHiddenControl reports C1 controls, bidirectional controls and the BOM.
func isHiddenControl(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r == 0xfeff:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// skipEscape returns the index just past the escape sequence that starts with
// the ESC at s[i]: CSI (ESC [ … final), string commands (OSC, DCS, SOS, PM, APC,
// ended by BEL, ESC \ or a line break) and two- or three-byte sequences.
func skipEscape(s string, i int) int {
	i++ // ESC
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		i++
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
			i++
		}
		if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
			i++
		}
		return i
	case ']', 'P', 'X', '^', '_':
		for i++; i < len(s); i++ {
			switch {
			case s[i] == 0x07:
				return i + 1
			case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
				return i + 2
			case s[i] == '\n' || s[i] == '\r':
				return i
			}
		}
		return i
	}
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// truncateRunes cuts s to at most n runes, ending with "…" when it cut.
func truncateRunes(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	runes := []rune(s)
	return strings.TrimRight(string(runes[:n-1]), " ") + "…"
}

// truncateWords is truncateRunes that ends the text at a word: it cuts at
// the last space within n-1 runes (the "…" makes n), so no word is cut in
// two, and drops a parenthesis the cut left open and the punctuation before
// the cut ("restarts (0 restarts so far)" does not end "(0 restart…").
// Text without a space in its first n-1 runes is one word too long to keep
// and is cut as truncateRunes cuts it.
func truncateWords(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	runes := []rune(s)
	cut := string(runes[:n-1])
	if !unicode.IsSpace(runes[n-1]) {
		i := strings.LastIndexFunc(cut, unicode.IsSpace)
		if i <= 0 {
			return strings.TrimRight(cut, " ") + "…"
		}
		cut = cut[:i]
	}
	if i := strings.LastIndexByte(cut, '('); i > 0 && !strings.Contains(cut[i:], ")") {
		cut = cut[:i]
	}
	if t := strings.TrimRight(cut, " \t,;:(-–—"); t != "" {
		cut = t
	}
	return cut + "…"
}

// formatTime formats t as RFC 3339 in UTC, or "" when t is nil.
func formatTime(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// gatherTime describes when the gather ran: its start, and how long it took
// when the end is known.
func gatherTime(g Gather) string {
	if g.CollectedAt == nil {
		return "unknown (no readable timestamp file)"
	}
	s := formatTime(g.CollectedAt)
	if g.CollectedAtInferred != "" {
		s += " (no timestamp file; " + cleanLine(g.CollectedAtInferred) + ")"
	}
	if g.FinishedAt != nil && !g.FinishedAt.Before(*g.CollectedAt) {
		s += fmt.Sprintf(", collection took %s", g.FinishedAt.Sub(*g.CollectedAt).Round(time.Second))
	}
	return s
}

// printerLine says whose printer the pod columns follow:
// "READY/STATUS/RESTARTS as Kubernetes 1.21 prints them (from ClusterVersion 4.8.0)".
func printerLine(p *Printer) string {
	release := "Kubernetes " + cleanLine(p.Kubernetes)
	if p.Kubernetes == "newest" {
		release = "the newest Kubernetes"
	}
	return "READY/STATUS/RESTARTS as " + release + " prints them (" + cleanLine(p.From) + ")"
}

// orUnknown returns s, or "unknown" when s is empty.
func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// severityCount is the number of findings of one severity.
type severityCount struct {
	Severity string
	Count    int
}

// severityCounts lists the five severities in order with their counts, then any
// other severity the report holds. It uses Summary.BySeverity, or counts the
// findings when the summary has no counts.
func severityCounts(r *Report) []severityCount {
	counts := r.Summary.BySeverity
	if len(counts) == 0 && len(r.Findings) > 0 {
		counts = map[string]int{}
		for _, f := range r.Findings {
			counts[f.Severity]++
		}
	}
	out := make([]severityCount, 0, len(Severities))
	for _, s := range Severities {
		out = append(out, severityCount{s, counts[s]})
	}
	var other []string
	for s := range counts {
		if SeverityRank(s) == len(Severities) {
			other = append(other, s)
		}
	}
	sort.Strings(other)
	for _, s := range other {
		out = append(out, severityCount{cleanLine(s), counts[s]})
	}
	return out
}

// totalFindings is Summary.Findings, or the number of findings when it is 0.
func totalFindings(r *Report) int {
	if r.Summary.Findings > 0 {
		return r.Summary.Findings
	}
	return len(r.Findings)
}

// objectRef names an object as ns/name, kind/name (cluster-scoped) or name, cleaned.
func objectRef(o Object) string {
	switch {
	case o.Namespace != "":
		return cleanLine(o.Namespace) + "/" + cleanLine(o.Name)
	case o.Kind != "":
		return strings.ToLower(cleanLine(o.Kind)) + "/" + cleanLine(o.Name)
	}
	return cleanLine(o.Name)
}

// objectDetail is objectRef with the kind, container and node when known.
func objectDetail(o Object) string {
	s := objectRef(o)
	if o.Kind != "" && o.Namespace != "" {
		s = cleanLine(o.Kind) + " " + s
	}
	var extra []string
	if o.Container != "" {
		extra = append(extra, "container "+cleanLine(o.Container))
	}
	if o.Node != "" {
		extra = append(extra, "node "+cleanLine(o.Node))
	}
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, ", ") + ")"
	}
	return s
}

// firstObject names a finding's first object, with "+N" when it has more.
func firstObject(f Finding) string {
	switch len(f.Objects) {
	case 0:
		return "-"
	case 1:
		return objectRef(f.Objects[0])
	}
	return fmt.Sprintf("%s +%d", objectRef(f.Objects[0]), len(f.Objects)-1)
}

// evidenceCite is the path:line an evidence line is cited by (path alone when
// the line is unknown).
func evidenceCite(e Evidence) string {
	p := cleanLine(e.Path)
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d", p, e.Line)
	}
	return p
}

// webLink returns u cleaned and normalised when it is an absolute http(s) URL
// that is safe to make clickable, and ok=false otherwise.
func webLink(u string) (string, bool) {
	u = strings.TrimSpace(cleanLine(u))
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "https" && p.Scheme != "http") || p.Host == "" || p.User != nil {
		return "", false
	}
	s := p.String()
	if strings.ContainsAny(s, " <>\"'`\\") {
		return "", false
	}
	return s, true
}

// stepPart is a piece of a remediation step: prose, or a command to show as code.
type stepPart struct {
	Text string
	Code bool
}

// commandPrefixes start a remediation step, or the part after "text: ", that is a command.
var commandPrefixes = []string{"oc ", "kubectl ", "omc ", "crictl ", "journalctl ", "systemctl ", "podman "}

// splitStep splits a remediation step into prose and commands. A step that
// starts with a command is all command; otherwise spans between backticks are
// commands, or without backticks the text after ": " when it starts with one.
// Whatever the split, each part is escaped for its kind, so a hostile value
// can only make the split look odd, never break the output.
func splitStep(s string) []stepPart {
	s = strings.TrimSpace(cleanLine(s))
	if isCommand(s) {
		return []stepPart{{Text: s, Code: true}}
	}
	if n := strings.Count(s, "`"); n >= 2 && n%2 == 0 {
		var parts []stepPart
		for i, piece := range strings.Split(s, "`") {
			if piece != "" {
				parts = append(parts, stepPart{Text: piece, Code: i%2 == 1})
			}
		}
		return parts
	}
	if i := strings.Index(s, ": "); i >= 0 && isCommand(s[i+2:]) {
		return []stepPart{{Text: s[:i+2]}, {Text: s[i+2:], Code: true}}
	}
	return []stepPart{{Text: s}}
}

func isCommand(s string) bool {
	for _, p := range commandPrefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// podObjects counts the Pod objects of a finding.
func podObjects(f Finding) int {
	n := 0
	for _, o := range f.Objects {
		if o.Kind == "Pod" {
			n++
		}
	}
	return n
}

// groupPhrase turns a finding's GroupedBy ("workload shop/Deployment/web",
// "registry quay.io (unauthorized)") into "same workload shop/Deployment/web".
func groupPhrase(groupedBy string) string {
	g := strings.TrimSpace(cleanLine(groupedBy))
	if g == "" {
		return ""
	}
	return "same " + g
}

// objectsSummary names what a finding is about in a few words: its one
// object ("shop/web-1"), "3 pods (same workload shop/Deployment/web)" when it
// covers several pods, or the first object and "+N" otherwise.
func objectsSummary(f Finding) string {
	if n := podObjects(f); n > 1 && n == len(f.Objects) {
		s := fmt.Sprintf("%d pods", n)
		if g := groupPhrase(f.GroupedBy); g != "" {
			s += " (" + g + ")"
		}
		return s
	}
	return firstObject(f)
}

// explainRef names one pod finding a node finding explains: "ns/pod (rule-id)".
func explainRef(o Object) string {
	s := objectRef(o)
	if o.RuleID != "" {
		s += " (" + cleanLine(o.RuleID) + ")"
	}
	return s
}

// moreEntry matches the entry a bounded list ends with: "… and 12 more".
var moreEntry = regexp.MustCompile(`^(?:…|\.\.\.) and (\d+) more$`)

// boundedList returns at most limit entries of list and how many more there
// are, counting the "… and N more" entry a list already cut ends with.
func boundedList(list []string, limit int) (shown []string, more int) {
	if n := len(list); n > 0 {
		if m := moreEntry.FindStringSubmatch(strings.TrimSpace(list[n-1])); m != nil {
			more, _ = strconv.Atoi(m[1])
			list = list[:n-1]
		}
	}
	if limit > 0 && len(list) > limit {
		more += len(list) - limit
		list = list[:limit]
	}
	return list, more
}

// listTotal is len(list) with a closing "… and N more" entry counted as N.
func listTotal(list []string) int {
	shown, more := boundedList(list, 0)
	return len(shown) + more
}

// stageCell is a pod's startup stage for a table: the condition, with the
// reason it is not True when there is one ("PodScheduled: Unschedulable").
func stageCell(p Pod) string {
	if p.View == "runtime" {
		return "runtime view (crictl): no API status"
	}
	s := cleanLine(p.Stage)
	if r := cleanLine(p.StageReason); r != "" && s != "" {
		s += ": " + r
	}
	return s
}

// countNoun is "1 pod" or "3 pods": n with the singular or plural noun.
func countNoun(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// groupedSeverity reports whether findings of severity s that share a rule
// are shown as one entry in the Markdown and terminal views: the low and
// info ones, which are history rather than an outage (13 operators that
// restarted together at install time read as one line, not 13 sections).
func groupedSeverity(s string) bool { return s == SeverityLow || s == SeverityInfo }

// findingGroup is one entry of the short views: a single finding, or several
// low or info findings of one rule (Findings holds them all, in report order).
type findingGroup struct {
	Findings []Finding
	// Index is the 1-based position of the first finding in Report.Findings.
	Index int
}

// groupFindings groups the low and info findings of one rule (and severity)
// into one entry placed where the first of them is; other findings stay one
// entry each. Order follows the report's (severity, rule, object).
func groupFindings(fs []Finding) []findingGroup {
	var out []findingGroup
	at := map[string]int{}
	for i, f := range fs {
		if groupedSeverity(f.Severity) {
			key := f.Severity + "\x00" + f.RuleID
			if j, ok := at[key]; ok {
				out[j].Findings = append(out[j].Findings, f)
				continue
			}
			at[key] = len(out)
		}
		out = append(out, findingGroup{Findings: []Finding{f}, Index: i + 1})
	}
	return out
}

// groupObjects lists the objects of a group's findings ("ns/pod"), each once,
// in order.
func groupObjects(g findingGroup) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range g.Findings {
		for _, o := range f.Objects {
			ref := objectRef(o)
			if o.Container != "" {
				ref += " (" + cleanLine(o.Container) + ")"
			}
			if !seen[ref] {
				seen[ref] = true
				out = append(out, ref)
			}
		}
	}
	return out
}

// inputText names the input for the report's header: "gather.tar.gz, archive
// of 1.2 GiB, sha256 ab12…" or "must-gather.local.1/, a folder: 3547 files,
// 64.1 MiB read"; from Gather.Path when Gather.Input is not set.
func inputText(g Gather) (name, detail string) {
	in := g.Input
	if in == nil {
		name = truncateRunes(cleanLine(orUnknown(g.Path)), 300)
		if g.Files > 0 {
			detail = countNoun(g.Files, "file", "files") + ", " + humanBytes(g.Bytes)
		}
		return name, detail
	}
	name = truncateRunes(cleanLine(orUnknown(in.Name)), 300)
	switch in.Kind {
	case "archive":
		detail = fmt.Sprintf("archive file of %s (%d bytes), sha256 %s", humanBytes(in.Size), in.Size, cleanLine(in.SHA256))
	case "folder":
		detail = "a folder, not an archive: " + countNoun(g.Files, "file", "files") + ", " + humanBytes(g.Bytes) + " read"
	default:
		detail = countNoun(g.Files, "file", "files") + ", " + humanBytes(g.Bytes) + " read"
	}
	return name, detail
}

// plural is the "s" of a count's noun: "" for 1, "s" otherwise.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// versionsKnown says what the input tells about the cluster's versions, in
// the words every view uses. Cluster is the long form (the Markdown's and the
// HTML's Cluster line), Short the terminal header's; ClusterVersion and
// Kubernetes are the HTML fields. Without a ClusterVersion (a node sosreport,
// an inspect of some namespaces) they say that the cluster version is not in
// the input and why, and name the Kubernetes version as the kubelet's,
// instead of "OpenShift unknown".
type versionsKnown struct {
	Cluster, Short, ClusterVersion, Kubernetes string
}

func versionWords(g Gather) versionsKnown {
	cv, kv := cleanLine(g.ClusterVersion), cleanLine(g.KubernetesVersion)
	switch {
	case cv != "":
		short := "OpenShift " + cv
		if kv != "" {
			short += " (Kubernetes " + kv + ")"
		}
		return versionsKnown{Cluster: "OpenShift " + cv + ", Kubernetes " + orUnknown(kv), Short: short, ClusterVersion: cv, Kubernetes: orUnknown(kv)}
	case g.Distribution == "Kubernetes":
		return versionsKnown{Cluster: "Kubernetes " + orUnknown(kv) + " (not OpenShift: commands are kubectl's)", Short: "Kubernetes " + orUnknown(kv),
			ClusterVersion: "none: not OpenShift", Kubernetes: orUnknown(kv)}
	}
	what, why := "OpenShift", "no ClusterVersion was gathered"
	if nodeOnly(g.Layouts) {
		what, why = "OpenShift node", "a node sosreport holds no ClusterVersion"
	}
	v := versionsKnown{ClusterVersion: "not in the input (" + why + ")"}
	if kv != "" {
		v.Kubernetes = kv + " (the kubelet's)"
		v.Cluster = what + ", Kubernetes " + kv + " (the kubelet's); the cluster version is not in the input: " + why
		v.Short = what + ", Kubernetes " + kv + " (cluster version not in the input)"
		return v
	}
	v.Kubernetes = "not in the input either"
	v.Cluster = what + "; neither the cluster version nor the Kubernetes version is in the input: " + why + ", and no kubelet version was found"
	v.Short = what + " (cluster and Kubernetes versions not in the input)"
	return v
}

// nodeOnly reports whether every gather of the input is a node sosreport.
func nodeOnly(ls []Layout) bool {
	for _, l := range ls {
		if l.Kind != "sosreport" {
			return false
		}
	}
	return len(ls) > 0
}
