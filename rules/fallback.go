package rules

import (
	"fmt"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
)

// podFallback fires for a pod that is not healthy and that no other rule of
// the table explains, so that no such pod goes without a finding: it says
// what is known — the kubectl columns, the startup stage where the pod
// stopped (since when, with its reason and message) and its last event.
// The engine runs it after every other rule (see Evaluate).
type podFallback struct{}

func (m *podFallback) on() subjectKind { return onPod }

func (m *podFallback) match(c *evalContext, s subject) []hit {
	p := s.Pod
	if p.Healthy() || p.Object.DeletionTimestamp != nil {
		return nil // a pod being deleted has the terminating rules
	}
	h := hit{Vars: c.podVars(p)}
	h.Vars["Count"] = p.Columns.Ready
	if p.Columns.Age != "" && p.Columns.Age != "<unknown>" {
		h.Vars["Since"] = p.Columns.Age
	}
	st := p.Stage
	stage := st.Name
	switch {
	case st.Status == "Missing":
		stage = st.Name + " (the pod has no conditions yet)"
	case st.Condition != "":
		stage = fmt.Sprintf("%s (condition %s=%s", st.Name, st.Condition, st.Status)
		if !st.Since.IsZero() {
			stage += " since " + fmtTime(st.Since)
		}
		if st.Reason != "" {
			stage += ", reason " + st.Reason
		}
		stage += ")"
	}
	h.Vars["Stage"] = stage
	text := fmt.Sprintf("phase=%s STATUS=%s READY=%s stage=%s", p.Object.Status.Phase, p.Columns.Status, p.Columns.Ready, st.Name)
	if st.Condition != "" {
		text += fmt.Sprintf("; condition %s=%s reason=%s since %s: %s", st.Condition, st.Status, st.Reason, fmtTime(st.Since), st.Message)
	}
	cp := "status.conditions[" + st.Condition + "]"
	ev := c.fieldEvidence(p, text, cp+".message", cp+".reason", cp, "status.phase")
	ev.Quote = st.Message
	h.Evidence = append(h.Evidence, ev)
	// The last event, a Warning when there is one.
	var last *model.Event
	for _, e := range p.Events {
		if last == nil || e.Object.Type != "Normal" || last.Object.Type == "Normal" {
			last = e
		}
	}
	if last != nil {
		msg := strings.TrimSpace(last.Object.Message)
		h.Vars["Reason"], h.Vars["Message"] = last.Object.Reason, msg
		h.Vars["About"] = fmtTime(last.When())
		h.Evidence = append(h.Evidence, Evidence{Source: eventSource(last), Kind: EvidenceEvent, Time: last.When(), Count: last.Count(), Quote: msg,
			Text: fmt.Sprintf("%s %s: %s", eventType(last), last.Object.Reason, msg)})
	}
	for _, cs := range containers(p, nil) {
		if !cs.Status.Ready {
			ev := c.fieldEvidence(p, containerStateText(cs), containerFieldPaths(cs)...)
			ev.Quote = containerMessage(cs)
			h.Evidence = append(h.Evidence, ev)
		}
	}
	return []hit{h}
}
