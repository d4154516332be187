// Command analyze reads an OpenShift must-gather (folder or archive) and writes
// a Markdown, HTML and JSON report of the pods that are not healthy and the
// likely root causes. See `analyze --help`.
package main

import (
	"os"
	"runtime/debug"
)

// defaultMemoryLimit is the Go runtime's soft memory limit unless GOMEMLIMIT
// says otherwise: the garbage collector works harder near it, which keeps the
// peak RSS of large gathers flat (see docs/performance.md).
const defaultMemoryLimit = 256 << 20

// defaultGCPercent is GOGC unless the environment sets it: the collector
// runs when the heap has grown to five times what was live after the last
// run (or at the memory limit, whichever comes first). Every decoded object
// stays live until the end, so the default 100 collects over and over for
// little; 400 saves about 15% of CPU on large gathers, and the memory limit
// still bounds the peak.
const defaultGCPercent = 400

func main() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(defaultGCPercent)
	}
	os.Exit(Main(os.Args[1:], systemStreams()))
}
