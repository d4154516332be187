package rules

import (
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
)

// logSignature fires on a running, ready container whose log holds a line of
// a signature marked running (Signature.Running) that its decider does not
// rule out. Such a process is healthy by its status (running, ready, perhaps
// never restarted) while part of its work fails on every attempt: an API
// call its service account may not make, a TLS handshake with a name the
// certificate lacks. The parser keeps those lines of every container's log
// (model.Needs.LogLines), so the rule sees them even where the rest of the
// log was only counted.
type logSignature struct{}

func (m *logSignature) validate() error { return nil }

func (m *logSignature) on() subjectKind { return onPod }

func (m *logSignature) match(c *evalContext, s subject) []hit {
	p := s.Pod
	var out []hit
	for _, cs := range containers(p, nil) {
		st := cs.Status
		if st.State.Running == nil || !st.Ready {
			continue // the not-ready, waiting and terminated rules read its signatures
		}
		if !c.runningLineIn(p.Log(cs.Name, false)) && !c.runningLineIn(p.Log(cs.Name, true)) {
			continue // most running containers: nothing to read further
		}
		h := c.containerHit(p, cs)
		h.Evidence = append(h.Evidence, c.containerEvidence(p, cs, false)[0])
		probe := hit{Container: h.Container, Vars: Vars{}, Evidence: h.Evidence}
		for k, v := range h.Vars {
			probe.Vars[k] = v
		}
		// Only the signatures that a running process logs are read here;
		// the others are read by the rules of failing containers.
		sig := c.readSignaturesOf(p, &probe, func(s *Signature) bool { return s.Running })
		if sig == nil || !sig.sig.Running || !c.recurs(p, &probe, sig.sig) {
			continue
		}
		out = append(out, h)
	}
	return out
}

// Recurrence: a running container's failure is a finding when it goes on,
// not when it is a burst of the process's first seconds (its RBAC or
// certificates not yet in place): at least recurMin lines of the signature,
// spanning at least recurSpan when their times are known.
const (
	recurMin  = 3
	recurSpan = 5 * time.Minute
)

// recurs reports whether signature s matches lines of the container of hit h
// in p often enough and over long enough (recurMin, recurSpan).
func (c *evalContext) recurs(p *model.Pod, h *hit, s *Signature) bool {
	n := 0
	var first, last time.Time
	for _, l := range c.signatureLines(p, h) {
		if l.Kind != EvidenceContainerLog || l.agent != "" {
			continue
		}
		if _, _, _, ok := s.match(&lineText{text: clip(l.Text, MaxEvidenceText)}); !ok {
			continue
		}
		n++
		if t := l.Time; !t.IsZero() {
			if first.IsZero() || t.Before(first) {
				first = t
			}
			if t.After(last) {
				last = t
			}
		}
	}
	return n >= recurMin && (first.IsZero() || last.Sub(first) >= recurSpan)
}

// hasLogLines reports whether log l (nil: none) keeps or matched any line.
// runningLineIn reports whether a line log l keeps matches one of the
// signatures a running process logs (Signature.Running).
func (c *evalContext) runningLineIn(l *model.ContainerLog) bool {
	if c.table == nil || !hasLogLines(l) {
		return false
	}
	tail, errs := l.Kept()
	for _, lines := range [][]model.LogLine{l.Matched(), errs, tail} {
		for _, ll := range lines {
			t := lineText{text: clip(ll.Text, MaxEvidenceText)}
			for _, s := range c.table.Signatures {
				if s.Running && !s.Disabled {
					if _, _, _, ok := s.match(&t); ok {
						return true
					}
				}
			}
		}
	}
	return false
}

func hasLogLines(l *model.ContainerLog) bool {
	return l != nil && (l.HasKept() || l.HasMatched())
}
