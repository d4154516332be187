package parser

import (
	"bytes"

	"github.com/mgtriage/mgtriage/parser/internal/jsonpos"
	"github.com/mgtriage/mgtriage/parser/model"
)

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
	jsonpos.Walk(data, off, func(ev *jsonpos.Event) bool {
		if ev.Key == "" {
			return true
		}
		n := jsonpos.LineAt(lines, ev.Off)
		if n >= start+maxFieldScan {
			return false
		}
		keys = append(append(keys[:0], ev.Path...), ev.Key)
		item := ev.First && len(ev.Path) > 0 && ev.Path[len(ev.Path)-1] != "" && ev.Path[len(ev.Path)-1][0] == '['
		x.add(keys, n, item, func() string { return jsonpos.String(ev.Value) })
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
	jsonpos.Walk(data, off+j, func(ev *jsonpos.Event) bool {
		if jsonpos.LineAt(lines, ev.Off) >= start+maxFieldScan {
			return false
		}
		if len(ev.Path) == 0 && ev.Key == key {
			found = jsonpos.LineAt(lines, ev.Off)
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
	lines := jsonpos.NewCounter(data)
	end := jsonpos.Walk(data, 0, func(ev *jsonpos.Event) bool {
		switch {
		case len(ev.Path) == 0:
			inItems = ev.Key == "items" && ev.Open == '['
		case len(ev.Path) == 1 && inItems && ev.Index > 0:
			out = append(out, lines.Line(ev.Off))
		}
		return true
	})
	if end < 0 {
		return nil
	}
	return out
}
