package model

import (
	"bytes"
	"sort"
	"strings"

	"github.com/mgtriage/mgtriage/parser/internal/yaml11"
)

// Meta is what ScanMeta reads of one object.
type Meta struct {
	Name, Namespace, UID string
	Labels               map[string]string
	// Keys are the key names under data: and binaryData: (with keys=true), sorted.
	Keys []string
	// Owners are metadata.ownerReferences.
	Owners []Owner
}

// Owner is one metadata.ownerReferences entry.
type Owner struct {
	Kind, Name, UID string
	Controller      bool
}

// ScanMeta reads metadata.name, metadata.namespace, metadata.uid and
// metadata.labels of one object written in the block YAML that `oc get -o
// yaml` writes (top-level keys at column 0, two-space indentation), and with
// keys=true the key names under data: and binaryData: — never their values.
// It decodes nothing else, which makes it a cheap pre-filter: for anything it
// does not recognise (flow style, JSON, quoting with escapes, no name) it
// returns ok=false and the caller decodes the document with a YAML library.
func ScanMeta(doc []byte, keys bool) (m Meta, ok bool) {
	if hasBareBreak(doc) {
		return Meta{}, false
	}
	section := "" // the current top-level key
	sub := ""     // the current key at indent 2 under metadata
	// valueIndent is the indentation of the key whose one-line scalar was
	// just read; a deeper line after it continues that scalar (a multi-line
	// plain scalar), which the scanner leaves to the library.
	valueIndent := -1
	// parent is the indentation of the key just read with no value on its
	// line (-1 otherwise): its block follows, and oc indents that block two
	// spaces deeper (a sequence may sit at the key's own indentation). A
	// block at any other indentation would put the lines the scanner reads at
	// levels it does not expect, so it leaves such a document to the library.
	parent := -1
	for len(doc) > 0 {
		var line []byte
		if i := bytes.IndexByte(doc, '\n'); i >= 0 {
			line, doc = doc[:i], doc[i+1:]
		} else {
			line, doc = doc, nil
		}
		line = bytes.TrimRight(line, "\r")
		trimmed := bytes.TrimLeft(line, " ")
		if len(trimmed) == 0 || trimmed[0] == '#' {
			continue
		}
		if bytes.HasPrefix(line, []byte("---")) || bytes.HasPrefix(line, []byte("...")) {
			continue
		}
		indent := len(line) - len(trimmed)
		if trimmed[0] == '\t' {
			return Meta{}, false
		}
		if valueIndent >= 0 && indent > valueIndent {
			return Meta{}, false
		}
		valueIndent = -1
		isItem := trimmed[0] == '-' && (len(trimmed) == 1 || trimmed[1] == ' ')
		if parent >= 0 && indent > parent && indent != parent+2 {
			return Meta{}, false
		}
		parent = -1
		if indent == 1 || section == "metadata" && indent == 3 {
			return Meta{}, false // between the levels oc writes
		}
		if isItem {
			// A sequence item: go-yaml writes a sequence at the indentation of
			// its key. Only owner references are read from sequences.
			if section == "metadata" && sub == "ownerReferences" {
				if indent != 2 {
					return Meta{}, false
				}
				m.Owners = append(m.Owners, Owner{})
				if !ownerField(&m, bytes.TrimLeft(trimmed[1:], " ")) {
					return Meta{}, false
				}
				valueIndent = 4
			}
			continue
		}
		switch {
		case indent == 0:
			if trimmed[0] == '{' || trimmed[0] == '[' || trimmed[0] == '-' {
				return Meta{}, false
			}
			k, v, found := splitKey(trimmed)
			if !found {
				return Meta{}, false
			}
			section, sub = k, ""
			if len(v) == 0 {
				parent = 0
			}
		case section == "metadata" && indent == 2:
			k, v, found := splitKey(trimmed)
			if !found {
				return Meta{}, false
			}
			sub = k
			if len(v) == 0 {
				parent = 2
			}
			switch k {
			case "name", "namespace", "uid":
				s, sok := scalar(v)
				if !sok {
					return Meta{}, false
				}
				if len(v) > 0 {
					valueIndent = 2
				}
				switch k {
				case "name":
					m.Name = s
				case "namespace":
					m.Namespace = s
				default:
					m.UID = s
				}
			case "labels":
				if len(v) > 0 && string(v) != "{}" {
					return Meta{}, false // flow-style labels
				}
			}
		case section == "metadata" && sub == "ownerReferences" && indent == 4 && len(m.Owners) > 0:
			if !ownerField(&m, trimmed) {
				return Meta{}, false
			}
			valueIndent = 4
		case section == "metadata" && sub == "labels" && indent == 4:
			k, v, found := splitKey(trimmed)
			if !found {
				return Meta{}, false
			}
			s, sok := scalar(v)
			if !sok {
				return Meta{}, false
			}
			if m.Labels == nil {
				m.Labels = map[string]string{}
			}
			m.Labels[k] = s
			if len(v) > 0 {
				valueIndent = 4
			}
		case keys && (section == "data" || section == "binaryData") && indent == 2:
			if trimmed[0] == '?' || trimmed[0] == '-' {
				return Meta{}, false
			}
			k, _, found := splitKey(trimmed)
			if !found {
				return Meta{}, false
			}
			m.Keys = append(m.Keys, k)
		}
	}
	if m.Name == "" {
		return Meta{}, false
	}
	sort.Strings(m.Keys)
	return m, true
}

// ownerField sets one "key: value" of the last owner reference.
func ownerField(m *Meta, kv []byte) bool {
	if len(kv) == 0 {
		return true
	}
	k, v, found := splitKey(kv)
	if !found {
		return false
	}
	o := &m.Owners[len(m.Owners)-1]
	switch k {
	case "controller", "blockOwnerDeletion":
		o.Controller = o.Controller || k == "controller" && string(v) == "true"
		return true
	}
	s, ok := scalar(v)
	if !ok {
		return false
	}
	switch k {
	case "kind":
		o.Kind = s
	case "name":
		o.Name = s
	case "uid":
		o.UID = s
	}
	return true
}

// resolvesToNonString reports whether the YAML library reads a plain scalar
// as anything but a string (a number, a boolean, null); oc quotes such
// strings, so the scanner leaves any plain one to the library.
func resolvesToNonString(s string) bool {
	return yaml11.Resolve([]byte(s)) != yaml11.String
}

// hasBareBreak reports a line break the YAML library honours but the
// scanner's line split does not: a carriage return not followed by a line
// feed, NEL (U+0085), and the line and paragraph separators U+2028 and
// U+2029.
func hasBareBreak(doc []byte) bool {
	for rest := doc; ; {
		i := bytes.IndexByte(rest, '\r')
		if i < 0 {
			break
		}
		if i+1 == len(rest) || rest[i+1] != '\n' {
			return true
		}
		rest = rest[i+2:]
	}
	return bytes.Contains(doc, []byte("\u0085")) || bytes.Contains(doc, []byte("\u2028")) || bytes.Contains(doc, []byte("\u2029"))
}

// splitKey cuts "key: value" (or "key:") into the key, unquoted, and the
// value; found is false when the line is not a simple mapping entry.
func splitKey(line []byte) (key string, value []byte, found bool) {
	if line[0] == '"' || line[0] == '\'' {
		q := line[0]
		end := bytes.IndexByte(line[1:], q)
		if end < 0 {
			return "", nil, false
		}
		k := line[1 : 1+end]
		rest := line[2+end:]
		if q == '"' && bytes.IndexByte(k, '\\') >= 0 || q == '\'' && len(rest) > 0 && rest[0] == '\'' {
			return "", nil, false // escapes: leave to the library
		}
		if len(rest) == 0 || rest[0] != ':' || len(rest) > 1 && rest[1] != ' ' {
			return "", nil, false
		}
		return string(k), bytes.TrimSpace(rest[1:]), true
	}
	i := bytes.Index(line, []byte(": "))
	if i < 0 {
		if bytes.HasSuffix(line, []byte(":")) {
			i = len(line) - 1
		} else {
			return "", nil, false
		}
	}
	k := line[:i]
	if bytes.ContainsAny(k, "{}[]#&*!|>%@`\"'") || resolvesToNonString(string(k)) {
		return "", nil, false
	}
	return string(k), bytes.TrimSpace(line[i+1:]), true
}

// scalar reads a plain or simply quoted one-line scalar; ok is false for
// anything else (block scalars, flow collections, escapes, anchors, tags).
func scalar(v []byte) (string, bool) {
	if len(v) == 0 {
		return "", true
	}
	switch v[0] {
	case '"':
		if len(v) < 2 || v[len(v)-1] != '"' || bytes.IndexByte(v[1:len(v)-1], '\\') >= 0 || bytes.IndexByte(v[1:len(v)-1], '"') >= 0 {
			return "", false
		}
		return string(v[1 : len(v)-1]), true
	case '\'':
		if len(v) < 2 || v[len(v)-1] != '\'' {
			return "", false
		}
		inner := string(v[1 : len(v)-1])
		if strings.Contains(strings.ReplaceAll(inner, "''", ""), "'") {
			return "", false
		}
		return strings.ReplaceAll(inner, "''", "'"), true
	case '|', '>', '{', '[', '&', '*', '!', '%', '@', '`', '#', '?', '-':
		if v[0] == '-' && len(v) > 1 && v[1] != ' ' {
			break // a plain scalar such as -1 or -foo
		}
		return "", false
	}
	if i := bytes.Index(v, []byte(" #")); i >= 0 {
		v = bytes.TrimSpace(v[:i])
	}
	if bytes.Contains(v, []byte(": ")) {
		return "", false
	}
	s := string(v)
	switch s {
	case "null", "~", "Null", "NULL":
		return "", true
	}
	if resolvesToNonString(s) {
		return "", false
	}
	return s, true
}
