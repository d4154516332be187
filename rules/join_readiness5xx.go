package rules

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
)

// probeStatusRe finds the HTTP status of a failed readiness probe in an
// Unhealthy event ("Readiness probe failed: HTTP probe failed with
// statuscode: 503") or a kubelet line (probeType="Readiness" ...
// output="HTTP probe failed with statuscode: 503").
var probeStatusRe = mustLitRegexp(`(?:Readiness probe failed|probeType="Readiness")[^\n]*?statuscode: (\d{3})`)

// readinessFailureRe finds any failed readiness probe.
var readinessFailureRe = mustLitRegexp(`Readiness probe (?:failed|errored)|probeType="Readiness"`)

// joinReadiness5xx runs the readiness5xx join for one pod and hit (doc and
// reads: joinRegistry): a backend's failure stated in a container's log is
// why its readiness endpoint answers 503 only when the container runs, is
// not ready, and its readiness probe gets an HTTP 5xx; a probe refused, timed
// out or answered 4xx rules that out. The Service the log names (Host), when
// gathered, says whether the backend has endpoints.
func joinReadiness5xx(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	cs, ok := containerNamed(p, h.Container)
	if !ok || cs.Status.State.Running == nil || cs.Status.Ready {
		res.RuledOut = true // not a running container that is not ready
		return res
	}
	lines := slices.Clone(h.Evidence)
	if cs.Spec != nil {
		lines = append(lines, c.containerEvidence(p, cs, false)...)
	}
	var fiveXX *Evidence
	code, other := "", false
	for i := range lines {
		e := &lines[i]
		if e.Kind != EvidenceEvent && e.Kind != EvidenceNodeLog {
			continue
		}
		if m := probeStatusRe.FindStringSubmatch(e.Text); m != nil {
			if n, _ := strconv.Atoi(m[1]); n >= 500 && n <= 599 {
				if fiveXX == nil {
					fiveXX, code = e, m[1]
				}
				continue
			}
		}
		if readinessFailureRe.MatchString(e.Text) {
			other = true
		}
	}
	switch {
	case fiveXX == nil && other:
		res.RuledOut = true // the probe fails otherwise (refused, timeout, 4xx): not the backend behind a 503
		return res
	case fiveXX == nil:
		res.Missing = append(res.Missing, "the readiness probe's answer: no Unhealthy event or kubelet \"Probe failed\" line for it in the gather")
		return res
	}
	res.Evidence = append(res.Evidence, *fiveXX)
	times := ""
	if fiveXX.Count > 1 {
		times = fmt.Sprintf(", %d times", fiveXX.Count)
	}
	res.Decided = true
	res.Cause = fmt.Sprintf("Its readiness probe gets HTTP %s from the app (%s%s): the process answers, and reports itself not ready.", code, citation(fiveXX.Source), times)
	if host := h.Vars["Host"]; host != "" {
		if svc := c.serviceFor(host, p.Object.Namespace); svc != nil {
			port := h.Vars["Port"]
			if port == "" {
				port = "?"
			}
			ep := c.endpointsVerdict(joinResult{}, svc, host, port, "unreachable")
			res.Evidence = append(res.Evidence, ep.Evidence...)
			res.Missing = append(res.Missing, ep.Missing...)
			if ep.Decided {
				res.Cause += " " + ep.Cause
				res.Fix = ep.Fix
				return res
			}
		}
	}
	// Replicas that are ready against the same backend: the backend
	// answers them, so this replica's own connection is what is broken.
	if ref, ok := model.ControllerOf(model.PodOwners(&p.Object)); ok {
		// Counted once per controller and container, less p's own part.
		key := replicaKey{p.Object.Namespace, ref.Kind, ref.Name, cs.Name}
		rc := c.replicasReady[key]
		if rc == nil {
			rc = &replicaCount{times: map[*model.Pod]int{}}
			for _, o := range c.store.PodsOwnedBy(p.Object.Namespace, ref.Kind, ref.Name) {
				if q := o.Pod(); q != nil {
					rc.counts = addReplica(rc.counts, q, cs.Name, 1)
					rc.times[q]++
				}
			}
			if c.replicasReady == nil {
				c.replicasReady = map[replicaKey]*replicaCount{}
			}
			c.replicasReady[key] = rc
		}
		counts := addReplica(rc.counts, p, cs.Name, -rc.times[p])
		ready, others := counts[0], counts[1]
		if ready > 0 {
			res.Evidence = append(res.Evidence, c.statusEvidence(p, fmt.Sprintf("%d of %d other running replicas of %s %s have container %s ready", ready, others, ref.Kind, ref.Name, cs.Name)))
			res.Cause += fmt.Sprintf(" %d of the %d other replicas of %s %s are ready against the same backend: the backend answers them, so this replica's own connection to it is broken and does not recover.", ready, others, ref.Kind, ref.Name)
			res.Fix = fmt.Sprintf("Restart pod %s to drop its broken connection, and let the program's pool recycle connections (a maximum connection lifetime, a validation query) so that one bad connection does not keep it unready.", p.Object.Name)
		}
	}
	return res
}

// replicaCount is what joinReadiness5xx counts of one controller's
// container: counts (ready, running) over its pods, and how often each pod
// was counted.
type replicaCount struct {
	counts [2]int
	times  map[*model.Pod]int
}

// addReplica adds sign times replica q to counts (ready, running): a
// running pod with container counts, ready when the container is.
func addReplica(counts [2]int, q *model.Pod, container string, sign int) [2]int {
	if q == nil || q.Object.Status.Phase != corev1.PodRunning {
		return counts
	}
	if qc, ok := containerNamed(q, container); ok {
		counts[1] += sign
		if qc.Status.Ready {
			counts[0] += sign
		}
	}
	return counts
}
