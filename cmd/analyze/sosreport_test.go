package main

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mgtriage/mgtriage/report"
)

// analyzeFixture runs analyze on a folder of fixtures/ and returns its JSON report.
func analyzeFixture(t *testing.T, dir string) *report.Report {
	t.Helper()
	out := t.TempDir()
	code, _, stderr := run(t, "--format", "json,md", "-o", out, filepath.Join("../../fixtures", dir))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r report.Report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(md), "took 0s") {
		t.Error("report.md says the gather took 0s")
	}
	return &r
}

// findingOn returns the finding of rule id whose first object is subject
// ("node/<name>" or "<namespace>/<pod>"), or nil.
func findingOn(r *report.Report, id, subject string) *report.Finding {
	for i, f := range r.Findings {
		if f.RuleID != id || len(f.Objects) == 0 {
			continue
		}
		o := f.Objects[0]
		if (o.Kind == "Node" && "node/"+o.Name == subject) || o.Namespace+"/"+o.Name == subject {
			return &r.Findings[i]
		}
	}
	return nil
}

// An RHCOS master's sosreport, no kubectl output: its runtime pods and a node
// finding naming the registration failure, counted.
func TestRHCOSSosreportReport(t *testing.T) {
	r := analyzeFixture(t, "sos/rhcos-master-unregistered")
	if r.Gather.KubernetesVersion != "v1.27.8+4fab27b" || r.Gather.FinishedAt == nil {
		t.Errorf("gather %+v", r.Gather)
	}
	if len(r.Pods) != 4 {
		t.Fatalf("%d pods, want the runtime's 4", len(r.Pods))
	}
	for _, p := range r.Pods {
		if p.View != "runtime" || p.Node != "localhost.localdomain" {
			t.Errorf("pod %s/%s: view %q node %q", p.Namespace, p.Name, p.View, p.Node)
		}
	}
	f := findingOn(r, "node-not-registered", "node/localhost.localdomain")
	if f == nil {
		t.Fatalf("no node-not-registered finding on the host; findings: %v", ruleIDs(r))
	}
	for _, want := range []string{"457 times", "localhost.localdomain", "connection refused", "no Node object"} {
		if !strings.Contains(f.Hint, want) {
			t.Errorf("hint lacks %q: %s", want, f.Hint)
		}
	}
	if len(f.Evidence) == 0 || !strings.HasPrefix(f.Evidence[0].Path, "sos_commands/") || f.Evidence[0].Count != 457 {
		t.Errorf("evidence %+v", f.Evidence)
	}
	if findingOn(r, "runtime-container-restarting", "openshift-kube-apiserver/kube-apiserver-localhost.localdomain") == nil ||
		findingOn(r, "container-oom-killed", "openshift-kube-controller-manager/kube-controller-manager-localhost.localdomain") == nil {
		t.Errorf("runtime pod findings missing: %v", ruleIDs(r))
	}
	for _, id := range []string{"node-network-not-ready", "node-certificate-errors", "node-kernel-oom-kills"} {
		if findingOn(r, id, "node/localhost.localdomain") == nil {
			t.Errorf("no %s on the host: %v", id, ruleIDs(r))
		}
	}
	if findingOn(r, "container-exited-error", "openshift-kube-apiserver/kube-apiserver-localhost.localdomain") != nil {
		t.Error("container-exited-error claims a runtime-view container 'was not restarted'")
	}
	if len(r.Nodes) != 1 || !r.Nodes[0].NoObject || len(r.Nodes[0].Log) == 0 {
		t.Errorf("nodes %+v", r.Nodes)
	}
}

// Journals under ceph_logs/ and nodes/<node>/ count for their hosts, and the
// hosts whose YAML is missing are shown and judged.
func TestJournalsByContentReport(t *testing.T) {
	r := analyzeFixture(t, "journals/mg-odf-ceph-journals")
	if len(r.Gather.Health.NodesWithoutLogs) != 0 {
		t.Errorf("nodes without kubelet logs: %v", r.Gather.Health.NodesWithoutLogs)
	}
	var names []string
	for _, n := range r.Nodes {
		names = append(names, n.Name)
	}
	if !slices.Equal(names, []string{"worker-0.ocp4.example.com", "worker-1.ocp4.example.com"}) {
		t.Errorf("nodes %v", names)
	}
	if findingOn(r, "node-network-not-ready", "node/worker-1.ocp4.example.com") == nil {
		t.Errorf("findings %v", ruleIDs(r))
	}
	r = analyzeFixture(t, "journals/mg-cnv-node-journals")
	if len(r.Nodes) != 1 || r.Nodes[0].Name != "worker-2.ocp4.example.com" || !r.Nodes[0].NoObject {
		t.Errorf("nodes %+v", r.Nodes)
	}
	if findingOn(r, "node-pleg-unhealthy", "node/worker-2.ocp4.example.com") == nil {
		t.Errorf("findings %v", ruleIDs(r))
	}
}

func ruleIDs(r *report.Report) []string {
	var out []string
	for _, f := range r.Findings {
		s := f.RuleID
		if len(f.Objects) > 0 {
			s += " " + f.Objects[0].Namespace + "/" + f.Objects[0].Name
		}
		out = append(out, s)
	}
	return out
}

// tarGz packs the folder dir into a .tar.gz under t.TempDir and returns its path.
func tarGz(t *testing.T, dir string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), filepath.Base(dir)+".tar.gz")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	tw := tar.NewWriter(zw)
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(filepath.Dir(dir), p)
		if err := tw.WriteHeader(&tar.Header{Name: filepath.ToSlash(rel), Mode: 0o644, Size: int64(len(data))}); err != nil {
			return err
		}
		_, err = tw.Write(data)
		return err
	})
	for _, c := range []io.Closer{tw, zw, f} {
		if cerr := c.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Read from an archive in one pass, the node data gives the same pods and
// findings as from the folder: crictl files and journals found by content
// are opened as streams.
func TestNodeDataFromArchive(t *testing.T) {
	for _, dir := range []string{"sos/rhcos-master-unregistered/sosreport-localhost-2026-11-20-qzkfmtw", "journals/mg-odf-ceph-journals/must-gather.local.4402817733"} {
		t.Run(dir, func(t *testing.T) {
			folder := analyzeFixture(t, dir)
			out := t.TempDir()
			if code, _, stderr := run(t, "--format", "json", "-o", out, tarGz(t, filepath.Join("../../fixtures", dir))); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			data, err := os.ReadFile(filepath.Join(out, "report.json"))
			if err != nil {
				t.Fatal(err)
			}
			var archived report.Report
			if err := json.Unmarshal(data, &archived); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ruleIDs(folder), ruleIDs(&archived)) || len(folder.Pods) != len(archived.Pods) || len(folder.Findings) == 0 {
				t.Errorf("folder: %d pods %v\narchive: %d pods %v", len(folder.Pods), ruleIDs(folder), len(archived.Pods), ruleIDs(&archived))
			}
		})
	}
}
