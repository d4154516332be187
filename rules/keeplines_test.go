package rules

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mgtriage/mgtriage/parser"
	"github.com/mgtriage/mgtriage/parser/model"
)

// A user rule whose cause names a plain kubelet info line (none of the words
// the parser's fixed selection keeps) fires: the table's literals widen what
// the parser keeps. Without them the same rule cannot see the line.
func TestUserRuleSeesPlainKubeletInfoLine(t *testing.T) {
	gather := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(gather, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("timestamp", "2026-11-20 09:30:00.000000000 +0000 UTC m=+0.1\n")
	write("namespaces/shop/core/pods.yaml", `apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: cart
    namespace: shop
    uid: 0b1f6a9e-4c0d-4a51-9d55-2f8e0a7f1c01
  spec:
    nodeName: worker-0
    containers:
    - name: cart
      image: registry.example.com/shop/cart:v2
  status:
    phase: Pending
    containerStatuses:
    - name: cart
      image: registry.example.com/shop/cart:v2
      ready: false
      restartCount: 0
      state:
        waiting:
          reason: ContainerCreating
kind: List
metadata:
  resourceVersion: ""
`)
	infoLine := `I1120 09:20:00.000100    2150 volume_manager.go:401] "Waiting for volume attachment to settle" pod="shop/cart" volume="data"`
	write("host_service_logs/masters/kubelet_service.log",
		"Nov 20 09:19:59.000000 worker-0 kubenswrapper[2150]: I1120 09:19:59.000000    2150 kubelet.go:2406] \"SyncLoop ADD\" source=\"api\" pods=[\"shop/cart\"]\n"+
			"Nov 20 09:20:00.000100 worker-0 kubenswrapper[2150]: "+infoLine+"\n")
	rulesDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(rulesDir, "site.yaml"), []byte(`schemaVersion: 1
rules:
  - id: site-volume-settle
    version: 1
    severity: medium
    title: Volume attachment still settling
    category: storage
    match:
      matcher: podNodeLog
      params: {classes: [other]}
      cause: 'Waiting for volume attachment to settle'
    hint: 'The kubelet on {{.Node}} still waits for a volume of {{.Namespace}}/{{.Pod}}: {{.Cause}}.'
    remediation: [check the storage backend]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	tbl := Builtin()
	if errs := tbl.Override(rulesDir); len(errs) > 0 {
		t.Fatal(errs)
	}
	fired := func(needs model.Needs) *Finding {
		t.Helper()
		g, err := parser.LoadWith(context.Background(), gather, parser.Options{Needs: &needs})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range Evaluate(tbl, g) {
			if f.Rule.ID == "site-volume-settle" {
				return &f
			}
		}
		return nil
	}
	if f := fired(model.Needs{Decode: tbl.Needs().Decode}); f != nil {
		t.Fatalf("without the table's literals the fixed selection keeps the info line: %+v", f.Evidence)
	}
	f := fired(tbl.Needs())
	if f == nil {
		t.Fatal("user rule matching a plain kubelet info line did not fire")
	}
	e := f.Evidence[0]
	if e.Kind != EvidenceNodeLog || e.Source.Line != 2 || e.Source.Path != "host_service_logs/masters/kubelet_service.log" {
		t.Errorf("first evidence = %+v, want the info line at kubelet_service.log:2", e)
	}
}
