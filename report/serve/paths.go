package serve

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// MaxPathBytes bounds a path argument.
const MaxPathBytes = 1024

// gatherPath checks a path argument: relative to the gather (as every
// citation of this server and of the reports is), with '/' separators, no
// '..' or '.' element, no NUL or control character, at most MaxPathBytes.
// It returns the path cleaned of a leading "./" and of doubled slashes, or
// an error that says why the path was refused.
func gatherPath(p string) (string, error) {
	switch {
	case p == "":
		return "", errors.New("path is empty: give a path as the answers cite it (relative to the gather)")
	case len(p) > MaxPathBytes:
		return "", fmt.Errorf("path is %d bytes long; at most %d", len(p), MaxPathBytes)
	case strings.HasPrefix(p, "/") || strings.HasPrefix(p, "\\"):
		return "", errors.New("absolute paths are refused: paths are relative to the gather, as the answers cite them")
	case len(p) >= 2 && p[1] == ':':
		return "", errors.New("a drive path is refused: paths are relative to the gather, as the answers cite them")
	case strings.ContainsRune(p, '\\'):
		return "", errors.New("paths use '/' as separator; '\\' is refused")
	}
	for _, r := range p {
		if r == unicode.ReplacementChar || unicode.IsControl(r) {
			return "", errors.New("path holds a control character or invalid UTF-8; refused")
		}
	}
	var parts []string
	for _, e := range strings.Split(p, "/") {
		switch e {
		case "", ".":
			continue
		case "..":
			return "", errors.New("'..' is refused: nothing outside the gather is read")
		}
		parts = append(parts, e)
	}
	if len(parts) == 0 {
		return "", errors.New("path names no file")
	}
	return strings.Join(parts, "/"), nil
}

// splitLines splits data into lines without their line breaks ("\r\n" or
// "\n"); a last line without a break counts.
//
// The lines share one copy of data (a file of 256 MiB costs 256 MiB and a
// slice of line headers, not a copy per line).
func splitLines(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	out := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for i, l := range out {
		out[i] = strings.TrimSuffix(l, "\r")
	}
	return out
}

// objectSpan returns the 1-based first and last line of the object that
// starts at line start (1-based) of lines: the whole file when start is 1
// and the file is one object; for an item of a YAML list ("- " at some
// indentation), the lines up to the next line indented no deeper than its
// dash; for a JSON item, up to the brace that closes the one it opens. ok is
// false when start does not begin an object.
func objectSpan(lines []string, start int) (from, to int, ok bool) {
	if start < 1 || start > len(lines) {
		return 0, 0, false
	}
	first := lines[start-1]
	trim := strings.TrimLeft(first, " ")
	indent := len(first) - len(trim)
	switch {
	case strings.HasPrefix(trim, "- ") || trim == "-":
		to = start
		for i := start; i < len(lines); i++ {
			l := lines[i]
			t := strings.TrimLeft(l, " ")
			if t == "" || strings.HasPrefix(t, "#") {
				continue
			}
			if len(l)-len(t) <= indent {
				break
			}
			to = i + 1
		}
		return start, to, true
	case strings.HasPrefix(trim, "{"):
		depth, inStr, esc := 0, false, false
		for i := start - 1; i < len(lines); i++ {
			for _, c := range []byte(lines[i]) {
				switch {
				case esc:
					esc = false
				case inStr && c == '\\':
					esc = true
				case c == '"':
					inStr = !inStr
				case inStr:
				case c == '{' || c == '[':
					depth++
				case c == '}' || c == ']':
					depth--
					if depth == 0 {
						return start, i + 1, true
					}
				}
			}
		}
		return start, len(lines), true
	case start == 1:
		return 1, len(lines), true
	}
	return 0, 0, false
}
