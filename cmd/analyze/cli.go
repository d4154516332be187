package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/parser"
	"github.com/mgtriage/mgtriage/report"
	"github.com/mgtriage/mgtriage/rules"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// Exit codes, documented in README.md and in --help (exitCodesHelp).
const (
	exitOK       = 0  // analysis done, reports written
	exitFindings = 1  // --fail-on threshold reached (reports written)
	exitInput    = 2  // PATH missing, unreadable, or holding no gather to analyse
	exitWrite    = 3  // the reports or the --redact-map file could not be written
	exitDamaged  = 4  // --strict: the upload is damaged or truncated (reports written)
	exitAnalysis = 5  // the analysis itself failed (rules, report, rendering): a bug; no report written
	exitUsage    = 64 // bad command line: unknown flag, bad value, wrong arguments
	exitInternal = 70 // a bug of mgtriage: it stopped on an internal error (sysexits' EX_SOFTWARE)
)

// exitCodesHelp is the exit code table of --help and README.md.
const exitCodesHelp = `Exit codes:
  0   analysis done, reports written
  1   --fail-on: a finding at or above that severity exists (reports written); rules test:
      a test of the pack failed
  2   input not analysable: PATH missing, unreadable, or no gather in it; or parts that are
      not one cluster (each listed with its identity and why; --split analyses each); or a
      rule pack refused (unsigned under --trust, a bad signature, an untrusted key, hostile)
  3   reports not written (-o or --redact-map cannot be written: an existing file, a folder
      that cannot be created or written in, or one another run holds; or the disk filled up:
      the reports already in -o are left as they were)
  4   --strict: the upload is damaged (a checksum or footer mismatch, data after its end) or
      truncated (it ends early); the reports are written and say so
  5   analysis failed: evaluating the rules, building or rendering the report failed (a bug
      of mgtriage; one line says where, please report it); no report is written and the
      reports of an earlier run in -o are left as they were
  64  usage error: unknown flag, bad flag value, wrong arguments
  70  internal error: mgtriage stopped on a bug of its own outside the analysis (the message
      says where; please report it); a file it failed on while reading is a gather problem
      instead
  130 stopped by SIGINT (143: SIGTERM); the reports already in -o left as they were`

// IOStreams are the process's streams and what they are connected to.
type IOStreams struct {
	In            io.Reader
	Out           io.Writer
	ErrOut        io.Writer
	OutIsTerminal bool
	ErrIsTerminal bool
	// OutWidth and ErrWidth are the terminal's width in columns when stdout
	// (stderr) is one, else 0.
	OutWidth, ErrWidth int
	// NoColor is true when the NO_COLOR environment variable is set and not empty.
	NoColor bool
	// ProgressDelay is how long reading an archive goes before its
	// progress (the bar and the overview of what was read so far) appears
	// on stderr, when stderr is a terminal: shorter reads print nothing.
	// systemStreams sets progressDelay.
	ProgressDelay time.Duration
}

func systemStreams() IOStreams {
	width, errWidth := 0, 0
	if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil {
		width = w
	}
	if w, _, err := term.GetSize(int(os.Stderr.Fd())); err == nil {
		errWidth = w
	}
	return IOStreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		OutIsTerminal: isTerminal(os.Stdout), ErrIsTerminal: isTerminal(os.Stderr), OutWidth: width, ErrWidth: errWidth,
		NoColor:       noColorSet(os.Getenv("NO_COLOR")),
		ProgressDelay: progressDelay,
	}
}

// noColorSet follows https://no-color.org: NO_COLOR set to any non-empty
// value turns colour off.
func noColorSet(v string) bool { return v != "" }

// isTerminal reports whether f is a terminal. A character device is not
// enough: /dev/null is one too, so the terminal's own ioctl decides.
func isTerminal(f *os.File) bool {
	return term.IsTerminal(int(f.Fd()))
}

// usageError marks errors that exit with exitUsage.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// inputError marks errors about the input that exit with exitInput.
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

// exitError carries a specific exit code with an optional message.
type exitError struct {
	code int
	msg  string
}

func (e exitError) Error() string { return e.msg }

// Main runs the command line and returns the process exit code. Errors are
// printed once, here. A panic, a bug of mgtriage, ends the run with
// exitInternal and one line on stderr, never a stack trace (guarded).
func Main(args []string, io IOStreams) int {
	return guarded(io.ErrOut, func() int { return execute(args, io) })
}

// guarded returns what f returns, or exitInternal when f panics, after
// telling w what stopped in one line.
func guarded(w io.Writer, f func() int) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(w, "analyze: internal error: %v (a bug of mgtriage; please report it with the command line)\n", r)
			code = exitInternal
		}
	}()
	return f()
}

// execute is Main without its guard.
func execute(args []string, io IOStreams) int {
	ctx, stop := withSignals(context.Background())
	defer stop()
	root := newRootCmd(io)
	root.SetArgs(args)
	root.SetOut(io.Out)
	root.SetErr(io.ErrOut)
	err := root.ExecuteContext(ctx)
	if code, msg, stopped := stoppedBySignal(ctx, err); stopped {
		fmt.Fprintln(io.ErrOut, "analyze:", report.CleanText(msg))
		return code
	}
	if err == nil {
		return exitOK
	}
	// Messages name files, hosts and clusters of the input: hostile text,
	// cleaned of terminal controls as every report value is.
	var ee exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(io.ErrOut, "analyze:", report.CleanText(ee.msg))
		}
		return ee.code
	}
	fmt.Fprintln(io.ErrOut, "analyze:", report.CleanText(err.Error()))
	var ue usageError
	var ie inputError
	switch {
	case errors.As(err, &ie):
		return exitInput
	case errors.As(err, &ue) || isFlagError(err):
		return exitUsage
	}
	return exitWrite
}

// isFlagError recognises cobra's argument and flag errors, which it returns
// as plain errors.
func isFlagError(err error) bool {
	msg := err.Error()
	for _, s := range []string{"unknown flag", "unknown shorthand", "flag needs an argument", "invalid argument", "accepts ", "requires at least", "unknown command"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

func newRootCmd(io IOStreams) *cobra.Command {
	opts := &analyzeOptions{IO: io, hooks: defaultHooks}
	cmd := &cobra.Command{
		Use:   "analyze [flags] PATH",
		Short: "Analyse an OpenShift must-gather and report what is wrong with its pods",
		Long: `analyze reads a must-gather (the must-gather.local.* folder, the image folder inside it,
a folder above one gather, or a .tar/.tar.gz/.tar.xz/.tar.zst/.zip of it) without extracting it,
derives what 'kubectl get pods' showed at the gather time, applies the embedded rule table and
writes report.md, report.html and report.json to the output folder.

Every flag and the output folder are checked before the input is read.

` + exitCodesHelp,
		Args:          cobra.ExactArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Path = args[0]
			return runAnalyze(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Output, "output", "o", "mgtriage-report", "folder that receives the reports")
	f.StringSliceVar(&opts.Formats, "format", slices.Clone(defaultFormats), "reports to write: any of md, html, json, sarif (SARIF 2.1.0 for code-scanning dashboards)")
	f.StringArrayVar(&opts.RulesPaths, "rules", nil, rulesFlagHelp)
	f.StringArrayVar(&opts.Trust, "trust", nil, "a minisign public key file, or a folder of *.pub keys, that the --rules pack must be signed with (repeatable); unsigned packs are then refused")
	markdownBoundFlags(f, &opts.MarkdownMaxChars, "report.md", "")
	f.StringVar(&opts.FailOn, "fail-on", "", "exit 1 when a finding at or above this severity exists (critical, high, medium, low, info; any case)")
	f.IntVar(&opts.Top, "top", 10, "findings listed on stdout, the most severe first (0: every finding)")
	f.BoolVar(&opts.Redact, "redact", false, "replace IP addresses, node and host names, the cluster's domains, name and ID, the input path and the archive's own folder, e-mail addresses and secrets by placeholders (host-1, ip-3, domain-1, cluster-1, cluster-id-1, input-1) in every report")
	f.StringVar(&opts.RedactMap, "redact-map", "", "with --redact: write the mapping as JSON to this file, an object whose keys are the original values and whose values are their placeholders ({\"10.0.0.5\": \"ip-1\"}); keep it private")
	f.StringVar(&opts.MaxRead, "max-read", fmt.Sprintf("%dGiB", parser.DefaultMaxReadBytes>>30), "stop reading the input after this many bytes, counted decompressed (a decompression bomb ends there; what was read is analysed)")
	f.BoolVar(&opts.Stats, "stats", false, "print on stderr, for each input, the bytes read decompressed, the time, and how busy the decompressor was (100%: the analysis kept up with decompression)")
	f.StringVar(&opts.Window, "window", "", "narrow findings and timelines to an incident: FROM..TO, RFC 3339 times with a zone, either side may be empty (2026-11-20T09:00:00Z..)")
	f.IntVar(&opts.MaxMembers, "max-members", parser.DefaultMaxMembers, "stop reading the input after this many files, folders and links")
	f.BoolVar(&opts.Strict, "strict", false, "exit 4 when the upload is damaged (a checksum or footer mismatch, data after its end) or truncated (it ends early), after writing the reports")
	f.BoolVar(&opts.Split, "split", false, "when the input holds parts that are not one cluster (refused otherwise, exit 2), analyse each on its own into -o DIR/<n>-<part folder>/ (1-must-gather.local.5049263173451366137); the exit code is the highest of the parts")
	// The text is made only when --version asks for it: reading the rule
	// table for it on every run cost about 50 ms before the analysis began.
	cobra.AddTemplateFunc("mgtriageVersion", versionText)
	cmd.SetVersionTemplate("{{mgtriageVersion}}\n")
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	cmd.AddCommand(newRulesCmd(io), newRenderCmd(io), newVersionCmd(io), newDiffCmd(io), newServeCmd(io))
	return cmd
}

// versionText is what `analyze version` and `analyze --version` print: the
// program's version, the embedded rule table's version and size, and the
// JSON report's schema version.
func versionText() string {
	t := rules.Builtin()
	return fmt.Sprintf("mgtriage analyze %s\nrule table %s (%s, schema %d)\nreport schema %d",
		version, t.Version, count(len(t.Rules), "rule", "rules"), t.SchemaVersion, report.SchemaVersion)
}

func newVersionCmd(io IOStreams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the program's version and the rule table's version",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprintln(io.Out, versionText())
			return err
		},
	}
}
