package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strconv"
	"strings"
)

//go:embed templates/report.html.tmpl
var htmlTemplateText string

// htmlTemplate is parsed once; it holds no state, so sharing it is safe.
var htmlTemplate = template.Must(template.New("report.html").Parse(htmlTemplateText))

// htmlPageSize is how many pod rows the pods table shows per page, and how many
// pods that are not healthy the page holds before its script runs.
const htmlPageSize = 200

// WriteHTML writes r as one self-contained HTML page: inline CSS and script, a
// Content-Security-Policy that forbids loading anything, every gather string
// escaped by html/template. Findings read without JavaScript; the script adds
// filters, and sorting, filtering and paging of the pods table, whose rows are
// embedded as JSON and drawn with textContent.
func WriteHTML(w io.Writer, r *Report) error {
	return htmlTemplate.Execute(w, newHTMLView(r))
}

// htmlView is what the template reads: every gather string already cleaned of
// control characters, every choice (classes, links, open sections) already made.
type htmlView struct {
	Title         string
	Tool          string
	SchemaVersion int
	Cluster       []htmlField
	Severities    []htmlSeverity
	TotalFindings int
	Nodes         []htmlNode
	Findings      []htmlFinding
	Namespaces    []string
	Pods          htmlPods
	Problems      []Problem
}

type htmlField struct{ Name, Value string }

type htmlSeverity struct {
	Name, Class string
	Count       int
}

type htmlNode struct {
	Name, Ready, Roles, Version string
	Healthy                     bool
	Conditions                  []string
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
	Hint        string
	Objects     []string
	Missing     []string
	Remediation [][]stepPart
	Docs        []htmlDoc
	Evidence    []htmlEvidence
}

// htmlDoc is a docs entry: URL is set only for an http(s) link.
type htmlDoc struct{ Text, URL string }

type htmlEvidence struct {
	Cite, Kind, Time, Text string
	Count                  int
}

type htmlPods struct {
	Total, Unhealthy, PageSize int
	FirstPage                  [][]string
	// Rows holds every pod as NAMESPACE NAME READY STATUS RESTARTS AGE STAGE
	// NODE and "1" when the pod is not healthy ("0" otherwise).
	Rows [][]string
}

func newHTMLView(r *Report) htmlView {
	v := htmlView{
		Title:         "mgtriage report",
		Tool:          strings.TrimSpace(cleanLine(r.Tool.Name + " " + r.Tool.Version)),
		SchemaVersion: r.SchemaVersion,
		Cluster:       htmlOverview(r),
		TotalFindings: totalFindings(r),
		Pods:          htmlPodsView(r.Pods),
	}
	if r.Gather.ClusterVersion != "" {
		v.Title += ": OpenShift " + cleanLine(r.Gather.ClusterVersion)
	}
	for _, c := range severityCounts(r) {
		v.Severities = append(v.Severities, htmlSeverity{Name: c.Severity, Class: sevClass(c.Severity), Count: c.Count})
	}
	for _, n := range r.Nodes {
		v.Nodes = append(v.Nodes, htmlNode{
			Name:       cleanLine(n.Name),
			Ready:      cleanLine(n.Ready),
			Roles:      cleanLine(strings.Join(n.Roles, ", ")),
			Version:    cleanLine(n.KubeletVersion),
			Healthy:    n.Ready == "True" && len(n.Conditions) == 0,
			Conditions: cleanLines(n.Conditions),
		})
	}
	namespaces := map[string]bool{}
	for i, f := range r.Findings {
		v.Findings = append(v.Findings, htmlFindingView(i+1, f))
		for _, o := range f.Objects {
			if o.Namespace != "" {
				namespaces[cleanLine(o.Namespace)] = true
			}
		}
	}
	for ns := range namespaces {
		v.Namespaces = append(v.Namespaces, ns)
	}
	sort.Strings(v.Namespaces)
	for _, p := range r.Problems {
		v.Problems = append(v.Problems, Problem{Path: cleanLine(p.Path), Error: cleanText(p.Error)})
	}
	return v
}

func htmlOverview(r *Report) []htmlField {
	g := r.Gather
	input := cleanLine(orUnknown(g.Path))
	if g.Files > 0 {
		input += fmt.Sprintf(" (%d files, %s)", g.Files, humanBytes(g.Bytes))
	}
	rules := cleanLine(orUnknown(r.Rules.Version))
	if r.Rules.Count > 0 {
		rules += fmt.Sprintf(" (%d rules)", r.Rules.Count)
	}
	if r.Rules.Released != "" {
		rules += ", released " + cleanLine(r.Rules.Released)
	}
	s := r.Summary
	fields := []htmlField{
		{"Cluster version", cleanLine(orUnknown(g.ClusterVersion))},
		{"Kubernetes version", cleanLine(orUnknown(g.KubernetesVersion))},
	}
	if g.Platform != "" {
		fields = append(fields, htmlField{"Platform", cleanLine(g.Platform)})
	}
	if g.ClusterID != "" {
		fields = append(fields, htmlField{"Cluster ID", cleanLine(g.ClusterID)})
	}
	fields = append(fields,
		htmlField{"Gathered", gatherTime(g)},
		htmlField{"Input", input},
	)
	if len(g.Roots) > 0 {
		fields = append(fields, htmlField{"Gather roots", strings.Join(cleanLines(g.Roots), ", ")})
	}
	return append(fields,
		htmlField{"Rule table", rules},
		htmlField{"Pods", fmt.Sprintf("%d, %d not healthy", s.Pods, s.UnhealthyPods)},
		htmlField{"Events", fmt.Sprintf("%d, %d warnings", s.Events, s.WarningEvents)},
		htmlField{"Nodes", strconv.Itoa(s.Nodes)},
	)
}

func htmlFindingView(n int, f Finding) htmlFinding {
	h := htmlFinding{
		Anchor:   "finding-" + strconv.Itoa(n),
		Severity: orUnknown(cleanLine(f.Severity)),
		Class:    sevClass(f.Severity),
		Open:     SeverityRank(f.Severity) <= SeverityRank(SeverityHigh),
		Title:    cleanLine(f.Title),
		Rule:     cleanLine(f.RuleID) + " v" + strconv.Itoa(f.RuleVersion),
		Category: cleanLine(f.Category),
		Object:   firstObject(f),
		Hint:     cleanText(f.Hint),
		Missing:  cleanLines(f.Missing),
	}
	var ns []string
	for _, o := range f.Objects {
		h.Objects = append(h.Objects, objectDetail(o))
		if o.Namespace != "" {
			ns = append(ns, cleanLine(o.Namespace))
		}
	}
	h.Namespaces = strings.Join(ns, "\n")
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
	for _, e := range f.Evidence {
		h.Evidence = append(h.Evidence, htmlEvidence{
			Cite:  evidenceCite(e),
			Kind:  cleanLine(e.Kind),
			Time:  formatTime(e.Time),
			Text:  strings.TrimRight(cleanText(e.Text), "\n"),
			Count: e.Count,
		})
	}
	return h
}

func htmlPodsView(pods []Pod) htmlPods {
	v := htmlPods{Total: len(pods), PageSize: htmlPageSize, Rows: make([][]string, 0, len(pods))}
	for _, p := range pods {
		flag := "0"
		if !p.Healthy {
			flag = "1"
			v.Unhealthy++
		}
		row := []string{
			cleanLine(p.Namespace), cleanLine(p.Name), cleanLine(p.Ready), cleanLine(p.Status),
			cleanLine(p.Restarts), cleanLine(p.Age), cleanLine(p.Stage), cleanLine(p.Node), flag,
		}
		v.Rows = append(v.Rows, row)
		if !p.Healthy && len(v.FirstPage) < htmlPageSize {
			v.FirstPage = append(v.FirstPage, row[:8])
		}
	}
	return v
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
