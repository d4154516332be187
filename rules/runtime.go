package rules

import (
	"fmt"
	"slices"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
)

// Pods known only from a node's container runtime (crictl in a sosreport):
// their restart count is the runtime's attempt number and their exit codes
// come from crictl inspect; phase, conditions, events and the pod spec are
// unknown, so only matchers written for that view judge their restarts.

// runtimeRestarts fires for each container of a runtime-view pod whose
// newest attempt is at least MinAttempts and whose newest attempt exited
// with a non-zero code or was killed, or whose previous attempt did while the
// newest runs: the kubelet keeps restarting a failing container.
type runtimeRestarts struct {
	MinAttempts int `json:"minAttempts" doc:"fewest attempts of the container that fire"`
	// ExcludeReasons skips containers whose failed attempt ended with one of
	// these reasons (OOMKilled, left to its own rule).
	ExcludeReasons []string `json:"excludeReasons,omitempty" doc:"skip containers whose failed attempt ended with one of these reasons (OOMKilled)"`
}

func (m *runtimeRestarts) validate() error {
	if m.MinAttempts < 1 {
		return fmt.Errorf("minAttempts must be at least 1")
	}
	return nil
}

func (m *runtimeRestarts) on() subjectKind { return onPod }

func (m *runtimeRestarts) match(c *evalContext, s subject) []hit {
	p := s.Pod
	if p.Runtime == nil {
		return nil
	}
	var out []hit
	for _, cs := range containers(p, nil) {
		st := cs.Status
		if int(st.RestartCount) < m.MinAttempts {
			continue
		}
		failed := st.State.Terminated
		if failed == nil || (failed.ExitCode == 0 && failed.Reason != "OOMKilled" && failed.Reason != "Exited") {
			failed = st.LastTerminationState.Terminated
		}
		if failed == nil || (failed.ExitCode == 0 && failed.Reason != "OOMKilled" && failed.Reason != "Exited") {
			continue
		}
		if slices.Contains(m.ExcludeReasons, failed.Reason) {
			continue
		}
		h := c.containerHit(p, cs)
		h.Vars["Node"] = p.Runtime.Node
		h.Vars["LastReason"], h.Vars["LastExitCode"] = failed.Reason, fmt.Sprint(failed.ExitCode)
		if failed.Reason == "Exited" { // no crictl inspect of that attempt
			h.Vars["LastExitCode"] = "unknown (no crictl inspect of that attempt)"
		}
		h.Vars["State"] = "running"
		if st.State.Terminated != nil {
			h.Vars["State"] = "exited"
		}
		h.Evidence = append(h.Evidence, runtimeEvidence(p, cs.Name)...)
		out = append(out, h)
	}
	return out
}

// runtimeEvidence cites the runtime's records of one container, newest
// attempt first: its crictl ps row and its crictl inspect file.
func runtimeEvidence(p *model.Pod, container string) []Evidence {
	var ev []Evidence
	recs := p.Runtime.Containers
	for i := len(recs) - 1; i >= 0 && len(ev) < 4; i-- {
		r := recs[i]
		if r.Name != container {
			continue
		}
		text := fmt.Sprintf("runtime: container %s attempt %d %s", r.Name, r.Attempt, r.State)
		if r.ExitCode != nil {
			text += fmt.Sprintf(" exit code %d", *r.ExitCode)
		}
		if r.Reason != "" {
			text += " reason " + r.Reason
		}
		if !r.Finished.IsZero() {
			text += " finished " + r.Finished.UTC().Format(time.RFC3339)
		}
		ev = append(ev, Evidence{Source: r.Source, Kind: EvidenceStatus, Time: r.Finished, Text: text})
		if r.Inspect.Path != "" && r.Inspect.Path != r.Source.Path {
			ev = append(ev, Evidence{Source: r.Inspect, Kind: EvidenceStatus, Text: "crictl inspect of container " + r.ID})
		}
	}
	return ev
}
