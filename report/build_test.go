package report

import (
	"testing"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/rules"
)

// Build is the last reader of a gather in a run: it lets the object store go
// (read by the rules' joins alone), so the command layer does not have to.
func TestBuildReleasesObjectStore(t *testing.T) {
	g := &model.Gather{Input: "must-gather", Objects: model.New()}
	r := Build(g, rules.Builtin(), nil, Tool{Name: "mgtriage"}, Window{})
	if g.Objects != nil {
		t.Error("Build kept the gather's object store")
	}
	if r.Gather.Path != "must-gather" {
		t.Errorf("report gather path = %q", r.Gather.Path)
	}
}
