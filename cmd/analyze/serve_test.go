package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/report"
	"github.com/mgtriage/mgtriage/report/serve"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// servedTools are the tools analyze serve lists, sorted.
var servedTools = []string{"events", "explain", "findings", "get", "logs", "overview", "pod", "source"}

// analyzedReport runs analyze on path and returns its report.json.
func analyzedReport(t *testing.T, path string) *report.Report {
	t.Helper()
	out := t.TempDir()
	if code, _, stderr := run(t, "-o", out, "--format", "json", path); code != 0 && code != exitFindings {
		t.Fatalf("analyze exit %d: %s", code, stderr)
	}
	return readReport(t, out)
}

// call calls a tool and decodes its structured output into out; it
// returns the tool error text when the call ended in a tool error.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: protocol error %v", name, args, err)
	}
	if res.IsError {
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String()
	}
	if len(res.Content) == 0 {
		t.Fatalf("%s: no text content for clients that do not read structured output", name)
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, raw)
		}
	}
	return ""
}

// exerciseServer drives every tool of a served sample through cs and
// compares the answers with analyze's report.json of the same gather.
func exerciseServer(t *testing.T, cs *mcp.ClientSession, want *report.Report) {
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		a := tool.Annotations
		if a == nil || !a.ReadOnlyHint || a.OpenWorldHint == nil || *a.OpenWorldHint || tool.OutputSchema == nil || tool.InputSchema == nil || tool.Description == "" {
			t.Errorf("tool %s: want read-only, closed-world, with input and output schemas and a description; got %+v", tool.Name, a)
		}
	}
	slices.Sort(names)
	if diff := cmp.Diff(servedTools, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}

	var ov serve.OverviewOut
	if e := call(t, cs, "overview", nil, &ov); e != "" {
		t.Fatal(e)
	}
	if diff := cmp.Diff(want.Summary, ov.Counts); diff != "" {
		t.Errorf("overview counts differ from report.json summary (-json +served):\n%s", diff)
	}
	if len(ov.Top) == 0 || ov.Top[0].RuleID != want.Findings[0].RuleID {
		t.Errorf("overview top findings %+v, want the report's first %s first", ov.Top, want.Findings[0].RuleID)
	}

	// findings, paged with a small limit: every finding, as report.json has it.
	var got []report.Finding
	cursor, pages := "", 0
	for {
		var page serve.FindingsOut
		args := map[string]any{"limit": 4}
		if cursor != "" {
			args["cursor"] = cursor
		}
		if e := call(t, cs, "findings", args, &page); e != "" {
			t.Fatal(e)
		}
		pages++
		for _, it := range page.Items {
			got = append(got, it.Finding)
		}
		if page.Next == "" {
			break
		}
		cursor = page.Next
		if pages > 100 {
			t.Fatal("findings never ends")
		}
	}
	if pages < 2 {
		t.Errorf("findings with limit 4 over %d findings gave %d page(s)", len(want.Findings), pages)
	}
	if diff := cmp.Diff(want.Findings, got); diff != "" {
		t.Errorf("findings differ from report.json (-json +served):\n%s", diff)
	}
	var high serve.FindingsOut
	call(t, cs, "findings", map[string]any{"severity": "high"}, &high)
	if high.Matched != want.Summary.BySeverity["critical"]+want.Summary.BySeverity["high"] {
		t.Errorf("findings severity=high matched %d, want %d", high.Matched, want.Summary.BySeverity["critical"]+want.Summary.BySeverity["high"])
	}

	// pod: kubectl columns as report.json has them, for every pod not healthy.
	var failing *report.Pod
	for i := range want.Pods {
		p := want.Pods[i]
		if p.Healthy {
			continue
		}
		if failing == nil {
			failing = &want.Pods[i]
		}
		var po serve.PodOut
		if e := call(t, cs, "pod", map[string]any{"namespace": p.Namespace, "name": p.Name}, &po); e != "" {
			t.Fatal(e)
		}
		gotCols := []string{po.Pod.Ready, po.Pod.Status, po.Pod.Restarts, po.Pod.Age, po.Pod.Stage}
		wantCols := []string{p.Ready, p.Status, p.Restarts, p.Age, p.Stage}
		if diff := cmp.Diff(wantCols, gotCols); diff != "" {
			t.Errorf("pod %s/%s columns (-json +served):\n%s", p.Namespace, p.Name, diff)
		}
	}
	if failing == nil {
		t.Fatal("the sample has no failing pod")
	}
	if e := call(t, cs, "pod", map[string]any{"namespace": failing.Namespace, "name": failing.Name + "-nope"}, nil); !strings.Contains(e, "no pod") {
		t.Errorf("pod that does not exist: %q", e)
	}

	// get: a table row and the object's own text.
	var g serve.GetOut
	if e := call(t, cs, "get", map[string]any{"kind": "Pod", "namespace": failing.Namespace, "name": failing.Name, "output": "yaml"}, &g); e != "" {
		t.Fatal(e)
	}
	if g.Coverage != "found" || len(g.Items) != 1 || g.Items[0].Row["STATUS"] != failing.Status || !strings.Contains(g.Items[0].Text, "name: "+failing.Name) || g.Items[0].Line == 0 {
		t.Errorf("get pod yaml: %+v", g)
	}
	var nope serve.GetOut
	call(t, cs, "get", map[string]any{"kind": "daemonsets.apps", "namespace": failing.Namespace}, &nope)
	if nope.Coverage != "not gathered" || !strings.Contains(nope.Note, "unknown") {
		t.Errorf("get of a kind never gathered: %+v", nope)
	}

	// events of the failing pod: what report.json lists for it.
	var ev serve.EventsOut
	call(t, cs, "events", map[string]any{"kind": "Pod", "namespace": failing.Namespace, "name": failing.Name}, &ev)
	if ev.Matched != len(failing.Events)+failing.EventsOmitted {
		t.Errorf("events of %s: %d, report.json has %d", failing.Name, ev.Matched, len(failing.Events)+failing.EventsOmitted)
	}

	// events of the whole gather: more than one answer's bytes, paged by
	// the byte budget to the last one, each page within it.
	var events []serve.EventOut
	cursor, pages = "", 0
	for {
		var page serve.EventsOut
		args := map[string]any{}
		if cursor != "" {
			args["cursor"] = cursor
		}
		if e := call(t, cs, "events", args, &page); e != "" {
			t.Fatal(e)
		}
		pages++
		if b, _ := json.Marshal(page.Items); len(b) > serve.DefaultAnswerBytes+len(page.Items) {
			t.Errorf("events page %d: %d bytes of items, over the %d budget", pages, len(b), serve.DefaultAnswerBytes)
		}
		events = append(events, page.Items...)
		if cursor = page.Next; cursor == "" || pages > 100 {
			break
		}
	}
	if pages < 2 || len(events) != want.Summary.Events {
		t.Errorf("events paged: %d pages, %d events; want several pages and %d events", pages, len(events), want.Summary.Events)
	}

	// source: every cited line of the first finding quotes what it cites.
	for _, e := range want.Findings[0].Evidence {
		if e.Line == 0 {
			continue
		}
		var src serve.SourceOut
		if msg := call(t, cs, "source", map[string]any{"path": e.Path, "line": e.Line, "context": 1}, &src); msg != "" {
			t.Errorf("source %s:%d: %s", e.Path, e.Line, msg)
			continue
		}
		if !slices.ContainsFunc(src.Items, func(l serve.LogLine) bool { return l.Line == e.Line }) {
			t.Errorf("source %s:%d does not hold its line: %+v", e.Path, e.Line, src)
		}
	}

	// Invalid arguments: clear tool errors, never a crash.
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"source", map[string]any{"path": "../../etc/passwd"}, "'..' is refused"},
		{"source", map[string]any{"path": "/etc/passwd"}, "absolute paths are refused"},
		{"source", map[string]any{"path": "namespaces/x\u0000y"}, "control character"},
		{"source", map[string]any{"path": strings.Repeat("a/", 2000)}, "at most"},
		{"logs", map[string]any{"namespace": failing.Namespace, "pod": failing.Name, "pattern": "(["}, "RE2"},
		{"findings", map[string]any{"severity": "urgent"}, "choose from"},
		{"findings", map[string]any{"cursor": "../../x"}, "not one this server gave"},
		{"findings", map[string]any{"limit": "many"}, "limit"},
		{"get", map[string]any{"kind": "pods", "selector": "a in (("}, "selector"},
		{"get", map[string]any{"kind": "pods", "output": "xml"}, "choose table or yaml"},
		{"events", map[string]any{"since": "yesterday"}, "RFC 3339"},
		{"pod", map[string]any{"namespace": strings.Repeat("n", 100000), "name": "x"}, "at most"},
		{"explain", map[string]any{"rule": "no-such-rule"}, "no-such-rule"},
	} {
		if e := call(t, cs, tc.tool, tc.args, nil); !strings.Contains(e, tc.want) {
			t.Errorf("%s %v: error %q, want it to say %q", tc.tool, clipForLog(tc.args), e, tc.want)
		}
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "delete_everything"}); err == nil {
		t.Error("an unknown tool was accepted")
	}

	// Resources: the reports as analyze writes them.
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "mgtriage://report/report.json"})
	if err != nil {
		t.Fatal(err)
	}
	served, err := report.ReadJSON(strings.NewReader(rr.Contents[0].Text))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.Findings, served.Findings); diff != "" {
		t.Errorf("report.json resource findings (-analyze +served):\n%s", diff)
	}
	md, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "mgtriage://report/report.md"})
	if err != nil || !strings.Contains(md.Contents[0].Text, want.Findings[0].Title) {
		t.Errorf("report.md resource: %v", err)
	}
}

func clipForLog(args map[string]any) string {
	s := fmt.Sprint(args)
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// TestServeOverStdio starts the built binary as an assistant does (a
// subprocess speaking MCP on stdin/stdout) and drives it with the SDK's
// client.
func TestServeOverStdio(t *testing.T) {
	want := analyzedReport(t, sampleGather)
	bin := buildAnalyze(t)
	cwd := t.TempDir()
	cmd := exec.Command(bin, "serve", mustAbs(t, sampleGather))
	cmd.Dir = cwd
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	exerciseServer(t, cs, want)
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	// Nothing written at all.
	if entries, _ := os.ReadDir(cwd); len(entries) > 0 {
		t.Errorf("serve wrote into its working folder: %v", entries)
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// servedSample loads the sample as analyze serve does.
func servedSample(t *testing.T, path string, extra ...func(*serveOptions)) *serve.Server {
	t.Helper()
	o := &serveOptions{IO: IOStreams{Out: &strings.Builder{}, ErrOut: &strings.Builder{}}, Path: path, KeepObjects: DefaultKeepObjects, AnswerBytes: serve.DefaultAnswerBytes, MarkdownMaxChars: report.DefaultMarkdownMaxChars}
	for _, f := range extra {
		f(o)
	}
	s, err := loadServed(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestServeOverLoopbackHTTP drives the same tools over streamable HTTP on
// 127.0.0.1, and checks that a request from a non-loopback Host or Origin
// is refused.
func TestServeOverLoopbackHTTP(t *testing.T) {
	want := analyzedReport(t, sampleGather)
	s := servedSample(t, sampleGather)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serveHTTP(ctx, ln, s.MCP(), &strings.Builder{}) }()
	defer func() {
		cancel()
		<-done
	}()
	url := "http://" + ln.Addr().String() + "/mcp"
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	exerciseServer(t, cs, want)
	cs.Close()

	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for _, tc := range []struct{ host, origin string }{
		{"evil.example.com", ""},
		{"", "http://evil.example.com"},
		{"rebound.attacker.test:80", "http://rebound.attacker.test"},
	} {
		req, _ := http.NewRequest("POST", url, strings.NewReader(init))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.host != "" {
			req.Host = tc.host
		}
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("Host %q Origin %q: status %d, want 403", tc.host, tc.origin, resp.StatusCode)
		}
	}
}

// TestServeListenLoopbackOnly refuses --listen on any address that is not
// loopback, before the input is read.
func TestServeListenLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:8765", "[::]:8765", "192.168.1.10:8765", "example.com:8765", ":8765", "127.0.0.1"} {
		code, _, stderr := run(t, "serve", "--listen", addr, "/nonexistent")
		if code != exitUsage || !strings.Contains(stderr, "--listen") {
			t.Errorf("--listen %s: exit %d, %q; want %d naming --listen", addr, code, stderr, exitUsage)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "127.8.9.10:1", "[::1]:1", "localhost:1"} {
		if err := loopbackListen(addr); err != nil {
			t.Errorf("--listen %s refused: %v", addr, err)
		}
	}
}
