package parser

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"

	"github.com/mgtriage/mgtriage/parser/model"
)

// maxJSONDepth bounds the nesting walkJSON follows; a deeper value ends the walk.
const maxJSONDepth = 256

// jsonEvent is one step of walkJSON: a member key of an object (Key set) or
// an element of an array (Index set, 1-based). Path holds the frames of the
// containers around it below the walked value: member keys and "[i]" for
// elements. Off is the offset of the key's opening quote or of the
// element's first byte. Value is the raw scalar value (a string without its
// quotes, still escaped), nil when the value is an object or an array;
// Open is then '{' or '['. First says the key is its object's first.
type jsonEvent struct {
	Path  []string
	Key   string
	Index int
	Off   int
	Value []byte
	Open  byte
	First bool
}

// walkJSON walks the JSON value (an object or an array) that starts at the
// first '{' or '[' at or after off in data and calls visit for every member
// key and array element in document order, until visit returns false, the
// value ends, or the input is not well formed there (the walk stops at the
// first byte it cannot read; what was visited stands). It never reads past
// data, follows at most maxJSONDepth levels, and returns the offset just
// past the value (-1 when the value does not end well formed).
func walkJSON(data []byte, off int, visit func(ev *jsonEvent) bool) int {
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
	ev := &jsonEvent{}
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
			if len(stack) >= maxJSONDepth {
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
			for i < len(data) && !jsonDelim(data[i]) {
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
		*ev = jsonEvent{Path: path, Off: i, First: top.count == 1}
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

// jsonDelim reports whether c ends a JSON number or literal.
func jsonDelim(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}

// lineAt returns the 1-based line of offset off, lines being lineStarts.
func lineAt(lines []int, off int) int {
	return sort.Search(len(lines), func(k int) bool { return lines[k] > off })
}

// jsonString returns the text of a raw JSON string (jsonEvent.Value).
func jsonString(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw)
	}
	var s string
	if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s) != nil {
		return string(raw)
	}
	return s
}

// scanJSONFieldLines is scanFieldLines for a JSON file: it indexes the
// object that starts at the first '{' of line start (1-based) or after it,
// and reads no further than maxFieldScan lines. The line of a key is the
// line of its opening quote; a list element's is the line of its first key,
// as a YAML element's is the line of its dash.
func scanJSONFieldLines(data []byte, lines []int, start int) model.FieldLines {
	if start < 1 || start > len(lines) {
		return nil
	}
	off := lines[start-1]
	if j := bytes.IndexByte(data[off:], '{'); j >= 0 {
		off += j
	} else {
		return nil
	}
	x := newFieldIndex()
	var keys []string
	walkJSON(data, off, func(ev *jsonEvent) bool {
		if ev.Key == "" {
			return true
		}
		n := lineAt(lines, ev.Off)
		if n >= start+maxFieldScan {
			return false
		}
		keys = append(append(keys[:0], ev.Path...), ev.Key)
		item := ev.First && len(ev.Path) > 0 && ev.Path[len(ev.Path)-1] != "" && ev.Path[len(ev.Path)-1][0] == '['
		x.add(keys, n, item, func() string { return jsonString(ev.Value) })
		return true
	})
	return x.lines()
}

// jsonKeyLine is keyLine for a JSON file: the line of the top-level key of
// the object that starts at the first '{' of line start or after it, 0 when
// it has none.
func jsonKeyLine(data []byte, lines []int, start int, key string) int {
	if start < 1 || start > len(lines) {
		return 0
	}
	off := lines[start-1]
	j := bytes.IndexByte(data[off:], '{')
	if j < 0 {
		return 0
	}
	found := 0
	walkJSON(data, off+j, func(ev *jsonEvent) bool {
		if lineAt(lines, ev.Off) >= start+maxFieldScan {
			return false
		}
		if len(ev.Path) == 0 && ev.Key == key {
			found = lineAt(lines, ev.Off)
			return false
		}
		return true
	})
	return found
}

// jsonItemLines returns the 1-based line of each element of the top-level
// "items" array of a JSON List document (the line of the element's first
// byte); nil when data holds no such array or it does not read to its end.
// It counts lines as it goes, without an index of the whole file.
func jsonItemLines(data []byte) []int {
	var out []int
	inItems := false
	off, line := 0, 1 // the line of offset off
	end := walkJSON(data, 0, func(ev *jsonEvent) bool {
		switch {
		case len(ev.Path) == 0:
			inItems = ev.Key == "items" && ev.Open == '['
		case len(ev.Path) == 1 && inItems && ev.Index > 0:
			line += bytes.Count(data[off:ev.Off], []byte{'\n'})
			off = ev.Off
			out = append(out, line)
		}
		return true
	})
	if end < 0 {
		return nil
	}
	return out
}
