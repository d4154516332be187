package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// module is this project's module path, as go.mod states it.
const module = "github.com/mgtriage/mgtriage"

// TestImportDirection holds the layout of ../shared/DESIGN.md: imports run
// one way. The Kubernetes knowledge packages (podstatus, nodelog, openshift)
// import none of the project's other packages but its internal ones; the
// model imports only those; rules import the model and the knowledge
// packages; report imports those and rules; none of them imports the reading
// code (parser itself or a format's reader under parser/). It reads the
// non-test dependencies with `go list -deps`.
func TestImportDirection(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("SKIPPED: the go command is not on PATH; the import direction is not checked")
	}
	knowledge := []string{"parser/podstatus", "parser/nodelog", "parser/openshift"}
	allowed := map[string][]string{
		"parser/podstatus": nil,
		"parser/nodelog":   nil,
		"parser/openshift": nil,
		"parser/model":     knowledge,
		"rules":            append([]string{"parser/model"}, knowledge...),
		"report":           append([]string{"parser/model", "rules"}, knowledge...),
		"rules/pack":       append([]string{"parser/model", "rules"}, knowledge...),
	}
	for pkg, ok := range allowed {
		out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", module+"/"+pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			rel, ours := strings.CutPrefix(dep, module+"/")
			if !ours || rel == pkg || strings.HasPrefix(rel, "parser/internal/") {
				continue
			}
			if !slices.Contains(ok, rel) {
				t.Errorf("%s imports %s; it may import only %v (and parser/internal/...)", pkg, rel, ok)
			}
		}
	}
	// The format readers see the load only through parser/load: they import
	// neither parser nor what reads the model; the model imports no reader.
	formats := []string{"parser/load", "parser/mustgather", "parser/installbundle", "parser/sosreport", "parser/insights", "parser/supportbundle"}
	forbidden := map[string][]string{"parser/model": formats}
	for _, f := range formats {
		forbidden[f] = []string{"parser", "rules", "report"}
	}
	for pkg, no := range forbidden {
		out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", module+"/"+pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if rel, ours := strings.CutPrefix(dep, module+"/"); ours && rel != pkg && slices.Contains(no, rel) {
				t.Errorf("%s imports %s; it may import none of %v", pkg, rel, no)
			}
		}
	}
}
