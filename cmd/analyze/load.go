package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/mgtriage/mgtriage/parser"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/report"
)

// loadOptions are the input limits every command that reads a gather takes
// (--max-read, --max-members): how far one load reads a hostile input.
type loadOptions struct {
	// MaxRead ("64GiB") and MaxMembers bound the bytes read, counted
	// decompressed, and the files, folders and links met, per input
	// (parser.DefaultMaxReadBytes, parser.DefaultMaxMembers).
	MaxRead    string
	MaxMembers int
	// Stats prints, on stderr after each input is read, how it was read:
	// the decompressed bytes, the time, and how busy the decompressor was
	// (parser.ReadStats).
	Stats   bool
	maxRead int64 // MaxRead in bytes, set by validate
	// maxObjectFile and maxPods lower parser.MaxObjectFileBytes and
	// parser.MaxPods when above 0: a test's seam (no flag sets them).
	maxObjectFile int64
	maxPods       int
	// skipDirs are folders a folder input is read without: the run's
	// output folder (-o), when it lies inside the input.
	skipDirs []string
	// keepFiles is parser.Options.KeepFiles: the budget of object files
	// kept for analyze serve (0: none).
	keepFiles int64
}

// validate checks the limits and reads MaxRead into bytes.
func (o *loadOptions) validate() error {
	if o.MaxMembers < 0 {
		return usageError{errors.New("--max-members must be 0 (default) or more")}
	}
	if o.MaxRead != "" {
		n, err := parseSize(o.MaxRead)
		if err != nil {
			return usageError{fmt.Errorf("--max-read %q: %v", o.MaxRead, err)}
		}
		o.maxRead = n
	}
	return nil
}

// loadGather reads the gather at path for a run that reads what needs
// declares (the rule table's needs, merged with what else the command
// reads: model.Needs.Merge), within o's limits, with a progress bar and an
// overview of what was read so far on streams' stderr when it is a terminal
// (readProgress). A failure is an inputError naming path. Every command
// that reads a gather (analyze, diff) loads it here, so all of them see the
// same gather for the same rules.
//
// part, when not nil, reads only one part of an upload that holds several
// clusters (its Part and PartOf; --split).
func loadGather(ctx context.Context, streams IOStreams, path string, o loadOptions, needs model.Needs, part *parser.Options) (*model.Gather, error) {
	bar := newReadProgress(streams, path)
	opts := parser.Options{OnRead: bar.onRead(), Live: bar.live(), MaxReadBytes: o.maxRead, MaxMembers: o.MaxMembers, Needs: &needs,
		MaxObjectFileBytes: o.maxObjectFile, MaxPods: o.maxPods, SkipDirs: o.skipDirs, KeepFiles: o.keepFiles}
	if part != nil {
		opts.Part, opts.PartOf = part.Part, part.PartOf
	}
	var stats parser.ReadStats
	if o.Stats {
		opts.Stats = &stats
	}
	start := time.Now()
	g, err := parser.LoadWith(ctx, path, opts)
	bar.stop()
	if o.Stats {
		fmt.Fprintln(streams.ErrOut, statsLine(report.CleanText(filepath.Base(path)), stats, time.Since(start)))
	}
	switch {
	case errors.Is(err, parser.ErrNotFound):
		return nil, inputError{fmt.Errorf("%s: no such file or directory", path)}
	case err != nil:
		return nil, inputError{fmt.Errorf("%s: %w", path, err)}
	}
	return g, nil
}

// statsLine is what --stats prints for one input: "stats: big.tar.zst: read
// 30.0 GiB decompressed in 52.1s (590 MiB/s), the decompressor busy 97% of
// that time; load 53.4s"; for a folder or a zip only the load's time.
func statsLine(name string, s parser.ReadStats, load time.Duration) string {
	if s.Bytes == 0 {
		return fmt.Sprintf("stats: %s: load %s (no compressed stream)", name, load.Round(100*time.Millisecond))
	}
	rate := float64(s.Bytes) / (1 << 20) / max(s.Wall.Seconds(), 1e-9)
	return fmt.Sprintf("stats: %s: read %.1f GiB decompressed in %s (%.0f MiB/s), the decompressor busy %.0f%% of that time; load %s",
		name, float64(s.Bytes)/(1<<30), s.Wall.Round(100*time.Millisecond), rate, 100*s.BusyFraction(), load.Round(100*time.Millisecond))
}
