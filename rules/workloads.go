package rules

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
)

// Workloads as subjects: a controller that cannot create its pods has no pod
// for a pod rule to look at, so the finding is on the controller itself.

// workloadRef is one controller of the gather with its Kind name.
type workloadRef struct {
	Object *model.Object
	Kind   string
}

// Subject is "<Kind>/<namespace>/<name>".
func (w *workloadRef) Subject() string {
	return w.Kind + "/" + w.Object.Namespace + "/" + w.Object.Name
}

// workloads lists the gathered controllers, and the ones that only events
// name (a ReplicaSet's list may not be gathered), by kind, namespace and name.
func (c *evalContext) workloads() []*workloadRef {
	if c.workloadList != nil {
		return c.workloadList
	}
	seen := map[string]bool{}
	kinds := model.PodOwnerKinds() // the controllers whose pod creation is checked
	for _, wk := range kinds {
		objs, _ := c.store.List(wk.Kind, "*")
		for _, o := range objs {
			w := &workloadRef{Object: o, Kind: wk.Name}
			seen[w.Subject()] = true
			c.workloadList = append(c.workloadList, w)
		}
	}
	for _, e := range c.events {
		io := e.Object.InvolvedObject
		for _, wk := range kinds {
			if io.Kind != wk.Name || io.Name == "" {
				continue
			}
			w := &workloadRef{Object: &model.Object{Kind: wk.Kind, Namespace: io.Namespace, Name: io.Name, UID: string(io.UID), Source: e.Source}, Kind: wk.Name}
			if !seen[w.Subject()] {
				seen[w.Subject()] = true
				c.workloadList = append(c.workloadList, w)
			}
		}
	}
	if c.workloadList == nil {
		c.workloadList = []*workloadRef{}
	}
	return c.workloadList
}

// workloadEvent fires for a controller with non-Normal events of one of
// Reasons (FailedCreate: the API server refused the pods it tried to create).
// A refusal counts while it is current: the gather holds none of the
// controller's pods, or the last such event is at most Within (default 1h)
// before the gather; an old refusal on a controller whose pods run is history.
type workloadEvent struct {
	Reasons []string `json:"reasons" doc:"non-Normal event reasons of the controller that fire (FailedCreate)"`
	Within  string   `json:"within,omitempty" doc:"an event counts when it is at most this long before the gather, or no pod of the controller is gathered (default 1h)"`

	within time.Duration
}

func (m *workloadEvent) validate() error {
	if len(m.Reasons) == 0 {
		return fmt.Errorf("reasons lists no event reason")
	}
	m.within = time.Hour
	if m.Within != "" {
		d, err := time.ParseDuration(m.Within)
		if err != nil || d <= 0 {
			return fmt.Errorf("within %q is not a duration such as 1h", m.Within)
		}
		m.within = d
	}
	return nil
}

func (m *workloadEvent) on() subjectKind { return onWorkload }

func (m *workloadEvent) match(c *evalContext, s subject) []hit {
	w := s.Workload
	o := w.Object
	var ev []Evidence
	last := ""
	var lastAt time.Time
	for _, e := range c.workloadEvents(w) {
		if e.Object.Type == corev1.EventTypeNormal || !slices.Contains(m.Reasons, e.Object.Reason) {
			continue
		}
		last = strings.TrimSpace(e.Object.Message)
		if e.When().After(lastAt) {
			lastAt = e.When()
		}
		ev = append(ev, Evidence{Source: eventSource(e), Kind: EvidenceEvent, Quote: strings.TrimSpace(e.Object.Message), Time: e.When(), Count: e.Count(),
			Text: fmt.Sprintf("%s %s on %s %s: %s", eventType(e), e.Object.Reason, w.Kind, o.Name, last)})
	}
	if len(ev) == 0 {
		return nil
	}
	pods := c.store.PodsOwnedBy(o.Namespace, w.Kind, o.Name)
	short, state, known := workloadShort(o)
	switch {
	case known && !short:
		return nil // every pod it wants exists now: the refusal is history
	case !known && len(pods) > 0 && (c.now.IsZero() || c.now.Sub(lastAt) > m.within || c.allHealthy(pods)):
		// The controller was not gathered: pods that exist and run say the
		// refusal was overcome (an install-time race, a fixed SCC).
		return nil
	}
	if len(ev) > maxEventsPerFinding {
		ev = ev[len(ev)-maxEventsPerFinding:]
	}
	v := Vars{"Namespace": o.Namespace, "Workload": w.Kind + "/" + o.Name, "Message": last, "Owner": w.Kind + "/" + o.Name,
		"Pods": fmt.Sprint(len(pods))}
	if top, ok := c.store.TopController(o.Namespace, o.Owners); ok {
		v["Owner"] = top.Kind + "/" + top.Name
	}
	if o.Source.Path != "" && o.Source.Line > 0 {
		text := fmt.Sprintf("%s %s/%s: %d of its pods in the gather", w.Kind, o.Namespace, o.Name, len(pods))
		if state != "" {
			text += "; " + state
		}
		ev = append(ev, Evidence{Source: o.Source, Kind: EvidenceObject, Text: text})
	}
	return []hit{{Vars: v, Evidence: ev}}
}

// workloadEvents are the events whose involved object is the controller.
func (c *evalContext) workloadEvents(w *workloadRef) []*model.Event {
	return c.gather.EventsOf(w.Kind, w.Object.Namespace, w.Object.Name)
}

// workloadShort reads a controller's current state: whether it has fewer
// pods than it wants (or a ReplicaFailure condition), in words; known is
// false when its kind was not decoded.
func workloadShort(o *model.Object) (short bool, state string, known bool) {
	switch t := o.Typed.(type) {
	case *appsv1.ReplicaSet:
		want := int32(1)
		if t.Spec.Replicas != nil {
			want = *t.Spec.Replicas
		}
		for _, c := range t.Status.Conditions {
			if c.Type == appsv1.ReplicaSetReplicaFailure && c.Status == corev1.ConditionTrue {
				return true, fmt.Sprintf("condition ReplicaFailure=True (%s): %s", c.Reason, c.Message), true
			}
		}
		return t.Status.Replicas < want, fmt.Sprintf("replicas %d of %d", t.Status.Replicas, want), true
	case *appsv1.DaemonSet:
		return t.Status.CurrentNumberScheduled < t.Status.DesiredNumberScheduled,
			fmt.Sprintf("currentNumberScheduled %d of desiredNumberScheduled %d", t.Status.CurrentNumberScheduled, t.Status.DesiredNumberScheduled), true
	case *appsv1.StatefulSet:
		want := int32(1)
		if t.Spec.Replicas != nil {
			want = *t.Spec.Replicas
		}
		return t.Status.Replicas < want, fmt.Sprintf("replicas %d of %d", t.Status.Replicas, want), true
	case *batchv1.Job:
		for _, c := range t.Status.Conditions {
			if (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) && c.Status == corev1.ConditionTrue {
				return false, "condition " + string(c.Type), true
			}
		}
		return t.Status.Active == 0, fmt.Sprintf("active %d, succeeded %d", t.Status.Active, t.Status.Succeeded), true
	}
	return false, "", false
}

// reads lists the kinds workloadEvent reads in typed form.
func (m *workloadEvent) reads() []model.Kind {
	return []model.Kind{model.ReplicaSets, model.DaemonSets, model.StatefulSets, model.Jobs}
}

func (c *evalContext) allHealthy(pods []*model.Object) bool {
	for _, o := range pods {
		if p := o.Pod(); p == nil || !p.Healthy() {
			return false
		}
	}
	return true
}
