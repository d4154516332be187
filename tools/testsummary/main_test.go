package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ev is one go test -json line.
func ev(action, pkg, test, output string) string {
	b, _ := json.Marshal(event{Action: action, Package: pkg, Test: test, Output: output})
	return string(b)
}

const pkgA = "example.com/m/a"

// stream is a pass of package a: TestPass passes, TestCorpus skips for a
// missing corpus, TestBroken fails.
func stream(corpus bool) []string {
	lines := []string{
		ev("run", pkgA, "TestPass", ""),
		ev("output", pkgA, "TestPass", "=== RUN   TestPass\n"),
		ev("output", pkgA, "TestPass", "    a_test.go:9: chatter of a passing test\n"),
		ev("pass", pkgA, "TestPass", ""),
		ev("output", pkgA, "TestCorpus", "=== RUN   TestCorpus\n"),
	}
	if corpus {
		lines = append(lines, ev("pass", pkgA, "TestCorpus", ""))
	} else {
		lines = append(lines,
			ev("output", pkgA, "TestCorpus", "    a_test.go:14: corpus mg-aws not present: stat ../shared: no such file\n"),
			ev("output", pkgA, "TestCorpus", "--- SKIP: TestCorpus (0.00s)\n"),
			ev("skip", pkgA, "TestCorpus", ""))
	}
	return append(lines,
		ev("output", pkgA, "TestBroken", "=== RUN   TestBroken\n"),
		ev("output", pkgA, "TestBroken", "    a_test.go:20: want 1, got 2\n"),
		ev("output", pkgA, "TestBroken", "--- FAIL: TestBroken (0.00s)\n"),
		ev("fail", pkgA, "TestBroken", ""),
		ev("output", pkgA, "", "FAIL\n"),
		ev("output", pkgA, "", "FAIL\texample.com/m/a\t0.01s\n"),
		ev("fail", pkgA, "", ""),
	)
}

// TestReadEvents: what plain go test prints (the package line, a failing
// test's output), not a passing test's chatter; the skip reason without the
// file:line prefix.
func TestReadEvents(t *testing.T) {
	var out bytes.Buffer
	p := readEvents(strings.NewReader(strings.Join(stream(false), "\n")+"\nnot json\n"), &out, "full")
	got := out.String()
	for _, want := range []string{"want 1, got 2", "--- FAIL: TestBroken", "FAIL\texample.com/m/a", "not json"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "chatter") || strings.Contains(got, "=== RUN   TestPass") {
		t.Errorf("output shows a passing test's output:\n%s", got)
	}
	want := []Result{{pkgA, "TestPass", "pass", ""}, {pkgA, "TestCorpus", "skip", "corpus mg-aws not present: stat ../shared: no such file"}, {pkgA, "TestBroken", "fail", ""}}
	if len(p.Results) != len(want) {
		t.Fatalf("results %+v", p.Results)
	}
	for i := range want {
		if p.Results[i] != want[i] {
			t.Errorf("result %d: %+v, want %+v", i, p.Results[i], want[i])
		}
	}
}

// TestRunPassKeepsFailure: a failing go test fails the pass with its own exit
// status, and the summary is printed then; the summary names what ran and
// what was skipped and why, including a test that can skip (through a helper)
// that ran.
func TestRunPassKeepsFailure(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to stand in for go test")
	}
	mod := t.TempDir()
	os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/m\n"), 0o644)
	os.MkdirAll(filepath.Join(mod, "a"), 0o755)
	os.WriteFile(filepath.Join(mod, "a", "a_test.go"), []byte(`package a
import "testing"
func corpus(t *testing.T) { t.Skip("corpus absent") }
func TestCorpus(t *testing.T) { corpus(t) }
func TestLive(t *testing.T) { t.Run("x", func(t *testing.T) { t.Skipf("no %s", "root") }) }
func TestPass(t *testing.T) {}
func TestBroken(t *testing.T) {}
`), 0o644)
	t.Chdir(mod)
	state := filepath.Join(mod, "state.json")
	for _, c := range []struct {
		name   string
		corpus bool
	}{{"short", false}, {"full", true}} {
		script := filepath.Join(mod, c.name+".json")
		os.WriteFile(script, []byte(strings.Join(append(stream(c.corpus), ev("pass", pkgA, "TestLive", "")), "\n")+"\n"), 0o644)
		var out bytes.Buffer
		code := runPass(&out, c.name, state, []string{"sh", "-c", "cat " + script + "; exit 3"})
		if code != 3 {
			t.Errorf("%s pass: exit %d, want go test's 3", c.name, code)
		}
		if !strings.Contains(out.String(), "tests that depend on data or on this machine") || !strings.Contains(out.String(), "the "+c.name+" pass FAILED") {
			t.Errorf("%s pass: no summary after a failure:\n%s", c.name, out.String())
		}
	}
	passes, err := readState(state)
	if err != nil || len(passes) != 2 {
		t.Fatalf("state: %v %+v", err, passes)
	}
	var sum bytes.Buffer
	writeSummary(&sum, passes)
	got := sum.String()
	for _, want := range []string{
		"in the full pass: 2 ran, 0 skipped",
		"ran      a: TestCorpus, TestLive",
		`the short pass skipped 1: "corpus mg-aws not present: stat ../shared: no such file" (1)`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "TestPass") {
		t.Errorf("summary lists a test that cannot skip:\n%s", got)
	}
}

// TestMakefileSaysWhatItDoes: make demo (through build) says it is compiling
// and how long a first build takes before compiling; make test runs each go
// test pass through testsummary and prints the summary last.
func TestMakefileSaysWhatItDoes(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed: the Makefile's recipes are not checked")
	}
	dry := func(target string) []string {
		out, err := exec.Command("make", "-n", "-C", "../..", "--no-print-directory", target).Output()
		if err != nil {
			t.Fatalf("make -n %s: %v", target, err)
		}
		return strings.Split(strings.TrimSpace(string(out)), "\n")
	}
	demo := dry("demo")
	say, build := -1, -1
	for i, l := range demo {
		if strings.Contains(l, "compiling bin/analyze") && strings.Contains(l, "minutes") && say < 0 {
			say = i
		}
		if strings.Contains(l, " build ") && strings.Contains(l, "./cmd/analyze") && build < 0 {
			build = i
		}
	}
	if say < 0 || build < 0 || say > build {
		t.Errorf("make demo does not say it is compiling, and for how long, before it compiles:\n%s", strings.Join(demo, "\n"))
	}
	test := dry("test")
	passes := 0
	for _, l := range test {
		if strings.Contains(l, " test ") && strings.Contains(l, "./...") {
			if !strings.HasPrefix(l, "bin/testsummary -pass ") || !strings.Contains(l, " -json ") {
				t.Errorf("a go test pass does not run through testsummary: %s", l)
			}
			passes++
		}
	}
	if passes != 2 || !strings.HasPrefix(test[len(test)-1], "bin/testsummary -summary ") {
		t.Errorf("make test: %d passes through testsummary, last line %q; want 2 and the summary last", passes, test[len(test)-1])
	}
}
