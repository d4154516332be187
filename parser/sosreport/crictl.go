package sosreport

// The container runtime's view of a node, from the crio plugin of a sosreport:
// `crictl pods` and `crictl ps -a` tables and `crictl inspect`/`inspectp` JSON.
// When the API server is down or the node never joined, these are the only
// record of the node's pods. The parsers here are pure functions over the
// bytes of one file; load.go feeds them and sosreport.go turns their records
// into pods.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/internal/jsonpos"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/nodelog"
)

// maxRuntimeRows bounds the rows read from one crictl table.
const maxRuntimeRows = 20_000

// crictlColumn is one column of a crictl table header: its name and the
// byte offset where its cells start.
type crictlColumn struct {
	name  string
	start int
}

// twoWordHeaders are the header names that hold a space.
var twoWordHeaders = []string{"POD ID", "CONTAINER ID", "IMAGE ID"}

// parseCrictlHeader splits a crictl table header into its columns. crictl
// writes its tables with a tabwriter, so each cell starts at the offset of its
// header name.
func parseCrictlHeader(line string) []crictlColumn {
	var cols []crictlColumn
	i := 0
	for i < len(line) {
		if line[i] == ' ' || line[i] == '\t' {
			i++
			continue
		}
		name := ""
		for _, h := range twoWordHeaders {
			if strings.HasPrefix(line[i:], h) {
				name = h
				break
			}
		}
		if name == "" {
			end := strings.IndexAny(line[i:], " \t")
			if end < 0 {
				end = len(line) - i
			}
			name = line[i : i+end]
		}
		cols = append(cols, crictlColumn{name: name, start: i})
		i += len(name)
	}
	return cols
}

// crictlRows calls fn with the cells of every row of a crictl table, by
// header name, and the row's 1-based line number. Lines before the header
// (a deprecation warning) are skipped; a table without one of the required
// headers is an error.
func crictlRows(data []byte, required []string, fn func(line int, cells map[string]string)) error {
	rest := nodelog.Text(data)
	var cols []crictlColumn
	rows := 0
	for n := 0; rest != ""; n++ {
		var raw string
		raw, rest, _ = strings.Cut(rest, "\n")
		line := strings.TrimRight(raw, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if cols == nil {
			c := parseCrictlHeader(line)
			if hasColumns(c, required) {
				cols = c
			}
			continue
		}
		if rows++; rows > maxRuntimeRows {
			return fmt.Errorf("more than %d rows: the rest is not read", maxRuntimeRows)
		}
		cells := make(map[string]string, len(cols))
		for i, c := range cols {
			if c.start >= len(line) {
				break
			}
			end := len(line)
			if i+1 < len(cols) && cols[i+1].start < end {
				end = cols[i+1].start
			}
			cells[c.name] = strings.TrimSpace(line[c.start:end])
		}
		fn(n+1, cells)
	}
	if cols == nil {
		return fmt.Errorf("no crictl table header with %s", strings.Join(required, ", "))
	}
	return nil
}

func hasColumns(cols []crictlColumn, names []string) bool {
	for _, n := range names {
		found := false
		for _, c := range cols {
			found = found || c.name == n
		}
		if !found {
			return false
		}
	}
	return true
}

// ParseCrictlPods reads `crictl pods` output (header POD ID, CREATED, STATE,
// NAME, NAMESPACE, ATTEMPT and, from newer crictl, RUNTIME). now is the
// sosreport's date, from which the relative CREATED is taken back (zero: no
// Created). Rows it cannot read are skipped and counted in the error.
func ParseCrictlPods(data []byte, path string, now time.Time) ([]model.RuntimeSandbox, error) {
	var out []model.RuntimeSandbox
	bad := 0
	err := crictlRows(data, []string{"POD ID", "NAME", "NAMESPACE"}, func(line int, c map[string]string) {
		if c["POD ID"] == "" || c["NAME"] == "" || strings.ContainsAny(c["NAME"], " \t") {
			bad++
			return
		}
		s := model.RuntimeSandbox{ID: c["POD ID"], Name: c["NAME"], Namespace: c["NAMESPACE"], State: c["STATE"], Source: model.Source{Path: path, Line: line}}
		s.Attempt, _ = strconv.Atoi(c["ATTEMPT"])
		if d, ok := parseHumanAgo(c["CREATED"]); ok && !now.IsZero() {
			s.Created = now.Add(-d)
		}
		out = append(out, s)
	})
	if err == nil && bad > 0 {
		err = fmt.Errorf("%d rows of the crictl pods table could not be read", bad)
	}
	return out, err
}

// ParseCrictlPs reads `crictl ps -a` output (header CONTAINER ID or
// CONTAINER, IMAGE, CREATED, STATE, NAME, ATTEMPT, POD ID and, from newer
// crictl, POD). now works as for ParseCrictlPods.
func ParseCrictlPs(data []byte, path string, now time.Time) ([]model.RuntimeContainer, error) {
	var out []model.RuntimeContainer
	bad := 0
	err := crictlRows(data, []string{"IMAGE", "STATE", "NAME", "POD ID"}, func(line int, c map[string]string) {
		id := c["CONTAINER ID"]
		if id == "" {
			id = c["CONTAINER"]
		}
		if id == "" || c["NAME"] == "" || c["POD ID"] == "" || strings.ContainsAny(c["NAME"], " \t") {
			bad++
			return
		}
		rc := model.RuntimeContainer{ID: id, PodID: c["POD ID"], PodName: c["POD"], Name: c["NAME"], Image: c["IMAGE"],
			State: c["STATE"], Source: model.Source{Path: path, Line: line}}
		rc.Attempt, _ = strconv.Atoi(c["ATTEMPT"])
		if d, ok := parseHumanAgo(c["CREATED"]); ok && !now.IsZero() {
			rc.Created = now.Add(-d)
			rc.CreatedFromTable = true
		}
		out = append(out, rc)
	})
	if err == nil && bad > 0 {
		err = fmt.Errorf("%d rows of the crictl ps table could not be read", bad)
	}
	return out, err
}

// crictlInspect is the part of `crictl inspect` / `crictl inspectp` JSON
// read: status with its metadata and labels; info.config.labels for runtimes
// that keep the labels there.
type crictlInspect struct {
	Status struct {
		ID       string `json:"id"`
		Metadata struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
			UID       string `json:"uid"`
			Attempt   int    `json:"attempt"`
		} `json:"metadata"`
		State      string            `json:"state"`
		CreatedAt  json.RawMessage   `json:"createdAt"`
		StartedAt  json.RawMessage   `json:"startedAt"`
		FinishedAt json.RawMessage   `json:"finishedAt"`
		ExitCode   *int32            `json:"exitCode"`
		Reason     string            `json:"reason"`
		Message    string            `json:"message"`
		Image      json.RawMessage   `json:"image"`
		ImageRef   string            `json:"imageRef"`
		Labels     map[string]string `json:"labels"`
	} `json:"status"`
	Info struct {
		Config struct {
			Labels map[string]string `json:"labels"`
		} `json:"config"`
	} `json:"info"`
}

// lineOr1 is n, or 1 when n is 0 (a line not found).
func lineOr1(n int) int {
	return max(n, 1)
}

// ParseCrictlInspect reads the JSON of `crictl inspect <container>`: status
// state (CONTAINER_RUNNING, CONTAINER_EXITED, CONTAINER_CREATED,
// CONTAINER_UNKNOWN), exit code, reason, message, times (RFC 3339 text, or
// nanoseconds since the epoch), metadata name and attempt, and the
// io.kubernetes.pod.* and io.kubernetes.container.name labels. The
// container is cited at the line of its status.metadata.name, the inspect
// file at the line of its status.id (line 1 when the file has none).
func ParseCrictlInspect(data []byte, path string) (model.RuntimeContainer, error) {
	var in crictlInspect
	if err := json.Unmarshal(data, &in); err != nil {
		return model.RuntimeContainer{}, fmt.Errorf("not crictl inspect JSON: %v", err)
	}
	st := in.Status
	labels := mergedLabels(st.Labels, in.Info.Config.Labels)
	rc := model.RuntimeContainer{ID: st.ID, Name: st.Metadata.Name, Attempt: st.Metadata.Attempt, Reason: st.Reason,
		Message: st.Message, ExitCode: st.ExitCode, Inspected: true,
		PodName: labels["io.kubernetes.pod.name"], PodNamespace: labels["io.kubernetes.pod.namespace"], PodUID: labels["io.kubernetes.pod.uid"],
		Source:  model.Source{Path: path, Line: lineOr1(jsonpos.KeyLine(data, "status", "metadata", "name"))},
		Inspect: model.Source{Path: path, Line: lineOr1(jsonpos.KeyLine(data, "status", "id"))}}
	if rc.Name == "" {
		rc.Name = labels["io.kubernetes.container.name"]
	}
	if rc.ID == "" || rc.Name == "" {
		return model.RuntimeContainer{}, fmt.Errorf("crictl inspect JSON without status.id or container name")
	}
	rc.State = runtimeState(st.State, "CONTAINER_")
	rc.Created, rc.Started, rc.Finished = criTime(st.CreatedAt), criTime(st.StartedAt), criTime(st.FinishedAt)
	if rc.State != "Exited" {
		rc.ExitCode = nil
	}
	var img struct {
		Image string `json:"image"`
	}
	if json.Unmarshal(st.Image, &img) == nil {
		rc.Image = img.Image
	}
	return rc, nil
}

// ParseCrictlInspectp reads the JSON of `crictl inspectp <pod>`: status id,
// state (SANDBOX_READY, SANDBOX_NOTREADY), createdAt, metadata name,
// namespace, uid and attempt.
func ParseCrictlInspectp(data []byte, path string) (model.RuntimeSandbox, error) {
	var in crictlInspect
	if err := json.Unmarshal(data, &in); err != nil {
		return model.RuntimeSandbox{}, fmt.Errorf("not crictl inspectp JSON: %v", err)
	}
	st := in.Status
	labels := mergedLabels(st.Labels, in.Info.Config.Labels)
	s := model.RuntimeSandbox{ID: st.ID, Name: st.Metadata.Name, Namespace: st.Metadata.Namespace, UID: st.Metadata.UID,
		Attempt: st.Metadata.Attempt, Created: criTime(st.CreatedAt), Source: model.Source{Path: path, Line: 1}}
	if s.Name == "" {
		s.Name, s.Namespace, s.UID = labels["io.kubernetes.pod.name"], labels["io.kubernetes.pod.namespace"], labels["io.kubernetes.pod.uid"]
	}
	if s.ID == "" || s.Name == "" {
		return model.RuntimeSandbox{}, fmt.Errorf("crictl inspectp JSON without status.id or pod name")
	}
	s.State = runtimeState(st.State, "SANDBOX_")
	return s, nil
}

func mergedLabels(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range []map[string]string{b, a} {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// runtimeState turns CONTAINER_EXITED into Exited and SANDBOX_NOTREADY into
// NotReady, as the crictl tables print them.
func runtimeState(s, prefix string) string {
	s = strings.TrimPrefix(s, prefix)
	switch s {
	case "RUNNING":
		return "Running"
	case "EXITED":
		return "Exited"
	case "CREATED":
		return "Created"
	case "READY":
		return "Ready"
	case "NOTREADY":
		return "NotReady"
	case "":
		return ""
	}
	return "Unknown"
}

// criTime reads a CRI time as crictl prints it: RFC 3339 text, or an integer
// of nanoseconds since the epoch (a number or a quoted number). Zero, and the
// epoch itself (a time never set), give the zero time.
func criTime(raw json.RawMessage) time.Time {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return time.Time{}
	}
	var s string
	if raw[0] == '"' {
		if json.Unmarshal(raw, &s) != nil {
			return time.Time{}
		}
	} else {
		s = string(raw)
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		if t.Unix() <= 0 {
			return time.Time{}
		}
		return t.UTC()
	}
	if ns, err := strconv.ParseInt(s, 10, 64); err == nil && ns > 0 {
		return time.Unix(0, ns).UTC()
	}
	return time.Time{}
}

// parseHumanAgo reads the relative times crictl prints in CREATED (the
// go-units HumanDuration form followed by "ago"): "Less than a second ago",
// "About a minute ago", "34 minutes ago", "About an hour ago", "2 hours ago",
// "3 days ago", "2 weeks ago", "5 months ago", "2 years ago". The result is the
// lower bound of what the text covers.
func parseHumanAgo(s string) (time.Duration, bool) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "ago"))
	if s == "" {
		return 0, false
	}
	lower := strings.ToLower(s)
	switch lower {
	case "less than a second", "now":
		return 0, true
	case "about a minute":
		return time.Minute, true
	case "about an hour":
		return time.Hour, true
	}
	num, unit, ok := strings.Cut(lower, " ")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 || n > 100_000 {
		return 0, false
	}
	units := map[string]time.Duration{"second": time.Second, "minute": time.Minute, "hour": time.Hour,
		"day": 24 * time.Hour, "week": 7 * 24 * time.Hour, "month": 30 * 24 * time.Hour, "year": 365 * 24 * time.Hour}
	d, ok := units[strings.TrimSuffix(unit, "s")]
	if !ok {
		return 0, false
	}
	return time.Duration(n) * d, true
}
