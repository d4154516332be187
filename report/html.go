package report

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
)

//go:embed templates/report.html.tmpl
var htmlTemplateText string

// The page's style sheet and script, as html/template writes them inside
// their elements (comments elided). They are inserted whole, as template.CSS
// and template.JS, so the page's elements hold these bytes exactly and the
// hashes of htmlCSP are theirs.
var (
	htmlCSS    = asWritten("style", htmlCSSText)
	htmlScript = asWritten("script", htmlScriptText)
)

var (
	//go:embed templates/report.css
	htmlCSSText string
	//go:embed templates/report.js
	htmlScriptText string
)

// asWritten returns text as html/template writes it as the static content
// of a <tag> element: in a style or script element it elides comments.
// It panics when text is not static content (an action, or a close tag
// inside), which the package's tests would show at once.
func asWritten(tag, text string) string {
	var b strings.Builder
	open, closing := "<"+tag+">", "</"+tag+">"
	template.Must(template.New(tag).Parse(open+text+closing)).Execute(&b, nil)
	out, ok := strings.CutPrefix(b.String(), open)
	if !ok || !strings.HasSuffix(out, closing) || strings.Contains(text, "{{") {
		panic("report: " + tag + " text is not static element content")
	}
	return strings.TrimSuffix(out, closing)
}

// htmlTemplate is parsed once; it holds no state, so sharing it is safe. The
// policy is put into the template's text before parsing, so the page carries
// it literally (an action would write its quotes as &#39;).
var htmlTemplate = template.Must(template.New("report.html").Funcs(template.FuncMap{
	"count": countNoun,
	"css":   func() template.CSS { return template.CSS(htmlCSS) },
	"js":    func() template.JS { return template.JS(htmlScript) },
}).Parse(strings.Replace(htmlTemplateText, "{{csp}}", htmlCSP, 1)))

// htmlCSP is the page's Content-Security-Policy: nothing may be loaded, and
// the only style and script allowed are the page's own inline <style> and
// executable <script> elements, named by the SHA-256 of their text (CSP
// Level 2 hash sources): markup that slipped past escaping could run no
// script of its own. TestHTMLContentSecurityPolicy checks both hashes
// against a rendered page.
var htmlCSP = fmt.Sprintf("default-src 'none'; style-src %s; script-src %s; img-src data:", cspHash(htmlCSS), cspHash(htmlScript))

// cspHash is a CSP hash source: 'sha256-' and the base64 of the SHA-256 of
// text's UTF-8 bytes.
func cspHash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// Bounds that keep the page usable with tens of thousands of pods and safe
// from one huge value. report.json keeps what the page leaves out.
const (
	// htmlPageSize is how many pod rows the pods table shows per page, and how
	// many pods that are not healthy the page holds before its script runs.
	htmlPageSize = 200
	// htmlDetailBudget bounds the JSON of the pod details embedded in the page.
	// Pods named by findings come first, then the other unhealthy pods in
	// table order, until the budget is spent.
	htmlDetailBudget = 4 << 20
	// Per pod detail: timeline entries (newest kept), and runes of a
	// message or log text.
	htmlDetailTimeline  = 100
	htmlDetailTextRunes = 600
	// htmlEvidenceRunes bounds one evidence line, htmlHealthItems each gather
	// health list and htmlNodeLogGroups the log groups shown per node.
	htmlEvidenceRunes = 4000
	// htmlEvidenceRows bounds the evidence lines of one finding, and
	// htmlOpenFindings how many findings start open (the most severe, high
	// and critical only): closed findings cost the browser no layout.
	htmlEvidenceRows = 25
	htmlOpenFindings = 30
	htmlHealthItems  = 200
	// htmlTimelineSubjects bounds the timelines listed, htmlTimelineRows the
	// rows of each (the newest are shown).
	htmlTimelineSubjects = 300
	htmlTimelineRows     = 200
	// Above htmlAllNodesUpTo nodes, healthy ones are listed collapsed.
	htmlAllNodesUpTo  = 20
	htmlNodeLogGroups = 20
)

// WriteHTML writes r as one self-contained HTML page: inline CSS and script, a
// Content-Security-Policy that forbids loading anything, every gather string
// escaped by html/template. Findings read without JavaScript; the script adds
// filters (also set from the URL: #sev=critical&ns=shop&node=n&q=text), the
// sorting, filtering and paging of the pods table, and a detail panel with a
// timeline for each unhealthy pod (#pod=namespace/name). Pod rows and details
// are embedded as JSON and drawn with textContent only.
func WriteHTML(w io.Writer, r *Report) error {
	return htmlTemplate.Execute(w, newHTMLView(r))
}

// htmlView is what the template reads: every gather string already cleaned of
// control characters, every choice (classes, links, open sections) already made.
type htmlView struct {
	Title string
	RunID string // Report.Run's ID, for the <meta name="mgtriage-run"> tag; "" when none
	// NoticeLabel, Notice and NoticeTail say why the input was not read
	// whole or not read right (InputNotice); "" when it was.
	NoticeLabel, Notice, NoticeTail string
	Mixed                           string // why the gather holds two clusters; "" when it does not
	Subtitle                        string
	Tool                            string
	SchemaVersion                   int
	Gathered                        string // RFC 3339, the "now" of the timelines; "" when unknown
	Cluster                         []htmlField
	Cards                           []htmlField
	Severities                      []htmlSeverity
	TotalFindings                   int
	Nodes                           []htmlNode
	HiddenNodes                     int
	Findings                        []htmlFinding
	Namespaces                      []string
	NodeNames                       []string
	Pods                            htmlPods
	Details                         []podDetail
	Timelines                       htmlTimelines
	Layouts                         []Layout
	Health                          []htmlHealthList
	HealthIssues                    int
	// Coverage holds the lines of the Coverage section; Missing names the
	// kinds the analysis rests on that the input does not hold.
	Coverage []htmlField
	Missing  string
	// WindowNote says that --window left every finding out (windowNote).
	WindowNote string
	Problems   []Problem
	// Ask is the "What to ask the customer for" section (Report.Ask);
	// AskCLI names the cluster's command line tool.
	Ask    []htmlAsk
	AskCLI string
}

// htmlAsk is one command of Report.Ask, cleaned for the page.
type htmlAsk struct {
	Command, On, Why, Docs string
	Blocks                 []string
}

type htmlField struct{ Name, Value string }

// htmlTimelines is the Timelines section: the timelines with entries, nodes
// first, at most htmlTimelineSubjects of them; the node names of the node
// filter; the report's window to start the time filter with (RFC 3339, ""
// for an open end).
type htmlTimelines struct {
	List     []htmlTimeline
	More     int // timelines with entries beyond htmlTimelineSubjects
	Empty    int // timelines without entries, not listed
	Nodes    []string
	From, To string
}

// htmlTimeline is one subject's timeline table: its newest htmlTimelineRows
// entries; Omitted counts the older ones report.json holds or left out.
type htmlTimeline struct {
	Anchor, Kind, Title, Node string
	Pod                       string // "namespace/name" of a pod, for its detail link
	Rows                      []htmlTimelineRow
	Omitted                   int
}

type htmlTimelineRow struct {
	Time, Last, Source, Class, What, Cite string
	Count                                 int
}

type htmlSeverity struct {
	Name, Class string
	Count       int
}

type htmlNode struct {
	Name, Ready, Roles, Version string
	LogAnchor                   string // id of the node's log section
	// Hidden is set for a healthy node without log groups when the cluster
	// has more than htmlAllNodesUpTo nodes: it is listed collapsed.
	Hidden     bool
	Healthy    bool
	Conditions []string
	Log        []htmlLogGroup
	LogOmitted int
}

type htmlLogGroup struct {
	Class, Severity, Unit, Cite, First, Last, Text string
	Count                                          int
}

type htmlFinding struct {
	Anchor      string
	Severity    string
	Class       string
	Open        bool
	Title       string
	Rule        string
	Category    string
	Object      string
	Namespaces  string // one namespace a line, for the namespace filter
	Nodes       string // one node a line, for the node filter
	GroupedBy   string
	Hint        string
	Objects     []htmlObject
	Explains    []htmlObject
	Missing     []string
	Remediation [][]stepPart
	Docs        []htmlDoc
	Evidence    []htmlEvidence
	// EvidenceMore is how many evidence lines report.json has beyond Evidence.
	EvidenceMore, EvidenceTotal int
}

// htmlObject is an object of a finding; Pod is "namespace/name" for a pod,
// which links to its detail.
type htmlObject struct {
	Text, Pod, Rule string
}

// htmlDoc is a docs entry: URL is set only for an http(s) link.
type htmlDoc struct{ Text, URL string }

type htmlEvidence struct {
	Cite, Kind, Time, Text string
	Count                  int
}

type htmlHealthList struct {
	Title string
	Items []string
	More  int
	Total int
}

type htmlPods struct {
	Total, Unhealthy, PageSize int
	FirstPage                  [][]string
	// Rows holds every pod as NAMESPACE NAME READY STATUS RESTARTS AGE STAGE
	// NODE, "1" when the pod is not healthy ("0" otherwise), and the index of
	// its detail in the pod-detail data ("" when the page holds none).
	Rows [][]string
}

// podDetail is one unhealthy pod as its detail panel draws it; times are RFC 3339.
type podDetail struct {
	Key          string            `json:"key"`
	Node         string            `json:"node,omitempty"`
	Phase        string            `json:"phase,omitempty"`
	Ready        string            `json:"ready"`
	Status       string            `json:"status"`
	Restarts     string            `json:"restarts"`
	Age          string            `json:"age"`
	Owner        string            `json:"owner,omitempty"`
	Source       string            `json:"source,omitempty"`
	Stage        string            `json:"stage,omitempty"`
	StageReason  string            `json:"stageReason,omitempty"`
	StageMessage string            `json:"stageMessage,omitempty"`
	StageSince   string            `json:"stageSince,omitempty"`
	StageLookAt  string            `json:"stageLookAt,omitempty"`
	Containers   []detailContainer `json:"containers"`
	// Timeline is the newest htmlDetailTimeline entries of the pod's
	// timeline (report.json's timelines[]); TimelineMore counts the older
	// ones left out, NoTimeline is set when the report holds none for the
	// pod (a report written before schemaMinor 2).
	Timeline     []detailTimelineEntry `json:"timeline"`
	TimelineMore int                   `json:"timelineOmitted,omitempty"`
	NoTimeline   bool                  `json:"noTimeline,omitempty"`
	Findings     []detailFinding       `json:"findings"`
	Logs         []detailLogTail       `json:"logs"`
}

// detailTimelineEntry is a TimelineEntry as the pod panel draws it.
type detailTimelineEntry struct {
	Time   string `json:"time"`
	Last   string `json:"last,omitempty"`
	Source string `json:"source"`
	Level  string `json:"level"`
	What   string `json:"what"`
	Count  int    `json:"count"`
	Cite   string `json:"cite"`
}

// detailLogTail is the end of one container log, as the panel's log tail shows it.
type detailLogTail struct {
	Container string          `json:"container"`
	Previous  bool            `json:"previous"`
	Rotated   string          `json:"rotated,omitempty"` // LogTail.Rotated
	Cite      string          `json:"cite"`
	Lines     int             `json:"lines"`
	Tail      []detailLogLine `json:"tail"`
}

type detailLogLine struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

type detailContainer struct {
	Name           string   `json:"name"`
	Kind           string   `json:"kind"`
	Image          string   `json:"image,omitempty"`
	State          string   `json:"state,omitempty"`
	Reason         string   `json:"reason,omitempty"`
	Message        string   `json:"message,omitempty"`
	Exit           string   `json:"exit,omitempty"` // "137 (signal 9): meaning"
	Ready          bool     `json:"ready"`
	Restarts       int32    `json:"restarts"`
	LastReason     string   `json:"lastReason,omitempty"`
	LastExit       string   `json:"lastExit,omitempty"`
	LastFinished   string   `json:"lastFinished,omitempty"`
	BackOff        string   `json:"backOff,omitempty"`
	NextRestart    string   `json:"nextRestart,omitempty"`
	CrashLoopSince string   `json:"crashLoopSince,omitempty"`
	Probes         []string `json:"probes,omitempty"`
}

type detailFinding struct {
	Anchor   string `json:"anchor"`
	Severity string `json:"severity"`
	Title    string `json:"title"`
	Rule     string `json:"rule"`
}

func newHTMLView(r *Report) htmlView {
	noticeLabel, notice, noticeTail := InputNotice(r.Gather)
	v := htmlView{
		Title:         "mgtriage report",
		RunID:         r.Run.RunID(),
		Tool:          strings.TrimSpace(cleanLine(r.Tool.Name + " " + r.Tool.Version)),
		SchemaVersion: r.SchemaVersion,
		Gathered:      formatTime(r.Gather.CollectedAt),
		Cluster:       htmlOverview(r),
		Cards:         htmlCards(r),
		TotalFindings: totalFindings(r),
		Notice:        truncateRunes(cleanLine(notice), 2000),
		NoticeLabel:   noticeLabel,
		NoticeTail:    noticeTail,
		Mixed:         truncateRunes(cleanLine(r.Gather.Mixed), 2000),
	}
	if r.Gather.ClusterVersion != "" {
		v.Title += ": OpenShift " + cleanLine(r.Gather.ClusterVersion)
	}
	v.Subtitle = htmlSubtitle(r)
	for _, c := range severityCounts(r) {
		v.Severities = append(v.Severities, htmlSeverity{Name: c.Severity, Class: sevClass(c.Severity), Count: c.Count})
	}
	for i, n := range r.Nodes {
		h := htmlNodeView(n)
		h.LogAnchor = "nodelog-" + strconv.Itoa(i+1)
		if len(r.Nodes) > htmlAllNodesUpTo && h.Healthy && len(h.Log) == 0 {
			h.Hidden = true
			v.HiddenNodes++
		}
		v.Nodes = append(v.Nodes, h)
	}
	namespaces, nodes := map[string]bool{}, map[string]bool{}
	for i, f := range r.Findings {
		h := htmlFindingView(i+1, f)
		v.Findings = append(v.Findings, h)
		for _, ns := range strings.Split(h.Namespaces, "\n") {
			namespaces[ns] = ns != ""
		}
		for _, n := range strings.Split(h.Nodes, "\n") {
			nodes[n] = n != ""
		}
	}
	v.Namespaces, v.NodeNames = trueKeys(namespaces), trueKeys(nodes)
	v.Details = htmlDetails(r)
	v.Timelines = htmlTimelinesView(r)
	v.Pods = htmlPodsView(r.Pods, v.Details)
	for _, l := range r.Gather.Layouts {
		v.Layouts = append(v.Layouts, Layout{Root: cleanLine(orDot(l.Root)), Kind: cleanLine(l.Kind), Image: cleanLine(l.Image), Node: cleanLine(l.Node), Pods: l.Pods})
	}
	v.Health, v.HealthIssues = htmlHealth(r.Gather.Health)
	for _, l := range coverageLines(r) {
		v.Coverage = append(v.Coverage, htmlField{l.Label, truncateRunes(cleanLine(l.Text), htmlCoverageRunes)})
	}
	v.Missing = joinOr(cleanLines(coverageGaps(r)))
	v.WindowNote = cleanLine(windowNote(r))
	v.AskCLI = "kubectl"
	if r.Gather.Distribution == "OpenShift" {
		v.AskCLI = "oc"
	}
	for _, a := range r.Ask {
		ha := htmlAsk{Command: cleanLine(a.Command), On: cleanLine(a.On), Why: truncateRunes(cleanLine(a.Why), htmlCoverageRunes)}
		if u, ok := webLink(a.Docs); ok {
			ha.Docs = u
		}
		for _, b := range a.Blocks {
			ha.Blocks = append(ha.Blocks, truncateRunes(cleanLine(b), htmlCoverageRunes))
		}
		v.Ask = append(v.Ask, ha)
	}
	if v.Missing != "" {
		v.Cluster = append(v.Cluster, htmlField{"Not in the input", v.Missing + " (see Coverage)"})
	}
	for _, p := range r.Problems {
		v.Problems = append(v.Problems, Problem{Path: cleanLine(p.Path), Error: cleanText(p.Error)})
	}
	return v
}

func trueKeys(m map[string]bool) []string {
	var out []string
	for k, ok := range m {
		if ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// htmlSubtitle is the line under the title: platform, gather time, rules.
func htmlSubtitle(r *Report) string {
	g := r.Gather
	var parts []string
	if g.KubernetesVersion != "" {
		parts = append(parts, "Kubernetes "+cleanLine(g.KubernetesVersion))
	}
	if g.Platform != "" {
		parts = append(parts, "platform "+cleanLine(g.Platform))
	}
	parts = append(parts, "gathered "+gatherTime(g), "rule table "+cleanLine(orUnknown(r.Rules.Version)))
	if r.Window != nil {
		parts = append(parts, "window "+r.Window.String())
	}
	return strings.Join(parts, " · ")
}

// htmlCards are the numbers the overview starts with.
func htmlCards(r *Report) []htmlField {
	s := r.Summary
	return []htmlField{
		{"Findings", strconv.Itoa(totalFindings(r))},
		{"Pods not healthy", fmt.Sprintf("%d of %d", s.UnhealthyPods, s.Pods)},
		{"Nodes", strconv.Itoa(s.Nodes)},
		{"Warning events", fmt.Sprintf("%d of %d", s.WarningEvents, s.Events)},
		{"Gather problems", strconv.Itoa(len(r.Problems))},
	}
}

func htmlOverview(r *Report) []htmlField {
	g := r.Gather
	input := cleanLine(orUnknown(g.Path))
	if g.Files > 0 {
		input += fmt.Sprintf(" (%s, %s)", countNoun(g.Files, "file", "files"), humanBytes(g.Bytes))
	}
	rules := cleanLine(orUnknown(r.Rules.Version))
	if r.Rules.Count > 0 {
		rules += " (" + countNoun(r.Rules.Count, "rule", "rules") + ")"
	}
	if r.Rules.Released != "" {
		rules += ", released " + cleanLine(r.Rules.Released)
	}
	for _, p := range r.Rules.Packs {
		rules += "; pack " + cleanLine(p.Words())
	}
	s := r.Summary
	fields := []htmlField{
		{"Cluster version", versionWords(g).ClusterVersion},
		{"Kubernetes version", versionWords(g).Kubernetes},
	}
	if g.Printer != nil {
		fields = append(fields, htmlField{"Pod columns", printerLine(g.Printer)})
	}
	if g.Platform != "" {
		fields = append(fields, htmlField{"Platform", cleanLine(g.Platform)})
	}
	if g.ClusterID != "" {
		fields = append(fields, htmlField{"Cluster ID", cleanLine(g.ClusterID)})
	}
	name, detail := inputText(g)
	attachment := name
	if detail != "" {
		attachment += ": " + detail
	}
	if r.Window != nil {
		fields = append(fields, htmlField{"Incident window", r.Window.Words()})
	}
	fields = append(fields,
		htmlField{"Gathered", gatherTime(g)},
		htmlField{"Attachment", attachment},
		htmlField{"Input", input},
		htmlField{"Tool", strings.TrimSpace(cleanLine(orUnknown(r.Tool.Name) + " " + r.Tool.Version))},
	)
	if len(g.Roots) > 0 {
		fields = append(fields, htmlField{"Gather roots", strings.Join(cleanLines(g.Roots), ", ")})
	}
	fields = append(fields,
		htmlField{"Rule table", rules},
		htmlField{"Pods", withNote(fmt.Sprintf("%d, %d not healthy", s.Pods, s.UnhealthyPods), limitNote(s, model.CutPods))},
		htmlField{"Events", withNote(fmt.Sprintf("%d, %s", s.Events, countNoun(s.WarningEvents, "warning", "warnings")), limitNote(s, model.CutEvents))},
		htmlField{"Nodes", withNote(strconv.Itoa(s.Nodes), limitNote(s, model.CutNodes))},
	)
	if other := otherLimits(s); len(other) > 0 {
		fields = append(fields, htmlField{"Cut by a limit", strings.Join(other, "; ")})
	}
	return fields
}

// htmlCoverageRunes bounds one line of the Coverage section.
const htmlCoverageRunes = 4000

func htmlNodeView(n Node) htmlNode {
	h := htmlNode{
		Name:       cleanLine(n.Name),
		Ready:      cleanLine(n.Ready),
		Roles:      cleanLine(strings.Join(n.Roles, ", ")),
		Version:    cleanLine(n.KubeletVersion),
		Healthy:    n.Ready == "True" && len(n.Conditions) == 0,
		Conditions: cleanLines(n.Conditions),
	}
	for i, g := range n.Log {
		if i == htmlNodeLogGroups {
			h.LogOmitted = len(n.Log) - i
			break
		}
		h.Log = append(h.Log, htmlLogGroup{
			Class: cleanLine(g.Class), Severity: cleanLine(g.Severity), Unit: cleanLine(g.Unit),
			Cite: evidenceCite(Evidence{Path: g.Path, Line: g.Line}), First: formatTime(g.First), Last: formatTime(g.Last),
			Text: truncateRunes(cleanLine(g.Text), htmlDetailTextRunes), Count: g.Count,
		})
	}
	return h
}

func htmlFindingView(n int, f Finding) htmlFinding {
	h := htmlFinding{
		Anchor:    findingAnchor(n),
		Severity:  orUnknown(cleanLine(f.Severity)),
		Class:     sevClass(f.Severity),
		Open:      SeverityRank(f.Severity) <= SeverityRank(SeverityHigh) && n <= htmlOpenFindings,
		Title:     cleanLine(f.Title),
		Rule:      cleanLine(f.RuleID) + " v" + strconv.Itoa(f.RuleVersion),
		Category:  cleanLine(f.Category),
		Object:    objectsSummary(f),
		Hint:      cleanText(f.Hint),
		Missing:   cleanLines(f.Missing),
		GroupedBy: groupPhrase(f.GroupedBy),
	}
	var ns, nodes []string
	for _, o := range f.Objects {
		h.Objects = append(h.Objects, htmlObjectView(o))
		if o.Namespace != "" {
			ns = append(ns, cleanLine(o.Namespace))
		}
		if o.Node != "" {
			nodes = append(nodes, cleanLine(o.Node))
		}
		if o.Kind == "Node" {
			nodes = append(nodes, cleanLine(o.Name))
		}
	}
	for _, o := range f.Explains {
		h.Explains = append(h.Explains, htmlObjectView(o))
	}
	h.Namespaces = strings.Join(ns, "\n")
	h.Nodes = strings.Join(nodes, "\n")
	for _, step := range f.Remediation {
		h.Remediation = append(h.Remediation, splitStep(step))
	}
	for _, d := range f.Docs {
		u, ok := webLink(d)
		if !ok {
			u = ""
		}
		h.Docs = append(h.Docs, htmlDoc{Text: cleanLine(d), URL: u})
	}
	for i, e := range f.Evidence {
		if i == htmlEvidenceRows {
			h.EvidenceMore, h.EvidenceTotal = len(f.Evidence)-i, len(f.Evidence)
			break
		}
		h.Evidence = append(h.Evidence, htmlEvidence{
			Cite:  evidenceCite(e),
			Kind:  cleanLine(e.Kind),
			Time:  formatTime(e.Time),
			Text:  cutText(strings.TrimRight(cleanText(e.Text), "\n"), htmlEvidenceRunes),
			Count: e.Count,
		})
	}
	return h
}

func findingAnchor(n int) string { return "finding-" + strconv.Itoa(n) }

func htmlObjectView(o Object) htmlObject {
	h := htmlObject{Text: objectDetail(o), Rule: cleanLine(o.RuleID)}
	if o.Kind == "Pod" && o.Namespace != "" {
		h.Pod = podKey(o.Namespace, o.Name)
	}
	return h
}

// podKey is how the page names a pod: "namespace/name", cleaned.
func podKey(ns, name string) string { return cleanLine(ns) + "/" + cleanLine(name) }

// cutText is truncateRunes with a note that the rest is in report.json.
func cutText(s string, n int) string {
	t := truncateRunes(s, n)
	if t != s {
		t += " [cut; the whole text is in report.json]"
	}
	return t
}

func htmlHealth(h Health) ([]htmlHealthList, int) {
	var out []htmlHealthList
	issues := 0
	for _, l := range []struct {
		title string
		list  []string
		quiet bool // not shown when empty: only sosreports have a manifest
	}{
		{"must-gather.logs errors", h.MustGatherErrors, false},
		{"Namespaces without pods.yaml", h.NamespacesWithoutPods, false},
		{"Pods without logs", h.PodsWithoutLogs, false},
		{"Nodes without kubelet logs", h.NodesWithoutLogs, false},
		{"sos commands that failed or were cut", h.SosCommands, true},
	} {
		if l.quiet && len(l.list) == 0 {
			continue
		}
		shown, more := boundedList(l.list, htmlHealthItems)
		out = append(out, htmlHealthList{Title: l.title, Items: cleanLines(shown), More: more, Total: len(shown) + more})
		issues += len(shown) + more
	}
	return out, issues
}

func htmlPodsView(pods []Pod, details []podDetail) htmlPods {
	index := make(map[string]int, len(details))
	for i, d := range details {
		index[d.Key] = i
	}
	v := htmlPods{Total: len(pods), PageSize: htmlPageSize, Rows: make([][]string, 0, len(pods))}
	for _, p := range pods {
		flag, detail := "0", ""
		key := podKey(p.Namespace, p.Name)
		if !p.Healthy {
			flag = "1"
			v.Unhealthy++
		}
		if i, ok := index[key]; ok {
			detail = strconv.Itoa(i)
		}
		row := []string{
			cleanLine(p.Namespace), cleanLine(p.Name), cleanLine(p.Ready), cleanLine(p.Status),
			cleanLine(p.Restarts), cleanLine(p.Age), stageCell(p), cleanLine(p.Node), flag, detail,
		}
		v.Rows = append(v.Rows, row)
		if !p.Healthy && len(v.FirstPage) < htmlPageSize {
			v.FirstPage = append(v.FirstPage, row[:8])
		}
	}
	return v
}

// htmlDetails makes the detail of each unhealthy pod, those named by findings
// first, until htmlDetailBudget bytes of JSON are used.
func htmlDetails(r *Report) []podDetail {
	findings := map[string][]detailFinding{}
	var order []string
	for i, f := range r.Findings {
		df := detailFinding{Anchor: findingAnchor(i + 1), Severity: orUnknown(cleanLine(f.Severity)), Title: cleanLine(f.Title), Rule: cleanLine(f.RuleID)}
		for _, o := range append(append([]Object(nil), f.Objects...), f.Explains...) {
			if o.Kind != "Pod" {
				continue
			}
			k := podKey(o.Namespace, o.Name)
			if _, seen := findings[k]; !seen {
				order = append(order, k)
			}
			if l := findings[k]; len(l) == 0 || l[len(l)-1].Anchor != df.Anchor {
				findings[k] = append(l, df)
			}
		}
	}
	// Every pod a finding names gets a detail, healthy or not (a Running pod
	// whose container restarted), then the other pods that are not healthy.
	pods := map[string]*Pod{}
	for i := range r.Pods {
		p := &r.Pods[i]
		k := podKey(p.Namespace, p.Name)
		_, named := findings[k]
		if _, dup := pods[k]; dup || (p.Healthy && !named) {
			continue
		}
		pods[k] = p
		if !named {
			order = append(order, k)
		}
	}
	timelines := map[string]*Timeline{}
	for i := range r.Timelines {
		if tl := &r.Timelines[i]; tl.Kind == "Pod" {
			timelines[podKey(tl.Namespace, tl.Name)] = tl
		}
	}
	out := []podDetail{}
	used := 0
	for _, k := range order {
		p := pods[k]
		if p == nil {
			continue
		}
		d := newPodDetail(p, findings[k], timelines[k])
		b, err := json.Marshal(d)
		if err != nil || used+len(b) > htmlDetailBudget {
			continue
		}
		used += len(b) + 1
		out = append(out, d)
	}
	return out
}

// htmlTimelinesView makes the Timelines section from r.Timelines.
func htmlTimelinesView(r *Report) htmlTimelines {
	v := htmlTimelines{}
	if w := r.Window; w != nil {
		v.From, v.To = formatTime(w.From), formatTime(w.To)
	}
	nodes := map[string]bool{}
	for i, tl := range r.Timelines {
		if len(tl.Entries) == 0 {
			v.Empty++
			continue
		}
		if len(v.List) == htmlTimelineSubjects {
			v.More++
			continue
		}
		h := htmlTimeline{Anchor: "timeline-" + strconv.Itoa(i+1), Kind: cleanLine(tl.Kind), Node: cleanLine(tl.Node), Omitted: tl.Omitted}
		nodes[h.Node] = h.Node != ""
		if tl.Kind == "Pod" {
			h.Pod = podKey(tl.Namespace, tl.Name)
			h.Title = h.Pod
		} else {
			h.Title = cleanLine(tl.Name)
		}
		entries := tl.Entries
		if len(entries) > htmlTimelineRows {
			h.Omitted += len(entries) - htmlTimelineRows
			entries = entries[len(entries)-htmlTimelineRows:]
		}
		for _, e := range entries {
			d := newDetailTimelineEntry(e)
			h.Rows = append(h.Rows, htmlTimelineRow{Time: d.Time, Last: d.Last, Source: d.Source, Class: levelClass(e.Level), What: d.What, Cite: d.Cite, Count: d.Count})
		}
		v.List = append(v.List, h)
	}
	v.Nodes = trueKeys(nodes)
	return v
}

// levelClass is the CSS class of a timeline level: bad, warn or info.
func levelClass(level string) string {
	switch level {
	case LevelError:
		return "bad"
	case LevelWarning:
		return "warn"
	}
	return "info"
}

// newDetailTimelineEntry is e cleaned for the pod panel.
func newDetailTimelineEntry(e TimelineEntry) detailTimelineEntry {
	t := e.Time
	return detailTimelineEntry{Time: formatTime(&t), Last: formatTime(e.Last), Source: cleanLine(e.Source), Level: cleanLine(e.Level),
		What: detailText(e.What), Count: e.Count, Cite: evidenceCite(Evidence{Path: e.Path, Line: e.Line})}
}

// newPodDetail is the panel of pod p with the findings that name it and its
// timeline tl (nil when the report holds none).
func newPodDetail(p *Pod, findings []detailFinding, tl *Timeline) podDetail {
	d := podDetail{
		Key: podKey(p.Namespace, p.Name), Node: cleanLine(p.Node), Phase: cleanLine(p.Phase),
		Ready: cleanLine(p.Ready), Status: cleanLine(p.Status), Restarts: cleanLine(p.Restarts), Age: cleanLine(p.Age),
		Owner: cleanLine(p.Owner), Source: cleanLine(p.Source),
		Stage: cleanLine(p.Stage), StageReason: cleanLine(p.StageReason),
		StageMessage: detailText(p.StageMessage), StageSince: formatTime(p.StageSince), StageLookAt: cleanLine(p.StageLookAt),
		Containers: []detailContainer{}, Timeline: []detailTimelineEntry{}, Findings: findings,
	}
	if d.Findings == nil {
		d.Findings = []detailFinding{}
	}
	for _, c := range p.Containers {
		d.Containers = append(d.Containers, newDetailContainer(c))
	}
	d.Logs = []detailLogTail{}
	for _, l := range p.Logs {
		t := detailLogTail{Container: cleanLine(l.Container), Previous: l.Previous, Rotated: cleanLine(l.Rotated), Cite: cleanLine(l.Path), Lines: l.Lines, Tail: []detailLogLine{}}
		for _, ln := range l.Tail {
			t.Tail = append(t.Tail, detailLogLine{Line: ln.Line, Text: detailText(ln.Text)})
		}
		d.Logs = append(d.Logs, t)
	}
	if tl == nil {
		d.NoTimeline = true
		return d
	}
	entries := tl.Entries
	d.TimelineMore = tl.Omitted
	if len(entries) > htmlDetailTimeline {
		d.TimelineMore += len(entries) - htmlDetailTimeline
		entries = entries[len(entries)-htmlDetailTimeline:]
	}
	for _, e := range entries {
		d.Timeline = append(d.Timeline, newDetailTimelineEntry(e))
	}
	return d
}

func newDetailContainer(c Container) detailContainer {
	d := detailContainer{
		Name: cleanLine(c.Name), Kind: cleanLine(c.Kind), Image: cleanLine(c.Image), State: cleanLine(c.State),
		Reason: cleanLine(c.Reason), Message: detailText(c.Message), Ready: c.Ready, Restarts: c.RestartCount,
		BackOff: cleanLine(c.BackOff), NextRestart: formatTime(c.NextRestart), CrashLoopSince: formatTime(c.CrashLoopSince),
		Probes: cleanLines(c.Probes),
	}
	if c.ExitCode != nil {
		d.Exit = exitText(*c.ExitCode, c.Signal, c.ExitMeaning)
	}
	if l := c.Last; l != nil {
		d.LastReason = cleanLine(l.Reason)
		d.LastExit = exitText(l.ExitCode, l.Signal, l.ExitMeaning)
		d.LastFinished = formatTime(l.FinishedAt)
	}
	return d
}

// exitText is "137 (signal 9): meaning".
func exitText(code, signal int32, meaning string) string {
	s := strconv.Itoa(int(code))
	if signal != 0 {
		s += fmt.Sprintf(" (signal %d)", signal)
	}
	if m := cleanLine(meaning); m != "" {
		s += ": " + m
	}
	return s
}

func detailText(s string) string {
	return truncateRunes(strings.TrimSpace(cleanLine(s)), htmlDetailTextRunes)
}

// sevClass is the CSS class of a severity; unknown names share one class.
func sevClass(s string) string {
	if SeverityRank(s) == len(Severities) {
		return "sev-unknown"
	}
	return "sev-" + s
}

func cleanLines(in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = cleanLine(s)
	}
	return out
}
