// Package jsonpos walks JSON text token by token and says where each member
// key and array element starts, so that a reader can cite the line of a
// field of a JSON file (kubectl get -o json, crictl inspect, an Insights
// archive's members). The walk never reads past its input, follows a
// bounded depth and stops at the first byte that is not well formed: the
// input is a gather's, hostile.
package jsonpos

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
)

// MaxDepth bounds the nesting Walk follows; a deeper value ends the walk.
const MaxDepth = 256

// Event is one step of Walk: a member key of an object (Key set) or
// an element of an array (Index set, 1-based). Path holds the frames of the
// containers around it below the walked value: member keys and "[i]" for
// elements. Off is the offset of the key's opening quote or of the
// element's first byte. Value is the raw scalar value (a string without its
// quotes, still escaped), nil when the value is an object or an array;
// Open is then '{' or '['. First says the key is its object's first.
// Path and Value are valid only during the visit.
type Event struct {
	Path  []string
	Key   string
	Index int
	Off   int
	Value []byte
	Open  byte
	First bool
}

// Walk walks the JSON value (an object or an array) that starts at the
// first '{' or '[' at or after off in data and calls visit for every member
// key and array element in document order, until visit returns false, the
// value ends, or the input is not well formed there (the walk stops at the
// first byte it cannot read; what was visited stands). It never reads past
// data, follows at most MaxDepth levels, and returns the offset just
// past the value (-1 when the value does not end well formed).
func Walk(data []byte, off int, visit func(ev *Event) bool) int {
	type frame struct {
		obj   bool
		count int
	}
	if off < 0 || off >= len(data) {
		return -1
	}
	i := off + bytes.IndexAny(data[off:], "{[")
	if i < off {
		return -1
	}
	var stack []frame
	var path []string
	ev := &Event{}
	skipWS := func() {
		for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
			i++
		}
	}
	// str reads the string at data[i] (an opening quote) and returns its
	// raw contents; ok is false when it does not close.
	str := func() ([]byte, bool) {
		start := i + 1
		for j := start; j < len(data); j++ {
			switch data[j] {
			case '\\':
				j++
			case '"':
				i = j + 1
				return data[start:j], true
			}
		}
		return nil, false
	}
	// value reads the value at data[i]: a scalar is skipped and returned;
	// a container is entered (open set).
	value := func(name string) (raw []byte, open byte, ok bool) {
		skipWS()
		if i >= len(data) {
			return nil, 0, false
		}
		switch c := data[i]; c {
		case '{', '[':
			if len(stack) >= MaxDepth {
				return nil, 0, false
			}
			stack = append(stack, frame{obj: c == '{'})
			path = append(path, name)
			i++
			return nil, c, true
		case '"':
			s, ok := str()
			return s, 0, ok
		default:
			start := i
			for i < len(data) && !delim(data[i]) {
				i++
			}
			return data[start:i], 0, i > start
		}
	}
	stack = append(stack, frame{obj: data[i] == '{'})
	i++
	for len(stack) > 0 {
		skipWS()
		if i >= len(data) {
			return -1
		}
		top := &stack[len(stack)-1]
		if (top.obj && data[i] == '}') || (!top.obj && data[i] == ']') {
			i++
			stack = stack[:len(stack)-1]
			if len(path) > 0 && len(stack) > 0 {
				path = path[:len(path)-1]
			}
			continue
		}
		if top.count > 0 {
			if data[i] != ',' {
				return -1
			}
			i++
			skipWS()
			if i >= len(data) {
				return -1
			}
		}
		top.count++
		*ev = Event{Path: path, Off: i, First: top.count == 1}
		var name string
		if top.obj {
			if data[i] != '"' {
				return -1
			}
			k, ok := str()
			if !ok {
				return -1
			}
			skipWS()
			if i >= len(data) || data[i] != ':' {
				return -1
			}
			i++
			ev.Key, name = string(k), string(k)
		} else {
			ev.Index = top.count
			name = "[" + strconv.Itoa(top.count) + "]"
		}
		depth := len(path)
		raw, open, ok := value(name)
		if !ok {
			return -1
		}
		ev.Path, ev.Value, ev.Open = path[:depth], raw, open
		if !visit(ev) {
			return -1
		}
	}
	return i
}

// delim reports whether c ends a JSON number or literal.
func delim(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}

// lineAt returns the 1-based line of offset off, lines being lineStarts.
func LineAt(lines []int, off int) int {
	return sort.Search(len(lines), func(k int) bool { return lines[k] > off })
}

// String returns the text of a raw JSON string (Event.Value).
func String(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw)
	}
	var s string
	if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s) != nil {
		return string(raw)
	}
	return s
}

// KeyLine returns the 1-based line of the member key that path names from
// the top of the object data holds (["status", "id"]), 0 when data has no
// such member before it stops being well formed.
func KeyLine(data []byte, path ...string) int {
	if len(path) == 0 {
		return 0
	}
	line := 0
	Walk(data, 0, func(ev *Event) bool {
		if ev.Key != path[len(path)-1] || len(ev.Path) != len(path)-1 {
			return true
		}
		for i, k := range ev.Path {
			if k != path[i] {
				return true
			}
		}
		line = 1 + bytes.Count(data[:ev.Off], []byte{'\n'})
		return false
	})
	return line
}

// Counter gives the 1-based line of offsets of data, counting line breaks
// as it goes: offsets asked in increasing order cost one pass over data.
type Counter struct {
	data      []byte
	off, line int
}

// NewCounter returns a Counter at the start of data.
func NewCounter(data []byte) *Counter { return &Counter{data: data, line: 1} }

// Line returns the line of offset off (clamped to data).
func (c *Counter) Line(off int) int {
	off = min(max(off, 0), len(c.data))
	if off < c.off {
		c.off, c.line = 0, 1
	}
	c.line += bytes.Count(c.data[c.off:off], []byte{'\n'})
	c.off = off
	return c.line
}
