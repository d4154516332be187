package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"
)

// Bounds of the Markdown diff: it is pasted into tickets.
const (
	mdDiffFindings = 40
	mdDiffRows     = 30
	mdDiffEvents   = 20
	mdDiffDetails  = 10 // new and changed findings shown with hint and evidence
)

// WriteDiffMarkdown writes d as Markdown: a ticket-sized summary first (the
// two gathers, the interval, the counts and the new and changed findings in
// one line each), then one section per part of the diff. Every string from a
// gather is escaped.
func WriteDiffMarkdown(w io.Writer, d *Diff) error {
	d.Normalize()
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p("%s# What changed between two gathers\n\n", RunComment(d.Run.RunID()))
	p("%s\n\n", mdDiffHeader(d))
	s := d.Summary
	p("**Findings:** %d new, %d changed, %d still failing, %d resolved, %d not comparable.  \n", s.New, s.Changed, s.StillFailing, s.Resolved, s.NotComparable)
	p("**Pods:** %d newly unhealthy, %d recovered, %d replaced, %d gone; %d container%s restarted between the gathers.  \n", s.NewlyUnhealthy, s.Recovered, s.Replaced, s.Gone, s.Restarted, plural(s.Restarted))
	p("**Cluster:** %s; %d node%s, %d ClusterOperator%s and %d configuration object%s changed; %d warning event%s after OLD was gathered.\n\n",
		mdVersionLine(d.Cluster), s.NodeChanges, plural(s.NodeChanges), s.OperatorChanges, plural(s.OperatorChanges), s.ConfigChanges, plural(s.ConfigChanges), s.WarningEvents, plural(s.WarningEvents))
	for _, n := range d.Notes {
		p("> Note: %s\n\n", mdText(n))
	}
	var top []string
	for _, f := range d.Findings {
		if f.State == StateNew || f.State == StateChanged {
			top = append(top, "- "+mdFindingLine(f))
		}
	}
	if len(top) > 0 {
		p("%s\n\n", strings.Join(top, "\n"))
	}
	mdDiffFindingsSection(p, d)
	mdDiffPods(p, d)
	mdDiffCluster(p, d)
	mdDiffEventsSection(p, d)
	return bw.Flush()
}

func mdDiffHeader(d *Diff) string {
	line := func(label string, s DiffSide) string {
		t := "no timestamp"
		if s.CollectedAt != nil {
			t = s.CollectedAt.Format(time.RFC3339)
		}
		v := ""
		if s.ClusterVersion != "" {
			v = ", " + mdText(s.ClusterVersion)
		}
		return fmt.Sprintf("- **%s:** %s, collected %s%s (%s, %s)", label, mdCode(s.Path), t, v, countNoun(s.Findings, "finding", "findings"), countNoun(s.Pods, "pod", "pods"))
	}
	out := line("OLD", d.Old) + "\n" + line("NEW", d.New)
	if d.SameCollection {
		out += "\n- **Interval:** none: the same collection"
	} else if d.IntervalSeconds > 0 {
		out += "\n- **Interval:** " + durationText(time.Duration(d.IntervalSeconds)*time.Second)
	}
	out += "\n- **Same cluster by:** " + mdText(d.SameCluster)
	return out
}

func mdVersionLine(v VersionChange) string { return mdText(versionLine(v)) }

// versionLine says in words how the cluster version changed.
func versionLine(v VersionChange) string {
	switch {
	case v.Old == "" && v.New == "":
		return "version not gathered"
	case v.Old != v.New:
		return "upgraded " + arrow(v.Old, v.New)
	case len(v.Updates) > 0:
		return "version " + v.New + " (update activity in the history)"
	}
	return "version " + v.New + ", unchanged"
}

func mdFindingLine(f FindingChange) string {
	subj := f.Subject
	if f.Container != "" {
		subj += " (container " + f.Container + ")"
	}
	line := fmt.Sprintf("**%s** %s: %s, %s", strings.ToUpper(f.State), mdSeverity(f.Severity), mdText(f.Title), mdText(subj))
	if f.Why != "" {
		line += " — " + mdText(f.Why)
	}
	if f.FailingSeconds > 0 {
		line += " — " + bothGathersText(f.FailingSeconds)
	}
	for _, c := range f.Config {
		line += "; config: " + mdText(configLine(c))
	}
	return line
}

// bothGathersText says what a still-failing finding's FailingSeconds
// means: it fired in both gathers, that far apart.
func bothGathersText(seconds int64) string {
	return "fired in both gathers, " + durationText(time.Duration(seconds)*time.Second) + " apart"
}

func configLine(c ConfigChange) string {
	switch c.Change {
	case "added":
		return c.Kind + " " + c.Ref + " added (" + c.New + ")"
	case "removed":
		return c.Kind + " " + c.Ref + " removed (was " + c.Old + ")"
	}
	return c.Kind + " " + c.Ref + " changed: " + c.Old + " → " + c.New
}

func mdDiffFindingsSection(p func(string, ...any), d *Diff) {
	p("## Findings\n\n")
	if len(d.Findings) == 0 {
		p("No finding in either gather.\n\n")
		return
	}
	p("| state | severity | rule | subject | detail |\n|---|---|---|---|---|\n")
	for i, f := range d.Findings {
		if i == mdDiffFindings {
			p("\n… %d more in diff.html and diff.json\n", len(d.Findings)-mdDiffFindings)
			break
		}
		subj := f.Subject
		if f.Container != "" {
			subj += " (" + f.Container + ")"
		}
		detail := f.Why
		if f.FailingSeconds > 0 {
			detail = bothGathersText(f.FailingSeconds)
		}
		for _, c := range f.Config {
			detail += "; " + configLine(c)
		}
		p("%s", mdRow(f.State, f.Severity, f.RuleID, subj, strings.TrimPrefix(detail, "; ")))
	}
	p("\n")
	shown := 0
	for _, f := range d.Findings {
		if (f.State != StateNew && f.State != StateChanged) || f.New == nil {
			continue
		}
		if shown++; shown > mdDiffDetails {
			p("… the other new and changed findings are in diff.html and diff.json\n\n")
			break
		}
		p("### %s: %s\n\n", mdText(strings.ToUpper(f.State)), mdHeading(f.Title+", "+f.Subject))
		if f.Old != nil {
			p("- **OLD:** %s — %s\n", mdCode(f.Old.RuleID), mdText(f.Old.Hint))
		}
		p("- **NEW:** %s — %s\n\n", mdCode(f.New.RuleID), mdText(f.New.Hint))
		if len(f.New.Evidence) > 0 {
			p("%s\n", mdEvidence(f.New.Evidence))
		}
	}
}

func mdDiffPods(p func(string, ...any), d *Diff) {
	pc := d.Pods
	p("## Pods\n\n")
	table := func(title string, rows []PodChange) {
		if len(rows) == 0 {
			return
		}
		p("### %s\n\n| workload | OLD pod | OLD status | NEW pod | NEW status | node |\n|---|---|---|---|---|---|\n", title)
		for i, r := range rows {
			if i == mdDiffRows {
				p("\n… %d more\n", len(rows)-mdDiffRows)
				break
			}
			p("%s", mdRow(r.Workload, r.OldPod, joinStatus(r.OldStatus, r.OldReady), r.NewPod, joinStatus(r.NewStatus, r.NewReady), r.Node))
		}
		p("\n")
	}
	table("Newly unhealthy", pc.NewlyUnhealthy)
	table("Recovered", pc.Recovered)
	table("Replaced (same owner, new pod)", pc.Replaced)
	table("Gone", pc.Gone)
	if len(pc.Restarts) > 0 {
		p("### Restarts between the two gathers\n\n| pod | container | OLD | NEW | restarts | per hour | STATUS now |\n|---|---|---|---|---|---|---|\n")
		for i, r := range pc.Restarts {
			if i == mdDiffRows {
				p("\n… %d more\n", len(pc.Restarts)-mdDiffRows)
				break
			}
			p("%s", mdRow(r.Namespace+"/"+r.Pod, r.Container, fmt.Sprint(r.Old), fmt.Sprint(r.New), fmt.Sprintf("+%d", r.Delta), fmt.Sprintf("%.2f", r.PerHour), r.Status))
		}
		p("\n")
	}
	p("%s\n\n", podsAppearedLine(pc))
}

func joinStatus(status, ready string) string {
	if ready == "" {
		return status
	}
	return status + " " + ready
}

func mdDiffCluster(p func(string, ...any), d *Diff) {
	p("## Nodes and cluster\n\n")
	p("- **Cluster version:** %s\n", mdVersionLine(d.Cluster))
	for _, u := range d.Cluster.Updates {
		p("  - update to %s: %s%s\n", mdText(u.Version), mdText(u.State), mdUpdateTimes(u))
	}
	list := func(label, name string, changes []string) {
		p("- **%s %s:** %s\n", label, mdText(name), mdText(strings.Join(changes, "; ")))
	}
	for _, n := range d.Nodes {
		list("Node", n.Name, n.Changes)
	}
	for _, o := range d.Operators {
		list("ClusterOperator", o.Name, o.Changes)
	}
	for _, m := range d.Pools {
		list("MachineConfigPool", m.Name, m.Changes)
	}
	for _, c := range d.Config {
		p("- **Config:** %s\n", mdText(configLine(c)))
	}
	p("\n")
}

func mdUpdateTimes(u VersionStep) string {
	s := ""
	if u.Started != nil {
		s += ", started " + u.Started.Format(time.RFC3339)
	}
	if u.Completed != nil {
		s += ", completed " + u.Completed.Format(time.RFC3339)
	}
	return s
}

func mdDiffEventsSection(p func(string, ...any), d *Diff) {
	p("## Events after OLD was gathered\n\n")
	window := func(s DiffSide) string {
		if s.EventsFrom == nil {
			return "no events"
		}
		return s.EventsFrom.Format(time.RFC3339) + " to " + s.EventsTo.Format(time.RFC3339)
	}
	p("Events expire (about three hours by default), so each gather shows only a window: OLD %s; NEW %s.", window(d.Old), window(d.New))
	if d.Events.UnseenSeconds > 0 {
		p(" %s of the interval is in neither window.", durationText(time.Duration(d.Events.UnseenSeconds)*time.Second))
	}
	p("\n\n")
	if len(d.Events.Groups) == 0 {
		p("No event of NEW happened after OLD was gathered.\n")
		return
	}
	p("| type | reason | object | count | last |\n|---|---|---|---|---|\n")
	for i, g := range d.Events.Groups {
		if i == mdDiffEvents {
			p("\n… %s in diff.html and diff.json\n", countNoun(len(d.Events.Groups)-mdDiffEvents+d.Events.Omitted, "more group", "more groups"))
			break
		}
		last := ""
		if g.Last != nil {
			last = g.Last.Format(time.RFC3339)
		}
		p("%s", mdRow(g.Type, g.Reason, g.Object, fmt.Sprint(g.Count), last))
	}
}

// podsAppearedLine closes the pod changes: the healthy pods that appeared and
// the completed ones that left, which are not changes worth a row.
func podsAppearedLine(pc PodChanges) string {
	return countNoun(pc.Appeared, "healthy pod", "healthy pods") + " appeared; " +
		countNoun(pc.CompletedGone, "completed pod", "completed pods") + " (installer, pruner, Job runs) left."
}

// nounFor is one with n == 1, else many: the label of a count shown apart
// from it (a card's number).
func nounFor(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
