package parser

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
)

// Cluster-level signals a support engineer checks by hand: the alerts firing
// in the gather's Prometheus rules dump and etcd's own health report.

// maxAlerts bounds the alerts kept from one rules dump; critical alerts are
// kept past it (up to as many again), and a Problem counts what was dropped.
const maxAlerts = 2000

// readAlerts reads the Prometheus rules API dump (rules.json): every alerting
// rule's alerts that are firing or pending.
func (b *builder) readAlerts(p string, data []byte) error {
	var doc struct {
		Data struct {
			Groups []struct {
				Rules []struct {
					Type   string            `json:"type"`
					Name   string            `json:"name"`
					Labels map[string]string `json:"labels"`
					Alerts []struct {
						Labels      map[string]string `json:"labels"`
						Annotations map[string]string `json:"annotations"`
						State       string            `json:"state"`
						ActiveAt    time.Time         `json:"activeAt"`
					} `json:"alerts"`
				} `json:"rules"`
			} `json:"groups"`
		} `json:"data"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("not a Prometheus rules dump: %v", err)
	}
	var out []model.Alert
	dropped, criticals := 0, 0
	for _, g := range doc.Data.Groups {
		for _, r := range g.Rules {
			if r.Type != "alerting" {
				continue
			}
			for _, a := range r.Alerts {
				if a.State != "firing" && a.State != "pending" {
					continue
				}
				if len(out) >= maxAlerts && (a.Labels["severity"] != "critical" || criticals >= maxAlerts) {
					dropped++
					continue
				}
				if a.Labels["severity"] == "critical" {
					criticals++
				}
				msg := a.Annotations["summary"]
				for _, k := range []string{"description", "message"} {
					if msg == "" {
						msg = a.Annotations[k]
					}
				}
				sev := a.Labels["severity"]
				if sev == "" {
					sev = r.Labels["severity"]
				}
				out = append(out, model.Alert{Name: r.Name, State: a.State, Severity: sev, Labels: a.Labels, Message: cutText(msg), ActiveAt: a.ActiveAt.UTC(), Source: model.Source{Path: p}})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	b.mu.Lock()
	b.g.Alerts = append(b.g.Alerts, out...)
	b.mu.Unlock()
	if dropped > 0 {
		return fmt.Errorf("alert limit reached: %d firing or pending alerts kept, %d more not analysed", maxAlerts, dropped)
	}
	return nil
}

// readEtcd reads one file of etcd_info/: endpoint_health.json, alarm_list.json
// or endpoint_status.json (etcdctl -w json output).
func (b *builder) readEtcd(p string, data []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.g.Etcd == nil {
		b.g.Etcd = &model.EtcdHealth{}
	}
	e := b.g.Etcd
	src := model.Source{Path: p}
	switch path.Base(p) {
	case "endpoint_health.json":
		var eps []struct {
			Endpoint string `json:"endpoint"`
			Health   bool   `json:"health"`
			Error    string `json:"error"`
		}
		if err := json.Unmarshal(data, &eps); err != nil {
			return fmt.Errorf("not etcdctl endpoint health output: %v", err)
		}
		for _, ep := range eps {
			// A member's unix socket (unix://, unixs://) is listed among
			// its client URLs but cannot be reached from the gather pod:
			// its failure says nothing about etcd.
			if strings.HasPrefix(ep.Endpoint, "unix") {
				continue
			}
			e.Endpoints++
			if !ep.Health {
				e.Unhealthy = append(e.Unhealthy, strings.TrimSpace(ep.Endpoint+": "+ep.Error))
			}
		}
	case "alarm_list.json":
		var al struct {
			Alarms []struct {
				MemberID uint64 `json:"memberID"`
				Alarm    any    `json:"alarm"`
			} `json:"alarms"`
		}
		if err := json.Unmarshal(data, &al); err != nil {
			return fmt.Errorf("not etcdctl alarm list output: %v", err)
		}
		for _, a := range al.Alarms {
			name := fmt.Sprint(a.Alarm)
			switch name {
			case "1":
				name = "NOSPACE"
			case "2":
				name = "CORRUPT"
			}
			e.Alarms = append(e.Alarms, fmt.Sprintf("member %x: %s", a.MemberID, name))
		}
	case "endpoint_status.json":
		var st []struct {
			Status struct {
				DBSize int64 `json:"dbSize"`
			} `json:"Status"`
		}
		if err := json.Unmarshal(data, &st); err != nil {
			return fmt.Errorf("not etcdctl endpoint status output: %v", err)
		}
		for _, s := range st {
			e.MaxDBSize = max(e.MaxDBSize, s.Status.DBSize)
		}
	default:
		return nil
	}
	e.Sources = append(e.Sources, src)
	return nil
}
