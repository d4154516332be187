package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// testRunID is the run ID of every in-process run of the tests, so that
// golden files and two runs of one input stay byte for byte the same.
const testRunID = "20261120T091233Z-00000000"

func TestMain(m *testing.M) {
	newRunID = func() string { return testRunID }
	os.Exit(m.Run())
}

// withHooks sets the write-phase seams of the in-process runs of t.
func withHooks(t *testing.T, h writeHooks) {
	t.Helper()
	old := defaultHooks
	defaultHooks = h
	t.Cleanup(func() { defaultHooks = old })
}

// oldSet plants an earlier set of reports in dir (short texts, so that a
// test can tell them from new ones) and returns it.
func oldSet(t *testing.T, dir string, formats ...string) map[string]string {
	t.Helper()
	if len(formats) == 0 {
		formats = defaultFormats
	}
	files := map[string]string{}
	for _, f := range formats {
		files["report."+f] = "old report." + f + " of another gather\n"
	}
	writeFiles(t, dir, files)
	return files
}

// folderFiles maps each file name in dir (hidden ones included) to its
// content; nil when dir does not exist.
func folderFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		out[e.Name()] = string(b)
	}
	return out
}

// failingWriter fails with ENOSPC once n bytes were written through it.
type failingWriter struct {
	w io.Writer
	n int
}

func (f *failingWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k, _ := f.w.Write(p[:f.n])
		f.n = 0
		return k, &os.PathError{Op: "write", Path: "report", Err: syscall.ENOSPC}
	}
	f.n -= len(p)
	return f.w.Write(p)
}

// TestDiskFullLeavesOldSet (issue 34, item 1): the disk fills up while one
// format is written: exit 3 saying so, the earlier set exactly as it was,
// no temporary file, no lock file, and the user's other files untouched.
func TestDiskFullLeavesOldSet(t *testing.T) {
	gather := tinyGather(t)
	for _, failing := range knownFormats {
		t.Run(failing, func(t *testing.T) {
			out := t.TempDir()
			want := oldSet(t, out, knownFormats...)
			want["notes.txt"] = "the user's own file"
			writeFiles(t, out, map[string]string{"notes.txt": want["notes.txt"]})
			withHooks(t, writeHooks{wrap: func(format string, w io.Writer) io.Writer {
				if format == failing {
					return &failingWriter{w: w, n: 1000}
				}
				return w
			}})
			code, _, stderr := run(t, gather, "-o", out, "--format", strings.Join(knownFormats, ","))
			if code != exitWrite {
				t.Errorf("exit %d, want %d", code, exitWrite)
			}
			for _, s := range []string{"write report." + failing, "no space left on device", "the disk is full", "left as they were"} {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
			if diff := cmp.Diff(want, folderFiles(t, out)); diff != "" {
				t.Errorf("output folder changed (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRenameFailsMidSwap: a rename failing while the new files move in
// puts the earlier set back (and a narrower earlier set stays narrow).
func TestRenameFailsMidSwap(t *testing.T) {
	gather := tinyGather(t)
	for _, tc := range []struct {
		name   string
		old    []string
		failAt int // the rename into place that fails, from 1
	}{
		{"first new file", defaultFormats, 1},
		{"last new file", defaultFormats, 3},
		{"old set of one format", []string{"json"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			want := oldSet(t, out, tc.old...)
			n := 0
			renameHook = func(from, to string) error {
				if n++; n == tc.failAt {
					return &os.LinkError{Op: "rename", Old: from, New: to, Err: syscall.EIO}
				}
				return os.Rename(from, to)
			}
			t.Cleanup(func() { renameHook = os.Rename })
			code, _, stderr := run(t, gather, "-o", out)
			if code != exitWrite || !strings.Contains(stderr, "into place") {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitWrite, stderr)
			}
			if diff := cmp.Diff(want, folderFiles(t, out)); diff != "" {
				t.Errorf("output folder is not the old set (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNarrowerFormatRemovesStaleFormat: --format json after a run of all
// three removes report.md and report.html with the swap, and nothing else
// of the folder.
func TestNarrowerFormatRemovesStaleFormat(t *testing.T) {
	out := t.TempDir()
	oldSet(t, out)
	user := map[string]string{"report.txt": "mine", ".report-notes": "mine too", "diff.md": "a diff of mine", "report.md.bak": "kept"}
	writeFiles(t, out, user)
	code, _, stderr := run(t, tinyGather(t), "-o", out, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := folderFiles(t, out)
	for name, body := range user {
		if got[name] != body {
			t.Errorf("%s of the user changed: %q", name, got[name])
		}
		delete(got, name)
	}
	if _, ok := got["report.json"]; !ok || len(got) != 1 {
		t.Errorf("want report.json alone beside the user's files, got %v", keys(got))
	}
	for _, f := range []string{"report.md", "report.html"} {
		if !strings.Contains(stderr, "removed "+filepath.Join(out, f)+" from an earlier run") {
			t.Errorf("stderr does not say %s was removed:\n%s", f, stderr)
		}
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestStaleTempFilesRemovedAtStart: temporary and backup files of runs that
// are gone, and the ".report-NNN" files of earlier versions, are removed at
// the start of the next run; files of the user that only look alike are not.
func TestStaleTempFilesRemovedAtStart(t *testing.T) {
	out := t.TempDir()
	dead, dead2 := "20260101T000000Z-deadbeef", "20260102T000000Z-0badf00d"
	ours := map[string]string{
		".mgtriage-tmp-" + dead + "-report.json": "half a report",
		".mgtriage-tmp-" + dead + "-diff.html":   "half a diff",
		".mgtriage-old-" + dead2 + "-report.md":  "a backup whose swap ended",
		".report-3829104756":                     "a temporary file of an earlier version",
		".write-check-12345":                     "",
	}
	user := map[string]string{
		".report-draft":              "mine",
		".mgtriage-tmp-notes":        "mine",
		".mgtriage-tmp-x-report.txt": "mine",
		".mgtriage-lockfile":         "mine",
	}
	writeFiles(t, out, ours)
	writeFiles(t, out, user)
	var seen map[string]string
	withHooks(t, writeHooks{pause: func(_ context.Context, stage string) {
		if stage == "lock" {
			seen = folderFiles(t, out)
		}
	}})
	code, _, stderr := run(t, tinyGather(t), "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := map[string]string{lockName: "pid " + fmt.Sprint(os.Getpid()) + " run " + testRunID + "\n"}
	for k, v := range user {
		want[k] = v
	}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("after the start, before the input is read (-want +got):\n%s", diff)
	}
	if !strings.Contains(stderr, "removed 5 temporary files left in") {
		t.Errorf("stderr does not count what was removed:\n%s", stderr)
	}
	got := folderFiles(t, out)
	for k := range user {
		delete(got, k)
	}
	if len(got) != 3 {
		t.Errorf("want the three reports beside the user's files, got %v", keys(got))
	}
}

// TestSwapOfDeadRunRolledBack: a run that died inside its swap (report.md
// and report.html moved aside, its new report.md moved in, report.json not
// yet) is rolled back by the next run before it reads anything.
func TestSwapOfDeadRunRolledBack(t *testing.T) {
	out := t.TempDir()
	dead := "20260101T000000Z-deadbeef"
	writeFiles(t, out, map[string]string{
		".mgtriage-old-" + dead + "-report.md":   "old md",
		".mgtriage-old-" + dead + "-report.html": "old html",
		"report.md":                              "<!-- mgtriage run " + dead + " -->\n# new md\n",
		".mgtriage-tmp-" + dead + "-report.html": "new html",
		".mgtriage-tmp-" + dead + "-report.json": "new json",
		"report.json":                            "old json",
	})
	var seen map[string]string
	withHooks(t, writeHooks{pause: func(_ context.Context, stage string) {
		if stage == "lock" {
			seen = folderFiles(t, out)
			delete(seen, lockName)
		}
	}})
	code, _, stderr := run(t, tinyGather(t), "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := map[string]string{"report.md": "old md", "report.html": "old html", "report.json": "old json"}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("the dead run's swap was not rolled back (-want +got):\n%s", diff)
	}
	if !strings.Contains(stderr, "stopped while replacing the reports") {
		t.Errorf("stderr does not say so:\n%s", stderr)
	}
}

// TestOutputInsideInputNotReadBack (issue 34, item 8): an -o inside the
// input folder is not read as input by the next run: both runs give the same
// reports.
func TestOutputInsideInputNotReadBack(t *testing.T) {
	gather := tinyGather(t)
	out := filepath.Join(gather, "reports")
	var first map[string]string
	for i := range 2 {
		code, _, stderr := run(t, gather, "-o", out)
		if code != 0 {
			t.Fatalf("run %d: exit %d: %s", i+1, code, stderr)
		}
		got := folderFiles(t, out)
		if len(got) != 3 {
			t.Fatalf("run %d wrote %v", i+1, keys(got))
		}
		if i == 0 {
			first = got
			continue
		}
		if diff := cmp.Diff(first["report.json"], got["report.json"]); diff != "" {
			t.Errorf("the second run read the first one's reports (-first +second):\n%s", diff)
		}
	}
	// The same through another path to the same folder.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(out, link); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, gather, "-o", link); code != 0 {
		t.Fatal(stderr)
	}
	if got := folderFiles(t, out)["report.json"]; got != first["report.json"] {
		t.Errorf("-o through a link was read back:\n%s", cmp.Diff(first["report.json"], got))
	}
}

// TestOutputPathMessages: a dangling symlink as -o says so (not "mkdir …:
// file exists"); a refused run leaves no folder it created.
func TestOutputPathMessages(t *testing.T) {
	dir := t.TempDir()
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "gone", "reports"), dangling); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := run(t, tinyGather(t), "-o", dangling)
	if code != exitWrite || !strings.Contains(stderr, "is a symbolic link to") || !strings.Contains(stderr, "which does not exist") || strings.Contains(stderr, "file exists") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	fresh := filepath.Join(dir, "fresh")
	code, _, stderr = run(t, filepath.Join(dir, "no-such-gather"), "-o", fresh)
	if code != exitInput {
		t.Errorf("exit %d: %s", code, stderr)
	}
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	code, _, _ = run(t, empty, "-o", fresh)
	if code != exitInput {
		t.Errorf("an empty input: exit %d", code)
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Errorf("a refused run left the -o folder it created: %v", err)
	}
}

// TestSignalInProcess: SIGINT while the set is written in process: exit 130,
// a new -o folder removed again, nothing left.
func TestSignalInProcess(t *testing.T) {
	out := filepath.Join(t.TempDir(), "new")
	withHooks(t, writeHooks{pause: func(ctx context.Context, stage string) {
		if stage != "swap" {
			return
		}
		syscall.Kill(os.Getpid(), syscall.SIGINT)
		<-ctx.Done()
	}})
	code, _, stderr := run(t, tinyGather(t), "-o", out)
	if code != 130 || !strings.Contains(stderr, "stopped by SIGINT before the reports were replaced") {
		t.Errorf("exit %d, want 130; stderr:\n%s", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the -o folder this run created is left: %v %v", err, folderFiles(t, out))
	}
}

// --- the built binary, for signals and two runs at once ---

// setRunIDs reads the run ID each report file of dir carries; "" for a
// file without one, "missing" for a file that is not there.
func setRunIDs(t *testing.T, dir string) map[string]string {
	t.Helper()
	res := map[string]*regexp.Regexp{
		"report.json": regexp.MustCompile(`"run": \{\s*"id": "([^"]+)"`),
		"report.md":   regexp.MustCompile(`\A<!-- mgtriage run (\S+) -->`),
		"report.html": regexp.MustCompile(`<meta name="mgtriage-run" content="([^"]+)">`),
	}
	out := map[string]string{}
	for name, re := range res {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			out[name] = "missing"
			continue
		}
		if m := re.FindSubmatch(b); m != nil {
			out[name] = string(m[1])
		} else {
			out[name] = ""
		}
	}
	return out
}

// oneSet fails t unless the three reports of dir carry one run ID; it
// returns that ID.
func oneSet(t *testing.T, dir string) string {
	t.Helper()
	ids := setRunIDs(t, dir)
	id := ids["report.json"]
	if id == "" || id == "missing" || ids["report.md"] != id || ids["report.html"] != id {
		t.Errorf("%s does not hold one set: %v", dir, ids)
	}
	return id
}

// bgRun is the binary running with its write phase paused on request.
type bgRun struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr *bytes.Buffer
	done   chan struct{}
	code   int
}

// startBinary starts bin on args with testHooksEnv set to hooks.
func startBinary(t *testing.T, bin, hooks string, args ...string) *bgRun {
	t.Helper()
	r := &bgRun{cmd: exec.Command(bin, args...), lines: make(chan string, 100), stderr: &bytes.Buffer{}, done: make(chan struct{})}
	r.cmd.Env = append(os.Environ(), testHooksEnv+"="+hooks)
	var err error
	if r.stdin, err = r.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	pipe, err := r.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			r.stderr.WriteString(sc.Text() + "\n")
			select {
			case r.lines <- sc.Text():
			default:
			}
		}
		err := r.cmd.Wait()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			r.code = exit.ExitCode()
		}
		close(r.lines)
		close(r.done)
	}()
	t.Cleanup(func() {
		r.cmd.Process.Kill()
		<-r.done
	})
	return r
}

// waitFor returns once the run prints a line holding s on stderr; it fails
// t when the run ends first (or after a minute, a hung run).
func (r *bgRun) waitFor(t *testing.T, s string) {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		select {
		case line, ok := <-r.lines:
			if !ok {
				t.Fatalf("the run ended (exit %d) before printing %q:\n%s", r.code, s, r.stderr)
			}
			if strings.Contains(line, s) {
				return
			}
		case <-timeout:
			t.Fatalf("no %q on stderr after a minute", s)
		}
	}
}

// wait waits for the run's end and returns its exit code and stderr.
func (r *bgRun) wait() (int, string) {
	for range r.lines {
	}
	<-r.done
	return r.code, r.stderr.String()
}

// TestReportSetBinary runs the built binary: a signal while the set is
// written leaves the old set exactly as it was (and removes a new -o
// folder), and two runs on one -o end with one consistent set. The pause
// seam holds a run between its temporary files and its swap, so the runs
// overlap the same way every time.
func TestReportSetBinary(t *testing.T) {
	bin := buildAnalyze(t)
	gather := tinyGather(t)
	for _, tc := range []struct {
		name string
		sig  syscall.Signal
		code int
	}{
		{"SIGINT", syscall.SIGINT, 130},
		{"SIGTERM", syscall.SIGTERM, 143},
	} {
		t.Run(tc.name+" while writing", func(t *testing.T) {
			out := t.TempDir()
			want := oldSet(t, out)
			r := startBinary(t, bin, "pause=swap", gather, "-o", out)
			r.waitFor(t, "test pause: swap")
			mid := folderFiles(t, out)
			if len(mid) != 7 { // the old set, three temporary files, the lock
				t.Errorf("paused before the swap, the folder holds %v", keys(mid))
			}
			r.cmd.Process.Signal(tc.sig)
			code, stderr := r.wait()
			if code != tc.code || !strings.Contains(stderr, "stopped by "+tc.name+" before the reports were replaced") {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			if diff := cmp.Diff(want, folderFiles(t, out)); diff != "" {
				t.Errorf("the old set changed (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("SIGINT while reading, new -o", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "new")
		r := startBinary(t, bin, "pause=lock", gather, "-o", out)
		r.waitFor(t, "test pause: lock")
		r.cmd.Process.Signal(syscall.SIGINT)
		if code, stderr := r.wait(); code != 130 {
			t.Errorf("exit %d:\n%s", code, stderr)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("the interrupted run left its new -o: %v", folderFiles(t, out))
		}
	})
	t.Run("two runs, the second refused", func(t *testing.T) {
		out := t.TempDir()
		a := startBinary(t, bin, "pause=swap", gather, "-o", out)
		a.waitFor(t, "test pause: swap")
		b := startBinary(t, bin, "lockwait=100ms", gather, "-o", out, "--format", "md")
		codeB, stderrB := b.wait()
		wantMsg := fmt.Sprintf("is in use by another run of mgtriage (pid %d)", a.cmd.Process.Pid)
		if codeB != exitWrite || !strings.Contains(stderrB, wantMsg) {
			t.Errorf("second run: exit %d, want %d with %q:\n%s", codeB, exitWrite, wantMsg, stderrB)
		}
		a.stdin.Write([]byte("\n"))
		if code, stderr := a.wait(); code != 0 {
			t.Fatalf("first run: exit %d:\n%s", code, stderr)
		}
		oneSet(t, out)
		if got := folderFiles(t, out); len(got) != 3 {
			t.Errorf("want the three reports alone, got %v", keys(got))
		}
	})
	t.Run("two runs, the second waits", func(t *testing.T) {
		out := t.TempDir()
		a := startBinary(t, bin, "pause=swap", gather, "-o", out)
		a.waitFor(t, "test pause: swap")
		b := startBinary(t, bin, "lockwait=10m", gather, "-o", out)
		b.waitFor(t, "waiting up to")
		a.stdin.Write([]byte("\n"))
		codeA, stderrA := a.wait()
		codeB, stderrB := b.wait()
		if codeA != 0 || codeB != 0 {
			t.Fatalf("exit %d and %d:\n%s\n%s", codeA, codeB, stderrA, stderrB)
		}
		id := oneSet(t, out)
		if !strings.HasPrefix(id, time.Now().UTC().Format("2006")) {
			t.Errorf("run id %q is not a run of the binary", id)
		}
		if got := folderFiles(t, out); len(got) != 3 {
			t.Errorf("want the three reports alone, got %v", keys(got))
		}
	})
}

// TestDiffWritesOneSet: analyze diff writes diff.* through the same swap: a
// full disk leaves the earlier diff set, a narrower --format removes the
// stale formats, and every file carries the run ID.
func TestDiffWritesOneSet(t *testing.T) {
	out := t.TempDir()
	withHooks(t, writeHooks{wrap: func(format string, w io.Writer) io.Writer {
		if format == "html" {
			return &failingWriter{w: w, n: 100}
		}
		return w
	}})
	writeFiles(t, out, map[string]string{"diff.md": "old diff", "diff.json": "{}"})
	code, _, stderr := run(t, "diff", changesOld, changesNew, "-o", out)
	if code != exitWrite || !strings.Contains(stderr, "write diff.html") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	if diff := cmp.Diff(map[string]string{"diff.md": "old diff", "diff.json": "{}"}, folderFiles(t, out)); diff != "" {
		t.Errorf("the earlier diff set changed (-want +got):\n%s", diff)
	}
	withHooks(t, writeHooks{})
	if code, _, stderr := run(t, "diff", changesOld, changesNew, "-o", out, "--format", "json,html"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := folderFiles(t, out)
	if len(got) != 2 || !strings.Contains(got["diff.json"], `"id": "`+testRunID+`"`) || !strings.Contains(got["diff.html"], `<meta name="mgtriage-run" content="`+testRunID+`">`) {
		t.Errorf("want diff.json and diff.html of this run alone, got %v", keys(got))
	}
}

// TestSignalExitCodesDocumented: --help and README.md name 130 and 143.
func TestSignalExitCodesDocumented(t *testing.T) {
	_, help, _ := run(t, "--help")
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"130", "143"} {
		if !strings.Contains(help, c) || !strings.Contains(string(readme), "`"+c+"`") {
			t.Errorf("exit code %s is not documented in --help and README.md", c)
		}
	}
}

// TestPlantedLockLink: a symbolic link at the lock file's name is not
// followed: the run refuses (exit 3) and its target is left as it was.
func TestPlantedLockLink(t *testing.T) {
	out := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim.txt")
	writeFiles(t, filepath.Dir(victim), map[string]string{"victim.txt": "keep me"})
	if err := os.Symlink(victim, filepath.Join(out, lockName)); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := run(t, tinyGather(t), "-o", out)
	if code != exitWrite || !strings.Contains(stderr, "not the lock file of mgtriage") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me" {
		t.Errorf("the link's target was written: %q", b)
	}
}
