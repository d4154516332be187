package rules

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/openshift"
)

// Cluster-level signals as subjects: firing alerts (joined to the pods and
// nodes their labels name), etcd's health report, MachineConfigPools.

// alertFiring fires once per alert name firing for at least For (default
// 10m) with one of Severities, except the alerts in Exclude (Watchdog and
// the like, which fire by design). The objects its labels name (namespace,
// pod, node, ...) are listed and, where the gather holds them, cited.
type alertFiring struct {
	Severities []string `json:"severities" doc:"alert severities that fire (critical, warning)"`
	Exclude    []string `json:"exclude,omitempty" doc:"alert names that never fire (Watchdog, ...)"`
	For        string   `json:"for,omitempty" doc:"how long the alert has fired at least (default 10m)"`

	minFor time.Duration
}

func (m *alertFiring) validate() error {
	if len(m.Severities) == 0 {
		return fmt.Errorf("severities lists no alert severity")
	}
	m.minFor = 10 * time.Minute
	if m.For != "" {
		d, err := time.ParseDuration(m.For)
		if err != nil || d < 0 {
			return fmt.Errorf("for %q is not a duration such as 10m", m.For)
		}
		m.minFor = d
	}
	return nil
}

func (m *alertFiring) on() subjectKind { return onCluster }

func (m *alertFiring) match(c *evalContext, s subject) []hit {
	type group struct {
		first  int
		alerts []int
	}
	byName := map[string]*group{}
	var names []string
	for i, a := range c.alerts {
		if a.State != "firing" || !slices.Contains(m.Severities, a.Severity) || slices.Contains(m.Exclude, a.Name) {
			continue
		}
		if !c.now.IsZero() && !a.ActiveAt.IsZero() && c.now.Sub(a.ActiveAt) < m.minFor {
			continue
		}
		g := byName[a.Name]
		if g == nil {
			g = &group{first: i}
			byName[a.Name] = g
			names = append(names, a.Name)
		}
		g.alerts = append(g.alerts, i)
	}
	sort.Strings(names)
	var out []hit
	for _, name := range names {
		g := byName[name]
		first := c.alerts[g.first]
		var about []string
		var ev []Evidence
		since := first.ActiveAt
		for _, i := range g.alerts {
			a := c.alerts[i]
			if !a.ActiveAt.IsZero() && a.ActiveAt.Before(since) {
				since = a.ActiveAt
			}
			obj := alertObject(a.Labels)
			if obj != "" && !slices.Contains(about, obj) {
				about = append(about, obj)
			}
			ev = append(ev, Evidence{Source: a.Source, Kind: EvidenceAlert, Time: a.ActiveAt,
				Text: fmt.Sprintf("alert %s (%s) firing since %s%s: %s", a.Name, a.Severity, fmtTime(a.ActiveAt), labelText(a.Labels), a.Message)})
			ev = append(ev, c.alertObjectEvidence(a.Labels)...)
		}
		if len(ev) > MaxEvidence {
			ev = ev[:MaxEvidence]
		}
		v := Vars{"Alert": name, "Message": first.Message, "Severity": first.Severity, "Since": fmtTime(since),
			"Count": fmt.Sprint(len(g.alerts)), "About": orNone(about), "Namespace": first.Labels["namespace"], "Pod": first.Labels["pod"], "Node": first.Labels["node"]}
		o := &model.Object{Kind: model.Kind{Group: "monitoring.coreos.com", Resource: "alerts"}, Namespace: first.Labels["namespace"], Name: name, Source: first.Source}
		out = append(out, hit{Vars: v, Evidence: ev}.about(o, "Alert"))
	}
	return out
}

// alertObject names what an alert's labels point at: pod, node, or namespace.
func alertObject(l map[string]string) string {
	switch {
	case l["pod"] != "" && l["namespace"] != "":
		return "pod " + l["namespace"] + "/" + l["pod"]
	case l["node"] != "":
		return "node " + l["node"]
	case l["instance"] != "" && l["namespace"] == "":
		return "instance " + l["instance"]
	case l["namespace"] != "":
		return "namespace " + l["namespace"]
	}
	return ""
}

func labelText(l map[string]string) string {
	var parts []string
	for _, k := range []string{"namespace", "pod", "container", "node", "instance", "job"} {
		if l[k] != "" {
			parts = append(parts, k+"="+l[k])
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " {" + strings.Join(parts, ", ") + "}"
}

// alertObjectEvidence cites the gathered pod or node an alert's labels name.
func (c *evalContext) alertObjectEvidence(l map[string]string) []Evidence {
	if l["pod"] != "" && l["namespace"] != "" {
		if o, _ := c.store.Get(model.Pods, l["namespace"], l["pod"]); o != nil {
			status := ""
			if p := o.Pod(); p != nil {
				status = fmt.Sprintf("STATUS %s, READY %s, RESTARTS %s", p.Columns.Status, p.Columns.Ready, p.Columns.Restarts)
			}
			return []Evidence{objectEvidence(o, "named by the alert; "+status)}
		}
	}
	if l["node"] != "" {
		if o, _ := c.store.Get(model.Nodes, "", l["node"]); o != nil {
			return []Evidence{objectEvidence(o, "named by the alert")}
		}
	}
	return nil
}

// etcdUnhealthy fires when etcd's own report (etcd_info/) lists unhealthy
// endpoints or active alarms (NOSPACE: the database reached its quota and
// etcd accepts only reads and deletes).
type etcdUnhealthy struct{}

func (m *etcdUnhealthy) on() subjectKind { return onCluster }

func (m *etcdUnhealthy) match(c *evalContext, s subject) []hit {
	e := c.etcd
	if e == nil || len(e.Unhealthy) == 0 && len(e.Alarms) == 0 {
		return nil
	}
	var ev []Evidence
	for _, s := range e.Sources {
		text := "etcd report"
		switch {
		case strings.HasSuffix(s.Path, "endpoint_health.json") && len(e.Unhealthy) > 0:
			text = "unhealthy: " + strings.Join(e.Unhealthy, "; ")
		case strings.HasSuffix(s.Path, "alarm_list.json") && len(e.Alarms) > 0:
			text = "alarms: " + strings.Join(e.Alarms, "; ")
		case strings.HasSuffix(s.Path, "endpoint_status.json"):
			text = fmt.Sprintf("largest database %d MiB", e.MaxDBSize>>20)
		default:
			continue
		}
		ev = append(ev, Evidence{Source: s, Kind: EvidenceObject, Text: text})
	}
	v := Vars{"About": strings.Join(append(append([]string{}, e.Unhealthy...), e.Alarms...), "; "),
		"Count": fmt.Sprintf("%d of %d", len(e.Unhealthy), e.Endpoints), "Message": fmt.Sprintf("largest database %d MiB", e.MaxDBSize>>20)}
	o := &model.Object{Kind: model.Kind{Group: "etcd", Resource: "clusters"}, Name: "etcd"}
	return []hit{hit{Vars: v, Evidence: ev}.about(o, "Etcd")}
}

// poolDegraded fires for a MachineConfigPool that is Degraded (or
// NodeDegraded/RenderDegraded), or has degraded machines: nodes of the pool
// do not run the configuration it renders, often the cause of node-level
// symptoms (a KubeletConfig not applied, a node stuck updating).
type poolDegraded struct{}

func (m *poolDegraded) reads() []model.Kind { return []model.Kind{model.MachineConfigPools} }

func (m *poolDegraded) on() subjectKind { return onCluster }

func (m *poolDegraded) match(c *evalContext, s subject) []hit {
	pools, mcps, _ := model.ListTyped[openshift.MachineConfigPool](c.store, model.MachineConfigPools, "")
	var out []hit
	for i, o := range pools {
		mcp := mcps[i]
		var why []string
		for _, cond := range mcp.Status.Conditions {
			if cond.Status == "True" && (cond.Type == "Degraded" || cond.Type == "NodeDegraded" || cond.Type == "RenderDegraded") {
				w := fmt.Sprintf("%s since %s", cond.Type, fmtTime(cond.LastTransitionTime.Time))
				if msg := strings.TrimSpace(cond.Message); msg != "" {
					w += ` ("` + msg + `")`
				}
				why = append(why, w)
			}
		}
		if len(why) == 0 && mcp.Status.DegradedMachineCount == 0 {
			continue
		}
		n := int(mcp.Status.DegradedMachineCount)
		v := Vars{"About": orNone(why), "Count": fmt.Sprintf("%d degraded machine%s", n, plural(n)), "Pool": o.Name,
			"Message": fmt.Sprintf("%d of %d machines updated to %s", mcp.Status.UpdatedMachineCount, mcp.Status.MachineCount, mcp.Spec.Configuration.Name)}
		ev := []Evidence{objectEvidence(o, fmt.Sprintf("degradedMachineCount %d, updatedMachineCount %d of machineCount %d; %s", mcp.Status.DegradedMachineCount, mcp.Status.UpdatedMachineCount, mcp.Status.MachineCount, strings.Join(why, "; ")))}
		out = append(out, hit{Vars: v, Evidence: ev}.about(o, "MachineConfigPool"))
	}
	return out
}
