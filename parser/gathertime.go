package parser

import (
	"fmt"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// timeCandidates collects the times a gather holds (events, pod and node
// conditions, container start and finish times, creation times), by source,
// to infer when a gather without a timestamp file was taken.
type timeCandidates struct {
	times []time.Time
	from  map[string]int // source → times counted
}

func (c *timeCandidates) add(source string, t time.Time) {
	if t.IsZero() {
		return
	}
	if c.from == nil {
		c.from = map[string]int{}
	}
	c.times = append(c.times, t)
	c.from[source]++
}

// pod adds a pod's creation time, condition transitions and its containers'
// start and finish times (current and last state).
func (c *timeCandidates) pod(p *corev1.Pod) {
	c.add("pod creation", p.CreationTimestamp.Time)
	for _, cond := range p.Status.Conditions {
		c.add("pod condition", cond.LastTransitionTime.Time)
	}
	for _, list := range [][]corev1.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses, p.Status.EphemeralContainerStatuses} {
		for i := range list {
			for _, s := range []corev1.ContainerState{list[i].State, list[i].LastTerminationState} {
				switch {
				case s.Running != nil:
					c.add("container start", s.Running.StartedAt.Time)
				case s.Terminated != nil:
					c.add("container start", s.Terminated.StartedAt.Time)
					c.add("container finish", s.Terminated.FinishedAt.Time)
				}
			}
		}
	}
}

// Outlier rejection for infer: the latest times are set aside, one by one,
// while the gap between the latest and the one before it is more than
// outlierGap and more than the whole span of the times before it, up to
// outlierShare of all times (at least one). A gather is taken in minutes; a
// clock set to the wrong year or a bogus time in a status stands alone beyond
// the bulk, while a gather whose objects are months old spreads its times
// over months and keeps its latest one.
const (
	outlierGap   = 6 * time.Hour
	outlierShare = 0.01
)

// infer returns the latest time that is not an outlier and a description of
// how it was found, for the report; zero when there is no time at all.
func (c *timeCandidates) infer() (time.Time, string) {
	if len(c.times) == 0 {
		return time.Time{}, ""
	}
	ts := append([]time.Time(nil), c.times...)
	sort.Slice(ts, func(i, j int) bool { return ts[i].Before(ts[j]) })
	maxDrop := max(1, int(float64(len(ts))*outlierShare))
	var dropped []time.Time
	for len(ts) > 1 && len(dropped) < maxDrop {
		gap := ts[len(ts)-1].Sub(ts[len(ts)-2])
		if gap <= outlierGap || gap <= ts[len(ts)-2].Sub(ts[0]) {
			break
		}
		dropped = append(dropped, ts[len(ts)-1])
		ts = ts[:len(ts)-1]
	}
	now := ts[len(ts)-1]
	sources := make([]string, 0, len(c.from))
	for s := range c.from {
		sources = append(sources, s)
	}
	sort.Strings(sources)
	parts := make([]string, len(sources))
	for i, s := range sources {
		parts[i] = fmt.Sprintf("%s %d", s, c.from[s])
	}
	times := fmt.Sprintf("the latest of %d times", len(c.times))
	if len(c.times) == 1 {
		times = "the only time"
	}
	how := fmt.Sprintf("inferred: %s in the gather (%s)", times, strings.Join(parts, ", "))
	if len(dropped) > 0 {
		how += fmt.Sprintf("; %d later time(s) set aside as outliers, latest %s", len(dropped), dropped[0].UTC().Format(time.RFC3339))
	}
	return now, how
}
