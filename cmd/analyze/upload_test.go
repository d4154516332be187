package main

import (
	"archive/tar"
	"compress/gzip"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mgtriage/mgtriage/fixtures/gen/synth"
	"github.com/mgtriage/mgtriage/parser"
	"github.com/mgtriage/mgtriage/report"
)

// copyDir copies src to dst, leaving out the folders skip names.
func copyDir(t *testing.T, src, dst string, skip ...string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		for _, s := range skip {
			if d.IsDir() && d.Name() == s {
				return filepath.SkipDir
			}
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestUploadOfOneClusterGivesOneReport packs the sample must-gather (without
// its node journals), a sosreport of its node worker-0 and an inspect of the
// customer's namespace payments into one .tar.gz, as a case upload holds
// them, and requires one report in which the sosreport's kubelet lines are
// the node-log evidence of worker-0's pods.
func TestUploadOfOneClusterGivesOneReport(t *testing.T) {
	tgz := uploadWithSosreport(t, nil, "inspect.local.4471230658313042291")
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := run(t, tgz, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := readReport(t, out)
	sos := "case-04471230/sosreport-worker-0-04471230-2026-11-20-kqzvbnw/"
	cited := map[string]bool{}
	for _, f := range r.Findings {
		for _, e := range f.Evidence {
			if e.Kind == "node-log" && strings.HasPrefix(e.Path, sos) {
				for _, o := range f.Objects {
					cited[o.Namespace+"/"+o.Name] = true
				}
			}
		}
	}
	for _, pod := range []string{"shop/cart-5f7b9c6d8-x2x9q", "shop/catalog-84b6d9c7f-k8m2p"} {
		if !cited[pod] {
			t.Errorf("no finding on %s cites the sosreport's journal (cited: %v)", pod, cited)
		}
	}
	pods := 0
	for _, p := range r.Pods {
		if p.Namespace == "payments" {
			pods++
		}
	}
	if pods != 2 || len(r.Pods) != 31 {
		t.Errorf("payments pods %d of %d pods, want 2 of 31", pods, len(r.Pods))
	}
	if len(r.Gather.Coverage.Combined) != 3 {
		t.Errorf("combined: %q", r.Gather.Coverage.Combined)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"- **Combined:** case-04471230/must-gather.local.5049263173451366137/ (must-gather", "host is node worker-0.sample.example.com"} {
		if !strings.Contains(string(md), w) {
			t.Errorf("report.md lacks %q", w)
		}
	}
	if !strings.Contains(stdout, "combined: case-04471230/inspect.local.4471230658313042291/") {
		t.Errorf("terminal summary does not say which gathers were combined:\n%s", stdout)
	}
}

func TestTwoClustersInOneUploadAreRefused(t *testing.T) {
	dir := twoClusters(t, "7b1d0c2e-4f6a-4e8b-9c3d-5a7f9e1b2c4d")
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := run(t, dir, "-o", out)
	if code != exitInput {
		t.Errorf("exit %d, want %d", code, exitInput)
	}
	for _, w := range []string{"different cluster IDs", "must-gather.local.1/ (must-gather", "cluster e0666b73-33c5-437e-b12f-04c2a6eb05d9", "must-gather.local.2/ (must-gather", "cluster 7b1d0c2e-4f6a-4e8b-9c3d-5a7f9e1b2c4d"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a report was written for a refused input: %v", err)
	}
}

// twoClusters writes two copies of the sample must-gather side by side,
// the second's ClusterVersion naming the cluster ID otherID, and returns
// their folder.
func twoClusters(t *testing.T, otherID string) string {
	t.Helper()
	dir := t.TempDir()
	copyDir(t, sampleGather, filepath.Join(dir, "must-gather.local.1"))
	other := filepath.Join(dir, "must-gather.local.2")
	copyDir(t, sampleGather, other)
	filepath.WalkDir(other, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(p, "clusterversions") {
			data, _ := os.ReadFile(p)
			os.WriteFile(p, []byte(strings.ReplaceAll(string(data), "clusterID: e0666b73-33c5-437e-b12f-04c2a6eb05d9", "clusterID: "+otherID)), 0o644)
		}
		return nil
	})
	return dir
}

// writeTarGz packs the members (name → body) into a .tar.gz.
func writeTarGz(t *testing.T, members map[string]string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "in.tar.gz")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := gzip.NewWriter(f)
	tw := tar.NewWriter(zw)
	for name, body := range members {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
		tw.Write([]byte(body))
	}
	tw.Close()
	zw.Close()
	return p
}

// TestNothingAnalysableExitsTwo: an input from which nothing analysable was
// read exits 2, names every layout looked for, and writes no report that
// could pass for a healthy one.
func TestNothingAnalysableExitsTwo(t *testing.T) {
	random := t.TempDir()
	for name, body := range map[string]string{"notes.txt": "slow cluster", "img/a.png": "\x89PNG", "x/y/z.bin": "\x00\x01"} {
		os.MkdirAll(filepath.Join(random, filepath.Dir(name)), 0o755)
		os.WriteFile(filepath.Join(random, name), []byte(body), 0o644)
	}
	inputs := map[string]string{
		"folder of random files":    random,
		"empty archive":             writeTarGz(t, nil),
		"tarball of unrelated text": writeTarGz(t, map[string]string{"logs/app.log": "started\n", "README": "hello\n"}),
		"namespace folder of junk":  writeTarGz(t, map[string]string{"mg/img-sha256-1/namespaces/shop/notes.txt": "hello\n"}),
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			code, stdout, stderr := run(t, in, "-o", out)
			if code != exitInput {
				t.Errorf("exit %d, want %d", code, exitInput)
			}
			for _, w := range append([]string{"nothing analysable"}, parser.KnownLayouts...) {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if strings.Contains(stdout+stderr, "No rule fired") || strings.Contains(stdout+stderr, "0 findings") {
				t.Errorf("output reads like a healthy report:\n%s\n%s", stdout, stderr)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("a report folder was written: %v", err)
			}
		})
	}
}

// TestOnlyJournalsGivesAReportThatSaysSo: a sosreport with a kubelet journal
// and nothing else is analysed, and every view says the input has no pods.
func TestOnlyJournalsGivesAReportThatSaysSo(t *testing.T) {
	in := writeTarGz(t, map[string]string{
		"sosreport-w0/hostname": "w0\n",
		"sosreport-w0/sos_commands/logs/journalctl_--no-pager_--unit_kubelet": "Nov 20 08:45:05.394575 w0 kubenswrapper[2201]: E1120 08:45:05.394501    2201 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"connection refused\" node=\"w0\"\n",
	})
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := run(t, in, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	html, _ := os.ReadFile(filepath.Join(out, "report.html"))
	// Whether or not a node rule fires on the journal, each view says that
	// the input has no pods, and never a bare "No rule fired."
	for name, c := range map[string]struct{ text, says string }{
		"stdout":      {stdout, "pods not gathered"},
		"report.md":   {string(md), "- **Not in the input:** events, nodes and pods"},
		"report.html": {string(html), "<dt>Not in the input</dt><dd>events, nodes or pods"},
	} {
		if !strings.Contains(c.text, c.says) || strings.Contains(c.text, "No rule fired.") {
			t.Errorf("%s does not say the input has no pods (%q):\n%s", name, c.says, c.text)
		}
	}
	r := readReport(t, out)
	if r.Gather.Coverage.JournalLines != 1 {
		t.Errorf("journal lines %d", r.Gather.Coverage.JournalLines)
	}
}

// uploadWithSosreport packs the sample must-gather (without its node
// journals) and the fixture sosreport of worker-0, its files changed by edit
// (path in the sosreport → content; "" deletes), into one .tar.gz.
//
// more names other pieces of fixtures/upload to pack beside them.
func uploadWithSosreport(t *testing.T, edit map[string]string, more ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "case-04471230")
	copyDir(t, filepath.Dir(sampleGather+"/x"), filepath.Join(dir, filepath.Base(sampleGather)), "host_service_logs")
	const piece = "sosreport-worker-0-04471230-2026-11-20-kqzvbnw"
	for _, p := range append([]string{piece}, more...) {
		copyDir(t, filepath.Join("../../fixtures/upload", p), filepath.Join(dir, p))
	}
	for rel, body := range edit {
		p := filepath.Join(dir, piece, rel)
		if body == "" {
			os.Remove(p)
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tgz := filepath.Join(t.TempDir(), "upload.tar.gz")
	if err := synth.WriteArchive(dir, tgz, synth.Formats[".tar.gz"]); err != nil {
		t.Fatal(err)
	}
	return tgz
}

// A node sosreport taken three hours after the must-gather still joins it
// when its machine-id proves its host is the node, and its journal lines
// are the evidence of that node's pods.
func TestSosreportOfTheSameMachineJoinsHoursLater(t *testing.T) {
	in := uploadWithSosreport(t, map[string]string{"date": "Fri Nov 20 12:31:02 UTC 2026\n"})
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := run(t, in, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := readReport(t, out)
	sos := "case-04471230/sosreport-worker-0-04471230-2026-11-20-kqzvbnw/"
	cites := 0
	for _, f := range r.Findings {
		for _, e := range f.Evidence {
			if e.Kind == "node-log" && strings.HasPrefix(e.Path, sos) {
				cites++
			}
		}
	}
	if cites == 0 {
		t.Errorf("no finding cites the sosreport's journal")
	}
	last := r.Gather.Coverage.Combined[len(r.Gather.Coverage.Combined)-1]
	if !strings.HasSuffix(last, "host is node worker-0.sample.example.com (same machine-id)") {
		t.Errorf("combined: %q", r.Gather.Coverage.Combined)
	}
	// The pods of worker-0 have one timeline in which the sosreport's
	// journal lines (in UTC, in the must-gather's day) sit among the
	// must-gather's events and container statuses, in time order.
	merged := 0
	for _, tl := range r.Timelines {
		if tl.Kind != "Pod" || tl.Node != "worker-0.sample.example.com" {
			continue
		}
		fromSos, fromMG := false, false
		for i, e := range tl.Entries {
			if i > 0 && e.Time.Before(tl.Entries[i-1].Time) {
				t.Errorf("%s: timeline out of order at %d", tl.Name, i)
			}
			if strings.HasPrefix(e.Path, sos) {
				fromSos = true
				if e.Time.Location() != time.UTC || e.Time.Format("2006-01-02") != "2026-11-20" {
					t.Errorf("%s: journal line at %s, want UTC on 2026-11-20", tl.Name, e.Time)
				}
			} else if e.Path != "" {
				fromMG = true
			}
		}
		if fromSos && fromMG {
			merged++
		}
	}
	if merged == 0 {
		t.Errorf("no pod timeline of worker-0 merges the sosreport's journal with the must-gather")
	}
}

// An OpenShift must-gather and the sosreport of a host of another cluster,
// half a year apart, are refused with both parts and why (exit 2, no
// report); with --split each part gets its own report set, and the exit
// code is the highest of the parts.
func TestForeignSosreportIsRefusedOrSplit(t *testing.T) {
	in := uploadWithSosreport(t, map[string]string{
		"date": "Fri May 21 09:31:02 UTC 2027\n", "hostname": "juju-7f3a1c-k8s-4\n", "sos_commands/host/hostname": "juju-7f3a1c-k8s-4\n",
		"etc/machine-id": "0123456789abcdef0123456789abcdef\n", "sos_commands/host/hostnamectl_status": "", "proc/sys/kernel/random/boot_id": "",
		"sos_commands/kubernetes/kubectl_version": "Client Version: v1.23.3\nServer Version: v1.23.3\n",
	})
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := run(t, in, "-o", out)
	if code != exitInput {
		t.Fatalf("exit %d, want %d: %s", code, exitInput, stderr)
	}
	for _, w := range []string{
		"2 parts that are not one cluster",
		"part 1: case-04471230/must-gather.local.5049263173451366137/ (must-gather, gathered 2026-11-20T09:12:33Z, cluster e0666b73-33c5-437e-b12f-04c2a6eb05d9)",
		"part 2: case-04471230/sosreport-worker-0-04471230-2026-11-20-kqzvbnw/ (sosreport of host juju-7f3a1c-k8s-4, gathered 2027-05-21T09:31:02Z, machine-id 0123456789abcdef0123456789abcdef, Kubernetes v1.23.3): it runs Kubernetes v1.23.3, which no node of case-04471230/must-gather.local.5049263173451366137/ runs (v1.31); it was gathered 182 days apart",
		"--split",
	} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a report was written for a refused input: %v", err)
	}

	for _, tc := range []struct {
		args []string
		code int
	}{{nil, 0}, {[]string{"--fail-on", "high"}, exitFindings}} {
		out := filepath.Join(t.TempDir(), "out")
		code, stdout, stderr := run(t, append([]string{in, "-o", out, "--split"}, tc.args...)...)
		if code != tc.code {
			t.Fatalf("--split %v: exit %d, want %d: %s", tc.args, code, tc.code, stderr)
		}
		mg := readReport(t, filepath.Join(out, "1-must-gather.local.5049263173451366137"))
		sos := readReport(t, filepath.Join(out, "2-sosreport-worker-0-04471230-2026-11-20-kqzvbnw"))
		if len(mg.Pods) != 29 || len(sos.Pods) != 0 {
			t.Errorf("pods: must-gather part %d (want the sample's 29), sosreport part %d", len(mg.Pods), len(sos.Pods))
		}
		for name, r := range map[string]*report.Report{"must-gather": mg, "sosreport": sos} {
			if len(r.Gather.Coverage.Combined) == 0 || !strings.HasPrefix(r.Gather.Coverage.Combined[0], "part ") {
				t.Errorf("%s part's coverage does not say which part it is: %q", name, r.Gather.Coverage.Combined)
			}
		}
		for _, f := range mg.Findings {
			for _, e := range f.Evidence {
				if strings.Contains(e.Path, "sosreport-") {
					t.Errorf("the must-gather's report cites the foreign sosreport: %s", e.Path)
				}
			}
		}
		if !strings.Contains(stdout, "== part 1 of 2") || !strings.Contains(stdout, "== part 2 of 2") {
			t.Errorf("stdout does not name the parts:\n%s", stdout)
		}
	}
}

// The refusal names what the parts carry, which is the customer's text:
// a cluster ID holding terminal controls reaches stderr without them.
func TestRefusalCleansTerminalControls(t *testing.T) {
	dir := twoClusters(t, `"evil\e[2J\e]0;owned\aid"`)
	code, _, stderr := run(t, dir, "-o", filepath.Join(t.TempDir(), "out"))
	if code != exitInput || !strings.Contains(stderr, "different cluster IDs") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.ContainsAny(stderr, "\x1b\a") || !strings.Contains(stderr, "cluster evilid") {
		t.Errorf("stderr carries the ID's terminal controls: %q", stderr)
	}
}

// The upload of the issue, assembled at run time from the corpus: an
// OpenShift 4.8 must-gather and a Charmed Kubernetes node sosreport taken
// half a year later, in one .tar.gz. It is refused, naming both parts and
// why; --split writes a report set for each, and the sosreport's Ubuntu
// pods get no `oc` advice.
func TestCorpusMixedUpload(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: reads two corpus gathers")
	}
	mg, sos := corpusDir(t, "mg-aws-ocp48"), corpusDir(t, "sos-ubuntu-k8s123")
	dir := filepath.Join(t.TempDir(), "case")
	copyDir(t, mg, filepath.Join(dir, "mg-aws-ocp48"))
	copyDir(t, sos, filepath.Join(dir, "sosreport-juju-110cc2-k8stest-4"))
	tgz := filepath.Join(t.TempDir(), "mixed.tar.gz")
	if err := synth.WriteArchive(dir, tgz, synth.Formats[".tar.gz"]); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := run(t, tgz, "-o", filepath.Join(t.TempDir(), "out"))
	if code != exitInput {
		t.Fatalf("exit %d, want %d: %s", code, exitInput, stderr)
	}
	for _, w := range []string{"part 1: case/mg-aws-ocp48/must-gather-aws/ (must-gather", "cluster 96eb6c40-16e8-4718-ade6-5d7c6f05e120",
		"part 2: case/sosreport-juju-110cc2-k8stest-4/ (sosreport of host juju-110cc2-k8stest-4", "the nodes its own kubectl/oc output lists (juju-110cc2-k8stest-5, juju-110cc2-k8stest-6) are none of the nodes of case/mg-aws-ocp48/must-gather-aws/", "Kubernetes v1.23.3, which no node of", "; it was gathered 192 days apart"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := run(t, tgz, "-o", out, "--split"); code != 0 {
		t.Fatalf("--split: exit %d: %s", code, stderr)
	}
	ocp := readReport(t, filepath.Join(out, "1-must-gather-aws"))
	ubuntu := readReport(t, filepath.Join(out, "2-sosreport-juju-110cc2-k8stest-4"))
	if len(ocp.Pods) != 239 || len(ubuntu.Pods) != 18 || len(ubuntu.Nodes) != 2 {
		t.Errorf("pods %d and %d (want 239 and 18), sosreport nodes %d (want 2)", len(ocp.Pods), len(ubuntu.Pods), len(ubuntu.Nodes))
	}
	md, _ := os.ReadFile(filepath.Join(out, "2-sosreport-juju-110cc2-k8stest-4", "report.md"))
	if strings.Contains(string(md), "`oc ") {
		t.Errorf("the Kubernetes part's report gives oc commands")
	}
}
