package parser

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"unicode/utf8"

	"github.com/mgtriage/mgtriage/parser/internal/bufpool"
	"sigs.k8s.io/yaml"
)

// ListItem is one element of a v1 List document: its 1-based line in the file
// and the element's own YAML, de-indented so it decodes as a single object.
type ListItem struct {
	Line int
	Data []byte
}

// SplitList cuts a v1 List document (`apiVersion: v1`, `items:`, `kind: XList`,
// as `oc get -o yaml` writes it) into its items without decoding them, so that
// every item keeps its line and one broken item does not lose the others.
// It returns ok=false when data is not in that block form (JSON, flow style,
// no top-level `items:`); callers then decode the whole document instead.
// closed is false when the file ends inside the items: oc and kubectl write
// the keys sorted, so `kind:` follows `items:`, and a file that ends before it
// is a truncated copy (unless `kind:` came first, as some tools write it).
// An item whose alias refers to an anchor in another item (as Python tools
// write when they re-dump a gather) does not decode on its own: callers fall
// back to the whole document (decodeItemsWith) or do not split documents
// with anchors (readObjects).
func SplitList(data []byte) (items []ListItem, closed, ok bool) {
	return splitListInto(make([]byte, 0, len(data)+1), data)
}

// splitListPooled is SplitList into a buffer from bufs (the load's);
// release hands it back, and the items must not be used after it.
func splitListPooled(data []byte, bufs *bufpool.Pool) (items []ListItem, closed, ok bool, release func()) {
	buf := bufs.Get(len(data) + 1)
	items, closed, ok = splitListInto(buf, data)
	return items, closed, ok, func() { bufs.Put(buf) }
}

// splitListInto is SplitList writing the items' text into out, which must be
// empty with a capacity of at least len(data)+1.
func splitListInto(out, data []byte) (items []ListItem, closed, ok bool) {
	// The items' de-indented text goes into one buffer (never longer than
	// data plus the line break added after a last line without one), and
	// each item is a slice of it: one allocation per file, not per line
	// and item.
	type span struct{ line, start int }
	var spans []span
	inItems := false
	kindFirst := false
	indent := -1
	cur := -1 // index in spans of the open item
	finish := func() []ListItem {
		items := make([]ListItem, len(spans))
		for k, sp := range spans {
			end := len(out)
			if k+1 < len(spans) {
				end = spans[k+1].start
			}
			items[k] = ListItem{Line: sp.line, Data: out[sp.start:end:end]}
		}
		return items
	}
	// Lines as bytes.SplitAfter gives them: the last one is what follows the
	// last line break, empty when data ends with one.
	for i, rest := 0, data; ; i++ {
		var line []byte
		if k := bytes.IndexByte(rest, '\n'); k >= 0 {
			line, rest = rest[:k+1], rest[k+1:]
		} else {
			line, rest = rest, nil
		}
		last := rest == nil
		line = bytes.TrimRight(line, "\r\n")
		if !inItems {
			if bytes.HasPrefix(line, []byte("kind:")) {
				kindFirst = true
			}
			if bytes.Equal(bytes.TrimRight(line, " "), []byte("items:")) {
				inItems = true
			} else if bytes.HasPrefix(line, []byte("items: []")) {
				return nil, true, true
			}
			if last {
				break
			}
			continue
		}
		trimmed := bytes.TrimLeft(line, " ")
		lead := len(line) - len(trimmed)
		if cur >= 0 && len(trimmed) > 0 && trimmed[0] == '#' && lead >= indent+2 {
			// Inside an item's content a "#" line may be the text of a
			// block scalar (a script's "#!/bin/sh", a config file's
			// comments): keep it; where it is a comment YAML skips it.
			out = append(out, line[indent+2:]...)
			out = append(out, '\n')
			if last {
				break
			}
			continue
		}
		if len(trimmed) == 0 || trimmed[0] == '#' {
			if cur >= 0 {
				out = append(out, '\n')
			}
			if last {
				break
			}
			continue
		}
		if indent < 0 {
			if trimmed[0] != '-' {
				return nil, false, false
			}
			indent = lead
		}
		switch {
		case lead == indent && bytes.HasPrefix(trimmed, []byte("- ")) || lead == indent && bytes.Equal(trimmed, []byte("-")):
			spans = append(spans, span{line: i + 1, start: len(out)})
			cur = len(spans) - 1
			out = append(out, dedent(line, indent+2, true)...)
			out = append(out, '\n')
		case lead > indent && cur >= 0:
			out = append(out, dedent(line, indent+2, false)...)
			out = append(out, '\n')
		case lead == 0 && indent == 0 && trimmed[0] != '-', lead < indent:
			return finish(), true, true
		default:
			return nil, false, false
		}
		if last {
			break
		}
	}
	if !inItems {
		return nil, false, false
	}
	return finish(), kindFirst, true
}

// hasAnchor reports whether data may define a YAML anchor: an "&name" that
// starts a value (after ": ", "- ", "? ", "[", "{", "," or at the start of a
// line). A plain scalar cannot start with "&", so such text outside a block
// scalar is an anchor; inside one it is a false alarm that only costs the
// split.
func hasAnchor(data []byte) bool {
	for off := 0; ; {
		i := bytes.IndexByte(data[off:], '&')
		if i < 0 {
			return false
		}
		i += off
		off = i + 1
		if i+1 >= len(data) || !anchorNameByte(data[i+1]) {
			continue
		}
		j := i - 1
		for j >= 0 && (data[j] == ' ' || data[j] == '\t') {
			j--
		}
		if j < 0 {
			return true
		}
		switch data[j] {
		case '\n', '[', '{', ',':
			return true
		case ':', '-', '?':
			if j < i-1 {
				return true
			}
		}
	}
}

// anchorNameByte: anchor names are any non-space characters except flow
// indicators; these are the ones seen in practice.
func anchorNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c >= 0x80
}

// dedent removes n columns of indentation; for the first line of an item the
// "- " marker counts as indentation.
func dedent(line []byte, n int, first bool) []byte {
	if first {
		out := bytes.TrimLeft(line, " ")
		out = bytes.TrimPrefix(out, []byte("-"))
		return bytes.TrimPrefix(out, []byte(" "))
	}
	// Only indentation is removed: a continuation line indented less than
	// the item's keys (inside a flow collection or a plain scalar) keeps
	// its text.
	lead := len(line) - len(bytes.TrimLeft(line, " "))
	return line[min(n, lead):]
}

// decodeItems decodes every item of a v1 List into a new T, calling add for
// each with its line. Items that fail to decode are returned as errors with
// their line; the others are still added. Non-block documents (JSON) are
// decoded whole, with line 0 for every item. lm is the load's memory the
// decoders use (unmarshalYAML).
func decodeItems[T any](data []byte, lm loadMem, add func(obj *T, line int)) []error {
	return decodeItemsPartial(data, lm, func(obj *T, line int, _ bool) bool { add(obj, line); return true })
}

// decodeItemsPartial is decodeItems that also tells add whether the item was
// cut short by the end of a truncated file; add returns false to stop decoding
// the rest of the list (a limit was reached).
func decodeItemsPartial[T any](data []byte, lm loadMem, add func(obj *T, line int, partial bool) bool) []error {
	return decodeItemsWith(data, false, lm, add)
}

// decodeItemsLean is decodeItemsPartial for the objects the model keeps:
// metadata.managedFields, which nothing reads, may be left out.
func decodeItemsLean[T any](data []byte, lm loadMem, add func(obj *T, line int, partial bool) bool) []error {
	return decodeItemsWith(data, true, lm, add)
}

func decodeItemsWith[T any](data []byte, lean bool, lm loadMem, add func(obj *T, line int, partial bool) bool) []error {
	if !utf8.Valid(data) {
		data = bytes.ToValidUTF8(data, []byte("\uFFFD"))
	}
	var errs []error
	items, closed, ok, release := splitListPooled(data, lm.bufs)
	// The decoded objects hold copies of the items' text, never slices of it.
	defer release()
	if ok {
		bytesOK := fastYAMLBytesOK(data)
		// whole holds the items of the whole document, decoded once the
		// first item fails on its own: valid YAML that splitting breaks
		// then still gives every object.
		var whole []T
		wholeTried := false
		for i, it := range items {
			truncated := !closed && i == len(items)-1
			obj, err := unmarshalYAMLChecked[T](it.Data, lean, bytesOK, lm)
			if err != nil && !wholeTried {
				wholeTried = true
				var list struct {
					Items []T `json:"items"`
				}
				if yaml.Unmarshal(data, &list) == nil && len(list.Items) == len(items) {
					whole = list.Items
				}
			}
			if err != nil && whole != nil {
				obj, err = &whole[i], nil
			}
			if err != nil {
				msg := fmt.Sprintf("item at line %d: %s", it.Line, absoluteLines(err.Error(), it.Line))
				if truncated {
					msg += " (the file ends inside the list: truncated copy?)"
				}
				errs = append(errs, errors.New(msg))
				continue
			}
			if truncated {
				errs = append(errs, fmt.Errorf("item at line %d: the file ends inside the list (truncated copy?); this item may be incomplete", it.Line))
			}
			if !add(obj, it.Line, truncated) {
				return errs
			}
		}
		return errs
	}
	var list struct {
		Items []T `json:"items"`
	}
	if err := yaml.Unmarshal(data, &list); err != nil {
		return []error{err}
	}
	for i := range list.Items {
		if !add(&list.Items[i], 0, false) {
			return nil
		}
	}
	return nil
}

var yamlLineRe = regexp.MustCompile(`\bline (\d+)`)

// absoluteLines rewrites the "line N" of a YAML error inside an item that
// starts at line base into the line of the whole file.
func absoluteLines(msg string, base int) string {
	return yamlLineRe.ReplaceAllStringFunc(msg, func(m string) string {
		n, err := strconv.Atoi(m[len("line "):])
		if err != nil {
			return m
		}
		return fmt.Sprintf("line %d", base+n-1)
	})
}

// decodeObject decodes a single object document, with lm as unmarshalYAML.
func decodeObject[T any](data []byte, lm loadMem) (*T, error) {
	return decodeObjectWith[T](data, false, lm)
}

// decodeObjectLean is decodeObject for the objects the model keeps:
// metadata.managedFields, which nothing reads, may be left out.
func decodeObjectLean[T any](data []byte, lm loadMem) (*T, error) {
	return decodeObjectWith[T](data, true, lm)
}

func decodeObjectWith[T any](data []byte, lean bool, lm loadMem) (*T, error) {
	if !utf8.Valid(data) {
		data = bytes.ToValidUTF8(data, []byte("\uFFFD"))
	}
	return unmarshalYAML[T](data, lean, lm)
}
