// Command analyze reads an OpenShift must-gather (folder or archive) and writes
// a Markdown, HTML and JSON report of the pods that are not healthy and the
// likely root causes. See `analyze --help`.
package main

import (
	"os"
	"runtime/debug"
	"strings"
)

// defaultMemoryLimit is the Go runtime's soft memory limit unless GOMEMLIMIT
// says otherwise: the garbage collector works harder near it, which keeps the
// peak RSS of large gathers flat (see docs/performance.md).
const defaultMemoryLimit = 256 << 20

// largeGCPercent is GOGC for a large input unless the environment sets it:
// the collector runs when the heap has grown to five times what was live
// after the last run (or at the memory limit, whichever comes first). Every
// decoded object stays live until the end, so the default 100 collects over
// and over for little on a large gather; 400 saves about 15% of CPU there,
// and the memory limit still bounds the peak. A small gather keeps the
// default, so its peak stays small (the corpus metal gather: 65 MB against
// 120 MB with 400). largeInputBytes is where "large" starts: an archive of
// that size.
const (
	largeGCPercent  = 400
	largeInputBytes = 64 << 20
)

func main() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
	if _, set := os.LookupEnv("GOGC"); !set && largeInput(os.Args[1:]) {
		debug.SetGCPercent(largeGCPercent)
	}
	os.Exit(Main(os.Args[1:], systemStreams()))
}

// largeInput reports whether an argument names an archive of at least
// largeInputBytes; a folder keeps the default (sizing it would walk it).
func largeInput(args []string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if fi, err := os.Stat(a); err == nil && fi.Mode().IsRegular() && fi.Size() >= largeInputBytes {
			return true
		}
	}
	return false
}
