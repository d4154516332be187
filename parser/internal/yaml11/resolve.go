// Package yaml11 says how the YAML library mgtriage falls back to
// (sigs.k8s.io/yaml, which resolves plain scalars by the YAML 1.1 rules of
// go-yaml v2) reads a plain scalar, so that the fast scanners in parser and
// parser/model agree with it byte for byte or leave the text to it.
package yaml11

import (
	"bytes"
	"regexp"
	"strconv"
)

// Kind is what a plain scalar resolves to.
type Kind byte

const (
	// Other is any non-string the fast paths do not write themselves:
	// booleans other than true/false, floats, hex, octal, binary, numbers
	// with underscores, signed or big integers, and the merge key "<<".
	Other Kind = 0
	// String is a string.
	String Kind = 's'
	// Null is null: the empty scalar, "~" and the null words.
	Null Kind = 'n'
	// Bool is the JSON booleans "true" and "false", written as they are.
	Bool Kind = 'b'
	// Int is a decimal integer JSON writes the same way (0 or -?[1-9][0-9]{0,17}).
	Int Kind = 'i'
)

var floatRe = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// Resolve says what the library makes of the plain scalar s. Like go-yaml v2
// it drops every underscore before trying the number forms, so "0_" and
// "1_000" are integers; a timestamp-like scalar stays a string.
func Resolve(s []byte) Kind {
	if len(s) == 0 {
		return Null
	}
	switch string(s) {
	case "~", "null", "Null", "NULL":
		return Null
	case "true", "false":
		return Bool
	case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "True", "TRUE", "False", "FALSE",
		"on", "On", "ON", "off", "Off", "OFF", "<<":
		return Other
	}
	switch c := s[0]; {
	case c >= '0' && c <= '9', c == '-', c == '+', c == '.':
	default:
		return String
	}
	if isCanonicalInt(s) {
		return Int
	}
	if s[0] == '.' || len(s) > 1 && s[1] == '.' {
		switch string(bytes.ToLower(s)) {
		case ".inf", "-.inf", "+.inf", ".nan":
			return Other
		}
	}
	if notNumeric(s) {
		return String // most such scalars: IPs, UIDs, versions, dates
	}
	plain := bytes.ReplaceAll(s, []byte("_"), nil)
	if _, err := strconv.ParseInt(string(plain), 0, 64); err == nil {
		return Other
	}
	if _, err := strconv.ParseUint(string(plain), 0, 64); err == nil {
		return Other
	}
	if floatRe.Match(plain) || binary(plain) {
		return Other
	}
	if s[0] == '.' || len(s) > 1 && s[1] == '.' {
		if _, err := strconv.ParseFloat(string(s), 64); err == nil {
			return Other
		}
	}
	return String
}

// notNumeric reports, from its characters alone, that no number form the
// library tries can read s: decimal, hex, octal and binary integers and
// decimal floats use only digits, a-f, x, o, underscores, one dot, and a
// sign at the start, after an exponent's e, or after a binary prefix's b.
// It spares the strconv calls, whose failures allocate, for the scalars that
// start like a number but are not one.
func notNumeric(s []byte) bool {
	dots := 0
	for i, c := range s {
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F', c == 'x', c == 'X', c == 'o', c == 'O', c == '_':
		case c == '.':
			if dots++; dots > 1 {
				return true
			}
		case c == '+' || c == '-':
			if i == 0 {
				continue
			}
			switch s[i-1] {
			case 'e', 'E', 'b', '_':
				continue
			}
			return true
		default:
			return true
		}
	}
	return false
}

// binary reports a YAML 1.1 binary integer ("0b1010", signed before or
// after the prefix, as the library's strconv call allows): the library reads
// those as numbers, while "0bf7def6-..." (a UID) stays a string.
func binary(s []byte) bool {
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	if !bytes.HasPrefix(s, []byte("0b")) {
		return false
	}
	s = s[2:]
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	if len(s) == 0 {
		return false
	}
	for _, b := range s {
		if b != '0' && b != '1' {
			return false
		}
	}
	return true
}

// isCanonicalInt matches 0 and -?[1-9][0-9]{0,17}.
func isCanonicalInt(s []byte) bool {
	d := s
	if d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 18 || d[0] == '0' && (len(d) > 1 || len(s) != len(d)) {
		return false
	}
	for _, b := range d {
		if b < '0' || b > '9' {
			return false
		}
	}
	return true
}
