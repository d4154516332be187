package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// causesDir holds the project's own root-cause gathers: eight kinds of
// reasoning where the pod's symptom is easy but the deciding fact sits in a
// second object, each written four ways (fixtures/causes/README.md).
const causesDir = "../../fixtures/causes"

// causeCase is one entry of fixtures/causes/expect.json, in the schema of
// ../shared/cases/expect.json.
type causeCase struct {
	Case        string     `json:"case"`
	Pods        []causePod `json:"pods"`
	Focal       string     `json:"focal"`
	Cause       [][]string `json:"cause"`
	Wrong       []string   `json:"wrong"`
	MinSeverity string     `json:"min_severity"`
}

// causePod is a pod's expected kubectl columns. Status is a string or a list
// of accepted strings.
type causePod struct {
	Namespace string          `json:"namespace"`
	Name      string          `json:"name"`
	Status    json.RawMessage `json:"status"`
	Ready     string          `json:"ready"`
	Restarts  any             `json:"restarts,omitempty"`
}

func (p causePod) statuses() ([]string, error) {
	var one string
	if err := json.Unmarshal(p.Status, &one); err == nil {
		return []string{one}, nil
	}
	var many []string
	if err := json.Unmarshal(p.Status, &many); err != nil {
		return nil, fmt.Errorf("pod %s: status is neither a string nor a list of strings: %s", p.Name, p.Status)
	}
	return many, nil
}

var causeSeverities = []string{"info", "low", "medium", "high", "critical"}

func severityIndex(s string) int {
	for i, v := range causeSeverities {
		if v == s {
			return i
		}
	}
	return -1
}

// jsonStrings returns every string value in v, recursively, as the Python
// scorer's strings() does (object keys in sorted order, for a stable result).
func jsonStrings(v any) []string {
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(x[k])
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// scoreCause applies the scoring of ../shared/tools/check-cases to a decoded
// report.json and returns what the report still lacks (nil when it passes).
func scoreCause(c causeCase, rep map[string]any) []string {
	var notes []string
	pods := map[[2]string]map[string]any{}
	if list, ok := rep["pods"].([]any); ok {
		for _, p := range list {
			m, ok := p.(map[string]any)
			if !ok {
				continue
			}
			ns, _ := m["namespace"].(string)
			name, _ := m["name"].(string)
			pods[[2]string{ns, name}] = m
		}
	}
	for _, p := range c.Pods {
		want, err := p.statuses()
		if err != nil {
			notes = append(notes, err.Error())
			continue
		}
		got, ok := pods[[2]string{p.Namespace, p.Name}]
		if !ok {
			notes = append(notes, fmt.Sprintf("pod %s missing", p.Name))
			continue
		}
		status, _ := got["status"].(string)
		ready, _ := got["ready"].(string)
		okStatus := false
		for _, w := range want {
			if status == w {
				okStatus = true
			}
		}
		if !okStatus || ready != p.Ready {
			notes = append(notes, fmt.Sprintf("pod %s: %s %s, want %s %s", p.Name, ready, status, p.Ready, want[0]))
		}
	}

	focal := strings.ToLower(c.Focal)
	var found []map[string]any
	if list, ok := rep["findings"].([]any); ok {
		for _, f := range list {
			m, ok := f.(map[string]any)
			if !ok {
				continue
			}
			if strings.Contains(strings.ToLower(strings.Join(jsonStrings(m), "\n")), focal) {
				found = append(found, m)
			}
		}
	}
	// The cause must be stated in the analyzer's own words (title, hint,
	// remediation), not only quoted in evidence or objects.
	var parts []string
	for _, f := range found {
		for _, s := range jsonStrings([]any{f["title"], f["hint"], f["remediation"]}) {
			if s != "" {
				parts = append(parts, s)
			}
		}
	}
	text := strings.ToLower(strings.Join(parts, "\n")) + "\n"
	if len(found) == 0 {
		notes = append(notes, "no finding names "+c.Focal)
	}
	for _, group := range c.Cause {
		hit := false
		for _, a := range group {
			if strings.Contains(text, strings.ToLower(a)) {
				hit = true
				break
			}
		}
		if !hit {
			shown := group
			if len(shown) > 6 {
				shown = shown[:6]
			}
			notes = append(notes, "missing one of "+strings.Join(shown, " | "))
		}
	}
	for _, w := range c.Wrong {
		if strings.Contains(text, strings.ToLower(w)) {
			notes = append(notes, fmt.Sprintf("states a wrong conclusion: %q", w))
		}
	}
	if len(found) > 0 && c.MinSeverity != "" {
		top := -1
		for _, f := range found {
			s, ok := f["severity"].(string)
			if !ok {
				s = "info"
			}
			if i := severityIndex(s); i > top {
				top = i
			}
		}
		if min := severityIndex(c.MinSeverity); top < min {
			got := "unknown"
			if top >= 0 {
				got = causeSeverities[top]
			}
			notes = append(notes, fmt.Sprintf("severity %s below %s", got, c.MinSeverity))
		}
	}
	return notes
}

// TestCauseFixtures runs the analyzer on every gather of fixtures/causes and
// checks that the focal finding states the root cause of expect.json. Set
// MGTRIAGE_CAUSES=skip to leave it out.
func TestCauseFixtures(t *testing.T) {
	if os.Getenv("MGTRIAGE_CAUSES") == "skip" {
		t.Skip("MGTRIAGE_CAUSES=skip: root-cause fixtures (fixtures/causes) not checked")
	}
	raw, err := os.ReadFile(filepath.Join(causesDir, "expect.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []causeCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatalf("fixtures/causes/expect.json: %v", err)
	}
	if len(cases) == 0 {
		t.Fatal("fixtures/causes/expect.json holds no case")
	}
	for _, c := range cases {
		t.Run(c.Case, func(t *testing.T) {
			input := filepath.Join(causesDir, c.Case, "input")
			if _, err := os.Stat(input); err != nil {
				t.Fatalf("gather of case %s: %v", c.Case, err)
			}
			out := t.TempDir()
			var stdout, stderr bytes.Buffer
			code := Main([]string{input, "-o", out, "--format", "json"}, IOStreams{Out: &stdout, ErrOut: &stderr, NoColor: true})
			data, err := os.ReadFile(filepath.Join(out, "report.json"))
			if err != nil {
				t.Fatalf("no report.json (exit %d): %v\n%s", code, err, causeTail(stderr.String(), 400))
			}
			var rep map[string]any
			if err := json.Unmarshal(data, &rep); err != nil {
				t.Fatalf("report.json: %v", err)
			}
			if notes := scoreCause(c, rep); len(notes) > 0 {
				t.Errorf("%s does not state its root cause:\n  - %s", c.Case, strings.Join(notes, "\n  - "))
			}
		})
	}
}

func causeTail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
