package rules

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestMarshalRoundTrip: every built-in rule, printed by Marshal (what
// `rules show ID` prints), is a rule file `rules validate` accepts with no
// error, and loaded over the table it gives the same rule.
func TestMarshalRoundTrip(t *testing.T) {
	dir := t.TempDir()
	sameJSON := cmp.Comparer(func(a, b json.RawMessage) bool {
		var va, vb any
		if len(bytes.TrimSpace(a)) == 0 || len(bytes.TrimSpace(b)) == 0 {
			return len(bytes.TrimSpace(a)) == len(bytes.TrimSpace(b))
		}
		if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
			return false
		}
		return cmp.Equal(va, vb)
	})
	builtin := Builtin()
	for _, r := range builtin.Rules {
		data, err := Marshal(r)
		if err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
		if err := os.WriteFile(filepath.Join(dir, r.ID+".yaml"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// One folder of every rule's show: an error names its file, so its rule.
	if errs := Validate(dir); len(errs) > 0 {
		t.Fatalf("rules validate of the rules' show:\n%v", errs)
	}
	table := Builtin()
	if errs := table.Override(dir); len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, r := range builtin.Rules {
		got := table.rule(r.ID)
		if d := cmp.Diff(r, got, cmpopts.IgnoreUnexported(Rule{}), cmpopts.IgnoreFields(Rule{}, "File", "Line"), sameJSON); d != "" {
			t.Errorf("%s: loaded from its show (-built-in +loaded):\n%s", r.ID, d)
		}
	}
	if len(table.Rules) != len(builtin.Rules) {
		t.Errorf("%d rules after loading every show over the table, want %d", len(table.Rules), len(builtin.Rules))
	}
}
