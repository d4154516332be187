package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/report"
	"github.com/mgtriage/mgtriage/rules"
	"github.com/mgtriage/mgtriage/rules/pack"
)

// analyzeOptions are the flags and arguments of the main command.
type analyzeOptions struct {
	IO      IOStreams
	Path    string
	Output  string
	Formats []string
	// RulesPaths are the --rules values, applied in order (loadTable).
	RulesPaths []string
	// Trust are minisign public key files, or folders of *.pub keys, that
	// every pack of RulesPaths must be signed with (--trust).
	Trust []string
	// MarkdownMaxChars bounds report.md in characters (--md-max-chars,
	// or --md-max-kb converted).
	MarkdownMaxChars int
	FailOn           string
	// Strict exits exitDamaged when a stream of the input is damaged or
	// truncated (model.Gather.Faults), after the reports are written.
	Strict bool
	Top    int
	// Redact replaces host names, addresses, domains, e-mail addresses and
	// secrets in every report; RedactMap is a file that receives the mapping.
	Redact    bool
	RedactMap string
	// Split writes one report set per cluster, into Output/<part>/, when the
	// input holds parts that are not one cluster (parser.SeveralGathersError).
	Split bool
	// Window is --window FROM..TO as given; window is it parsed by validate.
	Window string
	window report.Window
	loadOptions
	hooks writeHooks // test seams of the write phase (writeHooks)
}

// knownFormats are the formats of a report set, in the order reportFiles
// names them: every file analyze writes (report.<format>) and that a later
// run replaces or removes; diff writes the first three (diffFormats).
var knownFormats = []string{"md", "html", "json", "sarif"}

// defaultFormats are the reports analyze and diff write without --format.
var defaultFormats = []string{"md", "html", "json"}

func (o *analyzeOptions) validate() error {
	if len(o.Formats) == 0 {
		return usageError{errors.New("--format needs at least one of md, html, json, sarif")}
	}
	for _, f := range o.Formats {
		if !slices.Contains(knownFormats, f) {
			return usageError{fmt.Errorf("--format %q: choose from md, html, json, sarif", f)}
		}
	}
	if o.FailOn != "" {
		sev := strings.ToLower(strings.TrimSpace(o.FailOn))
		if report.SeverityRank(sev) >= len(report.Severities) {
			return usageError{fmt.Errorf("--fail-on %q: choose from %s", o.FailOn, strings.Join(report.Severities, ", "))}
		}
		o.FailOn = sev
	}
	if o.Top < 0 {
		return usageError{errors.New("--top must be 0 or more")}
	}
	if o.MarkdownMaxChars < 0 {
		return usageError{errors.New("--md-max-chars (or --md-max-kb) must be 0 or more")}
	}
	if o.RedactMap != "" && !o.Redact {
		return usageError{errors.New("--redact-map needs --redact")}
	}
	if o.RedactMap != "" && o.Split {
		return usageError{errors.New("--redact-map cannot be combined with --split (each part is redacted with its own placeholders); analyse the parts one at a time to keep their maps")}
	}
	if o.Output == "" {
		return usageError{errors.New("-o/--output names no folder")}
	}
	if o.Window != "" {
		w, err := report.ParseWindow(o.Window)
		if err != nil {
			return usageError{fmt.Errorf("--window %q: %v", o.Window, err)}
		}
		o.window = w
	}
	return o.loadOptions.validate()
}

// checkRedactMap reports why the --redact-map file p could not be written:
// a folder, a folder that does not exist, or one (or an existing file) that
// refuses writing. It leaves no file behind.
func checkRedactMap(p string) error {
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		return fmt.Errorf("--redact-map %q is a folder; name a file", p)
	}
	dir := filepath.Dir(p)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("--redact-map %q cannot be written: its folder %s does not exist", p, dir)
	}
	if _, err := os.Stat(p); err == nil {
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("--redact-map %q cannot be written: %v", p, statReason(err))
		}
		return f.Close()
	}
	f, err := os.CreateTemp(dir, ".redact-map-check-*")
	if err != nil {
		return fmt.Errorf("--redact-map %q cannot be written in %s: %v", p, dir, statReason(err))
	}
	f.Close()
	return os.Remove(f.Name())
}

// parseSize reads a byte count: a whole number with an optional unit, B, KiB,
// MiB, GiB, TiB (K, M, G, T alike) or KB, MB, GB, TB (powers of 1000).
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if err != nil || n <= 0 {
		return 0, errors.New("want a positive size such as 64GiB or 512MiB")
	}
	units := map[string]int64{"": 1, "b": 1,
		"k": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gib": 1 << 30, "t": 1 << 40, "tib": 1 << 40,
		"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12}
	unit, ok := units[strings.ToLower(strings.TrimSpace(t[i:]))]
	if !ok {
		return 0, fmt.Errorf("unknown unit %q: use B, KiB, MiB, GiB, TiB, KB, MB, GB or TB", strings.TrimSpace(t[i:]))
	}
	if n > math.MaxInt64/unit {
		return 0, errors.New("too large")
	}
	return n * unit, nil
}

// loadTable returns the built-in rule table with each of paths applied over
// it in the order given (--rules, repeatable): a rule file or folder
// (rules.Table.Override), or a pack (applyPack) checked with the keys at
// trust. A later path overrides an earlier one's rule of the same ID, as
// any path overrides a built-in rule; when two paths give the same ID, a
// warning naming both is written on w. With trust, every path must be a
// signed pack (exit 2 otherwise).
func loadTable(w io.Writer, paths []string, trust []string) (*rules.Table, error) {
	t := rules.Builtin()
	if len(trust) > 0 && len(paths) == 0 {
		return nil, usageError{errors.New("--trust checks the signature of a pack given with --rules; no --rules was given")}
	}
	from := map[string]string{} // rule ID -> the path that gave it
	for _, path := range paths {
		if path == "" {
			return nil, usageError{errors.New("--rules names no file, folder or pack")}
		}
		before := make(map[*rules.Rule]bool, len(t.Rules))
		for _, r := range t.Rules {
			before[r] = true
		}
		switch {
		case pack.IsPack(path):
			if _, err := applyPack(t, path, trust); err != nil {
				return nil, err
			}
		case len(trust) > 0:
			return nil, inputError{fmt.Errorf("%s refused: with --trust only signed packs are used, and %s is a rule file or folder, not a pack (a folder with pack.yaml, a .tar.gz or an OCI image layout)", path, path)}
		default:
			if errs := t.Override(path); len(errs) > 0 {
				return nil, usageError{fmt.Errorf("rules in %s are not valid:\n%v", path, errs)}
			}
		}
		for _, r := range t.Rules {
			if before[r] {
				continue
			}
			if earlier, ok := from[r.ID]; ok && earlier != path {
				fmt.Fprintf(w, "analyze: warning: rule %s of %s overrides the one of %s (--rules are applied in the order given)\n", report.CleanText(r.ID), report.CleanText(path), report.CleanText(earlier))
			}
			from[r.ID] = path
		}
	}
	return t, nil
}

func runAnalyze(ctx context.Context, o *analyzeOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	table, err := loadTable(o.IO.ErrOut, o.RulesPaths, o.Trust)
	if err != nil {
		return err
	}
	if err := o.validate(); err != nil {
		return err
	}
	if _, err := os.Stat(o.Path); err != nil {
		return inputError{fmt.Errorf("%s: %v", o.Path, statReason(err))}
	}
	out, err := openOutput(ctx, o.Output, "report.md, report.html and report.json", o.RedactMap, newRunID(), o.hooks, o.IO.ErrOut)
	if err != nil {
		return err
	}
	defer out.close()
	// An -o inside the input is not read back as input.
	o.skipDirs = []string{o.Output}
	input := make(chan inputResult, 1)
	go func() { input <- identifyInput(o.Path) }()
	warnPacks(o.IO.ErrOut, table)
	// What validate warns about also matters when the rules are used: a
	// catch-all rule silently takes the objects of proven causes.
	for _, path := range o.RulesPaths {
		for _, w := range ruleWarnings(path, o.Trust) {
			fmt.Fprintf(o.IO.ErrOut, "analyze: warning: %s\n", w.Error())
		}
	}
	start := time.Now()
	g, err := loadGather(ctx, o.IO, o.Path, o.loadOptions, table.Needs(), nil)
	var several *parser.SeveralGathersError
	if err != nil && o.Split && errors.As(err, &several) && len(several.Parts) > 0 {
		return runSplit(ctx, o, out.runID, table, several, input)
	}
	if err != nil {
		return err
	}
	in := <-input
	return analyzeLoaded(ctx, o, out, table, g, in, start)
}

// runSplit analyses each part of an upload that is not one cluster on its
// own (--split), reading the input once more per part, into
// Output/<part name>/, and returns the error of the highest exit code of the
// parts (nil when every part exits 0). A part that fails does not stop the
// others.
func runSplit(ctx context.Context, o *analyzeOptions, runID string, table *rules.Table, several *parser.SeveralGathersError, input chan inputResult) error {
	in := <-input
	fmt.Fprintf(o.IO.Out, "The input holds %d parts that are not one cluster (%s); each is analysed on its own (--split):\n", len(several.Parts), report.CleanText(several.Why))
	for _, line := range several.Gathers {
		fmt.Fprintf(o.IO.Out, "  %s\n", report.CleanText(line))
	}
	var worst error
	worstCode := exitOK
	for i, part := range several.Parts {
		sub := *o
		sub.Output = filepath.Join(o.Output, part.Name)
		fmt.Fprintf(o.IO.Out, "\n== part %d of %d: %s → %s\n", i+1, len(several.Parts), report.CleanText(strings.Join(part.Tops, ", ")), sub.Output)
		err := func() error {
			out, err := openOutput(ctx, sub.Output, "report.md, report.html and report.json", "", runID, o.hooks, o.IO.ErrOut)
			if err != nil {
				return err
			}
			defer out.close()
			start := time.Now()
			g, err := loadGather(ctx, o.IO, o.Path, o.loadOptions, table.Needs(), &parser.Options{Part: &part, PartOf: several.Tops})
			if err != nil {
				return err
			}
			g.Coverage.Combined = append([]string{fmt.Sprintf("part %d of %d of the input (--split): %s; the other parts are in the folders beside this one", i+1, len(several.Parts), strings.Join(part.Tops, ", "))}, g.Coverage.Combined...)
			return analyzeLoaded(ctx, &sub, out, table, g, in, start)
		}()
		if err == nil {
			continue
		}
		if ctx.Err() != nil {
			return err
		}
		code := exitCodeOf(err)
		if code != exitFindings {
			fmt.Fprintf(o.IO.ErrOut, "analyze: part %s: %s\n", part.Name, report.CleanText(err.Error()))
		}
		if code > worstCode {
			worst, worstCode = err, code
		}
	}
	if worst == nil {
		return nil
	}
	return exitError{code: worstCode, msg: fmt.Sprintf("--split: the highest exit code of the %d parts is %d (%v)", len(several.Parts), worstCode, worst)}
}

// exitCodeOf is the exit code execute gives err.
func exitCodeOf(err error) int {
	var ee exitError
	var ue usageError
	var ie inputError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &ie):
		return exitInput
	case errors.As(err, &ue):
		return exitUsage
	}
	return exitWrite
}

// analyzeLoaded evaluates the rules on g, writes the reports into out
// (o.Output) as one set and the summary on stdout; in describes the input
// (nil file when it could not be checksummed).
func analyzeLoaded(ctx context.Context, o *analyzeOptions, out *outputDir, table *rules.Table, g *model.Gather, in inputResult, start time.Time) error {
	findings, r, err := analyse(o, table, g)
	if err != nil {
		return analysisFailed(o, err)
	}
	r.Run = &report.Run{ID: out.runID}
	if in.err == nil {
		r.Gather.Input = in.file
	} else {
		fmt.Fprintf(o.IO.ErrOut, "analyze: warning: cannot checksum %s: %v\n", o.Path, in.err)
	}
	summary := fmt.Sprintf("read %s (%s); %s, %s, %s", count(g.Files, "file", "files"), humanBytes(g.Bytes),
		count(len(g.Pods), "pod", "pods"), count(len(findings), "finding", "findings"), count(len(g.Problems), "gather problem", "gather problems"))
	var mapping map[string]string
	if o.Redact {
		r, mapping = report.Redact(r)
	}
	if err := writeReports(ctx, o, out, r); err != nil {
		var ae analysisError
		if errors.As(err, &ae) {
			return analysisFailed(o, ae)
		}
		return err
	}
	if err := writeRedactMap(o.RedactMap, mapping); err != nil {
		return exitError{code: exitWrite, msg: err.Error()}
	}
	color := o.IO.OutIsTerminal && !o.IO.NoColor
	if err := report.WriteTerminal(o.IO.Out, r, report.TerminalOptions{Color: color, MaxFindings: o.Top, Width: o.IO.OutWidth, Reports: reportFiles("report", o.Formats)}); err != nil {
		return err
	}
	fmt.Fprintf(o.IO.ErrOut, "analyze: done in %s: %s; reports in %s\n", time.Since(start).Round(time.Millisecond), summary, o.Output)
	if o.Strict && len(g.Faults) > 0 {
		label, _, _ := report.InputNotice(r.Gather)
		return exitError{code: exitDamaged, msg: strings.ToLower(label) + " (--strict): " + faultWords(g.Faults)}
	}
	if o.FailOn != "" {
		limit := report.SeverityRank(o.FailOn)
		for _, f := range r.Findings {
			if report.SeverityRank(f.Severity) <= limit {
				return exitError{code: exitFindings, msg: fmt.Sprintf("findings at or above %s exist (--fail-on)", o.FailOn)}
			}
		}
	}
	return nil
}

// faultWords names the faults of the input for --strict's message: the
// first, and how many more.
func faultWords(faults []model.StreamFault) string {
	f := faults[0]
	where := "the input"
	if f.Stream != "" {
		where = f.Stream
	}
	s := fmt.Sprintf("%s is %s (%s)", where, f.Kind, f.Error)
	if len(faults) > 1 {
		s += fmt.Sprintf(" and %d more", len(faults)-1)
	}
	return s
}

// evaluate is rules.Evaluate; tests replace it to inject a failure.
var evaluate = rules.Evaluate

// analysisError is a failure inside the analysis itself (evaluating the
// rules, building or rendering the report): a panic there, or a renderer's
// error that no write caused. It exits with exitAnalysis.
type analysisError struct{ err error }

func (e analysisError) Error() string { return e.err.Error() }
func (e analysisError) Unwrap() error { return e.err }

// analyse evaluates the rules on g and builds the report; a panic in either
// is returned as an analysisError, never a stack trace.
func analyse(o *analyzeOptions, table *rules.Table, g *model.Gather) (findings []rules.Finding, r *report.Report, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = analysisError{fmt.Errorf("%v", p)}
		}
	}()
	findings = evaluate(table, g)
	r = report.Build(g, table, findings, report.Tool{Name: "mgtriage", Version: version}, o.window)
	return findings, r, nil
}

// analysisFailed is the exitAnalysis error of err: one sentence saying what
// failed and that the reports in o.Output were not replaced.
func analysisFailed(o *analyzeOptions, err error) error {
	what := strings.Join(strings.Fields(err.Error()), " ")
	return exitError{code: exitAnalysis, msg: fmt.Sprintf("analysis failed: %s (a bug of mgtriage; please report it with the command line); no report was written, and any reports already in %s are left as they were", what, o.Output)}
}

// renderGuarded runs render into w: a panic in it, or an error it returns
// while w never failed (the renderer's own, not a write's), is an
// analysisError naming the format.
func renderGuarded(format string, w io.Writer, render func(io.Writer) error) (err error) {
	tw := &writeTracker{w: w}
	defer func() {
		if p := recover(); p != nil {
			err = analysisError{fmt.Errorf("rendering report.%s: %v", format, p)}
		}
	}()
	if err := render(tw); err != nil {
		if tw.err != nil {
			return err
		}
		return analysisError{fmt.Errorf("rendering report.%s: %w", format, err)}
	}
	return nil
}

// writeTracker passes writes on to w and keeps the first error w returned.
type writeTracker struct {
	w   io.Writer
	err error
}

func (t *writeTracker) Write(p []byte) (int, error) {
	n, err := t.w.Write(p)
	if err != nil && t.err == nil {
		t.err = err
	}
	return n, err
}

// writeReports renders each chosen format and writes the set
// report.<format> into out (outputDir.writeSet): a rendering or writing
// error leaves the earlier set as it was (exitWrite), and a format of the
// earlier set that --format leaves out is removed with it.
func writeReports(ctx context.Context, o *analyzeOptions, out *outputDir, r *report.Report) error {
	stale, err := out.writeSet(ctx, "report", o.Formats, func(f string, w io.Writer) error {
		return renderGuarded(f, w, func(w io.Writer) error {
			switch f {
			case "json":
				return report.WriteJSON(w, r)
			case "md":
				return report.WriteMarkdown(w, r, report.MarkdownOptions{MaxChars: o.MarkdownMaxChars})
			case "html":
				return report.WriteHTML(w, r)
			case "sarif":
				return report.WriteSARIF(w, r)
			}
			return nil
		})
	})
	return out.written(stale, err)
}

// writeRedactMap writes the original → placeholder table as JSON, readable by
// its owner only: it holds what the reports hide.
func writeRedactMap(path string, mapping map[string]string) error {
	if path == "" {
		return nil
	}
	if mapping == nil {
		mapping = map[string]string{}
	}
	b, err := json.MarshalIndent(mapping, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("write --redact-map: %w", err)
	}
	// WriteFile keeps the mode of a file that existed: the map holds every
	// original value, so it is made private either way.
	if err := os.Chmod(path, 0o600); err != nil {
		return fmt.Errorf("write --redact-map: %w", err)
	}
	return nil
}

// count is "1 pod", "3 pods".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// statReason is the short reason a stat failed ("no such file or directory").
func statReason(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

type inputResult struct {
	file *report.InputFile
	err  error
}

// identifyInput describes PATH for the report's header: a folder by its
// name; a regular file (an archive) by its name, size and SHA-256, read
// once more beside the analysis; anything else (a pipe, a device) by its name
// alone, never read twice.
func identifyInput(p string) inputResult {
	fi, err := os.Stat(p)
	if err != nil {
		return inputResult{err: err}
	}
	name := filepath.Base(filepath.Clean(p))
	if fi.IsDir() {
		return inputResult{file: &report.InputFile{Name: name, Kind: "folder"}}
	}
	if !fi.Mode().IsRegular() {
		return inputResult{file: &report.InputFile{Name: name, Kind: "other"}}
	}
	f, err := os.Open(p)
	if err != nil {
		return inputResult{err: err}
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return inputResult{err: err}
	}
	return inputResult{file: &report.InputFile{Name: name, Kind: "archive", Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}}
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
