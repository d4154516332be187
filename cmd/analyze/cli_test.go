package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mgtriage/mgtriage/rules"
)

// runWithin is run with a deadline: a command that reads a FIFO nobody
// writes to would block, which is how the tests below prove that a check
// happens before the input is read.
func runWithin(t *testing.T, d time.Duration, args ...string) (int, string, string) {
	t.Helper()
	type result struct {
		code        int
		out, errOut string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errOut := run(t, args...)
		done <- result{code, out, errOut}
	}()
	select {
	case r := <-done:
		return r.code, r.out, r.errOut
	case <-time.After(d):
		t.Fatalf("analyze %q did not return within %s: it read the input before checking its flags", args, d)
	}
	return 0, "", ""
}

// fifoInput is a named pipe nobody writes to: reading it blocks.
func fifoInput(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "gather.tar.gz")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	return p
}

func TestFlagsCheckedBeforeReading(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "report.txt")
	must(t, os.WriteFile(file, []byte("x"), 0o644))
	tests := []struct {
		name string
		args []string
		msg  string
	}{
		{"--redact-map without --redact", []string{"-o", filepath.Join(dir, "out"), "--redact-map", filepath.Join(dir, "map.json")}, "--redact-map needs --redact"},
		{"-o empty", []string{"-o", ""}, "names no folder"},
		{"--fail-on unknown", []string{"-o", filepath.Join(dir, "out"), "--fail-on", "urgent"}, "--fail-on \"urgent\""},
		{"--max-read bad", []string{"-o", filepath.Join(dir, "out"), "--max-read", "lots"}, "--max-read"},
		{"--top negative", []string{"-o", filepath.Join(dir, "out"), "--top", "-1"}, "--top"},
		{"--rules not valid", []string{"-o", filepath.Join(dir, "out"), "--rules", file}, "not valid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runWithin(t, 20*time.Second, append(tt.args, fifoInput(t))...)
			if code != exitUsage || !strings.Contains(stderr, tt.msg) {
				t.Errorf("exit %d, want %d with %q; stderr:\n%s", code, exitUsage, tt.msg, stderr)
			}
		})
	}
}

// TestUnwritableOutputBeforeReading: an -o or --redact-map path the file
// system refuses is the README's exit 3 ("reports not written: the output
// folder or --redact-map file could not be written"), for analyze and diff
// alike, found before any input is read (the input is a FIFO nobody writes)
// and leaving no output folder behind.
func TestUnwritableOutputBeforeReading(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "report.txt")
	must(t, os.WriteFile(file, []byte("x"), 0o644))
	out := filepath.Join(dir, "out")
	tests := []struct {
		name string
		args func(in string) []string
		msg  string
	}{
		{"analyze -o names an existing file", func(in string) []string { return []string{"-o", file, in} }, `-o "` + file + `" is an existing file, not a folder; name a folder for report.md`},
		{"diff -o names an existing file", func(in string) []string { return []string{"diff", "-o", file, in, in} }, `-o "` + file + `" is an existing file, not a folder; name a folder for diff.md`},
		{"-o under a file", func(in string) []string { return []string{"-o", filepath.Join(file, "out"), in} }, "cannot create the output folder"},
		{"diff -o under a file", func(in string) []string { return []string{"diff", "-o", filepath.Join(file, "out"), in, in} }, "cannot create the output folder"},
		{"--redact-map is a folder", func(in string) []string { return []string{"-o", out, "--redact", "--redact-map", dir, in} }, "is a folder"},
		{"--redact-map in a missing folder", func(in string) []string {
			return []string{"-o", out, "--redact", "--redact-map", filepath.Join(dir, "no", "map.json"), in}
		}, "cannot be written: its folder " + filepath.Join(dir, "no") + " does not exist"},
		{"--redact-map under a file", func(in string) []string {
			return []string{"-o", out, "--redact", "--redact-map", filepath.Join(file, "map.json"), in}
		}, "cannot be written"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runWithin(t, 20*time.Second, tt.args(fifoInput(t))...)
			if code != exitWrite || !strings.Contains(stderr, tt.msg) || strings.Count(stderr, "analyze:") != 1 {
				t.Errorf("exit %d, want %d with %q; stderr:\n%s", code, exitWrite, tt.msg, stderr)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("the output folder %s was left behind", out)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	table := rules.Builtin()
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, stderr := run(t, args...)
		if code != exitOK {
			t.Errorf("%q: exit %d: %s", args, code, stderr)
		}
		for _, want := range []string{"mgtriage analyze " + version, "rule table " + table.Version, "report schema"} {
			if !strings.Contains(out, want) {
				t.Errorf("%q prints %q, want it to hold %q", args, out, want)
			}
		}
	}
}

func TestFailOnAnyCase(t *testing.T) {
	for _, sev := range []string{"HIGH", "High", "high", " high "} {
		code, _, stderr := run(t, tinyGather(t), "-o", filepath.Join(t.TempDir(), "out"), "--fail-on", sev)
		if code != exitFindings {
			t.Errorf("--fail-on %q with a high finding: exit %d (%s)", sev, code, stderr)
		}
	}
	if code, _, stderr := run(t, tinyGather(t), "-o", filepath.Join(t.TempDir(), "out"), "--fail-on", "CRITICAL"); code != exitOK {
		t.Errorf("--fail-on CRITICAL without a critical finding: exit %d (%s)", code, stderr)
	}
}

// TestExitCodes gives each documented exit code a run that ends with it, and
// checks that --help and README.md document every one.
func TestExitCodes(t *testing.T) {
	blocked := filepath.Join(t.TempDir(), "out")
	// report.md and diff.md as folders: the report cannot be renamed over them.
	must(t, os.MkdirAll(filepath.Join(blocked, "report.md", "x"), 0o755))
	must(t, os.MkdirAll(filepath.Join(blocked, "diff.md", "x"), 0o755))
	must(t, os.WriteFile(filepath.Join(blocked, "file"), []byte("x"), 0o644))
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"ok", []string{tinyGather(t), "-o", filepath.Join(t.TempDir(), "out")}, exitOK},
		{"--fail-on reached", []string{tinyGather(t), "-o", filepath.Join(t.TempDir(), "out"), "--fail-on", "high"}, exitFindings},
		{"input missing", []string{filepath.Join(t.TempDir(), "nope.tar.gz"), "-o", filepath.Join(t.TempDir(), "out")}, exitInput},
		{"no gather in input", []string{t.TempDir(), "-o", filepath.Join(t.TempDir(), "out")}, exitInput},
		{"reports not written", []string{tinyGather(t), "-o", blocked, "--format", "md"}, exitWrite},
		{"-o is an existing file", []string{tinyGather(t), "-o", filepath.Join(blocked, "file")}, exitWrite},
		{"--redact-map not writable", []string{tinyGather(t), "-o", filepath.Join(t.TempDir(), "out"), "--redact", "--redact-map", filepath.Join(t.TempDir(), "no", "map.json")}, exitWrite},
		{"diff: -o is an existing file", []string{"diff", tinyGather(t), tinyGather(t), "-o", filepath.Join(blocked, "file")}, exitWrite},
		{"diff: reports not written", []string{"diff", tinyGather(t), tinyGather(t), "-o", blocked, "--format", "md"}, exitWrite},
		{"--strict: upload damaged", []string{damagedUpload(t), "-o", filepath.Join(t.TempDir(), "out"), "--strict"}, exitDamaged},
		{"unknown flag", []string{"--nope", tinyGather(t)}, exitUsage},
		{"two paths", []string{tinyGather(t), tinyGather(t)}, exitUsage},
	}
	seen := map[int]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := run(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			seen[code] = true
		})
	}
	if len(seen) != 6 {
		t.Errorf("the exit codes are not distinct: %v", seen)
	}
	_, help, _ := run(t, "--help")
	readme, err := os.ReadFile("../../README.md")
	must(t, err)
	for _, c := range []string{"0", "1", "2", "3", "4", "64", "70"} { // 70: TestGuardedPanic
		if !strings.Contains(help, "\n  "+c+" ") {
			t.Errorf("--help does not document exit code %s:\n%s", c, help)
		}
		if !strings.Contains(string(readme), "| `"+c+"` |") {
			t.Errorf("README.md does not document exit code %s", c)
		}
	}
}

// TestIsTerminal: /dev/null is a character device but not a terminal, so
// output sent there gets no colour and no terminal width.
func TestIsTerminal(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer null.Close()
	if fi, err := null.Stat(); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Skipf("%s is not a character device here", os.DevNull)
	}
	if isTerminal(null) {
		t.Errorf("%s counts as a terminal", os.DevNull)
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	must(t, err)
	defer f.Close()
	if isTerminal(f) {
		t.Errorf("a regular file counts as a terminal")
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
		defer tty.Close()
		if !isTerminal(tty) {
			t.Errorf("/dev/tty does not count as a terminal")
		}
	}
}

// truncatedArchive writes the tiny gather as a .tar.gz followed by
// incompressible filler and cuts the file inside the filler.
func truncatedArchive(t *testing.T) string {
	t.Helper()
	src := tinyGather(t)
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(filepath.Dir(src), p)
		if err := tw.WriteHeader(&tar.Header{Name: filepath.ToSlash(rel), Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		_, err = tw.Write(body)
		return err
	})
	must(t, err)
	filler := make([]byte, 1<<20)
	for i := range filler {
		filler[i] = byte((i * 2654435761) >> 13)
	}
	must(t, tw.WriteHeader(&tar.Header{Name: "must-gather.local.1/zz-filler.bin", Mode: 0o644, Size: int64(len(filler)), Typeflag: tar.TypeReg}))
	_, err = tw.Write(filler)
	must(t, err)
	must(t, tw.Close())
	must(t, zw.Close())
	data := buf.Bytes()
	p := filepath.Join(t.TempDir(), "case-0420.tar.gz")
	must(t, os.WriteFile(p, data[:len(data)*3/4], 0o644))
	return p
}

func TestTruncatedInputSaidFirst(t *testing.T) {
	in := truncatedArchive(t)
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := run(t, in, "-o", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(stdout, "INPUT INCOMPLETE: input ends early") {
		t.Errorf("stdout does not start with the truncation:\n%s", stdout)
	}
	r := readReport(t, out)
	if !strings.Contains(r.Gather.Incomplete, "input ends early") {
		t.Errorf("report.json gather.incomplete = %q", r.Gather.Incomplete)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	must(t, err)
	if at := strings.Index(string(md), "**Input incomplete:**"); at < 0 || at > strings.Index(string(md), "## Summary") {
		t.Errorf("report.md does not say it above the summary:\n%.800s", md)
	}
	page, err := os.ReadFile(filepath.Join(out, "report.html"))
	must(t, err)
	if at := strings.Index(string(page), "Input incomplete:"); at < 0 || at > strings.Index(string(page), `<section id="overview"`) {
		t.Errorf("report.html does not say it before its overview")
	}
}

// TestReportNamesTheAttachment: the header of every report names the input
// file with its size and SHA-256, as sha256sum prints it.
func TestReportNamesTheAttachment(t *testing.T) {
	in := truncatedArchive(t)
	data, err := os.ReadFile(in)
	must(t, err)
	sum := sha256.Sum256(data)
	want := hex.EncodeToString(sum[:])
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := run(t, in, "-o", out); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := readReport(t, out)
	if g := r.Gather.Input; g == nil || g.Name != "case-0420.tar.gz" || g.Kind != "archive" || g.Size != int64(len(data)) || g.SHA256 != want {
		t.Errorf("gather.input = %+v, want case-0420.tar.gz, %d bytes, sha256 %s", g, len(data), want)
	}
	for _, name := range []string{"report.md", "report.html"} {
		b, err := os.ReadFile(filepath.Join(out, name))
		must(t, err)
		if !strings.Contains(string(b), want) || !strings.Contains(string(b), "case-0420.tar.gz") {
			t.Errorf("%s does not name the attachment and its sha256", name)
		}
	}
}

// TestRenderChecksFlagsFirst: a bad --format is a usage error even when the
// --from file is missing; a missing --from file is an input error.
func TestRenderChecksFlagsFirst(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "report.json")
	if code, _, stderr := run(t, "render", "--from", missing, "--format", "pdf"); code != exitUsage || !strings.Contains(stderr, `--format "pdf"`) {
		t.Errorf("bad --format: exit %d, %s", code, stderr)
	}
	if code, _, stderr := run(t, "render", "--from", missing); code != exitInput {
		t.Errorf("missing --from file: exit %d, %s", code, stderr)
	}
}

// TestStderrSummaryPlurals: the closing line says "1 gather problem", not
// "1 gather problems".
func TestStderrSummaryPlurals(t *testing.T) {
	code, _, stderr := run(t, tinyGather(t), "-o", filepath.Join(t.TempDir(), "out"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "1 pod, ") || !strings.Contains(stderr, "1 gather problem;") {
		t.Errorf("stderr summary: %s", stderr)
	}
}

// TestGuardedPanic: a panic in the command ends it with exitInternal and
// one line that says so, not a stack trace; without one, the code is f's.
func TestGuardedPanic(t *testing.T) {
	var errOut strings.Builder
	code := guarded(&errOut, func() int { panic("slice bounds out of range [:-1]") })
	if code != exitInternal {
		t.Errorf("code = %d, want %d", code, exitInternal)
	}
	if got := errOut.String(); strings.Count(got, "\n") != 1 || !strings.Contains(got, "internal error: slice bounds out of range [:-1]") {
		t.Errorf("stderr = %q", got)
	}
	if code := guarded(&errOut, func() int { return exitFindings }); code != exitFindings {
		t.Errorf("code = %d, want %d", code, exitFindings)
	}
}
