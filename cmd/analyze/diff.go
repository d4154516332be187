package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/mgtriage/mgtriage/parser"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/report"
	"github.com/mgtriage/mgtriage/rules"
	"github.com/spf13/cobra"
)

// diffOptions are the flags and arguments of `analyze diff`.
type diffOptions struct {
	IO         IOStreams
	Old, New   string
	Output     string
	Formats    []string
	RulesPaths []string
	// Trust are the minisign keys a --rules pack must be signed with.
	Trust []string
	// Redact replaces the gathers' own names in every report with one set
	// of placeholders for both gathers; RedactMap receives the mapping.
	Redact    bool
	RedactMap string
	loadOptions
	hooks writeHooks // test seams of the write phase (writeHooks)
}

func newDiffCmd(io IOStreams) *cobra.Command {
	opts := &diffOptions{IO: io, hooks: defaultHooks}
	cmd := &cobra.Command{
		Use:   "diff [flags] OLD NEW",
		Short: "Compare two gathers of the same cluster: what started failing, what recovered, what kept failing",
		Long: `diff analyses OLD and NEW (each anything analyze accepts) with the same rule table, one after
the other, and writes diff.md, diff.html and diff.json to the output folder: findings that are new,
resolved, still failing or changed, the configuration that changed along their evidence, pods newly
unhealthy, recovered, replaced or gone, restarts between the two times, nodes, cluster version,
ClusterOperators, MachineConfigPools and the events between the two gathers.

Two gathers of different clusters are refused (exit 2). When NEW was collected before OLD, the two
are compared in time order and the report says so. Two inputs collected at the same second (a
folder and its own .tar.gz) are said to be the same collection, and no duration is given.

With --redact, both gathers are redacted as 'analyze --redact' redacts one, with one set of
placeholders: a node, address or domain has the same placeholder in OLD and NEW, and --redact-map
writes the one mapping for both.`,
		Args:          cobra.ExactArgs(2),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Old, opts.New = args[0], args[1]
			return runDiff(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Output, "output", "o", "mgtriage-diff", "folder that receives the reports")
	f.StringSliceVar(&opts.Formats, "format", slices.Clone(defaultFormats), "reports to write: any of md, html, json")
	f.StringArrayVar(&opts.RulesPaths, "rules", nil, rulesFlagHelp)
	f.StringArrayVar(&opts.Trust, "trust", nil, "a minisign public key file, or a folder of *.pub keys, that the --rules pack must be signed with (repeatable); unsigned packs are then refused")
	f.BoolVar(&opts.Redact, "redact", false, "replace IP addresses, node and host names, the cluster's domains, name and ID, the input paths, e-mail addresses and secrets by placeholders in every report, with one set of placeholders for both gathers")
	f.StringVar(&opts.RedactMap, "redact-map", "", "with --redact: write the one mapping of both gathers as JSON to this file, an object whose keys are the original values and whose values are their placeholders; keep it private")
	f.StringVar(&opts.MaxRead, "max-read", fmt.Sprintf("%dGiB", parser.DefaultMaxReadBytes>>30), "stop reading each input after this many bytes, counted decompressed")
	f.BoolVar(&opts.Stats, "stats", false, "print on stderr, for each input, the bytes read decompressed, the time, and how busy the decompressor was (100%: the analysis kept up with decompression)")
	f.IntVar(&opts.MaxMembers, "max-members", parser.DefaultMaxMembers, "stop reading each input after this many files, folders and links")
	return cmd
}

// diffFormats are the formats diff writes: a comparison has no SARIF form
// (SARIF is one analysis of one gather).
var diffFormats = knownFormats[:3]

func (o *diffOptions) validate() error {
	if len(o.Formats) == 0 {
		return usageError{errors.New("--format needs at least one of md, html, json")}
	}
	for _, f := range o.Formats {
		if !slices.Contains(diffFormats, f) {
			return usageError{fmt.Errorf("--format %q: choose from md, html, json", f)}
		}
	}
	if o.Output == "" {
		return usageError{errors.New("-o/--output names no folder")}
	}
	if o.RedactMap != "" && !o.Redact {
		return usageError{errors.New("--redact-map needs --redact")}
	}
	return o.loadOptions.validate()
}

func runDiff(ctx context.Context, o *diffOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := o.validate(); err != nil {
		return err
	}
	table, err := loadTable(o.IO.ErrOut, o.RulesPaths, o.Trust)
	if err != nil {
		return err
	}
	warnPacks(o.IO.ErrOut, table)
	if _, err := os.Stat(o.Old); err != nil {
		return inputError{fmt.Errorf("%s: %v", o.Old, statReason(err))}
	}
	if _, err := os.Stat(o.New); err != nil {
		return inputError{fmt.Errorf("%s: %v", o.New, statReason(err))}
	}
	out, err := openOutput(ctx, o.Output, "diff.md, diff.html and diff.json", o.RedactMap, newRunID(), o.hooks, o.IO.ErrOut)
	if err != nil {
		return err
	}
	defer out.close()
	o.skipDirs = []string{o.Output}
	start := time.Now()
	// One gather at a time: the first is reduced to its snapshot before the
	// second is read, so memory is bounded by the larger one.
	needs := table.Needs().Merge(report.DiffNeeds())
	old, err := o.snapshot(ctx, table, needs, o.Old)
	if err != nil {
		return err
	}
	cur, err := o.snapshot(ctx, table, needs, o.New)
	if err != nil {
		return err
	}
	d, err := report.Compare(old, cur, report.Tool{Name: "mgtriage", Version: version},
		report.TableOf(table))
	var mismatch *report.ClusterMismatchError
	if errors.As(err, &mismatch) {
		return exitError{code: exitInput, msg: err.Error()}
	}
	if err != nil {
		return err
	}
	var mapping map[string]string
	if o.Redact {
		d, mapping = report.RedactDiff(d, old.Names, cur.Names)
	}
	d.Run = &report.Run{ID: out.runID}
	if err := writeDiffReports(ctx, o, out, d); err != nil {
		return err
	}
	if err := writeRedactMap(o.RedactMap, mapping); err != nil {
		return exitError{code: exitWrite, msg: err.Error()}
	}
	if d.SameCollection && d.New.CollectedAt != nil {
		fmt.Fprintf(o.IO.Out, "the same collection: both inputs were collected at %s\n", d.New.CollectedAt.UTC().Format(time.RFC3339))
	}
	s := d.Summary
	fmt.Fprintf(o.IO.Out, "%d new, %d changed, %d still failing, %d resolved, %d not comparable; pods: %d newly unhealthy, %d recovered, %d replaced, %d gone\n",
		s.New, s.Changed, s.StillFailing, s.Resolved, s.NotComparable, s.NewlyUnhealthy, s.Recovered, s.Replaced, s.Gone)
	fmt.Fprintf(o.IO.ErrOut, "analyze: diff done in %s; reports in %s\n", time.Since(start).Round(time.Millisecond), o.Output)
	return nil
}

// snapshot reads one gather with what the run needs, evaluates the rules and
// keeps only the snapshot.
func (o *diffOptions) snapshot(ctx context.Context, table *rules.Table, needs model.Needs, path string) (*report.Snapshot, error) {
	g, err := loadGather(ctx, o.IO, path, o.loadOptions, needs, nil)
	if err != nil {
		return nil, err
	}
	return report.TakeSnapshot(g, table, rules.Evaluate(table, g)), nil
}

// writeDiffReports renders each chosen format and writes the set
// diff.<format> into out (outputDir.writeSet): a failure leaves the earlier
// set as it was (exitWrite).
func writeDiffReports(ctx context.Context, o *diffOptions, out *outputDir, d *report.Diff) error {
	stale, err := out.writeSet(ctx, "diff", o.Formats, func(f string, w io.Writer) error {
		switch f {
		case "json":
			return report.WriteDiffJSON(w, d)
		case "md":
			return report.WriteDiffMarkdown(w, d)
		case "html":
			return report.WriteDiffHTML(w, d)
		}
		return nil
	})
	return out.written(stale, err)
}
