package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/report"
	"github.com/mgtriage/mgtriage/report/serve"
	"github.com/mgtriage/mgtriage/rules"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// callWithin calls a tool and fails the test when it has not answered
// within d (a call that blocks, e.g. opening a FIFO, must not hang the
// server).
func callWithin(t *testing.T, cs *mcp.ClientSession, d time.Duration, name string, args map[string]any) (string, bool) {
	t.Helper()
	type answer struct {
		text  string
		isErr bool
	}
	done := make(chan answer, 1)
	go func() {
		text, isErr := rawCall(t, cs, name, args)
		done <- answer{text, isErr}
	}()
	select {
	case a := <-done:
		return a.text, a.isErr
	case <-time.After(d):
		t.Fatalf("%s %v: no answer within %s", name, args, d)
	}
	return "", false
}

// TestServeBreakerFolderFiles: source and logs on a folder input refuse
// what is not a regular file of the folder (a FIFO, a directory, a link
// out of it) quickly, and never block on opening it.
func TestServeBreakerFolderFiles(t *testing.T) {
	dir, outside := hostileServeGather(t)
	root := filepath.Join(dir, "quay-io-image")
	s := servedSample(t, dir)
	cs := inMemory(t, s)
	// Made after the load, as a folder may change under a running server.
	fifo := filepath.Join(root, "namespaces/shop/core/pipe.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	// The container log the logs tool rereads, replaced by a FIFO.
	logPath := filepath.Join(root, "namespaces/shop/pods/catalog-1/catalog/catalog/logs/previous.log")
	if err := os.Remove(logPath); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(logPath, 0o600); err != nil {
		t.Fatal(err)
	}
	// A link to a directory out of the folder, and a link to a link out.
	if err := os.Symlink(filepath.Dir(outside), filepath.Join(root, "namespaces/shop/core/up")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("leak.yaml", filepath.Join(root, "namespaces/shop/core/leak2.yaml")); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Unblock an open that did block, so that the test ends.
		for _, p := range []string{fifo, logPath} {
			if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
		}
	})
	var all strings.Builder
	for _, q := range []map[string]any{
		{"path": "namespaces/shop/core/pipe.yaml", "line": 1},
		{"path": "namespaces/shop/core", "line": 1},
		{"path": "namespaces/shop/core/up/" + filepath.Base(outside)},
		{"path": "namespaces/shop/core/leak2.yaml"},
		{"path": "namespaces/shop/core/pods.yaml/"},
		{"path": "namespaces/shop/core/pods.yaml "},
		{"path": "namespaces/shop/core/pods\uff0eyaml"},
		{"path": "namespaces/shop/%2e%2e/%2e%2e/" + filepath.Base(outside)},
		{"path": "namespaces/shop/\u2024\u2024/" + filepath.Base(outside)},
		{"path": "namespaces/shop/core/pods.yaml", "line": 1 << 62, "context": 100},
		{"path": "namespaces/shop/core/pods.yaml", "line": 3, "context": -1},
		{"path": "namespaces/shop/core/pods.yaml", "line": 3, "context": 1 << 40},
	} {
		text, _ := callWithin(t, cs, 5*time.Second, "source", q)
		all.WriteString(text + "\n")
	}
	text, _ := callWithin(t, cs, 5*time.Second, "logs", map[string]any{"namespace": "shop", "pod": "catalog-1", "container": "catalog", "previous": true})
	all.WriteString(text)
	if !strings.Contains(text, "kept lines") {
		t.Errorf("logs over a FIFO: want the kept lines searched, got %s", clipText(text))
	}
	if strings.Contains(all.String(), "TOP-SECRET-HOST-FILE") {
		t.Error("a file outside the input reached an answer")
	}
}

// mixedSecretFiles are object files, under paths that do not name Secrets
// or ConfigMaps, that hold Secret and ConfigMap values next to other
// objects: a List of mixed kinds (oc get all,secrets -o yaml), the same as
// pretty JSON and as one JSON line, and a flow-style item.
var mixedSecretFiles = map[string]string{
	"namespaces/shop/core/mixed.yaml": `apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: mixed-1
    namespace: shop
  spec:
    containers:
    - name: c
      env:
      - name: X
        valueFrom:
          secretKeyRef:
            name: db
            key: password
- apiVersion: v1
  data:
    password: U0VDUkVULVlBTUwtTElTVA==
    plain: SECRET-YAML-LIST-PLAIN
  kind: Secret
  metadata:
    name: db
    namespace: shop
  type: Opaque
- apiVersion: v1
  data:
    app.conf: |
      token=CONFIGMAP-YAML-BLOCK
  kind: ConfigMap
  metadata:
    name: conf
    namespace: shop
- {apiVersion: v1, kind: Secret, metadata: {name: flow, namespace: shop}, stringData: {k: SECRET-FLOW-STYLE}}
kind: List
`,
	"namespaces/shop/apps/mixed.json": `{
  "apiVersion": "v1",
  "items": [
    {
      "apiVersion": "v1",
      "data": {
        "password": "SECRET-JSON-PRETTY"
      },
      "kind": "Secret",
      "metadata": {
        "name": "db2",
        "namespace": "shop"
      }
    }
  ],
  "kind": "List"
}
`,
	"cluster-scoped-resources/core/oneline.json": `{"apiVersion":"v1","items":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"shop"},"data":{"k":"CONFIGMAP-JSON-ONE-LINE"}}],"kind":"List"}` + "\n",
	"namespaces/shop/core/secret-free-name.yaml": `apiVersion: v1
kind: Secret
metadata:
  name: lone
  namespace: shop
data:
  k: SECRET-LONE-OBJECT
`,
}

// TestServeBreakerSecretsInOtherFiles: Secret and ConfigMap values never
// leave the server, wherever the gather holds them: get output=yaml and
// source quote no line of a Secret or ConfigMap object, from an archive's
// kept files or a folder's files.
func TestServeBreakerSecretsInOtherFiles(t *testing.T) {
	dir := tinyGather(t)
	root := filepath.Join(dir, "quay-io-image")
	writeFiles(t, root, mixedSecretFiles)
	members := map[string]string{}
	if err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		members[filepath.ToSlash(rel)] = string(b)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	archive := writeTarGz(t, members)
	for _, in := range []string{dir, archive} {
		cs := inMemory(t, servedSample(t, in))
		var all strings.Builder
		ask := func(tool string, args map[string]any) {
			text, _ := rawCall(t, cs, tool, args)
			all.WriteString(text + "\n")
		}
		for _, kind := range []string{"secrets", "configmaps", "pods", "List"} {
			ask("get", map[string]any{"kind": kind, "namespace": "shop", "output": "yaml"})
			ask("get", map[string]any{"kind": kind, "output": "yaml"})
		}
		for p, body := range mixedSecretFiles {
			for line := 1; line <= strings.Count(body, "\n"); line++ {
				ask("source", map[string]any{"path": p, "line": line, "context": 0})
			}
			ask("source", map[string]any{"path": p, "context": 100})
		}
		out := all.String()
		for _, leak := range []string{"U0VDUkVULVlBTUwtTElTVA==", "SECRET-YAML-LIST-PLAIN", "CONFIGMAP-YAML-BLOCK", "SECRET-FLOW-STYLE",
			"SECRET-JSON-PRETTY", "CONFIGMAP-JSON-ONE-LINE", "SECRET-LONE-OBJECT"} {
			if strings.Contains(out, leak) {
				t.Errorf("%s: the value %s reached an answer", filepath.Base(in), leak)
			}
		}
		// The pod of the mixed list is still quoted.
		if !strings.Contains(out, "secretKeyRef") {
			t.Errorf("%s: the pod item of the mixed list was not quoted", filepath.Base(in))
		}
	}
}

// TestServeBreakerGetEveryNamespace: get without a namespace lists the
// objects of every namespace (the store's "" is the cluster scope only),
// and finds one by name alone.
func TestServeBreakerGetEveryNamespace(t *testing.T) {
	cs := inMemory(t, servedSample(t, tinyGather(t)))
	for _, args := range []map[string]any{
		{"kind": "pods"},
		{"kind": "pods", "name": "catalog-1"},
		{"kind": "po", "namespace": "shop", "name": "catalog-1"},
	} {
		var out struct {
			Coverage string `json:"coverage"`
			Items    []struct{ Namespace, Name string }
		}
		if e := call(t, cs, "get", args, &out); e != "" {
			t.Fatal(e)
		}
		if out.Coverage != "found" || len(out.Items) == 0 || out.Items[0].Name != "catalog-1" || out.Items[0].Namespace != "shop" {
			t.Errorf("get %v: %+v, want shop/catalog-1 found", args, out)
		}
	}
	var out struct{ Coverage string }
	call(t, cs, "get", map[string]any{"kind": "pods", "name": "no-such-pod"}, &out)
	if out.Coverage != "absent" {
		t.Errorf("get pods no-such-pod: coverage %q, want absent (pods were gathered)", out.Coverage)
	}
}

// bigRowsGather is tinyGather with a ConfigMap of 20000 keys and pods
// with 30 labels of 5000 bytes each.
func bigRowsGather(t *testing.T) string {
	dir := tinyGather(t)
	var b strings.Builder
	b.WriteString("apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: big\n    namespace: shop\n  data:\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "    key-%06d-%s: v\n", i, strings.Repeat("k", 40))
	}
	b.WriteString("kind: ConfigMapList\n")
	var p strings.Builder
	p.WriteString("apiVersion: v1\nitems:\n")
	for i := range 3 {
		fmt.Fprintf(&p, "- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: lab-%d\n    namespace: other\n    labels:\n", i)
		for j := range 30 {
			fmt.Fprintf(&p, "      l%d: %s\n", j, strings.Repeat("v", 5000))
		}
		p.WriteString("  spec:\n    nodeName: worker-0\n    containers:\n    - name: c\n      image: x\n  status:\n    phase: Running\n")
	}
	p.WriteString("kind: PodList\n")
	var w strings.Builder // a pod of 300 crash-looping containers
	w.WriteString("apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: many\n    namespace: wide\n  spec:\n    nodeName: worker-0\n    containers:\n")
	for i := range 300 {
		fmt.Fprintf(&w, "    - name: c%d\n      image: x\n", i)
	}
	w.WriteString("  status:\n    phase: Running\n    containerStatuses:\n")
	for i := range 300 {
		fmt.Fprintf(&w, "    - name: c%d\n      image: x\n      ready: false\n      restartCount: 5\n      lastState:\n        terminated:\n          exitCode: 1\n          reason: Error\n          message: %q\n      state:\n        waiting:\n          reason: CrashLoopBackOff\n", i, strings.Repeat("m", 3000))
	}
	w.WriteString("kind: PodList\n")
	writeFiles(t, filepath.Join(dir, "quay-io-image"), map[string]string{"namespaces/shop/core/configmaps.yaml": b.String(), "namespaces/other/core/pods.yaml": p.String(),
		"namespaces/wide/core/pods.yaml": w.String()})
	return dir
}

// TestServeBreakerAnswerBudget: no answer goes much over the answer
// budget, however large the gather's objects (a ConfigMap of 20000 keys,
// labels of kilobytes) or a rule's explanation; what is left out pages on
// or is counted.
func TestServeBreakerAnswerBudget(t *testing.T) {
	const budget = serve.DefaultAnswerBytes
	cs := inMemory(t, servedSample(t, bigRowsGather(t)))
	for _, args := range []map[string]any{
		{"kind": "configmaps"},
		{"kind": "pods"},
		{"kind": "pods", "namespace": "other", "output": "yaml"},
		{"kind": "pods", "output": "yaml", "limit": 500},
	} {
		text, isErr := rawCall(t, cs, "get", args)
		if isErr || len(text) > budget+budget/4 {
			t.Errorf("get %v: %d bytes (error %v), budget %d", args, len(text), isErr, budget)
		}
		if args["kind"] == "configmaps" && !strings.Contains(text, "more keys") {
			t.Errorf("get configmaps: the keys left out are not counted")
		}
	}

	// A pod of 300 containers: its findings and containers are cut, and
	// counted.
	var po serve.PodOut
	text, _ := rawCall(t, cs, "pod", map[string]any{"namespace": "wide", "name": "many"})
	if err := json.Unmarshal([]byte(text), &po); err != nil || len(text) > budget+budget/4 || po.Omitted == nil || po.Omitted.Containers == 0 || po.Omitted.Findings == 0 {
		t.Errorf("pod of 300 containers: %d bytes, omitted %+v (%v)", len(text), po.Omitted, err)
	}

	// explain pages its subjects; the pages add up to the whole explanation.
	small := inMemory(t, servedSample(t, sampleGather, func(o *serveOptions) { o.AnswerBytes = 2048 }))
	var subjects []rules.SubjectExplanation
	cursor, pages := "", 0
	for {
		args := map[string]any{"rule": "sandbox-ovn-annotation"}
		if cursor != "" {
			args["cursor"] = cursor
		}
		text, isErr := rawCall(t, small, "explain", args)
		if isErr || len(text) > 2048+2048/2+4096 {
			t.Fatalf("explain page %d: %d bytes, error %v", pages, len(text), isErr)
		}
		var ex serve.ExplainOut
		if err := json.Unmarshal([]byte(text), &ex); err != nil {
			t.Fatal(err)
		}
		subjects = append(subjects, ex.Subjects...)
		pages++
		if cursor = ex.Next; cursor == "" || pages > 60 {
			break
		}
	}
	code, stdout, stderr := run(t, "rules", "explain", "--json", "sandbox-ovn-annotation", sampleGather)
	if code != 0 {
		t.Fatalf("rules explain: exit %d: %s", code, stderr)
	}
	var cli rules.Explanation
	if err := json.Unmarshal([]byte(stdout), &cli); err != nil {
		t.Fatal(err)
	}
	if pages < 2 {
		t.Errorf("explain answered in %d page at 2048 bytes", pages)
	}
	if diff := cmp.Diff(cli.Subjects, subjects); diff != "" {
		t.Errorf("explain's pages against rules explain --json (-cli +pages):\n%s", diff)
	}
}

// TestServeBreakerHTTPHostOrigin: the HTTP handler serves a request only
// when its Host, and its Origin when it has one, name the loopback
// interface: lookalike names, rebinding names, the null Origin and a
// missing Host are refused (403); the body is bounded (1 MiB).
func TestServeBreakerHTTPHostOrigin(t *testing.T) {
	h := mcpHandler(servedSample(t, tinyGather(t)).MCP())
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	do := func(host, origin, body string) int {
		req := httptest.NewRequest("POST", "/mcp", strings.NewReader(body))
		req.Host = host
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Code
	}
	for _, host := range []string{"127.0.0.1.nip.io", "localhost.evil.com", "evil.com:8765", "127.0.0.1.evil.com:80", "0.0.0.0:8765", "[::]:8765",
		"", "localhost.", "127.1", "0x7f000001", "2130706433", "%6cocalhost", "localhost:80@evil.com", "[::1].evil.com", "127.0.0.1 "} {
		if code := do(host, "", init); code != http.StatusForbidden {
			t.Errorf("Host %q: status %d, want 403", host, code)
		}
	}
	for _, origin := range []string{"null", "http://localhost.evil.com", "http://127.0.0.1.nip.io:8765", "file://", "http://evil.com@127.0.0.1.evil.com", "chrome-extension://abc"} {
		if code := do("127.0.0.1:8765", origin, init); code != http.StatusForbidden {
			t.Errorf("Origin %q: status %d, want 403", origin, code)
		}
	}
	for _, tc := range []struct{ host, origin string }{
		{"127.0.0.1:8765", ""}, {"127.0.0.1", ""}, {"LOCALHOST:8765", "http://LocalHost:3000"}, {"[::1]:8765", "http://[::1]:3000"},
		{"[::1]", ""}, {"[::ffff:127.0.0.1]:8765", ""}, {"127.8.9.10:1", "http://127.0.0.1"},
	} {
		if code := do(tc.host, tc.origin, init); code != http.StatusOK {
			t.Errorf("Host %q Origin %q: status %d, want 200", tc.host, tc.origin, code)
		}
	}
	huge := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"x":"` + strings.Repeat("a", 2<<20) + `"}}`
	if code := do("127.0.0.1:8765", "", huge); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a 2 MiB body: status %d, want 413", code)
	}
}

// TestServeBreakerArguments: wrongly typed, huge, deeply nested and
// extreme arguments end in an error (a tool error or the protocol's invalid
// params) within a second, never a panic or a hang, and the server answers
// the next question.
func TestServeBreakerArguments(t *testing.T) {
	cs := inMemory(t, servedSample(t, sampleGather))
	nested := any("x")
	for range 900 { // under the SDK decoder's depth bound (1000): deeper ends the session
		nested = []any{nested}
	}
	var po serve.PodOut
	call(t, cs, "pod", map[string]any{"namespace": "shop", "name": "uploader-6d7e8f9a0-cr8t1"}, &po)
	var fo serve.FindingsOut
	call(t, cs, "findings", map[string]any{"limit": 2}, &fo)
	for _, q := range []struct {
		tool string
		args map[string]any
	}{
		{"findings", map[string]any{"limit": "ten"}},
		{"findings", map[string]any{"limit": -1 << 62, "cursor": "p-1"}},
		{"findings", map[string]any{"limit": 1e300}},
		{"findings", map[string]any{"cursor": "p99999999999"}},
		{"findings", map[string]any{"cursor": "p+1"}},
		{"findings", map[string]any{"cursor": po.Next + "0000"}},
		{"findings", map[string]any{"text": strings.Repeat("é", 1<<20)}},
		{"findings", map[string]any{"text": nested}},
		{"findings", map[string]any{"unknown": nested}},
		{"findings", map[string]any{"severity": map[string]any{"$ref": "#"}}},
		{"source", map[string]any{"path": "namespaces/shop/core/events.yaml", "line": -1}},
		{"source", map[string]any{"path": "namespaces/shop/core/events.yaml", "line": 9.5}},
		{"source", map[string]any{"path": "namespaces/shop/core/events.yaml", "line": 1 << 53, "context": 100}},
		{"source", map[string]any{"path": "namespaces/shop/core/events.yaml", "line": 3083, "context": -1 << 62}},
		{"source", map[string]any{"path": strings.Repeat("a/", 1<<19)}},
		{"source", map[string]any{"path": nil}},
		{"logs", map[string]any{"host": "x", "pattern": "(?i)" + strings.Repeat("[a-z]{1,1000}", 40)}},
		{"logs", map[string]any{"namespace": "shop", "pod": "uploader-6d7e8f9a0-cr8t1", "limit": 1 << 62, "since": "9999-99-99"}},
		{"explain", map[string]any{"rule": "sandbox-ovn-annotation", "cursor": "p100000"}},
		{"get", map[string]any{"kind": "pods", "selector": strings.Repeat("a in (b),", 50)}},
		{"get", map[string]any{"kind": strings.Repeat(".", 600)}},
		{"pod", map[string]any{"namespace": "shop\u202e", "name": "x\u0000"}},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: q.tool, Arguments: q.args})
		late := ctx.Err() != nil
		cancel()
		if late {
			t.Errorf("%s %.80v: no answer within 5s", q.tool, q.args)
			continue
		}
		if err == nil && !res.IsError {
			t.Errorf("%s %.80v: answered, want an error", q.tool, q.args)
		}
		if err != nil {
			t.Logf("%s %.80v: %.200v", q.tool, q.args, err)
		}
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "overview"}); err != nil {
			t.Fatalf("after %s %.80v: %v", q.tool, q.args, err)
		}
	}
	// A cursor is a position: another tool's gives a page of this one (or
	// "past the end"), never another tool's items.
	var eo serve.EventsOut
	if e := call(t, cs, "events", map[string]any{"cursor": fo.Next, "limit": 1}, &eo); e != "" || len(eo.Items) != 1 {
		t.Errorf("events with a findings cursor: %s %+v", e, eo)
	}
}

// TestServeBreakerLogScan: the work of one logs answer is bounded: a
// costly pattern over a long log stops at serve.MaxScanTime and says at
// which line, a line of megabytes is matched on its start only, and the
// pages of a whole file add up to its lines.
func TestServeBreakerLogScan(t *testing.T) {
	dir := tinyGather(t)
	p := filepath.Join(dir, "quay-io-image/namespaces/shop/pods/catalog-1/catalog/catalog/logs/current.log")
	line := "2026-11-20T09:10:31.000000000Z an ordinary log line, request served ok\n"
	body := strings.Repeat(line, 20000) + strings.Repeat("x", 4<<20) + "\n" + strings.Repeat(line, 2000)
	writeFiles(t, filepath.Dir(p), map[string]string{"current.log": body})
	cs := inMemory(t, servedSample(t, dir))
	defer func(d time.Duration) { serve.MaxScanTime = d }(serve.MaxScanTime)
	serve.MaxScanTime = 300 * time.Millisecond

	args := map[string]any{"namespace": "shop", "pod": "catalog-1", "container": "catalog", "pattern": strings.Repeat("(a|b|c|d)*", 50) + "zz"}
	start := time.Now()
	var lo serve.LogsOut
	if e := call(t, cs, "logs", args, &lo); e != "" {
		t.Fatal(e)
	}
	if took := time.Since(start); took > 5*time.Second || !strings.Contains(lo.Note, "the search stopped at line") {
		t.Errorf("a costly pattern: %s, note %q", took, lo.Note)
	}

	serve.MaxScanTime = time.Minute
	lines, cursor := 0, ""
	for pages := 0; ; pages++ {
		args := map[string]any{"namespace": "shop", "pod": "catalog-1", "container": "catalog", "limit": 500, "pattern": "served ok|^x+$"}
		if pages == 0 {
			args["cursor"] = "p19900" // the first page's line numbers are checked from 19901
			lines = 19900
		}
		if cursor != "" {
			args["cursor"] = cursor
		}
		var page serve.LogsOut
		if e := call(t, cs, "logs", args, &page); e != "" {
			t.Fatal(e)
		}
		for _, it := range page.Items {
			if lines++; it.Line != lines {
				t.Fatalf("page %d: line %d, want %d", pages, it.Line, lines)
			}
		}
		if page.Matched != 22001 || page.Lines != 22001 {
			t.Fatalf("matched %d of %d lines, want 22001 of 22001", page.Matched, page.Lines)
		}
		if cursor = page.Next; cursor == "" {
			break
		}
		if pages > 1000 {
			t.Fatal("the pages never end")
		}
	}
	if lines != 22001 {
		t.Errorf("the pages hold %d lines, want 22001", lines)
	}
}

// TestServeBreakerConcurrent: many calls at once, on two sessions of one
// server, answer as the same calls one at a time do (run it under the race
// detector: go test -race -run TestServeBreakerConcurrent ./cmd/analyze);
// a call cancelled by its client ends its scan, and the session answers
// on.
func TestServeBreakerConcurrent(t *testing.T) {
	s := servedSample(t, sampleGather)
	a, b := inMemory(t, s), inMemory(t, s)
	qs := []struct {
		tool string
		args map[string]any
	}{
		{"overview", nil},
		{"findings", map[string]any{"limit": 3}},
		{"pod", map[string]any{"namespace": "shop", "name": "uploader-6d7e8f9a0-cr8t1"}},
		{"get", map[string]any{"kind": "nodes", "output": "yaml"}},
		{"events", map[string]any{"namespace": "shop", "limit": 5}},
		{"logs", map[string]any{"host": "master-0", "pattern": "(?i)error"}},
		{"source", map[string]any{"path": "host_service_logs/masters/kubelet_service.log", "line": 257}},
		{"explain", map[string]any{"rule": "sandbox-ovn-annotation"}},
		{"explain", map[string]any{"rule": "crashloop-back-off"}},
	}
	want := make([]string, len(qs))
	for i, q := range qs {
		want[i], _ = rawCall(t, a, q.tool, q.args)
	}
	type result struct {
		i    int
		text string
	}
	results := make(chan result, 8*len(qs))
	for w := range 8 {
		cs := a
		if w%2 == 1 {
			cs = b
		}
		go func() {
			for i := range qs {
				i := (i + w) % len(qs)
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: qs[i].tool, Arguments: qs[i].args})
				text := fmt.Sprint(err)
				if err == nil {
					text = res.Content[0].(*mcp.TextContent).Text
				}
				results <- result{i, text}
			}
		}()
	}
	for range 8 * len(qs) {
		r := <-results
		if r.text != want[r.i] {
			t.Errorf("%s %v at once: answered differently:\n%.300s\nwant\n%.300s", qs[r.i].tool, qs[r.i].args, r.text, want[r.i])
		}
	}

	// A costly search cancelled by its client.
	dir := tinyGather(t)
	writeFiles(t, filepath.Join(dir, "quay-io-image/namespaces/shop/pods/catalog-1/catalog/catalog/logs"),
		map[string]string{"current.log": strings.Repeat("2026-11-20T09:10:31.000000000Z an ordinary log line, request served ok\n", 200000)})
	cs := inMemory(t, servedSample(t, dir))
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "logs", Arguments: map[string]any{"namespace": "shop", "pod": "catalog-1", "container": "catalog", "pattern": strings.Repeat("(a|b|c|d)*", 50) + "zz"}})
	if err == nil {
		t.Fatal("a cancelled call answered")
	}
	if _, err := callWithin(t, cs, 5*time.Second, "overview", nil); err {
		t.Error("overview after a cancelled call: a tool error")
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the session answered again after %s", took)
	}
}

// TestServeBreakerStdioFrames: on stdio, a request line over 1 MiB or
// nested deeper than the SDK decodes (1000) ends the session with an
// error (the SDK's behaviour: the stream cannot be resynchronised); the
// requests before it were read (initialize was answered), and an answer
// still being computed may be lost with the session; nothing panics.
func TestServeBreakerStdioFrames(t *testing.T) {
	dir := tinyGather(t)
	initLine := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"overview","arguments":{}}}` + "\n"
	for name, bad := range map[string]string{
		"2 MiB line": `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"findings","arguments":{"text":"` + strings.Repeat("a", 2<<20) + `"}}}`,
		"nested":     `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"findings","arguments":{"text":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}}}`,
	} {
		// As a client does: the bad line is sent once initialize has been
		// answered (sent at once, the session may end before that answer
		// is written).
		var out lockedBuffer
		var errOut strings.Builder
		pr, pw := io.Pipe()
		o := &serveOptions{IO: IOStreams{In: pr, Out: &out, ErrOut: &errOut}, Path: dir,
			KeepObjects: DefaultKeepObjects, AnswerBytes: serve.DefaultAnswerBytes, MarkdownMaxChars: report.DefaultMarkdownMaxChars}
		done := make(chan error, 1)
		go func() { done <- runServe(context.Background(), o) }()
		go func() {
			io.WriteString(pw, initLine)
			for deadline := time.Now().Add(15 * time.Second); !strings.Contains(out.String(), `"id":1,"result"`) && time.Now().Before(deadline); {
				time.Sleep(10 * time.Millisecond)
			}
			io.WriteString(pw, bad+"\n")
			pw.Close()
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(out.String(), `"id":1,"result"`) || strings.Contains(errOut.String(), "panic") {
				t.Errorf("%s: err %v, answers %.300s", name, err, out.String())
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: the session did not end", name)
		}
	}
}

// lockedBuffer is an io.Writer whose text can be read while it is written.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestServeBreakerAliasBomb: a pod list whose annotations are a YAML alias
// bomb loads in bounded time (the YAML reader refuses excessive aliasing),
// and get output=yaml and source quote its lines as gathered, never
// expanded: the answers stay within the budget.
func TestServeBreakerAliasBomb(t *testing.T) {
	dir := tinyGather(t)
	var b strings.Builder
	b.WriteString("apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: bomb\n    namespace: blast\n    annotations:\n")
	b.WriteString(`      a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]` + "\n")
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		b.WriteString("      " + n + ": &" + n + " [" + strings.TrimSuffix(strings.Repeat("*"+prev+",", 9), ",") + "]\n")
		prev = n
	}
	b.WriteString("  spec:\n    nodeName: worker-0\n    containers:\n    - name: c\n      image: x\n  status:\n    phase: Running\nkind: PodList\n")
	writeFiles(t, filepath.Join(dir, "quay-io-image"), map[string]string{"namespaces/blast/core/pods.yaml": b.String()})
	start := time.Now()
	cs := inMemory(t, servedSample(t, dir))
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("the load took %s", took)
	}
	for _, q := range []struct {
		tool string
		args map[string]any
	}{
		{"get", map[string]any{"kind": "pods", "namespace": "blast", "output": "yaml"}},
		{"source", map[string]any{"path": "namespaces/blast/core/pods.yaml", "line": 10, "context": 100}},
	} {
		text, _ := rawCall(t, cs, q.tool, q.args)
		if len(text) > serve.DefaultAnswerBytes+serve.DefaultAnswerBytes/4 || strings.Count(text, "lol") > 20 {
			t.Errorf("%s: %d bytes, %d lol", q.tool, len(text), strings.Count(text, "lol"))
		}
	}
}
