package parser

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxLineBytes bounds every log line kept in memory; longer lines are cut and
// marked with " …[cut]".
const MaxLineBytes = 4096

// TailLines is how many trailing lines of each container log are kept.
const TailLines = 60

// scanLines calls fn for every line of r with its 1-based number, without the
// line ending. A line longer than MaxLineBytes is cut to that size; the rest of
// it is read and dropped, so memory stays bounded whatever the input. The slice
// is only valid during the call.
func scanLines(r io.Reader, fn func(n int, line []byte)) error {
	br := bufio.NewReaderSize(r, 64*1024)
	n := 0
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if long == nil {
				long = append(make([]byte, 0, MaxLineBytes), chunk[:min(len(chunk), MaxLineBytes)]...)
			}
			continue
		}
		if len(chunk) > 0 || long != nil {
			n++
			line := bytes.TrimRight(chunk, "\r\n")
			if long != nil {
				line = append(long, []byte(" …[cut]")...)
				long = nil
			} else if len(line) > MaxLineBytes {
				line = append(line[:MaxLineBytes:MaxLineBytes], []byte(" …[cut]")...)
			}
			fn(n, line)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// cleanText returns line as valid UTF-8 text.
func cleanText(line []byte) string {
	if utf8.Valid(line) {
		return string(line)
	}
	return string(bytes.ToValidUTF8(line, []byte("\uFFFD")))
}

// readTail reads a container log and keeps its last TailLines lines. Each line
// starts with the CRI timestamp (RFC 3339 with nanoseconds), which becomes Time.
func readTail(r io.Reader, log *ContainerLog) error {
	ring := make([]LogLine, 0, TailLines)
	start := 0
	err := scanLines(r, func(n int, line []byte) {
		ll := LogLine{Line: n}
		text := line
		if sp := bytes.IndexByte(line, ' '); sp > 0 && sp <= 40 {
			if t, perr := time.Parse(time.RFC3339Nano, string(line[:sp])); perr == nil {
				ll.Time = t
				text = line[sp+1:]
				// CRI log lines carry "stdout F " / "stderr P " after the time.
				if rest, ok := criStreamPrefix(text); ok {
					text = rest
				}
			}
		}
		ll.Text = cleanText(text)
		if len(ring) < TailLines {
			ring = append(ring, ll)
		} else {
			ring[start] = ll
			start = (start + 1) % TailLines
		}
		log.Lines = n
	})
	log.Tail = append(ring[start:len(ring):len(ring)], ring[:start]...)
	return err
}

func criStreamPrefix(b []byte) ([]byte, bool) {
	for _, p := range []string{"stdout F ", "stdout P ", "stderr F ", "stderr P "} {
		if bytes.HasPrefix(b, []byte(p)) {
			return b[len(p):], true
		}
	}
	return b, false
}

// JournalLine is one line of a journal in the short-precise form
// `Sep 14 14:13:43.559610 host ident[pid]: message`.
type JournalLine struct {
	Time    time.Time // the year comes from the reference time given to ParseJournalLine
	Host    string
	Ident   string
	PID     int
	Message string
}

// ParseJournalLine parses one journal line. The journal omits the year: it is
// taken from ref (the gather time), and a line dated in a later month than ref
// belongs to the year before (a gather just after New Year). It returns false
// for lines that are not journal entries (e.g. "-- Logs begin at ...").
func ParseJournalLine(line string, ref time.Time) (JournalLine, bool) {
	var j JournalLine
	// "Sep 14 14:13:43.559610 " is at least 16 bytes; the day may be space-padded.
	if len(line) < 16 || line[3] != ' ' {
		return j, false
	}
	month, ok := months[line[:3]]
	if !ok {
		return j, false
	}
	rest := strings.TrimLeft(line[4:], " ")
	sp := strings.IndexByte(rest, ' ')
	if sp < 1 {
		return j, false
	}
	day, err := strconv.Atoi(rest[:sp])
	if err != nil || day < 1 || day > 31 {
		return j, false
	}
	rest = rest[sp+1:]
	sp = strings.IndexByte(rest, ' ')
	if sp < 8 {
		return j, false
	}
	clock, err := time.Parse("15:04:05.999999999", rest[:sp])
	if err != nil {
		return j, false
	}
	rest = rest[sp+1:]
	sp = strings.IndexByte(rest, ' ')
	if sp < 1 {
		return j, false
	}
	j.Host = rest[:sp]
	rest = rest[sp+1:]
	colon := strings.Index(rest, ": ")
	if colon < 1 {
		colon = strings.IndexByte(rest, ':')
		if colon < 1 {
			return j, false
		}
	}
	ident := rest[:colon]
	j.Message = strings.TrimPrefix(rest[colon+1:], " ")
	if ob := strings.IndexByte(ident, '['); ob > 0 && strings.HasSuffix(ident, "]") {
		j.PID, _ = strconv.Atoi(ident[ob+1 : len(ident)-1])
		ident = ident[:ob]
	}
	j.Ident = ident
	year := ref.Year()
	if ref.IsZero() {
		year = time.Now().Year()
	} else if month > ref.Month() {
		year--
	}
	j.Time = time.Date(year, month, day, clock.Hour(), clock.Minute(), clock.Second(), clock.Nanosecond(), time.UTC)
	return j, true
}

var months = map[string]time.Month{
	"Jan": time.January, "Feb": time.February, "Mar": time.March, "Apr": time.April,
	"May": time.May, "Jun": time.June, "Jul": time.July, "Aug": time.August,
	"Sep": time.September, "Oct": time.October, "Nov": time.November, "Dec": time.December,
}

// Klog is the header of a klog line: `E0914 14:13:43.559597    1985 prober.go:116] msg`.
type Klog struct {
	Severity byte // I, W, E or F
	File     string
	Message  string
}

var klogRe = regexp.MustCompile(`^([IWEF])(\d{4}) (\d{2}:\d{2}:\d{2}\.\d+)\s+(\d+)\s+([^ \]]+)\] ?(.*)$`)

// ParseKlog splits a klog line into its header and message; false when the
// line has no klog header.
func ParseKlog(msg string) (Klog, bool) {
	if len(msg) < 20 || strings.IndexByte("IWEF", msg[0]) < 0 {
		return Klog{}, false
	}
	m := klogRe.FindStringSubmatch(msg)
	if m == nil {
		return Klog{}, false
	}
	return Klog{Severity: m[1][0], File: m[5], Message: m[6]}, true
}

// podRefRe finds the pod a kubelet line is about: pod="ns/name", or
// pods=["ns/name" ...], or the `name_ns(uid)` form of back-off messages.
var (
	podKVRe   = regexp.MustCompile(`\bpod="([^"/\s]+)/([^"\s]+)"`)
	podsKVRe  = regexp.MustCompile(`\bpods=\[\s*"?([^"/\s\]]+)/([^"\s\]]+)"?`)
	podUIDRe  = regexp.MustCompile(`\bpodUID="?([0-9a-f-]{36})"?`)
	podNameRe = regexp.MustCompile(`\bpod=([a-z0-9][a-z0-9.-]*)_([a-z0-9][a-z0-9-]*)\(([0-9a-f-]{36})\)`)
)

// PodRef returns the namespace/name and UID a kubelet message names, whichever
// of them it has.
func PodRef(msg string) (key, uid string) {
	if m := podKVRe.FindStringSubmatch(msg); m != nil {
		key = m[1] + "/" + m[2]
	} else if m := podsKVRe.FindStringSubmatch(msg); m != nil {
		key = m[1] + "/" + m[2]
	} else if m := podNameRe.FindStringSubmatch(msg); m != nil {
		key, uid = m[2]+"/"+m[1], m[3]
	}
	if m := podUIDRe.FindStringSubmatch(msg); m != nil {
		uid = m[1]
	}
	return key, uid
}

// groupKey reduces a message to what repeats: digits become '#', so that
// "back-off 2m40s" and "back-off 5m0s" fall into one group.
func groupKey(msg string) string {
	var b strings.Builder
	b.Grow(len(msg))
	prevDigit := false
	for i := 0; i < len(msg); i++ {
		c := msg[i]
		if c >= '0' && c <= '9' {
			if !prevDigit {
				b.WriteByte('#')
			}
			prevDigit = true
			continue
		}
		prevDigit = false
		b.WriteByte(c)
	}
	return b.String()
}
