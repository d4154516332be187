package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/report"
	"github.com/mgtriage/mgtriage/report/serve"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// inspector is the MCP inspector's CLI (@modelcontextprotocol/inspector-cli)
// as tools/mcp-inspector/install.sh installs it: the node binary and the
// inspector's cli.js.
type inspector struct{ node, cli string }

// findInspector returns the inspector that MGTRIAGE_NODE and
// MGTRIAGE_MCP_INSPECTOR name. Without them the test skips, saying how to
// install it; with MGTRIAGE_REQUIRE_INSPECTOR=1 (set by .ci/run) it fails.
func findInspector(t *testing.T) inspector {
	t.Helper()
	in := inspector{node: os.Getenv("MGTRIAGE_NODE"), cli: os.Getenv("MGTRIAGE_MCP_INSPECTOR")}
	why := ""
	if in.node == "" || in.cli == "" {
		why = "MGTRIAGE_NODE and MGTRIAGE_MCP_INSPECTOR are not set"
	} else {
		for _, p := range []string{in.node, in.cli} {
			if _, err := os.Stat(p); err != nil {
				why = err.Error()
				break
			}
		}
	}
	if why != "" {
		msg := why + `: install the MCP inspector with eval "$(tools/mcp-inspector/install.sh)"`
		if os.Getenv("MGTRIAGE_REQUIRE_INSPECTOR") == "1" {
			t.Fatal(msg + " (MGTRIAGE_REQUIRE_INSPECTOR=1: required)")
		}
		t.Skip(msg)
	}
	return in
}

// call runs the inspector's CLI mode once against the server command
// target (it starts target as a subprocess speaking MCP on stdio, as an
// assistant does), with the method flags, and decodes the JSON it prints
// into out. It fails t when the inspector fails (a protocol error, or
// structured content that does not match the tool's output schema: the
// inspector's client, the TypeScript SDK's, checks it) or when anything
// on stderr (the server's included) looks like a Go crash.
func (in inspector) call(t *testing.T, target []string, out any, flags ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append(append([]string{in.cli, "--cli"}, target...), flags...)
	cmd := exec.CommandContext(ctx, in.node, args...)
	// On a timeout only the launcher is killed: bound the wait for the
	// inspector proper and the server that hold its output open.
	cmd.WaitDelay = 10 * time.Second
	// cli.js starts the CLI proper as the "node" on PATH: this one.
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(in.node)+string(os.PathListSeparator)+os.Getenv("PATH"))
	// inspector-cli 1.0.3 checks for "../package.json" from the working
	// folder but imports it from its own: run it where both are the same
	// file (modelcontextprotocol/inspector#834).
	cmd.Dir = filepath.Dir(in.cli)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("inspector %s: %v\n%s", strings.Join(flags, " "), err, clip(stderr.String()))
	}
	for _, bad := range stackMarkers {
		if strings.Contains(stderr.String(), bad) {
			t.Errorf("inspector %s: stderr holds %q:\n%s", strings.Join(flags, " "), bad, clip(stderr.String()))
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
		t.Fatalf("inspector %s: %v\n%s", strings.Join(flags, " "), err, clip(stdout.String()))
	}
}

// callTool calls a tool through the inspector and returns its result and
// its text; structured, when not nil, receives the structured content.
func (in inspector) callTool(t *testing.T, target []string, tool string, structured any, args ...string) (*mcp.CallToolResult, string) {
	t.Helper()
	flags := []string{"--method", "tools/call", "--tool-name", tool}
	for _, a := range args {
		flags = append(flags, "--tool-arg", a)
	}
	var res mcp.CallToolResult
	in.call(t, target, &res, flags...)
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if res.IsError {
		return &res, text.String()
	}
	if text.Len() == 0 {
		t.Errorf("%s %v: no text content for clients that do not read structured output", tool, args)
	}
	if structured != nil {
		raw, err := json.Marshal(res.StructuredContent)
		if err == nil {
			err = json.Unmarshal(raw, structured)
		}
		if err != nil {
			t.Fatalf("%s %v: structured content: %v\n%s", tool, args, err, clip(string(raw)))
		}
	}
	return &res, text.String()
}

// TestServeWithMCPInspector has a real MCP client that is not ours, the
// MCP inspector's CLI mode, start the built binary as an assistant does
// (analyze serve on the sample, a subprocess speaking stdio) and read it:
// the tools and their hints, the overview against analyze's report.json,
// filtered findings, a refused path, the other tools on a failing pod, the
// resources. Each check is one inspector run (the inspector lists the
// tools before each tools/call and checks the structured content against
// the tool's output schema); they run in parallel.
func TestServeWithMCPInspector(t *testing.T) {
	if raceEnabled {
		t.Skip("client and server are subprocesses the race detector cannot see into: this test runs in the pass without it")
	}
	in := findInspector(t)
	want := analyzedReport(t, sampleGather)
	target := []string{buildAnalyze(t), "serve", mustAbs(t, sampleGather)}
	parallel := func(name string, f func(t *testing.T)) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f(t)
		})
	}

	parallel("tools/list", func(t *testing.T) {
		var tools mcp.ListToolsResult
		in.call(t, target, &tools, "--method", "tools/list")
		var names []string
		for _, tool := range tools.Tools {
			names = append(names, tool.Name)
			a := tool.Annotations
			if a == nil || !a.ReadOnlyHint || a.OpenWorldHint == nil || *a.OpenWorldHint || tool.OutputSchema == nil || tool.Description == "" {
				t.Errorf("tool %s: want read-only, closed-world, with an output schema and a description; got %+v", tool.Name, a)
			}
		}
		slices.Sort(names)
		if diff := cmp.Diff(servedTools, names); diff != "" {
			t.Errorf("tools the inspector lists (-want +got):\n%s", diff)
		}
	})

	parallel("overview", func(t *testing.T) {
		var ov serve.OverviewOut
		if res, text := in.callTool(t, target, "overview", &ov); res.IsError {
			t.Fatalf("overview: %s", text)
		}
		if diff := cmp.Diff(want.Summary, ov.Counts); diff != "" {
			t.Errorf("overview counts differ from report.json summary (-json +inspector):\n%s", diff)
		}
	})

	parallel("findings severity=high", func(t *testing.T) {
		var high serve.FindingsOut
		if res, text := in.callTool(t, target, "findings", &high, "severity=high"); res.IsError {
			t.Fatalf("findings severity=high: %s", text)
		}
		wantHigh := want.Summary.BySeverity["critical"] + want.Summary.BySeverity["high"]
		if high.Total != len(want.Findings) || high.Matched != wantHigh || len(high.Items) == 0 || len(high.Items) > wantHigh {
			t.Errorf("findings severity=high: total %d, matched %d, %d items; want %d, %d, a first page of them", high.Total, high.Matched, len(high.Items), len(want.Findings), wantHigh)
		}
		for _, it := range high.Items {
			if it.Severity != "critical" && it.Severity != "high" {
				t.Errorf("findings severity=high holds %s (%s)", it.RuleID, it.Severity)
			}
		}
	})

	parallel("source outside the gather", func(t *testing.T) {
		if res, text := in.callTool(t, target, "source", nil, "path=../../etc/passwd"); !res.IsError || !strings.Contains(text, "'..' is refused") || strings.Contains(text, "root:") {
			t.Errorf("source path=../../etc/passwd: isError %v, %q; want a tool error refusing '..'", res.IsError, text)
		}
	})

	// The other tools on the first pod not healthy that has a container
	// log: answers whose structured content the inspector's client accepts.
	i := slices.IndexFunc(want.Pods, func(p report.Pod) bool { return !p.Healthy && len(p.Logs) > 0 && p.Logs[0].Lines > 0 })
	if i < 0 {
		t.Fatal("the sample has no failing pod with a container log")
	}
	p, log := want.Pods[i], want.Pods[i].Logs[0]
	for _, tc := range []struct {
		tool string
		args []string
	}{
		{"pod", []string{"namespace=" + p.Namespace, "name=" + p.Name}},
		{"get", []string{"kind=pods", "namespace=" + p.Namespace, "name=" + p.Name, "output=yaml"}},
		{"events", []string{"kind=Pod", "namespace=" + p.Namespace, "name=" + p.Name}},
		{"logs", []string{"namespace=" + p.Namespace, "pod=" + p.Name, "container=" + log.Container, "previous=" + strconv.FormatBool(log.Previous)}},
	} {
		parallel(tc.tool, func(t *testing.T) {
			if res, text := in.callTool(t, target, tc.tool, nil, tc.args...); res.IsError {
				t.Errorf("%s %v: %s", tc.tool, tc.args, text)
			}
		})
	}

	// The same client over streamable HTTP: the loopback guard (Host and
	// Origin) lets it in.
	parallel("streamable HTTP", func(t *testing.T) {
		http := []string{serveOnLoopback(t, target[0], target[2]), "--transport", "http"}
		var tools mcp.ListToolsResult
		in.call(t, http, &tools, "--method", "tools/list")
		if len(tools.Tools) != len(servedTools) {
			t.Errorf("over HTTP the inspector lists %d tools, want %d", len(tools.Tools), len(servedTools))
		}
		var ov serve.OverviewOut
		if res, text := in.callTool(t, http, "overview", &ov); res.IsError {
			t.Fatalf("overview over HTTP: %s", text)
		}
		if diff := cmp.Diff(want.Summary, ov.Counts); diff != "" {
			t.Errorf("overview counts over HTTP differ from report.json summary (-json +inspector):\n%s", diff)
		}
	})

	parallel("resources/list", func(t *testing.T) {
		var resources mcp.ListResourcesResult
		in.call(t, target, &resources, "--method", "resources/list")
		got := map[string]string{}
		for _, r := range resources.Resources {
			got[r.URI] = r.MIMEType
		}
		want := map[string]string{"mgtriage://report/report.json": "application/json", "mgtriage://report/report.md": "text/markdown"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("resources the inspector lists (-want +got):\n%s", diff)
		}
	})
}

// serveOnLoopback starts bin serve --listen 127.0.0.1:0 on the gather at
// path and returns the URL it says it listens on; the server is stopped
// when t ends.
func serveOnLoopback(t *testing.T, bin, path string) string {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--listen", "127.0.0.1:0", path)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	const marker = "listening on "
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		var lines []string
		for sc.Scan() { // to the end, so that the server never blocks on stderr
			line := sc.Text()
			if _, url, ok := strings.Cut(line, marker); ok && !sent {
				found <- strings.TrimSpace(url)
				sent = true
			}
			if len(lines) < 20 {
				lines = append(lines, line)
			}
		}
		if !sent {
			found <- "exited: " + strings.Join(lines, "\n")
		}
	}()
	select {
	case url := <-found:
		if !strings.HasPrefix(url, "http://127.0.0.1:") {
			t.Fatalf("serve --listen 127.0.0.1:0: no %q line: %s", marker, clip(url))
		}
		return url
	case <-time.After(2 * time.Minute):
		t.Fatal("serve --listen 127.0.0.1:0: not listening after 2 minutes")
	}
	return ""
}
