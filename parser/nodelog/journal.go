// Package nodelog parses the node logs of a gather line by line: journal
// lines (short-precise form), the kubelet's klog lines with their structured
// key/value pairs, CRI-O's logfmt lines and the kernel's OOM-killer lines, and
// sorts each message into a Class that rules can match, with the pod,
// container, image, probe or cause it names. It owns single lines only: it
// does not read files, group repeats or tie lines to pods.
package nodelog

import (
	"bytes"
	"time"
)

// Journal is the part of a journal line before the message:
// `Sep 14 14:13:43.559610 host ident[pid]: message`. Host, Ident and Message
// alias the input line.
type Journal struct {
	Time    time.Time
	Host    []byte
	Ident   []byte
	PID     int
	Message []byte
}

var monthIndex = map[string]time.Month{
	"Jan": time.January, "Feb": time.February, "Mar": time.March, "Apr": time.April,
	"May": time.May, "Jun": time.June, "Jul": time.July, "Aug": time.August,
	"Sep": time.September, "Oct": time.October, "Nov": time.November, "Dec": time.December,
}

// ParseJournal parses the journal prefix of line without allocating. The
// journal omits the year: it comes from ref (the gather time), and a line dated
// in a later month than ref belongs to the year before (a gather taken just
// after New Year). It returns false for lines that are not journal entries,
// such as "-- Logs begin at ... --" or a continuation of a wrapped message.
func ParseJournal(line []byte, ref time.Time) (Journal, bool) {
	var j Journal
	if len(line) < 16 || line[3] != ' ' {
		return j, false
	}
	month, ok := monthIndex[string(line[:3])]
	if !ok {
		return j, false
	}
	i := 4
	if line[i] == ' ' { // space-padded day
		i++
	}
	day, i, ok := atoiAt(line, i)
	if !ok || day < 1 || day > 31 || i >= len(line) || line[i] != ' ' {
		return j, false
	}
	i++
	hh, mm, ss, ns, i, ok := clockAt(line, i)
	if !ok || i >= len(line) || line[i] != ' ' {
		return j, false
	}
	i++
	sp := bytes.IndexByte(line[i:], ' ')
	if sp < 1 {
		return j, false
	}
	j.Host = line[i : i+sp]
	rest := line[i+sp+1:]
	colon := bytes.Index(rest, []byte(": "))
	if colon < 1 {
		if len(rest) > 0 && rest[len(rest)-1] == ':' {
			colon = len(rest) - 1
		} else {
			return j, false
		}
	}
	ident := rest[:colon]
	if colon+2 <= len(rest) {
		j.Message = rest[colon+2:]
	}
	if ob := bytes.IndexByte(ident, '['); ob > 0 && ident[len(ident)-1] == ']' {
		if pid, _, ok := atoiAt(ident, ob+1); ok {
			j.PID = pid
		}
		ident = ident[:ob]
	}
	if bytes.IndexByte(ident, ' ') >= 0 {
		return j, false
	}
	j.Ident = ident
	year := ref.Year()
	if ref.IsZero() {
		year = 1
	} else if month > ref.Month() {
		year--
	}
	j.Time = time.Date(year, month, day, hh, mm, ss, ns, time.UTC)
	return j, true
}

// atoiAt reads a run of up to 9 decimal digits at b[i:].
func atoiAt(b []byte, i int) (n, next int, ok bool) {
	start := i
	for i < len(b) && b[i] >= '0' && b[i] <= '9' && i-start < 9 {
		n = n*10 + int(b[i]-'0')
		i++
	}
	return n, i, i > start
}

// clockAt reads "HH:MM:SS" with an optional fraction of up to 9 digits.
func clockAt(b []byte, i int) (hh, mm, ss, ns, next int, ok bool) {
	if i+8 > len(b) || b[i+2] != ':' || b[i+5] != ':' {
		return 0, 0, 0, 0, i, false
	}
	two := func(k int) (int, bool) {
		if b[k] < '0' || b[k] > '9' || b[k+1] < '0' || b[k+1] > '9' {
			return 0, false
		}
		return int(b[k]-'0')*10 + int(b[k+1]-'0'), true
	}
	var ok1, ok2, ok3 bool
	hh, ok1 = two(i)
	mm, ok2 = two(i + 3)
	ss, ok3 = two(i + 6)
	if !ok1 || !ok2 || !ok3 || hh > 23 || mm > 59 || ss > 60 {
		return 0, 0, 0, 0, i, false
	}
	i += 8
	if i < len(b) && b[i] == '.' {
		i++
		digits := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			if digits < 9 {
				ns = ns*10 + int(b[i]-'0')
				digits++
			}
			i++
		}
		for ; digits < 9; digits++ {
			ns *= 10
		}
	}
	return hh, mm, ss, ns, i, true
}
