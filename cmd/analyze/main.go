// Command analyze reads an OpenShift must-gather (folder or archive) and writes
// a Markdown, HTML and JSON report of the pods that are not healthy and the
// likely root causes. See `analyze --help`.
package main

import (
	"os"
)

func main() {
	os.Exit(Main(os.Args[1:], systemStreams()))
}
