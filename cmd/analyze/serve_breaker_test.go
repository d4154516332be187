package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

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
