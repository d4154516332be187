package sosreport

// sos_reports/manifest.json, as sos 4 writes it: the run's start and end
// ("start_time", "end_time": Python's str(datetime) of the sos process, in the
// host's zone, without the zone), its version, and per plugin
// (components.report.plugins.<name>) whether it hit its timeout
// ("timeout_hit") and the commands it ran ("commands": "exec", "filepath",
// "return_code", "truncated", and "start_time" in epoch seconds).

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
)

// Bounds of what one manifest contributes.
const (
	maxManifestFailed = 200
	maxExecBytes      = 300
)

// sosManifest is what parseSosManifest reads: the run's start and end (host
// wall clock, labelled UTC), the earliest epoch start of a command (UTC),
// and the run.
type sosManifest struct {
	start, end, epoch time.Time
	run               model.SosRun
}

// manifestJSON holds the keys read; the values whose type changed between
// sos versions are decoded leniently (flexible).
type manifestJSON struct {
	Version    string   `json:"version"`
	Start      flexible `json:"start_time"`
	End        flexible `json:"end_time"`
	Components struct {
		Report struct {
			Plugins map[string]struct {
				TimeoutHit flexible `json:"timeout_hit"`
				Commands   []struct {
					Exec       string   `json:"exec"`
					Filepath   flexible `json:"filepath"`
					Truncated  flexible `json:"truncated"`
					ReturnCode flexible `json:"return_code"`
					Start      flexible `json:"start_time"`
				} `json:"commands"`
			} `json:"plugins"`
		} `json:"report"`
	} `json:"components"`
}

// flexible is a JSON value read as whatever it holds: a string, a number, a
// boolean or null.
type flexible json.RawMessage

func (f *flexible) UnmarshalJSON(b []byte) error {
	*f = append((*f)[:0], b...)
	return nil
}

func (f flexible) str() string {
	var s string
	if json.Unmarshal(f, &s) == nil {
		return s
	}
	return ""
}

func (f flexible) num() (float64, bool) {
	var n float64
	if json.Unmarshal(f, &n) == nil {
		return n, true
	}
	if n, err := strconv.ParseFloat(f.str(), 64); err == nil {
		return n, true
	}
	return 0, false
}

func (f flexible) boolean() bool {
	var b bool
	if json.Unmarshal(f, &b) == nil {
		return b
	}
	return strings.EqualFold(f.str(), "true")
}

// parseSosManifest reads the manifest at p; an error says it is not JSON.
func parseSosManifest(data []byte, p string) (sosManifest, error) {
	var m manifestJSON
	if err := json.Unmarshal(data, &m); err != nil {
		return sosManifest{}, fmt.Errorf("not a sos manifest: %v", err)
	}
	wall := func(f flexible) time.Time {
		t, err := time.Parse("2006-01-02 15:04:05.999999", strings.TrimSpace(f.str()))
		if err != nil {
			return time.Time{}
		}
		return t
	}
	out := sosManifest{start: wall(m.Start), end: wall(m.End)}
	run := &out.run
	run.Source = model.Source{Path: p, Line: 1}
	run.Version = bound(m.Version, 40)
	plugins := m.Components.Report.Plugins
	for _, name := range model.SortedKeys(plugins) {
		pl := plugins[name]
		name = bound(name, 80)
		run.Plugins = append(run.Plugins, name)
		if pl.TimeoutHit.boolean() {
			run.TimedOutPlugins = append(run.TimedOutPlugins, name)
		}
		for _, c := range pl.Commands {
			run.Commands++
			if sec, ok := c.Start.num(); ok && sec > 0 && sec < math.MaxInt32*4 {
				t := time.Unix(0, int64(sec*1e9)).UTC()
				if out.epoch.IsZero() || t.Before(out.epoch) {
					out.epoch = t
				}
			}
			rc, _ := c.ReturnCode.num()
			cmd := model.SosCommand{Plugin: name, Exec: bound(c.Exec, maxExecBytes), File: bound(c.Filepath.str(), maxExecBytes),
				ReturnCode: int(max(min(rc, 1<<16), -1<<16)), Truncated: c.Truncated.boolean()}
			if (cmd.ReturnCode != 0 || cmd.Truncated) && len(run.Failed) < maxManifestFailed {
				run.Failed = append(run.Failed, cmd)
			}
		}
	}
	sort.Strings(run.TimedOutPlugins)
	return out, nil
}

// bound cuts s to n bytes, on a rune boundary.
func bound(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// readCommands are the commands whose output the analysis reads: their
// failures are gaps of its evidence, while another command's non-zero code
// (a systemctl status of a stopped unit) is not.
var readCommands = map[string]bool{"kubectl": true, "oc": true, "crictl": true, "journalctl": true, "date": true, "timedatectl": true, "hostname": true}

// HealthLines says, one sentence each, which plugins of a run hit their
// timeout and which commands timed out (124), were not runnable (126) or not
// found (127), had their output truncated, or, for the commands whose output
// the analysis reads (kubectl, oc, crictl, journalctl, date), returned
// another non-zero code. The sosreport's folder root ("" for the input
// itself) starts each sentence ("root: ").
func HealthLines(root string, run *model.SosRun) []string {
	if run == nil {
		return nil
	}
	if root != "" {
		root += ": "
	}
	var out []string
	for _, p := range run.TimedOutPlugins {
		out = append(out, fmt.Sprintf("%ssos plugin %s hit its timeout: files it had yet to collect are missing", root, p))
	}
	for _, c := range run.Failed {
		prog, _, _ := strings.Cut(c.Exec, " ")
		switch rc := c.ReturnCode; {
		case rc == 124:
			out = append(out, fmt.Sprintf("%ssos command %s returned 124 (timed out)", root, c.Exec))
		case rc == 126:
			out = append(out, fmt.Sprintf("%ssos command %s returned 126 (not runnable)", root, c.Exec))
		case rc == 127:
			out = append(out, fmt.Sprintf("%ssos command %s returned 127 (command not found)", root, c.Exec))
		case rc != 0 && readCommands[prog]:
			out = append(out, fmt.Sprintf("%ssos command %s returned %d", root, c.Exec, rc))
		}
		if c.Truncated {
			where := ""
			if c.File != "" {
				where = " (" + c.File + ")"
			}
			out = append(out, fmt.Sprintf("%soutput of sos command %s truncated at sos's size limit%s: only its tail was kept", root, c.Exec, where))
		}
	}
	return out
}
