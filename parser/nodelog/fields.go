package nodelog

import (
	"strings"
)

// Field is one key=value pair of a structured klog line or a logfmt line.
// Value is unquoted: `err="a \"b\""` gives `a "b"`.
type Field struct {
	Key, Value string
}

// MaxFields bounds the pairs read from one line.
const MaxFields = 32

// ParseFields reads key=value pairs from s: values may be double-quoted with
// backslash escapes, bracketed lists (`pods=["a/b" "c/d"]`), braced structs
// (`event=&{ID:... Type:...}`) or bare words. Text that is not a pair is
// skipped up to the next space. It never fails; an unterminated quote takes
// the rest of the line.
func ParseFields(s string) []Field {
	var out []Field
	i := 0
	for i < len(s) && len(out) < MaxFields {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		start := i
		for i < len(s) && isKeyByte(s[i]) {
			i++
		}
		if i == start || i >= len(s) || s[i] != '=' {
			// not a pair: skip this word
			for i < len(s) && s[i] != ' ' {
				i++
			}
			continue
		}
		key := s[start:i]
		i++ // '='
		var val string
		val, i = readValue(s, i)
		out = append(out, Field{Key: key, Value: val})
	}
	return out
}

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

// readValue reads one value at s[i:] and returns it with the index after it.
func readValue(s string, i int) (string, int) {
	if i >= len(s) {
		return "", i
	}
	switch s[i] {
	case '"':
		return readQuoted(s, i)
	case '[', '{', '&':
		open, end := s[i], byte(']')
		j := i
		if open == '&' {
			if i+1 >= len(s) || s[i+1] != '{' {
				break
			}
			j++
		}
		if s[j] == '{' {
			end = '}'
		}
		depth, inQuote := 0, false
		for k := j; k < len(s); k++ {
			c := s[k]
			switch {
			case inQuote && c == '\\':
				k++
			case c == '"':
				inQuote = !inQuote
			case inQuote:
			case c == s[j]:
				depth++
			case c == end:
				depth--
				if depth == 0 {
					return s[i : k+1], k + 1
				}
			}
		}
		return s[i:], len(s)
	}
	j := strings.IndexByte(s[i:], ' ')
	if j < 0 {
		return s[i:], len(s)
	}
	return s[i : i+j], i + j
}

// readQuoted reads a Go-style quoted string at s[i] == '"', unescaping \" \\
// \n \t; other escapes are kept as written. An unterminated quote takes the
// rest of s.
func readQuoted(s string, i int) (string, int) {
	var b strings.Builder
	k := i + 1
	plain := k
	for k < len(s) {
		c := s[k]
		if c == '"' {
			if b.Len() == 0 {
				return s[plain:k], k + 1
			}
			b.WriteString(s[plain:k])
			return b.String(), k + 1
		}
		if c == '\\' && k+1 < len(s) {
			b.WriteString(s[plain:k])
			switch s[k+1] {
			case '"', '\\':
				b.WriteByte(s[k+1])
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte('\\')
				b.WriteByte(s[k+1])
			}
			k += 2
			plain = k
			continue
		}
		k++
	}
	b.WriteString(s[plain:])
	return b.String(), len(s)
}

// Get returns the value of the first field named key, or "".
func Get(fields []Field, key string) string {
	for _, f := range fields {
		if f.Key == key {
			return f.Value
		}
	}
	return ""
}
