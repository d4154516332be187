package report

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestRedactDiffOneMap: both sides of a diff are redacted with one map: a
// node has one placeholder in OLD, NEW and the node changes; the two input
// paths, the cluster ID and the archive's folder are replaced; d is not
// changed; no key of the map is left in any format.
func TestRedactDiffOneMap(t *testing.T) {
	node := "worker-2.ocp.acme.corp"
	side := func(path, root string) *Report {
		return &Report{Gather: Gather{Path: path, ClusterID: "5b0e2c7a-4f1d-4c3e-9a8b-2d6f1e7c9a40", Roots: []string{root}},
			Nodes: []Node{{Name: node, Addresses: []string{"InternalIP 10.0.0.7"}}}}
	}
	f := func(text string) *Finding {
		return &Finding{RuleID: "node-not-ready", Severity: "critical", Title: "Node not ready",
			Objects:  []Object{{Kind: "Node", Name: node}},
			Evidence: []Evidence{{Path: "cluster-scoped-resources/core/nodes/" + node + ".yaml", Line: 12, Text: text}}}
	}
	d := &Diff{SchemaVersion: DiffSchemaVersion, SameCluster: "cluster ID",
		Old: DiffSide{Path: "/cases/0412/must-gather.local.88120", ClusterID: "5b0e2c7a-4f1d-4c3e-9a8b-2d6f1e7c9a40"},
		New: DiffSide{Path: "/cases/0412/upload.tar.gz", ClusterID: "5b0e2c7a-4f1d-4c3e-9a8b-2d6f1e7c9a40"},
		Findings: []FindingChange{{State: StateResolved, Subject: "node/" + node, RuleID: "node-not-ready", Severity: "critical", Title: "Node not ready",
			Old: f("Ready=Unknown on " + node + " (10.0.0.7)"), New: f("kubelet on " + node + " posts status")}},
		Nodes: []NodeChange{{Name: node, Changes: []string{"Ready Unknown → True"}}},
		Notes: []string{"see must-gather.local.99001/quay-io-x/ for the image folder"},
	}
	d.Normalize()
	var before bytes.Buffer
	WriteDiffJSON(&before, d)
	red, mapping := RedactDiff(d, side(d.Old.Path, "quay-io-x/"), side(d.New.Path, "must-gather.local.99001/quay-io-x/"))
	var after bytes.Buffer
	WriteDiffJSON(&after, d)
	if before.String() != after.String() {
		t.Errorf("RedactDiff changed its input")
	}
	host := mapping[node]
	if host == "" || red.Nodes[0].Name != host || red.Findings[0].Subject != "node/"+host {
		t.Errorf("node %q → %q; node change %q, subject %q", node, host, red.Nodes[0].Name, red.Findings[0].Subject)
	}
	if !strings.Contains(red.Findings[0].Old.Evidence[0].Text, host) || !strings.Contains(red.Findings[0].New.Evidence[0].Text, host) {
		t.Errorf("OLD and NEW evidence do not share the node's placeholder %s: %q, %q", host, red.Findings[0].Old.Evidence[0].Text, red.Findings[0].New.Evidence[0].Text)
	}
	if red.Old.Path != "input-1" || red.New.Path != "input-2" || red.Old.ClusterID != mapping["5b0e2c7a-4f1d-4c3e-9a8b-2d6f1e7c9a40"] || red.Old.ClusterID == d.Old.ClusterID {
		t.Errorf("paths %q %q, cluster ID %q; mapping %v", red.Old.Path, red.New.Path, red.Old.ClusterID, mapping)
	}
	if !strings.HasPrefix(mapping["must-gather.local.99001"], "folder-") {
		t.Errorf("the archive's folder is not redacted: %v", mapping)
	}
	for name, w := range map[string]func(io.Writer, *Diff) error{"md": WriteDiffMarkdown, "html": WriteDiffHTML, "json": WriteDiffJSON} {
		var b bytes.Buffer
		if err := w(&b, red); err != nil {
			t.Fatal(err)
		}
		for k := range mapping {
			if strings.Contains(b.String(), k) {
				t.Errorf("%s holds %q, a key of the map", name, k)
			}
		}
	}
}
