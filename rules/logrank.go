package rules

import (
	"slices"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
)

// Line weights of a container-log line, highest first: the line that ended the
// process (fatal, panic, an uncaught exception, a traceback's last line), then
// an error line, then anything else.
const (
	weightOther = iota
	weightError
	weightFatal
)

// fatalMarkers and errorMarkers are case-sensitive substrings of a
// container-log line (after its CRI timestamp) that give it a weight.
var (
	fatalMarkers = []string{"panic:", "fatal error:", "level=fatal", `"level":"fatal"`, "FATAL", "Fatal:", "\tFATAL\t",
		"level=panic", `"level":"panic"`, "Exception in thread", "Traceback (most recent call last)", "unhandled exception", "Unhandled exception"}
	errorMarkers = []string{"level=error", `"level":"error"`, "ERROR", "Error:", "error:", "Exception", "exception:", "\terror\t", "level=err "}
)

// lineWeight ranks a container-log line (its text after the CRI timestamp):
// weightFatal for the line that ends a process (a klog F header counts),
// weightError for an error line (a klog E header counts), else weightOther.
func lineWeight(text string) int {
	if klogHeader(text, 'F') {
		return weightFatal
	}
	for _, m := range fatalMarkers {
		if strings.Contains(text, m) {
			return weightFatal
		}
	}
	if klogHeader(text, 'E') {
		return weightError
	}
	for _, m := range errorMarkers {
		if strings.Contains(text, m) {
			return weightError
		}
	}
	return weightOther
}

// klogHeader reports whether text starts with a klog header of severity sev:
// "F0914 14:13:41.696088 ...".
func klogHeader(text string, sev byte) bool {
	return len(text) > 6 && text[0] == sev && text[5] == ' ' && isDigit(text[1]) && isDigit(text[2]) && isDigit(text[3]) && isDigit(text[4])
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// stackHead reports whether a line continues a stack trace right after the
// line that started it: Go's "goroutine 1 [running]:" and its first frames,
// a Java "\tat " frame, a Python frame ("  File ...").
func stackHead(text string) bool {
	t := strings.TrimLeft(text, " \t")
	switch {
	case strings.HasPrefix(text, "goroutine ") && strings.HasSuffix(text, "]:"):
		return true
	case strings.HasPrefix(text, "\tat "), strings.HasPrefix(text, "    at "), strings.HasPrefix(text, "  File \""):
		return true
	case text != t && strings.HasPrefix(t, "/") && strings.Contains(t, ".go:"):
		return true // a Go frame's file line
	case goFrame(text):
		return true // a Go frame's function line: main.main(), pkg.(*T).m(0xc0, 0x1)
	}
	return false
}

// maxDecisiveLines bounds the lines decisiveLines returns; maxStackHead the
// stack-trace lines cited after a fatal line.
const (
	maxDecisiveLines = 3
	maxStackHead     = 3
)

// decisiveLines picks the lines of a container log that say why the process
// ended, in file order: the last fatal lines (each with the head of the stack
// trace that follows it in the tail), else the last error lines. It returns
// nothing when the log holds neither. Candidates are the log's kept error
// lines and its tail, as ContainerLog.Kept returns them.
func decisiveLines(tail, errs []model.LogLine) []model.LogLine {
	byLine := map[int]model.LogLine{}
	for _, set := range [][]model.LogLine{errs, tail} {
		for _, ll := range set {
			byLine[ll.Line] = ll
		}
	}
	best := weightOther
	var picked []model.LogLine
	for _, ll := range sortedLines(byLine) {
		w := lineWeight(ll.Text)
		switch {
		case w > best:
			best, picked = w, []model.LogLine{ll}
		case w == best && w > weightOther:
			picked = append(picked, ll)
		}
	}
	if len(picked) > maxDecisiveLines {
		picked = picked[len(picked)-maxDecisiveLines:]
	}
	if best != weightFatal || len(picked) == 0 {
		return picked
	}
	// The head of the stack trace that follows the last fatal line.
	last := picked[len(picked)-1]
	out := picked
	for n := last.Line + 1; len(out) < len(picked)+maxStackHead && n <= last.Line+2*maxStackHead; n++ {
		ll, ok := byLine[n]
		if ok && strings.TrimSpace(ll.Text) == "" {
			continue // Go prints a blank line between the panic and its goroutine
		}
		if !ok || !stackHead(ll.Text) {
			break
		}
		out = append(out, ll)
	}
	return out
}

func sortedLines(m map[int]model.LogLine) []model.LogLine {
	out := make([]model.LogLine, 0, len(m))
	for _, ll := range m {
		out = append(out, ll)
	}
	slices.SortFunc(out, func(a, b model.LogLine) int { return a.Line - b.Line })
	return out
}

// goFrame reports whether text is the function line of a Go stack frame:
// a dotted name without spaces, then an argument list that ends the line.
func goFrame(text string) bool {
	i := strings.Index(text, "(")
	if i <= 0 || !strings.HasSuffix(text, ")") {
		return false
	}
	name := text[:i]
	if strings.Contains(name, ".") && !strings.ContainsAny(name, " \t") {
		return true
	}
	// pkg.(*T).method(...): the name holds the receiver's parentheses.
	return strings.HasSuffix(name, ".") && !strings.ContainsAny(name, " \t")
}
