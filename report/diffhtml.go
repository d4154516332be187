package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"
	"time"
)

//go:embed templates/diff.html.tmpl
var diffTemplateText string

var diffTemplate = template.Must(template.New("diff.html").Funcs(template.FuncMap{"ts": tsText, "count": countNoun, "noun": nounFor, "podsAppeared": podsAppearedLine}).
	Parse(strings.Replace(diffTemplateText, "{{csp}}", diffCSP, 1)))

// diffCSS is the diff page's style sheet: the analyze report's, so the diff
// has the same look, and the diff's own rules; as the page holds it.
var diffCSS = asWritten("style", htmlCSSText+"\n"+diffCSSText)

//go:embed templates/diff.css
var diffCSSText string

// diffCSP is the diff page's Content-Security-Policy: nothing loaded, no
// script at all, its one style element allowed by hash (as htmlCSP).
var diffCSP = fmt.Sprintf("default-src 'none'; style-src %s; img-src data:", cspHash(diffCSS))

// tsText formats a time for the page; "" for nil.
func tsText(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

type diffView struct {
	*Diff
	CSS                  template.CSS
	RunID                string // Diff.Run's ID, for the <meta name="mgtriage-run"> tag; "" when none
	OldTime, NewTime     string
	Interval, Version    string
	OldWindow, NewWindow string
	Unseen               string
	Findings             []diffFindingView
	PodTables            []diffPodTable
	ConfigLines          []string
}

type diffFindingView struct {
	FindingChange
	SevClass string
	Open     bool
	Failing  string
	Config   []string
	Sides    []diffSideView
}

type diffSideView struct {
	Label, RuleID, Severity, Hint string
	Present                       bool
	Evidence                      []diffEvidenceView
}

type diffEvidenceView struct{ Cite, Text string }

type diffPodTable struct {
	Title string
	Rows  []PodChange
}

// WriteDiffHTML writes d as one self-contained HTML page in the look of the
// analyze report: no script, no network, every string escaped by
// html/template; each finding shows OLD and NEW side by side.
func WriteDiffHTML(w io.Writer, d *Diff) error {
	d.Normalize()
	v := diffView{Diff: d, CSS: template.CSS(diffCSS), RunID: d.Run.RunID(), OldTime: tsOr(d.Old.CollectedAt), NewTime: tsOr(d.New.CollectedAt),
		Interval: "unknown", Version: versionLine(d.Cluster),
		OldWindow: windowText(d.Old), NewWindow: windowText(d.New)}
	if d.SameCollection {
		v.Interval = "none: the same collection"
	} else if d.IntervalSeconds > 0 {
		v.Interval = durationText(time.Duration(d.IntervalSeconds) * time.Second)
	}
	if d.Events.UnseenSeconds > 0 {
		v.Unseen = durationText(time.Duration(d.Events.UnseenSeconds) * time.Second)
	}
	for _, f := range d.Findings {
		fv := diffFindingView{FindingChange: f, SevClass: sevClass(f.Severity), Open: f.State == StateNew || f.State == StateChanged}
		if f.FailingSeconds > 0 {
			fv.Failing = durationText(time.Duration(f.FailingSeconds) * time.Second)
		}
		for _, c := range f.Config {
			fv.Config = append(fv.Config, configLine(c))
		}
		fv.Sides = []diffSideView{sideView("OLD", f.Old), sideView("NEW", f.New)}
		v.Findings = append(v.Findings, fv)
	}
	v.PodTables = []diffPodTable{{"Newly unhealthy", d.Pods.NewlyUnhealthy}, {"Recovered", d.Pods.Recovered},
		{"Replaced (same owner, new pod)", d.Pods.Replaced}, {"Gone", d.Pods.Gone}}
	for _, c := range d.Config {
		v.ConfigLines = append(v.ConfigLines, configLine(c))
	}
	return diffTemplate.Execute(w, v)
}

func tsOr(t *time.Time) string {
	if t == nil {
		return "no timestamp"
	}
	return tsText(t)
}

func windowText(s DiffSide) string {
	if s.EventsFrom == nil {
		return "no events"
	}
	return tsText(s.EventsFrom) + " to " + tsText(s.EventsTo)
}

func sideView(label string, f *Finding) diffSideView {
	sv := diffSideView{Label: label}
	if f == nil {
		return sv
	}
	sv.Present, sv.RuleID, sv.Severity, sv.Hint = true, f.RuleID, f.Severity, truncateRunes(f.Hint, MaxTextRunes)
	for _, e := range f.Evidence {
		sv.Evidence = append(sv.Evidence, diffEvidenceView{Cite: evidenceCite(e), Text: truncateRunes(cleanText(e.Text), 2000)})
	}
	return sv
}
