package parser

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONSourcesCiteTheirLines loads the bundle fixtures whose pods and
// events are JSON (pod captures, a support bundle, an Insights archive) and
// checks that every pod and event read from a JSON file has its line, that
// each unhealthy pod's status fields are indexed, and that the lines they
// name hold the field: "phase" on status.phase's line, "message" on an
// event's message line.
func TestJSONSourcesCiteTheirLines(t *testing.T) {
	for _, dir := range []string{"pod-captures", "support-bundle", "insights-archive"} {
		t.Run(dir, func(t *testing.T) {
			input := filepath.Join("..", "fixtures", "bundles", dir)
			g, err := Load(context.Background(), input)
			if err != nil {
				t.Fatal(err)
			}
			files := map[string][][]byte{}
			lineOf := func(p string, n int) string {
				if _, ok := files[p]; !ok {
					data, err := os.ReadFile(filepath.Join(input, p))
					if err != nil {
						t.Fatalf("%s: %v", p, err)
					}
					files[p] = bytes.Split(data, []byte("\n"))
				}
				if n < 1 || n > len(files[p]) {
					return ""
				}
				return string(files[p][n-1])
			}
			pods, fields, events := 0, 0, 0
			for _, p := range g.Pods {
				if !strings.HasSuffix(p.Source.Path, ".json") || p.Runtime != nil {
					continue
				}
				pods++
				if p.Source.Line < 1 {
					t.Errorf("pod %s/%s from %s: line %d", p.Object.Namespace, p.Object.Name, p.Source.Path, p.Source.Line)
				}
				if !worthFieldLines(&p.Object) {
					continue
				}
				n := p.Fields.Line("status.phase")
				if n == 0 {
					t.Errorf("pod %s/%s from %s: no line for status.phase (fields %v)", p.Object.Namespace, p.Object.Name, p.Source.Path, p.Fields)
					continue
				}
				fields++
				if l := lineOf(p.Source.Path, n); !strings.Contains(l, `"phase"`) || !strings.Contains(l, string(p.Object.Status.Phase)) {
					t.Errorf("pod %s/%s: status.phase cited at %s:%d, which reads %q", p.Object.Namespace, p.Object.Name, p.Source.Path, n, l)
				}
			}
			for _, e := range g.Events {
				if !strings.HasSuffix(e.Source.Path, ".json") {
					continue
				}
				events++
				if e.Source.Line < 1 || e.MessageLine() < 1 {
					t.Errorf("event %s in %s: line %d, message line %d", e.Object.Reason, e.Source.Path, e.Source.Line, e.MessageLine())
					continue
				}
				if l := lineOf(e.Source.Path, e.MessageLine()); !strings.Contains(l, `"message"`) {
					t.Errorf("event %s: message cited at %s:%d, which reads %q", e.Object.Reason, e.Source.Path, e.MessageLine(), l)
				}
			}
			if pods == 0 || fields == 0 {
				t.Errorf("%d pods from JSON files, %d with field lines: the fixture should hold unhealthy pods in JSON", pods, fields)
			}
			t.Logf("%d pods (%d with field lines) and %d events from JSON files", pods, fields, events)
		})
	}
}
