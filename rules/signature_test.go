package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// statedSignatures lists the ids of the signatures the findings state.
func statedSignatures(fs []Finding) map[string]bool {
	ids := map[string]bool{}
	for _, f := range fs {
		if f.Signature != nil {
			ids[f.Signature.ID] = true
		}
	}
	return ids
}

// TestSignatureCases runs testdata/signatures/<id>.yaml (the case form of
// testdata/cases): on each fires case some finding states signature <id>,
// with hintHas in its hint or remediation and none of hintLacks in its hint;
// on each quiet case (a near miss: the line is there and a fact rules the
// cause out, or the line is of another shape) no finding states it. Every
// built-in signature needs such a file.
func TestSignatureCases(t *testing.T) {
	table := Builtin()
	have := eachCaseFile(t, "signatures", func(t *testing.T, id string, rc ruleCases) {
		for _, c := range rc.Fires {
			findings := Evaluate(table, c.build(t))
			var stated *Finding
			for i := range findings {
				if findings[i].Signature != nil && findings[i].Signature.ID == id {
					stated = &findings[i]
					break
				}
			}
			if stated == nil {
				var got []string
				for _, f := range findings {
					got = append(got, f.Rule.ID+": "+f.Hint)
				}
				t.Errorf("fires case %q: no finding states signature %s (stated: %v); findings:\n%s", c.Name, id, keys(statedSignatures(findings)), strings.Join(got, "\n"))
				continue
			}
			words := strings.ToLower(stated.Title + "\n" + stated.Hint + "\n" + strings.Join(stated.Remediation, "\n"))
			for _, want := range c.HintHas {
				if !strings.Contains(words, strings.ToLower(want)) {
					t.Errorf("fires case %q: the finding lacks %q:\n%s\n%s", c.Name, want, stated.Hint, strings.Join(stated.Remediation, "\n"))
				}
			}
			for _, bad := range c.HintLacks {
				if strings.Contains(strings.ToLower(stated.Title+"\n"+stated.Hint), strings.ToLower(bad)) {
					t.Errorf("fires case %q: the finding states %q, which the case rules out:\n%s", c.Name, bad, stated.Hint)
				}
			}
		}
		for _, c := range rc.Quiet {
			findings := Evaluate(table, c.build(t))
			if statedSignatures(findings)[id] {
				t.Errorf("quiet case %q: signature %s stated", c.Name, id)
			}
			for _, f := range findings {
				for _, bad := range c.HintLacks {
					if strings.Contains(strings.ToLower(f.Title+"\n"+f.Hint), strings.ToLower(bad)) {
						t.Errorf("quiet case %q: finding %s states %q, which the case rules out:\n%s", c.Name, f.Rule.ID, bad, f.Hint)
					}
				}
			}
		}
	})
	var missing []string
	for _, s := range table.Signatures {
		if !have[s.ID] {
			missing = append(missing, s.ID)
		}
	}
	if len(missing) > 0 {
		t.Errorf("signatures without testdata/signatures/<id>.yaml (a fires and a quiet case each): %s", strings.Join(missing, ", "))
	}
}

// TestQuoteAround: the deciding line is shortened around the part that
// decides, cut only at spaces, each cut marked.
func TestQuoteAround(t *testing.T) {
	long := strings.Repeat("alpha ", 40) + `failed to find plugin "macvlan" in path [/opt/cni/bin]` + strings.Repeat(" omega", 40)
	start := strings.Index(long, "failed")
	end := strings.Index(long, "]") + 1
	for _, tc := range []struct {
		name, text string
		start, end int
		max        int
		want       string
	}{
		{"short line kept whole", "exit status 1", 5, 11, 200, "exit status 1"},
		{"long line cut both sides at spaces", long, start, end, 80, `…alpha alpha failed to find plugin "macvlan" in path [/opt/cni/bin] omega omega…`},
		{"deciding part longer than max", long, start, end, 20, `…failed to find plugin…`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := quoteAround(tc.text, tc.start, tc.end, tc.max)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("quoteAround (-want +got):\n%s", diff)
			}
			for _, w := range strings.Fields(strings.Trim(got, "…")) {
				if !strings.Contains(" "+tc.text+" ", " "+w+" ") {
					t.Errorf("word %q is cut (not a whole word of the line)", w)
				}
			}
		})
	}
}

// TestSignatureValidation: a signature's problems are reported at their
// line, in the words of a rule file.
func TestSignatureValidation(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "sigs.yaml")
	src := `schemaVersion: 1
signatures:
  - id: site-lowercase-capture
    version: 1
    sources: [https://example.org/thread/1]
    pattern: 'lease lost for (?P<lease>\S+)'
    cause: "lost {{.lease}}"
  - id: site-no-literal
    version: 1
    sources: [https://example.org/thread/2]
    pattern: '\d+ \w+'
    cause: "numbers"
  - id: site-unknown-decider
    version: 1
    sources: [https://example.org/thread/3]
    pattern: 'quota exceeded'
    decide: noSuchJoin
    cause: "quota"
  - id: site-unknown-value
    version: 1
    sources: [https://example.org/thread/4]
    pattern: 'disk (?P<Disk>\S+) full'
    cause: "{{.Disc}} is full"
    colour: red
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	errs := Validate(file)
	var got []string
	for _, e := range errs {
		got = append(got, strings.TrimPrefix(e.Error(), file))
	}
	want := []string{
		`:6: signature site-lowercase-capture: pattern: capture "lease" must start with an upper-case letter, as template values do ({{.Lease}})`,
		`:7: signature site-lowercase-capture: cause: {{.lease}} is neither a subject value nor a capture of the pattern (captures: )`,
		`:11: signature site-no-literal: pattern has no literal of at least 3 characters that every match contains, so it would run over every line; anchor it on the message's own words`,
		`:17: signature site-unknown-decider: decide: unknown join "noSuchJoin" (known: ` + strings.Join(JoinNames(), ", ") + `)`,
		`:23: signature site-unknown-value: cause: {{.Disc}} is neither a subject value nor a capture of the pattern (captures: Disk)`,
		`:24: signature site-unknown-value: unknown key "colour" in a signature; its keys are agentLogs, cause, decide, disabled, fix, general, id, in, pattern, running, severity, sources, title, version`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("validation (-want +got):\n%s", diff)
	}
}

// TestSignatureReadsAgentLogs: a signature with agentLogs reads the log of a
// healthy node agent on the failing pod's node (not on another node), and the
// table asks the parser to keep those namespaces' logs.
func TestSignatureReadsAgentLogs(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "agents.yaml")
	src := `schemaVersion: 1
signatures:
  - id: site-bridge-missing
    version: 1
    title: The node's bridge for the secondary network is missing
    sources: [https://example.org/thread/9]
    pattern: 'bridge (?P<Bridge>[\w-]+) not found on host'
    agentLogs: [net-agents]
    cause: "The network agent on {{.Node}} reports that bridge {{.Bridge}} does not exist."
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	table := Builtin()
	if errs := table.Override(file); len(errs) > 0 {
		t.Fatal(errs)
	}
	if got := table.Needs().KeepLogsOf; !cmp.Equal(got, []string{"net-agents"}) {
		t.Errorf("Needs().KeepLogsOf = %v, want [net-agents]", got)
	}
	gc := func(agentNode string) gatherCase {
		return gatherCase{
			Name: "sandbox failure, agent on " + agentNode,
			Pods: []string{`
metadata: {name: web-1}
spec: {nodeName: worker-1, containers: [{name: web, image: "registry.example.com/web:1"}]}
status:
  phase: Pending
  containerStatuses:
  - {name: web, image: "registry.example.com/web:1", imageID: "", ready: false, restartCount: 0, state: {waiting: {reason: ContainerCreating}}}
`, `
metadata: {name: bridge-agent-x1, namespace: net-agents}
spec: {nodeName: ` + agentNode + `, containers: [{name: agent, image: "registry.example.com/agent:1"}]}
status:
  phase: Running
  containerStatuses:
  - {name: agent, image: "registry.example.com/agent:1", ready: true, restartCount: 0, state: {running: {startedAt: "2026-11-20T08:00:00Z"}}}
`},
			Events: []string{`
type: Warning
reason: FailedCreatePodSandBox
involvedObject: {kind: Pod, name: web-1}
message: 'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to create pod network sandbox: error adding container to network "storage-net": plugin failed'
`},
			CurrentLogs: map[string][]string{"bridge-agent-x1/agent": {"I1120 09:01:00 agent.go:12] sync", "E1120 09:05:00 agent.go:40] bridge br-storage not found on host"}},
		}
	}
	stated := func(fs []Finding) *Finding {
		for i := range fs {
			if fs[i].Signature != nil && fs[i].Signature.ID == "site-bridge-missing" {
				return &fs[i]
			}
		}
		return nil
	}
	f := stated(Evaluate(table, gc("worker-1").build(t)))
	if f == nil {
		t.Fatal("the agent's log line on the pod's node was not read")
	}
	if !strings.Contains(f.Hint, "br-storage") || !strings.Contains(f.Hint, "namespaces/net-agents/pods/bridge-agent-x1/agent/agent/logs/current.log:2") {
		t.Errorf("hint does not state the bridge and cite the agent's line:\n%s", f.Hint)
	}
	if f := stated(Evaluate(table, gc("worker-2").build(t))); f != nil {
		t.Errorf("an agent on another node was read:\n%s", f.Hint)
	}
}

// FuzzQuoteAround: the deciding line is gather text; shortening it never
// panics, stays within twice max bytes, and never cuts a word shorter than
// that: every word of the quote is a whole word of the line, or a piece of
// a word longer than twice max.
func FuzzQuoteAround(f *testing.F) {
	f.Add(`level=fatal msg="dial payments" error="x509: certificate is valid for a, b, not c"`, 20, 60, 40)
	f.Add("short", 0, 5, 200)
	f.Add(strings.Repeat("word ", 100)+"needle"+strings.Repeat(" tail", 100), 500, 506, 80)
	f.Fuzz(func(t *testing.T, text string, start, end, max int) {
		if max < 1 || max > 1<<12 || len(text) > 1<<14 {
			return
		}
		if strings.Contains(text, "…") {
			return // the line's own ellipsis would read as a cut
		}
		q := quoteAround(text, start, end, max)
		words := map[string]bool{}
		for _, w := range strings.Split(strings.ToValidUTF8(text, ""), " ") {
			words[strings.TrimSpace(w)] = true
		}
		for _, w := range strings.Split(strings.TrimSpace(strings.Trim(q, "…")), " ") {
			if w = strings.TrimSpace(w); w == "" || words[w] {
				continue
			}
			cutLong := false // a piece of a word longer than the bound may be cut
			for _, lw := range strings.Split(strings.ToValidUTF8(text, ""), " ") {
				if len(lw) > 2*max && strings.Contains(lw, w) {
					cutLong = true
				}
			}
			if !cutLong {
				t.Fatalf("quote %q holds %q, not a whole word of %q", q, w, text)
			}
		}
		if len(q) > 2*max+2*len("…") {
			t.Fatalf("quote of %d bytes for max %d", len(q), max)
		}
	})
}
