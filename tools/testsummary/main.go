// Command testsummary runs `go test -json` for `make test`, prints what plain
// `go test` prints (a line per package, and the output of each test that
// failed), and says at the end which tests that depend on data or on the
// machine ran and which were skipped, and why.
//
// A test depends on data or on the machine when it can skip: its function
// calls Skip, Skipf or SkipNow, itself or through a function of its package
// that does (corpusDir skips when the shared corpus is absent), as read from
// the package's _test.go files; and when it skipped in at least one pass (the
// -short pass skips the corpus tests). Each pass records its results in the
// state file; the summary reads every pass recorded there.
//
// Usage:
//
//	testsummary -pass NAME -state FILE -- go test -json [flags] [packages]
//	testsummary -summary -state FILE
//
// With -pass it runs the command and exits with the command's exit status, so
// a failing test still fails `make test`; when the command fails, the summary
// of the passes so far is printed before exiting. With -summary it prints the
// summary of every pass in FILE and exits 0.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json), and of the build
// output `go test -json` reports as JSON.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	// ImportPath names the package of a build-output or build-fail event.
	ImportPath string
}

// Result is what a pass recorded of one test: its outcome (pass, fail or
// skip) and, for a skip, the reason the test gave.
type Result struct {
	Package string `json:"package"`
	Test    string `json:"test"`
	Outcome string `json:"outcome"`
	Reason  string `json:"reason,omitempty"`
}

// Pass is one `go test` run of `make test`.
type Pass struct {
	Name    string   `json:"name"`
	Failed  bool     `json:"failed"`
	Results []Result `json:"results"`
}

func main() {
	pass := flag.String("pass", "", "name of this pass (short, full); runs the command after --")
	state := flag.String("state", "", "file that keeps the results of each pass")
	summary := flag.Bool("summary", false, "print the summary of the passes in -state")
	flag.Parse()
	if *state == "" || (*pass == "") == !*summary {
		fmt.Fprintln(os.Stderr, "usage: testsummary -pass NAME -state FILE -- go test -json ... | testsummary -summary -state FILE")
		os.Exit(2)
	}
	if *summary {
		passes, err := readState(*state)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testsummary:", err)
			os.Exit(2)
		}
		writeSummary(os.Stdout, passes)
		return
	}
	os.Exit(runPass(os.Stdout, *pass, *state, flag.Args()))
}

// runPass runs args, writes its events to w as plain `go test` would, records
// the pass in state and returns the exit status to end with: the command's.
func runPass(w io.Writer, name, state string, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "testsummary: no command after --")
		return 2
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		return 2
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		return 2
	}
	p := readEvents(stdout, w, name)
	code := 0
	if err := cmd.Wait(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			fmt.Fprintln(os.Stderr, "testsummary:", err)
			return 2
		}
		code = exit.ExitCode()
		if code <= 0 {
			code = 1 // ended by a signal
		}
	}
	if code != 0 {
		p.Failed = true
	}
	passes, err := readState(state)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		return max(code, 2)
	}
	passes = append(passes, p)
	if err := writeState(state, passes); err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		return max(code, 2)
	}
	if code != 0 {
		writeSummary(w, passes)
	}
	return code
}

// readEvents reads the JSON events of one pass from r and writes to w what
// plain `go test` shows: package lines, build output, and the output of the
// tests that failed. A line that is not an event is written as it is.
func readEvents(r io.Reader, w io.Writer, name string) Pass {
	p := Pass{Name: name}
	held := map[string][]string{} // output of a running test, by package and test
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintf(w, "%s\n", line)
			continue
		}
		if e.Package == "" {
			e.Package = e.ImportPath
		}
		key := e.Package + "\x00" + e.Test
		switch {
		case e.Action == "build-output":
			io.WriteString(w, e.Output)
		case e.Test == "":
			// Package lines: "ok", "FAIL", "? ... [no test files]"; the bare
			// PASS that -json adds is not shown by plain go test.
			if e.Action == "output" && e.Output != "PASS\n" {
				io.WriteString(w, e.Output)
			}
		case e.Action == "output":
			held[key] = append(held[key], e.Output)
		case e.Action == "pass" || e.Action == "fail" || e.Action == "skip":
			res := Result{Package: e.Package, Test: e.Test, Outcome: e.Action}
			if e.Action == "skip" {
				res.Reason = skipReason(held[key])
			}
			if e.Action == "fail" {
				for _, o := range held[key] {
					io.WriteString(w, o)
				}
			}
			p.Results = append(p.Results, res)
			delete(held, key)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "testsummary: reading the test output:", err)
		p.Failed = true
	}
	return p
}

// skipReason is what a skipped test said: the lines of its output other than
// go test's own (=== RUN, --- SKIP), joined, with the file:line prefix that
// t.Skip puts on them removed.
func skipReason(output []string) string {
	var parts []string
	for _, o := range output {
		for _, l := range strings.Split(o, "\n") {
			l = strings.TrimSpace(l)
			if l == "" || strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "--- ") {
				continue
			}
			if file, rest, ok := strings.Cut(l, ": "); ok && strings.Contains(file, ".go:") && !strings.Contains(file, " ") {
				l = rest
			}
			parts = append(parts, l)
		}
	}
	if len(parts) == 0 {
		return "no reason given"
	}
	return strings.Join(parts, " ")
}

func readState(path string) ([]Pass, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var passes []Pass
	if err := json.Unmarshal(b, &passes); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return passes, nil
}

func writeState(path string, passes []Pass) error {
	b, err := json.MarshalIndent(passes, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// writeSummary says, for the tests that depend on data or on the machine,
// which ran in the last pass and which it skipped, grouped by reason, and how
// many each earlier pass skipped and why.
func writeSummary(w io.Writer, passes []Pass) {
	if len(passes) == 0 {
		fmt.Fprintln(w, "tests that depend on data or on this machine: no pass recorded")
		return
	}
	dependent := map[string]bool{} // "package test"
	for _, p := range passes {
		for _, r := range p.Results {
			if r.Outcome == "skip" {
				dependent[r.Package+" "+r.Test] = true
			}
		}
	}
	last := passes[len(passes)-1]
	canSkip := map[string]map[string]bool{} // package → its tests that can skip
	for _, r := range last.Results {
		if _, ok := canSkip[r.Package]; !ok {
			canSkip[r.Package] = skippingTests(packageDir(r.Package))
		}
		if canSkip[r.Package][r.Test] {
			dependent[r.Package+" "+r.Test] = true
		}
	}
	ran := map[string][]string{}     // package → tests that ran in the last pass
	skipped := map[string][]string{} // reason → "package Test"
	nRan, nSkipped := 0, 0
	for _, r := range last.Results {
		if !dependent[r.Package+" "+r.Test] {
			continue
		}
		if r.Outcome == "skip" {
			skipped[r.Reason] = append(skipped[r.Reason], shortPkg(r.Package)+" "+r.Test)
			nSkipped++
			continue
		}
		ran[shortPkg(r.Package)] = append(ran[shortPkg(r.Package)], r.Test+outcomeMark(r.Outcome))
		nRan++
	}
	fmt.Fprintf(w, "\ntests that depend on data or on this machine (those that can skip), in the %s pass: %d ran, %d skipped\n", last.Name, nRan, nSkipped)
	for _, pkg := range sortedKeys(ran) {
		sort.Strings(ran[pkg])
		fmt.Fprintf(w, "  ran      %s: %s\n", pkg, strings.Join(ran[pkg], ", "))
	}
	for _, reason := range sortedKeys(skipped) {
		sort.Strings(skipped[reason])
		fmt.Fprintf(w, "  SKIPPED  %s — %s\n", strings.Join(skipped[reason], ", "), reason)
	}
	for _, p := range passes[:len(passes)-1] {
		reasons := map[string]int{}
		n := 0
		for _, r := range p.Results {
			if r.Outcome == "skip" {
				reasons[r.Reason]++
				n++
			}
		}
		var parts []string
		for _, reason := range sortedKeys(reasons) {
			parts = append(parts, fmt.Sprintf("%q (%d)", reason, reasons[reason]))
		}
		if n > 0 {
			fmt.Fprintf(w, "  the %s pass skipped %d: %s\n", p.Name, n, strings.Join(parts, ", "))
		}
	}
	for _, p := range passes {
		if p.Failed {
			fmt.Fprintf(w, "the %s pass FAILED\n", p.Name)
		}
	}
}

func outcomeMark(outcome string) string {
	if outcome == "fail" {
		return " (FAILED)"
	}
	return ""
}

// shortPkg is pkg relative to the module root (cmd/analyze), or pkg.
func shortPkg(pkg string) string {
	if dir := packageDir(pkg); dir != "" {
		return filepath.ToSlash(dir)
	}
	return pkg
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// packageDir is the folder of pkg, relative to the module root (the current
// folder, where go.mod names the module); "" when pkg is not of the module.
func packageDir(pkg string) string {
	b, err := os.ReadFile("go.mod")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if mod, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			mod = strings.TrimSpace(mod)
			if pkg == mod {
				return "."
			}
			if rel, ok := strings.CutPrefix(pkg, mod+"/"); ok {
				return filepath.FromSlash(rel)
			}
		}
	}
	return ""
}

// skippingTests returns the Test functions of the _test.go files in dir
// that can skip: they call Skip, Skipf or SkipNow (on any value, in a
// closure or subtest too), or call a function of the same files that can.
func skippingTests(dir string) map[string]bool {
	out := map[string]bool{}
	if dir == "" {
		return out
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	fset := token.NewFileSet()
	calls := map[string][]string{} // function → the plain function names it calls
	skips := map[string]bool{}
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil || fn.Recv != nil {
				continue
			}
			name := fn.Name.Name
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				switch f := call.Fun.(type) {
				case *ast.SelectorExpr:
					if s := f.Sel.Name; s == "Skip" || s == "Skipf" || s == "SkipNow" {
						skips[name] = true
					}
				case *ast.Ident:
					calls[name] = append(calls[name], f.Name)
				}
				return true
			})
		}
	}
	for changed := true; changed; {
		changed = false
		for fn, callees := range calls {
			for _, c := range callees {
				if skips[c] && !skips[fn] {
					skips[fn], changed = true, true
				}
			}
		}
	}
	for fn := range skips {
		if strings.HasPrefix(fn, "Test") {
			out[fn] = true
		}
	}
	return out
}
