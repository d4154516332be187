package rules

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/mgtriage/mgtriage/parser"
	"github.com/mgtriage/mgtriage/parser/model"
)

// A user rule whose cause names a plain kubelet info line (none of the words
// the parser's fixed selection keeps) fires: the table's literals widen what
// the parser keeps. Without them the same rule cannot see the line.
func TestUserRuleSeesPlainKubeletInfoLine(t *testing.T) {
	// fixtures/keptline: the gather and the user rule (see its README).
	dir := filepath.Join("..", "fixtures", "keptline")
	gather, rulesDir := filepath.Join(dir, "gather"), filepath.Join(dir, "rules")
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
