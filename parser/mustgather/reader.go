package mustgather

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mgtriage/mgtriage/parser/internal/jsonpos"
	"github.com/mgtriage/mgtriage/parser/load"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/nodelog"
)

// MaxLogErrors bounds the error lines kept from must-gather.logs
// (model.Health.MustGatherErrors).
const MaxLogErrors = 200

// maxAlerts bounds the alerts kept from one rules dump; critical alerts are
// kept past it (up to as many again), and a Problem counts what was dropped.
const maxAlerts = 2000

// kindLabels name what the members of each Kind the Reader reads hold, in
// report order (model.Coverage.Used).
var kindLabels = []load.Label[Kind]{
	{Kind: Alerts, Text: "Prometheus rules (alerts)"},
	{Kind: Etcd, Text: "etcd health"},
	{Kind: Timestamp, Text: "timestamp files"},
	{Kind: Version, Text: "version files"},
	{Kind: Logs, Text: "must-gather.logs"},
}

// Reader reads the must-gather's own files of one load. Read is safe for
// concurrent use; Note, Count and the members of the light kinds (not
// Kind.Heavy) are the pass's, in member order.
type Reader struct {
	l                load.Load
	load.Tally[Kind]                   // the members read, by kind (Count, Used)
	marked           map[string]bool   // image folders ("" or ending in "/") holding must-gather-only folders
	version          map[string]string // folder (path.Dir of the version file) → image and version
	errors           []string          // must-gather.logs lines that report an error

	mu     sync.Mutex // guards what the heavy kinds fill
	alerts []model.Alert
	etcd   *model.EtcdHealth
}

// NewReader returns the Reader of the load l.
func NewReader(l load.Load) *Reader {
	return &Reader{l: l, Tally: load.NewTally(kindLabels), marked: map[string]bool{}, version: map[string]string{}}
}

// Note records the layout markers of the member at p (any member of the
// input): the folders only a must-gather image writes.
func (r *Reader) Note(p string) {
	for _, m := range markers {
		if strings.HasPrefix(p, m) {
			r.marked[""] = true
		} else if i := strings.Index(p, "/"+m); i >= 0 {
			r.marked[p[:i+1]] = true
		}
	}
}

// Layout reports whether the gather root (an image folder, "" or ending in
// "/") is a must-gather image's, judged by its timestamp (timestamped: the
// load holds gather times for its folder), its version file or its
// markers, and the image it names: the version file's image and version,
// else the folder's name ("" for the input itself).
func (r *Reader) Layout(root string, timestamped bool) (image string, ok bool) {
	dir := strings.TrimSuffix(root, "/")
	key := dir
	if key == "" {
		key = "."
	}
	v := r.version[key]
	if !timestamped && v == "" && !r.marked[root] {
		return "", false
	}
	if root != "" {
		image = path.Base(dir)
	}
	if v != "" {
		image = v
	}
	return image, true
}

// Errors are the lines of the must-gather.logs read that report an error,
// in member and line order, at most MaxLogErrors.
func (r *Reader) Errors() []string { return r.errors }

// Alerts are the firing and pending alerts of the rules dumps read, each
// dump's by alert name, the dumps in the order they were decoded.
func (r *Reader) Alerts() []model.Alert {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.alerts
}

// Etcd is etcd's health from the etcd_info reports read (nil when none),
// its Sources by path.
func (r *Reader) Etcd() *model.EtcdHealth {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.etcd != nil {
		// The decode workers read etcd_info files in the order they finish.
		sort.Slice(r.etcd.Sources, func(i, j int) bool {
			a, c := r.etcd.Sources[i], r.etcd.Sources[j]
			return a.Path < c.Path || a.Path == c.Path && a.Line < c.Line
		})
	}
	return r.etcd
}

// Read reads data, the member at p that m says the Reader reads; the
// error is the member's problem.
func (r *Reader) Read(p string, m Member, data []byte) error {
	switch m.Kind {
	case Timestamp:
		if times := ParseTimestamp(data); len(times) > 0 {
			r.l.GatherTimes(path.Dir(p), times)
		}
	case Version:
		lines := strings.Split(strings.TrimSpace(nodelog.Text(data)), "\n")
		if len(lines) == 2 && len(data) < 1024 {
			r.version[path.Dir(p)] = strings.TrimSpace(lines[0]) + " " + strings.TrimSpace(lines[1])
		}
	case Logs:
		r.readLogs(data)
	case Alerts:
		return r.readAlerts(p, data)
	case Etcd:
		return r.readEtcd(p, data)
	}
	return nil
}

// ParseTimestamp reads the lines of a must-gather timestamp file, in Go's
// time.Time text form ("2021-09-14 14:43:46.909613294 +0000 UTC m=+0.0799").
func ParseTimestamp(data []byte) []time.Time {
	var out []time.Time
	for _, line := range strings.Split(string(data), "\n") {
		if t, ok := ParseGoTime(line); ok {
			out = append(out, t)
		}
	}
	return out
}

// ParseGoTime parses time.Time's String form, with or without the monotonic
// "m=+…" suffix; the result is in UTC.
func ParseGoTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, " m="); i >= 0 {
		s = s[:i]
	}
	if s == "" || len(s) > 80 {
		return time.Time{}, false
	}
	t, err := time.Parse("2006-01-02 15:04:05.999999999 -0700 MST", s)
	if err != nil {
		return time.Time{}, false
	}
	return t.UTC(), true
}

var logErrorRe = regexp.MustCompile(`(?i)\berror\b|\bfailed\b|timed out`)

// readLogs keeps the lines of must-gather.logs that report an error.
func (r *Reader) readLogs(data []byte) {
	for _, line := range strings.Split(string(data), "\n") {
		if logErrorRe.MatchString(line) && len(r.errors) < MaxLogErrors {
			r.errors = append(r.errors, nodelog.Text([]byte(strings.TrimSpace(line))))
		}
	}
}

// readAlerts reads the Prometheus rules API dump (rules.json): every alerting
// rule's alerts that are firing or pending.
func (r *Reader) readAlerts(p string, data []byte) error {
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
	lines := alertLines(data)
	for gi, g := range doc.Data.Groups {
		for ri, rule := range g.Rules {
			if rule.Type != "alerting" {
				continue
			}
			for ai, a := range rule.Alerts {
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
				msg, key := a.Annotations["summary"], "summary"
				for _, k := range []string{"description", "message"} {
					if msg == "" {
						msg, key = a.Annotations[k], k
					}
				}
				at := alertAt{gi + 1, ri + 1, ai + 1, key}
				line := lines[at]
				if line == 0 {
					at.key = ""
					line = lines[at]
				}
				sev := a.Labels["severity"]
				if sev == "" {
					sev = rule.Labels["severity"]
				}
				out = append(out, model.Alert{Name: rule.Name, State: a.State, Severity: sev, Labels: a.Labels, Message: r.l.CutText(msg), ActiveAt: a.ActiveAt.UTC(), Source: model.Source{Path: p, Line: line}})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	r.mu.Lock()
	r.alerts = append(r.alerts, out...)
	r.mu.Unlock()
	if dropped > 0 {
		return fmt.Errorf("alert limit reached: %d firing or pending alerts kept, %d more not analysed", maxAlerts, dropped)
	}
	return nil
}

// alertAt names an alert of a rules dump by its place (1-based: group, rule,
// alert) and an annotation key of it ("" for the alert itself).
type alertAt struct {
	group, rule, alert int
	key                string
}

// alertLines returns the lines of the alerts of a Prometheus rules dump
// (data.groups[].rules[].alerts[]) and of their summary, description and
// message annotations, by place.
func alertLines(data []byte) map[alertAt]int {
	out := map[alertAt]int{}
	lines := jsonpos.NewCounter(data)
	// index reads an element frame of a walk's path: "[3]" is 3.
	index := func(frame string) int {
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(frame, "["), "]"))
		if err != nil {
			return 0
		}
		return n
	}
	place := func(path []string) (alertAt, bool) {
		if len(path) < 6 || path[0] != "data" || path[1] != "groups" || path[3] != "rules" || path[5] != "alerts" {
			return alertAt{}, false
		}
		at := alertAt{group: index(path[2]), rule: index(path[4])}
		return at, at.group > 0 && at.rule > 0
	}
	jsonpos.Walk(data, 0, func(ev *jsonpos.Event) bool {
		switch {
		case len(ev.Path) == 6 && ev.Index > 0:
			if at, ok := place(ev.Path); ok {
				at.alert = ev.Index
				out[at] = lines.Line(ev.Off)
			}
		case len(ev.Path) == 8 && ev.Path[7] == "annotations" && (ev.Key == "summary" || ev.Key == "description" || ev.Key == "message"):
			if at, ok := place(ev.Path); ok {
				at.alert, at.key = index(ev.Path[6]), ev.Key
				out[at] = lines.Line(ev.Off)
			}
		}
		return true
	})
	return out
}

// readEtcd reads one file of etcd_info/: endpoint_health.json, alarm_list.json
// or endpoint_status.json (etcdctl -w json output).
func (r *Reader) readEtcd(p string, data []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.etcd == nil {
		r.etcd = &model.EtcdHealth{}
	}
	e := r.etcd
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
