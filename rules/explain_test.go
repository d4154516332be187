package rules

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/model"
	"sigs.k8s.io/yaml"
)

var updateExplain = flag.Bool("update-explain", false, "rewrite testdata/explain/*.golden")

// explainCase loads testdata/explain: the built-in table with rules.yaml
// over it, and the gather of gather.yaml.
func explainCase(t *testing.T) (*Table, *gatherCase) {
	t.Helper()
	table := Builtin()
	if errs := table.Override(filepath.Join("testdata", "explain", "rules.yaml")); len(errs) > 0 {
		t.Fatal(errs)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "explain", "gather.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var gc gatherCase
	if err := yaml.UnmarshalStrict(data, &gc); err != nil {
		t.Fatal(err)
	}
	return table, &gc
}

// TestExplainSteps checks the step that decides each subject, the value and
// pattern it compared, and, for a cause pattern that cannot match, the near
// miss: the line, the part of the pattern that matched and where it stopped.
func TestExplainSteps(t *testing.T) {
	table, gc := explainCase(t)
	g := gc.build(t)
	type row struct {
		Subject, Container, Step string
		Fired                    bool
		Value, Pattern           string
	}
	const pod = "shop/storefront-5c7d9f8b6-h4k2n"
	for _, tc := range []struct {
		rule    string
		want    []row
		closest *NearMiss
	}{
		{rule: "site-mirror-quoted", want: []row{
			{pod, "storefront", StepCause, false, `Failed to pull image "mirror.example.com/shop/storefront:2.3": rpc error: code = Unknown desc = pinging container registry mirror.example.com: Get "https://mirror.example.com/v2/": dial tcp 10.40.12.7:443: i/o timeout`, `mirror\.example\.com[^"]*(?:i/o timeout|connection refused)`},
			{"shop/web-0", "", StepMatcher, false, "STATUS=Running phase=Running; container web: running since 2026-11-20T08:00:00Z; ready=true restartCount=0 image=quay.io/acme/web:1", `containerWaiting {"reasons":["ErrImagePull","ImagePullBackOff"]}`},
		}, closest: &NearMiss{
			Source:      "namespaces/shop/core/events.yaml:100",
			Message:     `Failed to pull image "mirror.example.com/shop/storefront:2.3": rpc error: code = Unknown desc = pinging container registry mirror.example.com: Get "https://mirror.example.com/v2/": dial tcp 10.40.12.7:443: i/o timeout`,
			Lines:       2,
			Matched:     `mirror\.example\.com[^"]*`,
			MatchedText: "mirror.example.com/shop/storefront:2.3",
			Next:        "(?:i/o timeout|connection refused)",
			StoppedAt:   `": rpc error: code = Unknown desc = pinging container regist`,
			RestAt:      "i/o timeout",
		}},
		{rule: "site-mirror-down", want: []row{
			{pod, "storefront", StepFired, true, "", ""},
			{"shop/web-0", "", StepMatcher, false, "STATUS=Running phase=Running; container web: running since 2026-11-20T08:00:00Z; ready=true restartCount=0 image=quay.io/acme/web:1", `containerWaiting {"reasons":["ErrImagePull","ImagePullBackOff"]}`},
		}},
		{rule: "site-pull-config", want: []row{
			{pod, "storefront", StepJoin, false, "not decided", "require: configReference"},
			{"shop/web-0", "", StepMatcher, false, "STATUS=Running phase=Running; container web: running since 2026-11-20T08:00:00Z; ready=true restartCount=0 image=quay.io/acme/web:1", `containerWaiting {"reasons":["ErrImagePull","ImagePullBackOff"]}`},
		}},
		{rule: "image-pull-network", want: []row{
			{pod, "storefront", StepGroup, false, "site-pull-any", "group: image-pull"},
			{"shop/web-0", "", StepMatcher, false, "STATUS=Running phase=Running; container web: running since 2026-11-20T08:00:00Z; ready=true restartCount=0 image=quay.io/acme/web:1", `containerWaiting {"nodeLog":true,"reasons":["ErrImagePull","ImagePullBackOff","RegistryUnavailable","SignatureValidationFailed"]}`},
		}},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			e, err := Explain(table, g, tc.rule, "")
			if err != nil {
				t.Fatal(err)
			}
			var got []row
			var closest *NearMiss
			for _, s := range e.Subjects {
				v := s.Value
				if s.Step == StepFired {
					v = ""
				}
				got = append(got, row{s.Subject, s.Container, s.Step, s.Fired, v, s.Pattern})
				if s.Closest != nil {
					closest = s.Closest
				}
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("entries (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.closest, closest); d != "" {
				t.Errorf("closest line (-want +got):\n%s", d)
			}
			if e.Total != 2 || !e.Listed {
				t.Errorf("total %d, all listed %v; want 2, true", e.Total, e.Listed)
			}
		})
	}
}

// TestExplainText compares the text rendering with golden files: the rule
// the README once showed (its pattern cannot pass the quotes) and the one it
// shows now, which fires with its hint.
func TestExplainText(t *testing.T) {
	table, gc := explainCase(t)
	g := gc.build(t)
	for _, rule := range []string{"site-mirror-quoted", "site-mirror-down"} {
		t.Run(rule, func(t *testing.T) {
			e, err := Explain(table, g, rule, "shop/storefront-5c7d9f8b6-h4k2n")
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := e.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "explain", rule+".golden")
			if *updateExplain {
				if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(string(want), b.String()); d != "" {
				t.Errorf("%s (-want +got; -update-explain rewrites):\n%s", golden, d)
			}
		})
	}
}

// TestExplainErrors: an unknown rule names the close ids; a subject the
// rule never considered names some it did.
func TestExplainErrors(t *testing.T) {
	table, gc := explainCase(t)
	g := gc.build(t)
	if _, err := Explain(table, g, "image-pul-x509", ""); err == nil || !strings.Contains(err.Error(), "close ids: image-pull-x509") {
		t.Errorf("unknown rule: %v", err)
	}
	if _, err := Explain(table, g, "site-mirror-down", "shop/nope"); err == nil || !strings.Contains(err.Error(), `no pod "shop/nope" among its 2 subjects`) {
		t.Errorf("unknown subject: %v", err)
	}
}

// TestExplainAgreesWithEvaluate runs every rule case: the subjects and
// containers Explain says a rule fired on are those of the rule's findings
// in Evaluate (each finding's own and its correlated members'), and every
// subject it lists not fired has a step that decided.
func TestExplainAgreesWithEvaluate(t *testing.T) {
	table := Builtin()
	eachCaseFile(t, "cases", func(t *testing.T, id string, rc ruleCases) {
		for _, c := range append(rc.Fires, rc.Quiet...) {
			g := c.build(t)
			var want []string
			for _, f := range Evaluate(table, g) {
				if f.Rule.ID == id {
					want = append(want, f.Subject()+" "+f.Container)
				}
				for _, m := range f.Also {
					if m.RuleID == id {
						want = append(want, m.Pod.Key()+" "+m.Container)
					}
				}
			}
			e, err := Explain(table, g, id, "")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range e.Subjects {
				if s.Fired {
					got = append(got, s.Subject+" "+s.Container)
				} else if s.Step == "" || s.Why == "" {
					t.Errorf("case %q: %s has no deciding step: %+v", c.Name, s.Subject, s)
				}
			}
			sort.Strings(want)
			sort.Strings(got)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("case %q: fired on (-Evaluate +Explain):\n%s", c.Name, d)
			}
		}
	})
}

// TestClosestLine: the near miss of a pattern in a group, and of a pattern
// none of whose alternatives' start is in any line.
func TestClosestLine(t *testing.T) {
	ev := []Evidence{{Text: `Get "https://reg.example.com/v2/": x509: certificate signed by unknown authority`, Source: model.Source{Path: "p", Line: 3}}}
	nm := closestLine(`(reg\.example\.com[^"]*x509)`, ev)
	if nm == nil || nm.Matched != `reg\.example\.com[^"]*` || nm.Next != "x509" || nm.RestAt == "" || nm.Source != "p:3" {
		t.Errorf("grouped pattern: %+v", nm)
	}
	if nm := closestLine(`zzz here|qqq there`, ev); nm != nil {
		t.Errorf("no start in any line: %+v", nm)
	}
	if nm := closestLine(`(`, ev); nm != nil {
		t.Errorf("a pattern that does not parse: %+v", nm)
	}
}

// TestExplainTextHostile: what a gather holds reaches the terminal without
// control characters, escape sequences or line breaks of its own.
func TestExplainTextHostile(t *testing.T) {
	e := &Explanation{Rule: "r", Title: "t", Matcher: "m", SubjectKind: "pod", Total: 1, Listed: true,
		Subjects: []SubjectExplanation{{Subject: "ns/p\x1b[2J", Step: StepCause, Why: "w\nforged: line", Closest: &NearMiss{Source: "a:1", Message: "m\x1b]0;title\x07\u202e", Matched: "x", MatchedText: "x", Next: "y", StoppedAt: "\r\n"}}}}
	var b bytes.Buffer
	if err := e.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.ContainsAny(out, "\x1b\x07\r\u202e") || strings.Contains(out, "\nforged") {
		t.Errorf("control characters reach the terminal:\n%q", out)
	}
}

// TestExplainNodeSubject: a node rule's subject is named by the node's name,
// with or without "node/"; the rule fires on a node that is not Ready and
// its matcher says what it read of one that is.
func TestExplainNodeSubject(t *testing.T) {
	table := Builtin()
	rc := readCases(t, filepath.Join("testdata", "cases", "node-not-ready.yaml"))
	g := rc.Fires[0].build(t)
	for _, subject := range []string{"worker-2.ocp4.example.com", "node/worker-2.ocp4.example.com"} {
		e, err := Explain(table, g, "node-not-ready", subject)
		if err != nil {
			t.Fatal(err)
		}
		if len(e.Subjects) != 1 || !e.Subjects[0].Fired || e.Subjects[0].Subject != "node/worker-2.ocp4.example.com" || e.Subjects[0].Hint == "" {
			t.Errorf("%s: %+v", subject, e.Subjects)
		}
	}
	quiet := rc.Quiet[0].build(t)
	e, err := Explain(table, quiet, "node-not-ready", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Subjects) == 0 {
		t.Errorf("quiet case %q: no subject listed", rc.Quiet[0].Name)
	}
	for _, s := range e.Subjects {
		if s.Fired || s.Step != StepMatcher || !strings.HasPrefix(s.Value, "Ready=True") {
			t.Errorf("quiet case %q: %+v", rc.Quiet[0].Name, s)
		}
	}
}

// TestExplainBounded: past MaxExplained entries the list is cut, the total
// and the counts by step still cover every subject, and the fired entries
// come first.
func TestExplainBounded(t *testing.T) {
	var gc gatherCase
	for i := 0; i < MaxExplained+10; i++ {
		gc.Pods = append(gc.Pods, fmt.Sprintf(`
metadata: {name: web-%02d}
spec: {nodeName: worker-0, containers: [{name: web, image: "quay.io/acme/web:1"}]}
status:
  phase: Running
  containerStatuses:
  - {name: web, image: "quay.io/acme/web:1", ready: true, restartCount: 0, state: {running: {startedAt: "2026-11-20T08:00:00Z"}}}`, i))
	}
	gc.Pods = append(gc.Pods, `
metadata: {name: zz-pull}
spec: {nodeName: worker-0, containers: [{name: app, image: "quay.io/acme/app:1"}]}
status:
  phase: Pending
  containerStatuses:
  - {name: app, image: "quay.io/acme/app:1", ready: false, restartCount: 0, state: {waiting: {reason: ImagePullBackOff, message: 'Back-off pulling image "quay.io/acme/app:1"'}}}`)
	g := gc.build(t)
	e, err := Explain(Builtin(), g, "image-pull-failed", "")
	if err != nil {
		t.Fatal(err)
	}
	if e.Listed || len(e.Subjects) != MaxExplained || e.Total != MaxExplained+11 {
		t.Errorf("listed %d of %d (all listed %v); want %d of %d", len(e.Subjects), e.Total, e.Listed, MaxExplained, MaxExplained+11)
	}
	sum := 0
	for _, s := range e.Steps {
		sum += s.Count
	}
	if sum != e.Total {
		t.Errorf("steps count %d entries, total %d: %+v", sum, e.Total, e.Steps)
	}
	if first := e.Subjects[0]; first.Subject != "shop/zz-pull" || first.Step == StepMatcher {
		t.Errorf("the pod the matcher selected is not listed first: %+v", first)
	}
}
