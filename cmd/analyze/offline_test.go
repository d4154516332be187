package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mgtriage/mgtriage/report"
)

// TestOfflineSample builds the binary and runs it on the bundled sample in a
// network namespace without interfaces (unshare -n, as root): the analysis
// needs no network, writes its three reports into -o and nothing anywhere
// else, and leaves the input as it was.
func TestOfflineSample(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("unshare -n needs root")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("unshare not installed")
	}
	if out, err := exec.Command(unshare, "-n", "cat", "/proc/net/dev").CombinedOutput(); err != nil {
		t.Skipf("unshare -n does not work here: %v %s", err, out)
	} else {
		// Inside: only the loopback, and it is down.
		for _, line := range strings.Split(string(out), "\n")[2:] {
			if name, _, ok := strings.Cut(strings.TrimSpace(line), ":"); ok && name != "lo" {
				t.Fatalf("the namespace has interface %q:\n%s", name, out)
			}
		}
	}
	bin := buildAnalyze(t)

	input, err := filepath.Abs(sampleGather)
	if err != nil {
		t.Fatal(err)
	}
	world := t.TempDir()
	out := filepath.Join(world, "out")
	for _, d := range []string{"cwd", "tmp", "home"} {
		if err := os.MkdirAll(filepath.Join(world, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	inputBefore := snapshot(t, input, "")
	worldBefore := snapshot(t, world, out)

	cmd := exec.Command(unshare, "-n", "--", bin, input, "-o", out)
	cmd.Dir = filepath.Join(world, "cwd")
	cmd.Env = []string{"PATH=/usr/bin:/bin", "TMPDIR=" + filepath.Join(world, "tmp"), "HOME=" + filepath.Join(world, "home")}
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("offline run: %v\nstderr:\n%s", err, stderr.String())
	}
	for _, name := range []string{"report.md", "report.html", "report.json"} {
		fi, err := os.Stat(filepath.Join(out, name))
		if err != nil || fi.Size() == 0 {
			t.Errorf("%s not written: %v", name, err)
		}
	}
	f, err := os.Open(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := report.ReadJSON(f)
	if err != nil {
		t.Fatalf("report.json: %v", err)
	}
	if len(r.Pods) == 0 || len(r.Findings) == 0 {
		t.Errorf("report.json has %d pods and %d findings", len(r.Pods), len(r.Findings))
	}
	if !strings.Contains(stdout.String(), "finding") && !strings.Contains(stdout.String(), r.Findings[0].RuleID) {
		t.Errorf("stdout lacks the summary:\n%s", stdout.String())
	}
	if !equalSnapshots(t, inputBefore, snapshot(t, input, "")) {
		t.Errorf("the input changed")
	}
	if !equalSnapshots(t, worldBefore, snapshot(t, world, out)) {
		t.Errorf("files written outside -o (working folder, TMPDIR, HOME)")
	}
}
