package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// overviewChildEnv carries the arguments of TestOverviewChild's run of Main.
const overviewChildEnv = "MGTRIAGE_OVERVIEW_CHILD"

// TestOverviewChild is the subprocess side of runOverviewChild: it runs Main
// with the process's own streams, as main does, and the arguments in
// $MGTRIAGE_OVERVIEW_CHILD, with no delay before the progress: the overview
// can then show from the first object read on.
func TestOverviewChild(t *testing.T) {
	enc := os.Getenv(overviewChildEnv)
	if enc == "" {
		t.Skip("subprocess helper of TestOverviewOnATerminal")
	}
	var args []string
	if err := json.Unmarshal([]byte(enc), &args); err != nil {
		fmt.Fprintln(os.Stderr, "bad", overviewChildEnv, err)
		os.Exit(3)
	}
	streams := systemStreams()
	streams.ProgressDelay = 0
	os.Exit(Main(args, streams))
}

// overviewLogChunks is the size, in MiB, of the container log that follows
// the overview's objects in TestOverviewOnATerminal's archive: reading it
// takes several frames of the bar (progressRefresh), where reading the
// objects takes none.
const overviewLogChunks = 160

// overviewArchive writes a must-gather .tar.gz whose ClusterVersion,
// ClusterOperators, Nodes (one NotReady) and pods (one crash-looping, one
// whose name holds terminal escapes) come first, and then a container log
// of chunks MiB: the objects are read long before the reading ends. The log is one precomputed gzip member of a MiB of lines written
// again and again (gzip allows concatenated members), so writing it costs
// next to nothing.
func overviewArchive(t *testing.T, chunks int) string {
	t.Helper()
	const mg = "must-gather.local.1/quay-io-image/"
	var objects, logs []tarMember
	for _, m := range smallGather("must-gather.local.1/") {
		if strings.HasSuffix(m.Name, ".log") {
			logs = append(logs, m)
		} else {
			objects = append(objects, m)
		}
	}
	objects = append(objects,
		tarMember{Name: mg + "cluster-scoped-resources/config.openshift.io/clusteroperators.yaml", Body: `apiVersion: config.openshift.io/v1
items:
- apiVersion: config.openshift.io/v1
  kind: ClusterOperator
  metadata:
    name: authentication
  status:
    conditions:
    - type: Available
      status: "True"
    - type: Degraded
      status: "True"
      message: OAuth server unreachable
- apiVersion: config.openshift.io/v1
  kind: ClusterOperator
  metadata:
    name: console
  status:
    conditions:
    - type: Available
      status: "False"
    - type: Degraded
      status: "False"
- apiVersion: config.openshift.io/v1
  kind: ClusterOperator
  metadata:
    name: dns
  status:
    conditions:
    - type: Available
      status: "True"
    - type: Degraded
      status: "False"
kind: ClusterOperatorList
`},
		tarMember{Name: mg + "cluster-scoped-resources/core/nodes/worker-1.yaml", Body: "apiVersion: v1\nkind: Node\nmetadata:\n  name: worker-1\nstatus:\n  conditions:\n  - type: Ready\n    status: \"False\"\n    reason: KubeletNotReady\n"},
		tarMember{Name: mg + "namespaces/evil/core/pods.yaml", Body: podList(strings.Replace(crashPod("x", "evil", 2), "name: x\n", "name: \"\\e]0;pwned\\a\\e[31mevil-pod\"\n", 1))},
	)

	// A MiB of log lines, the last one padded to fill it.
	var chunk bytes.Buffer
	for i := 0; chunk.Len() < 1<<20-200; i++ {
		fmt.Fprintf(&chunk, "2026-11-20T09:%02d:%02d.%09dZ I1120 reconcile loop %d: synced 42 objects in namespace shop\n", i/60%60, i%60, i, i)
	}
	chunk.WriteString(strings.Repeat(" ", 1<<20-1-chunk.Len()) + "\n")
	gzChunk := gzBytes(chunk.Bytes())

	path := filepath.Join(t.TempDir(), "gather.tar.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// The tar goes through sw: into a gzip member, but for the log's body,
	// whose chunks go as the precomputed member.
	sw := &switchWriter{w: gzip.NewWriter(f)}
	tw := tar.NewWriter(sw)
	add := func(ms []tarMember) {
		for _, m := range ms {
			if err := tw.WriteHeader(&tar.Header{Name: m.Name, Mode: 0o644, Size: int64(len(m.Body)), Typeflag: tar.TypeReg}); err != nil {
				t.Fatal(err)
			}
			if _, err := io.WriteString(tw, m.Body); err != nil {
				t.Fatal(err)
			}
		}
	}
	add(objects)
	if err := tw.WriteHeader(&tar.Header{Name: mg + "namespaces/shop/pods/catalog-1/catalog/catalog/logs/current.log", Mode: 0o644, Size: int64(chunks) << 20, Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	if err := sw.w.(*gzip.Writer).Close(); err != nil {
		t.Fatal(err)
	}
	sw.w = chunkWriter{f: f, chunk: chunk.Bytes(), gz: gzChunk}
	for range chunks {
		if _, err := tw.Write(chunk.Bytes()); err != nil {
			t.Fatal(err)
		}
	}
	zw := gzip.NewWriter(f)
	sw.w = zw
	add(logs)
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// switchWriter writes to w, which the writer of overviewArchive changes.
type switchWriter struct{ w io.Writer }

func (s *switchWriter) Write(b []byte) (int, error) { return s.w.Write(b) }

// chunkWriter takes writes of chunk and writes gz, chunk as a gzip member,
// in their place.
type chunkWriter struct {
	f         io.Writer
	chunk, gz []byte
}

func (c chunkWriter) Write(b []byte) (int, error) {
	if !bytes.Equal(b, c.chunk) {
		return 0, fmt.Errorf("chunkWriter: a write of %d bytes that is not the chunk", len(b))
	}
	if _, err := c.f.Write(c.gz); err != nil {
		return 0, err
	}
	return len(b), nil
}

// runOverviewChild runs Main in a subprocess (TestOverviewChild) on args
// with stdout to a pipe and stderr to a pseudo-terminal when onTerminal,
// else to a pipe. It returns the exit code, stdout and stderr.
func runOverviewChild(t *testing.T, onTerminal bool, args ...string) (int, string, string) {
	t.Helper()
	enc, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^TestOverviewChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), overviewChildEnv+"="+string(enc), "NO_COLOR=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	if !onTerminal {
		cmd.Stderr = &stderr
		err := cmd.Run()
		return exitCode(t, err), stdout.String(), stderr.String()
	}
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal on this machine: %v", err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 160}); err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = tty
	if err := cmd.Start(); err != nil {
		tty.Close()
		t.Fatal(err)
	}
	tty.Close() // the child holds it now: its exit ends the reads below
	read := make(chan struct{})
	go func() {
		io.Copy(&stderr, ptmx) // ends with EIO once the child has exited
		close(read)
	}()
	err = cmd.Wait()
	<-read
	return exitCode(t, err), stdout.String(), stderr.String()
}

func exitCode(t *testing.T, err error) int {
	t.Helper()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0
}

// overviewWant is the overview of overviewArchive, line by line.
var overviewWant = []string{
	"cluster   version 4.18.12",
	"nodes     2 nodes, 1 NotReady: worker-1",
	"operators 3 ClusterOperators, 1 degraded: authentication; 1 unavailable: console",
	"pods      2 pods, 2 not healthy so far: evil/evil-pod CrashLoopBackOff, shop/catalog-1 CrashLoopBackOff",
}

// checkOverview checks that stderr, a terminal's output, shows every line
// of overviewWant before the bar's last line ("done!", the end of the
// reading), which comes before the run's summary, and no escape from a
// name in the gather. It returns how long the bar says the reading took.
func checkOverview(t *testing.T, stderr string) time.Duration {
	t.Helper()
	end := strings.Index(stderr, "done!")
	summary := strings.Index(stderr, "analyze: done in")
	if end < 0 || summary < end {
		t.Fatalf("the bar's last line (done!) then the run's summary should end stderr:\n%q", cut(stderr))
	}
	for _, want := range overviewWant {
		if i := strings.Index(stderr, want); i < 0 || i > end {
			t.Errorf("%q is not shown before the reading ends (at %d, done! at %d); stderr:\n%q", want, i, end, cut(stderr))
		}
	}
	if strings.Contains(stderr, "pwned") || strings.Contains(stderr, "\x1b[31m") || strings.Contains(stderr, "\x1b]") {
		t.Errorf("a pod name's terminal escapes reached the terminal:\n%q", cut(stderr))
	}
	m := regexp.MustCompile(`done! \[[^\]]* in ([0-9.]+m?s)`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no time on the bar's last line:\n%q", cut(stderr))
	}
	took, err := time.ParseDuration(m[1])
	if err != nil {
		t.Fatal(err)
	}
	return took
}

// TestOverviewOnATerminal runs analyze with stderr on a pseudo-terminal on
// a gather whose objects come before most of its bytes: the overview of
// those objects (cluster version, the NotReady node, the degraded and
// unavailable ClusterOperators, the pods not healthy with their STATUS)
// shows on stderr while the log is read, before the bar says the reading is
// done, with the names from the gather cleaned of terminal escapes. Without
// a terminal, stderr has no overview and no bar; stdout and the reports are
// the same either way.
func TestOverviewOnATerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a gather of 160 MiB in two subprocesses")
	}
	archive := overviewArchive(t, overviewLogChunks)
	outTerm, outPlain := filepath.Join(t.TempDir(), "term"), filepath.Join(t.TempDir(), "plain")

	code, stdoutTerm, stderrTerm := runOverviewChild(t, true, archive, "-o", outTerm)
	if code != 0 {
		t.Fatalf("on a terminal: exit %d, stderr:\n%q", code, cut(stderrTerm))
	}
	took := checkOverview(t, stderrTerm)
	// While the log is read: a frame shows the overview above a bar that
	// is not at its end. A machine that reads the whole gather within a few
	// frames cannot show it.
	switch midRead := regexp.MustCompile(`not healthy so far[^\n]*\r?\n *\d{1,2}\.\d\d% `).MatchString(stderrTerm); {
	case !midRead && took >= 4*progressRefresh:
		t.Errorf("the reading took %s, and no frame shows the overview above a bar short of 100%%:\n%q", took, cut(stderrTerm))
	case !midRead:
		t.Logf("the reading took %s, too short to see the overview while the log is read", took)
	}

	code, stdoutPlain, stderrPlain := runOverviewChild(t, false, archive, "-o", outPlain)
	if code != 0 {
		t.Fatalf("without a terminal: exit %d, stderr:\n%s", code, stderrPlain)
	}
	if !regexp.MustCompile(`^analyze: done in [^\n]*; reports in [^\n]*\n$`).MatchString(stderrPlain) {
		t.Errorf("without a terminal stderr should hold the run's summary alone:\n%q", stderrPlain)
	}
	if stdoutTerm != stdoutPlain {
		t.Errorf("stdout differs with stderr on a terminal:\n%s\nwithout:\n%s", stdoutTerm, stdoutPlain)
	}
	for _, f := range []string{"report.md", "report.html", "report.json"} {
		a, errA := os.ReadFile(filepath.Join(outTerm, f))
		b, errB := os.ReadFile(filepath.Join(outPlain, f))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs with the overview on a terminal and without (%v, %v)", f, errA, errB)
		}
	}
}

// TestOverviewOfAShortRead: a read that ends before the first frame still
// shows the whole overview once, before the bar's last line.
func TestOverviewOfAShortRead(t *testing.T) {
	archive := overviewArchive(t, 0)
	code, _, stderr := runOverviewChild(t, true, archive, "-o", filepath.Join(t.TempDir(), "out"))
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%q", code, cut(stderr))
	}
	checkOverview(t, stderr)
}

// cut is the last 4 KiB of a terminal's output, for a failure message.
func cut(s string) string {
	return s[max(0, len(s)-4096):]
}
