package rules

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
)

// minSaidWords is the fewest words a termination message's line needs to
// say something: "Error" or "exit status 1" alone only repeat the reason.
const minSaidWords = 3

// maxSaidLine bounds the line of a termination message a finding quotes.
const maxSaidLine = 300

// maxSaidMessage bounds the bytes of a termination message saidLine reads:
// its end (the kubelet keeps 4 KiB of a message, FallbackToLogsOnError the
// last 80 lines of the log, at most 2 KiB).
const maxSaidMessage = 16 << 10

var (
	// failureWordRe finds a line that names a failure.
	failureWordRe = mustLitRegexp(`(?i)panic|fatal|error|exception|must be|missing|not set|is required|invalid|denied|refused|not found|no such|failed|unable to|cannot|can't`)
	// stackLineRe finds the lines of a stack trace (Go, Java, Python),
	// which repeat the failure rather than say it.
	stackLineRe = regexp.MustCompile(`^(?:at |goroutine \d|File "|\[signal |created by |/\S+\.go:\d+)|\.go:\d+ \+0x[0-9a-f]+$`)
	// usageLineRe finds a line of a program's flag help ("--alsologtostderr
	// log to standard error as well as files").
	usageLineRe = regexp.MustCompile(`^-{1,2}[A-Za-z]`)
	// fatalLineRe finds a line that reports the end of the program: a
	// panic, a fatal log line (klog F, logfmt, structured, plain text).
	fatalLineRe = mustLitRegexp(`(?i)panic|^F\d{4} |level=fatal|"level":"fatal"|^fatal\b|\bFATAL\b`)
	// exceptionLineRe finds the last line of an exception: its class, then
	// its message ("KeyError: 'DATABASE_URL'", "java.io.IOException: x").
	exceptionLineRe = regexp.MustCompile(`^(?:Caused by: )?[A-Za-z_][\w.$]*(?:Error|Exception): \S`)
	// infoLineRe finds a line logged at info level (klog I, logfmt,
	// structured and plain-text loggers).
	infoLineRe = regexp.MustCompile(`^I\d{4} |level=info\b|"level":"info"|^INFO\b|\tINFO\t|\sINFO\s`)
)

// joinTerminationMessage runs the terminationMessage join for one pod and
// hit (doc and reads: joinRegistry): the container's termination message,
// whole, from its status; the first of its lines that names a failure (not
// a stack frame, not an info line unless it reports a panic, at least three
// words) is the one that says why the container stopped. No such line rules
// the signature out; the container's terminationMessagePolicy says where the
// message came from.
func joinTerminationMessage(c *evalContext, p *model.Pod, h *hit) joinResult {
	var res joinResult
	cs, ok := containerNamed(p, h.Container)
	if !ok {
		res.RuledOut = true
		return res
	}
	msg, label, field := "", "termination message", cs.statusPath()+".state.terminated.message"
	if t := cs.Status.State.Terminated; t != nil && strings.TrimSpace(t.Message) != "" {
		msg = t.Message
	} else if t := cs.Status.LastTerminationState.Terminated; t != nil {
		msg, label, field = t.Message, "last termination message", cs.statusPath()+".lastState.terminated.message"
	}
	said, k := saidLine(msg)
	if said == "" {
		res.RuledOut = true // nothing in it names a failure: it says no more than the status
		return res
	}
	// Cited at the message's own line, or at the pod's file alone when its
	// lines are not known: the status line the signature matched is cited
	// already, and holds the message only up to its first 600 bytes.
	ev := c.fieldEvidence(p, fmt.Sprintf("%s %s: %s line: %s", cs.Kind, cs.Name, label, said), field)
	// At the file line where the quoted line of the message begins, when
	// the message is folded over several.
	ev.Source.Line = p.Fields.MessageLine(field, k)
	res.Evidence = append(res.Evidence, ev)
	res.Decided = true
	res.Cause = "The line of it that names the failure is quoted next."
	res.Quote = said
	res.QuoteAt = ev.Source
	if cs.Spec == nil {
		return res
	}
	field = cs.specPath() + ".terminationMessagePolicy"
	if cs.Spec.TerminationMessagePolicy == corev1.TerminationMessageFallbackToLogsOnError {
		res.Evidence = append(res.Evidence, c.fieldEvidence(p, fmt.Sprintf("%s %s: terminationMessagePolicy: FallbackToLogsOnError", cs.Kind, cs.Name), field, cs.specPath()))
		res.Cause += " The message holds the last lines of its log (terminationMessagePolicy: FallbackToLogsOnError), so it stands even where the gather has no log of the container."
		return res
	}
	path := cs.Spec.TerminationMessagePath
	if path == "" {
		path = corev1.TerminationMessagePathDefault
	}
	res.Evidence = append(res.Evidence, c.fieldEvidence(p, fmt.Sprintf("%s %s: terminationMessagePolicy: %s, terminationMessagePath: %s", cs.Kind, cs.Name, orDash(string(cs.Spec.TerminationMessagePolicy)), path), field, cs.specPath()))
	res.Cause += fmt.Sprintf(" The program wrote it to %s as it exited.", path)
	return res
}

// saidLine returns the line of a termination message that says why the
// program stopped, ranked as decisiveLines ranks a container log's lines
// (lineWeight: a line that ends the process, then an error line, then any
// line that names a failure): the first line that ends the process (a
// panic's later lines repeat it as the stack unwinds), else the last error
// line: a message written by FallbackToLogsOnError is the log's last lines,
// where the errors before the last are often the shutdown's consequences
// ("context canceled"), and a program's own message ends with the deepest
// cause (a Java "Caused by:", a Python exception after its traceback).
// Never a stack frame, a line of flag help, or an info line that does not
// report a panic; a line needs three words, or the shape of an exception
// ("KeyError: 'DATABASE_URL'"). Its spaces are collapsed and it is cut at a
// word to maxSaidLine bytes; "" when no line qualifies. k is the picked
// line's index in msg's lines (split at "\n").
func saidLine(msg string) (said string, k int) {
	// The kubelet keeps at most 4 KiB of a termination message; a gather's
	// may be hostile and hold megabytes: only its end is read, from a line
	// start, and k still counts the lines of the whole message.
	skipped := 0
	if len(msg) > maxSaidMessage {
		cut := len(msg) - maxSaidMessage
		if nl := strings.IndexByte(msg[cut:], '\n'); nl >= 0 {
			cut += nl + 1
		}
		skipped = strings.Count(msg[:cut], "\n")
		msg = msg[cut:]
	}
	pick, best := "", -1
	for i, line := range strings.Split(msg, "\n") {
		i += skipped
		raw := strings.TrimSpace(line)
		if raw == "" || stackLineRe.MatchString(raw) || usageLineRe.MatchString(raw) || !failureWordRe.MatchString(raw) {
			continue
		}
		if infoLineRe.MatchString(raw) && !strings.Contains(strings.ToLower(raw), "panic") {
			continue
		}
		if len(strings.Fields(raw)) < minSaidWords && !exceptionLineRe.MatchString(raw) {
			continue
		}
		w := lineWeight(raw)
		if fatalLineRe.MatchString(raw) {
			w = weightFatal
		}
		// The first fatal line (a panic's later lines repeat it as the
		// stack unwinds: "[recovered]", "panic: ..." again), the last error.
		if w > best || w == best && w != weightFatal {
			pick, best, k = raw, w, i
		}
	}
	said = strings.Join(strings.Fields(pick), " ")
	if len(said) > maxSaidLine {
		cut := strings.LastIndexByte(said[:maxSaidLine], ' ')
		if cut <= 0 {
			cut = maxSaidLine
		}
		said = strings.ToValidUTF8(said[:cut], "") + "…"
	}
	return said, k
}
