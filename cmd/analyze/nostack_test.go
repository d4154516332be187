package main

// No input produces a stack trace: the built binary runs over every fixture
// input of the repository and every corpus gather, and over the install log
// bundle members of issue 29; its stderr never holds a Go panic or stack,
// and it never exits with exitInternal.

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mholt/archives"
)

// buildAnalyze builds the binary of this package into a temporary folder
// (static, offline, module graph as committed) and returns its path; it
// skips the test when there is no go tool.
func buildAnalyze(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to build the binary")
	}
	bin := filepath.Join(t.TempDir(), "analyze")
	build := exec.Command(goTool, "build", "-trimpath", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOPROXY=off", "GOFLAGS=-mod=readonly")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// stackMarkers are what a Go panic or runtime fault leaves on stderr.
var stackMarkers = []string{"goroutine ", "panic:", "runtime error", "fatal error:", "[signal "}

// runBinary runs bin with args (the input and flags; -o is added) and
// returns its exit code and stderr; it fails t when stderr holds a stack
// marker or the run ended with exitInternal or exitAnalysis.
func runBinary(t *testing.T, bin string, args ...string) (code int, stderr string) {
	t.Helper()
	cmd := exec.Command(bin, append(args, "-o", filepath.Join(t.TempDir(), "out"))...)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("run %v: %v", args, err)
	}
	stderr = errOut.String()
	for _, bad := range stackMarkers {
		if strings.Contains(stderr, bad) {
			t.Errorf("%v: stderr holds %q:\n%s", args, bad, clip(stderr))
		}
	}
	if code == exitInternal || code == exitAnalysis {
		t.Errorf("%v: exit %d (internal error or analysis failed):\n%s", args, code, clip(stderr))
	}
	return code, stderr
}

// controlPlaneMembers are the two members of a public RHCOS install log
// bundle whose paths name a control plane host and no bootstrap/ (issue 29:
// a run on it died with "slice bounds out of range [:-1]"), and the host's
// kubelet journal.
func controlPlaneMembers(withJournal bool) []tarMember {
	const host = "log-bundle/control-plane/172.16.1.11/"
	m := []tarMember{
		{Name: host + "containers/x.inspect", Body: `{"status":{"id":"4f1c2d","metadata":{"name":"x","attempt":0},"state":"CONTAINER_EXITED","createdAt":"2026-11-20T08:40:00.123456789Z","finishedAt":"2026-11-20T08:41:00Z","exitCode":1}}`},
		{Name: host + "containers/x.log", Body: "2026-11-20T08:40:01.000000000+00:00 stderr F E1120 08:40:01.000000       1 server.go:42] failed to reach etcd\n"},
	}
	if withJournal {
		m = append(m, tarMember{Name: host + "journals/kubelet.log", Body: "Nov 20 08:40:02 master-0 kubenswrapper[2101]: E1120 08:40:02.123456    2101 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"connection refused\" node=\"master-0\"\n"})
	}
	return m
}

// TestControlPlaneInstallBundleBinary runs the binary on the two members of
// issue 29 as a .tar.gz: nothing analysable (exit 2, saying an install log
// bundle was recognised), and with the host's kubelet journal a report
// (exit 0); never a stack trace.
func TestControlPlaneInstallBundleBinary(t *testing.T) {
	bin := buildAnalyze(t)
	for _, tc := range []struct {
		name        string
		withJournal bool
		code        int
		stderr      string
	}{
		{"the two members", false, exitInput, "recognised install log bundle"},
		{"with the host's kubelet journal", true, exitOK, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "bundle.tar.gz")
			writeTar(t, p, archives.Gz{}, controlPlaneMembers(tc.withJournal))
			code, stderr := runBinary(t, bin, p)
			if code != tc.code || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, want %d with %q on stderr:\n%s", code, tc.code, tc.stderr, clip(stderr))
			}
		})
	}
}

// fixtureInputs are the inputs under fixtures/ the binary is run on, as
// globs; every folder of fixtures/ but the generators' code is one of them
// (TestNoInputProducesAStackTrace fails on a folder none names).
var fixtureInputs = []string{
	"sample/*", "cases/*/input", "causes/*/input", "diff/*/old", "diff/*/new", "journals/*", "keptline/gather",
	"sigexample/input", "ruleexample/input", "sos/*", "upload", "upload/*", "bundles/*", "celrule/fires", "celrule/quiet",
}

// fixtureCode are the fixture folders that hold Go code, not inputs.
var fixtureCode = []string{"bench", "gen"}

// TestNoInputProducesAStackTrace runs the built binary over every fixture
// input and, without -short, every corpus gather and the corpus folder as a
// whole: whatever the exit code, stderr never holds a panic or a stack, and
// the run never ends with exitInternal.
func TestNoInputProducesAStackTrace(t *testing.T) {
	bin := buildAnalyze(t)
	const fixtures = "../../fixtures"
	var inputs []string
	for _, g := range fixtureInputs {
		m, err := filepath.Glob(filepath.Join(fixtures, g))
		if err != nil || len(m) == 0 {
			t.Fatalf("fixture glob %s matches nothing (%v): update fixtureInputs", g, err)
		}
		for _, p := range m {
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				inputs = append(inputs, p)
			}
		}
	}
	top, err := os.ReadDir(fixtures)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range top {
		covered := slices.ContainsFunc(fixtureInputs, func(g string) bool { return strings.HasPrefix(g, e.Name()+"/") || g == e.Name() })
		if e.IsDir() && !covered && !slices.Contains(fixtureCode, e.Name()) {
			t.Errorf("fixtures/%s is not run: add its inputs to fixtureInputs", e.Name())
		}
	}
	t.Run("fixtures", func(t *testing.T) {
		for _, in := range inputs {
			name, _ := filepath.Rel(fixtures, in)
			t.Run(filepath.ToSlash(name), func(t *testing.T) {
				t.Parallel()
				runBinary(t, bin, in)
			})
		}
	})
	t.Run("corpus", func(t *testing.T) {
		if testing.Short() {
			t.Skip("corpus gathers are slow: not in -short")
		}
		entries, err := os.ReadDir(corpusRoot)
		if err != nil {
			t.Skipf("corpus absent (%v): its gathers are not run", err)
		}
		corpus := []string{corpusRoot}
		for _, e := range entries {
			if e.IsDir() {
				corpus = append(corpus, filepath.Join(corpusRoot, e.Name()))
			}
		}
		for _, in := range corpus {
			t.Run(filepath.Base(in), func(t *testing.T) {
				t.Parallel()
				code, stderr := runBinary(t, bin, in)
				t.Logf("exit %d; %d lines on stderr", code, strings.Count(stderr, "\n"))
			})
		}
	})
}
