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

func main() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
	os.Exit(Main(os.Args[1:], systemStreams()))
}
