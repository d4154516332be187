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
	// Tab is the first line of the item indented with a tab, which YAML
	// forbids (0: none); its Data reads each such tab as two columns.
	Tab int
}

// listBreak says where the items of a v1 List stop before the list ends:
// Line is the first line that is neither part of an item nor a key of the
// list (0: the items end where they should), Lost the number of items that
// start after it (at the items' indentation) and are not read.
type listBreak struct {
	Line, Lost int
}

// error words the break as a gather problem, with cause the YAML error
// that stopped a decode of the whole document, if any.
func (b listBreak) error(kept int, cause error) error {
	msg := fmt.Sprintf("line %d: the list breaks off here (a line that is neither an item nor a key of the list)", b.Line)
	if cause != nil {
		msg = fmt.Sprintf("line %d: the list breaks off here (%s)", b.Line, plainError(cause))
	}
	switch b.Lost {
	case 0:
		msg += fmt.Sprintf("; the %s before it read", itemCount(kept))
	default:
		msg += fmt.Sprintf("; the %s before it read, the %s from line %d on not read", itemCount(kept), itemCount(b.Lost), b.Line)
	}
	return errors.New(msg)
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
	items, closed, ok, _ = splitListInto(make([]byte, 0, len(data)+1), data)
	if !ok {
		items = nil
	}
	return items, closed, ok
}

// itemCount is "1 item" or "n items".
func itemCount(n int) string {
	if n == 1 {
		return "1 item"
	}
	return fmt.Sprintf("%d items", n)
}

// splitListPooled is SplitList into a buffer from bufs (the load's);
// release hands it back, and the items must not be used after it.
//
// brk says where the items broke off, if they did; with ok=false, items
// are then the ones before the break (a document that is not a List in
// block form from its start gives none).
func splitListPooled(data []byte, bufs *bufpool.Pool) (items []ListItem, closed, ok bool, brk listBreak, release func()) {
	buf := bufs.Get(len(data) + 1)
	items, closed, ok, brk = splitListInto(buf, data)
	return items, closed, ok, brk, func() { bufs.Put(buf) }
}

// splitListInto is SplitList writing the items' text into out, which must be
// empty with a capacity of at least len(data)+1 (a tab read as two columns
// may grow it), and saying where the items broke off (splitListPooled).
func splitListInto(out, data []byte) (items []ListItem, closed, ok bool, brk listBreak) {
	// The items' de-indented text goes into one buffer (never longer than
	// data plus the line break added after a last line without one, but
	// for tabs), and each item is a slice of it: one allocation per file,
	// not per line and item.
	type span struct{ line, start, tab int }
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
			items[k] = ListItem{Line: sp.line, Data: out[sp.start:end:end], Tab: sp.tab}
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
				return nil, true, true, brk
			}
			if last {
				break
			}
			continue
		}
		trimmed := bytes.TrimLeft(line, " ")
		lead := len(line) - len(trimmed)
		// A tab where an item's structure is indented (before its keys'
		// column) is not YAML, but a hand-edited or re-dumped copy holds
		// it: the line is read with each tab as two columns, the step of
		// oc's indentation, and the item says so (Tab). A tab further in
		// is text (in a block scalar) or separation, as YAML reads it.
		tabbed := false
		if len(trimmed) > 0 && trimmed[0] == '\t' && (indent < 0 || lead < indent+2) {
			ws := len(line) - len(bytes.TrimLeft(line, " \t"))
			if ws < len(line) {
				tabbed = true
				lead = columns(line[:ws])
				trimmed = line[ws:]
			} else {
				trimmed = nil // a line of blanks
			}
		}
		if !tabbed && cur >= 0 && len(trimmed) > 0 && trimmed[0] == '#' && lead >= indent+2 {
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
				return nil, false, false, brk
			}
			indent = lead
		}
		isItem := lead == indent && (bytes.HasPrefix(trimmed, []byte("- ")) || bytes.Equal(trimmed, []byte("-")))
		if tabbed && cur >= 0 && spans[cur].tab == 0 && !isItem {
			spans[cur].tab = i + 1
		}
		switch {
		case isItem:
			spans = append(spans, span{line: i + 1, start: len(out)})
			cur = len(spans) - 1
			if tabbed {
				spans[cur].tab = i + 1
			}
			out = append(out, dedent(trimmed, 0, true)...)
			out = append(out, '\n')
		case lead > indent && cur >= 0 && tabbed:
			out = append(out, bytes.Repeat([]byte(" "), max(0, lead-indent-2))...)
			out = append(out, trimmed...)
			out = append(out, '\n')
		case lead > indent && cur >= 0:
			out = append(out, dedent(line, indent+2, false)...)
			out = append(out, '\n')
		case lead == 0 && indent == 0 && trimmed[0] != '-', lead < indent:
			// The items end: what follows should be the list's other
			// keys (kind:, metadata:), at column 0.
			if lead != 0 || !listKeyRe.Match(trimmed) || tabbed {
				brk.Line = i + 1
			}
			if lost := itemsAfter(rest, indent); lost > 0 {
				brk = listBreak{Line: i + 1, Lost: lost}
			}
			return finish(), true, true, brk
		default:
			if len(spans) == 0 {
				return nil, false, false, brk
			}
			return finish(), false, false, listBreak{Line: i + 1, Lost: itemsAfter(rest, indent)}
		}
		if last {
			break
		}
	}
	if !inItems {
		return nil, false, false, brk
	}
	return finish(), kindFirst, true, brk
}

// listKeyRe is a key of a List besides items (kind:, metadata:, apiVersion:).
var listKeyRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*:(\s|$)`)

// columns is the width of a line's indentation, a tab as two columns.
func columns(ws []byte) int {
	n := 0
	for _, c := range ws {
		n++
		if c == '\t' {
			n++
		}
	}
	return n
}

// itemsAfter counts the lines of rest that start an item at column indent
// ("- " after exactly indent spaces), up to the next document ("---").
func itemsAfter(rest []byte, indent int) int {
	n := 0
	for len(rest) > 0 {
		line := rest
		if k := bytes.IndexByte(rest, '\n'); k >= 0 {
			line, rest = rest[:k], rest[k+1:]
		} else {
			rest = nil
		}
		if bytes.HasPrefix(line, []byte("---")) {
			break
		}
		trimmed := bytes.TrimLeft(line, " ")
		if len(line)-len(trimmed) == indent && (bytes.HasPrefix(trimmed, []byte("- ")) || bytes.Equal(bytes.TrimRight(trimmed, "\r"), []byte("-"))) {
			n++
		}
	}
	return n
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
// metadata.managedFields, which nothing reads, may be left out, and an item
// that cannot be a subject of the model (subjectProblem: a pod without a
// name, an event that says nothing) is not handed to add but returned as an
// error with its line.
func decodeItemsLean[T any](data []byte, lm loadMem, add func(obj *T, line int, partial bool) bool) []error {
	return decodeItemsWith(data, true, lm, add)
}

func decodeItemsWith[T any](data []byte, lean bool, lm loadMem, add func(obj *T, line int, partial bool) bool) []error {
	if !utf8.Valid(data) {
		data = bytes.ToValidUTF8(data, []byte("\uFFFD"))
	}
	var errs []error
	items, closed, ok, brk, release := splitListPooled(data, lm.bufs)
	// The decoded objects hold copies of the items' text, never slices of it.
	defer release()
	// perItem decodes the split items one by one; wholeOK says that the
	// whole document may be decoded when an item fails on its own.
	perItem := func(wholeOK bool) []error {
		bytesOK := fastYAMLBytesOK(data)
		// whole holds the items of the whole document, decoded once the
		// first item fails on its own: valid YAML that splitting breaks
		// then still gives every object.
		var whole []T
		wholeTried := !wholeOK
		for i, it := range items {
			truncated := !closed && ok && i == len(items)-1
			obj, err := unmarshalYAMLChecked[T](it.Data, lean, bytesOK && it.Tab == 0, lm)
			if err != nil && !wholeTried && it.Tab == 0 {
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
				if it.Tab > 0 {
					msg = fmt.Sprintf("item at line %d: tab used for indentation at line %d (YAML forbids it); the item does not read with a tab as two columns either: %s", it.Line, it.Tab, absoluteLines(plainError(err), it.Line))
				}
				if truncated {
					msg += " (the file ends inside the list: truncated copy?)"
				}
				errs = append(errs, errors.New(msg))
				continue
			}
			if why := subjectCheck(lean, obj); why != "" {
				msg := fmt.Sprintf("item at line %d: %s", it.Line, why)
				if it.Tab > 0 {
					msg = fmt.Sprintf("item at line %d: tab used for indentation at line %d (YAML forbids it); read with a tab as two columns, %s", it.Line, it.Tab, why)
				}
				if truncated {
					msg += " (the file ends inside the list: truncated copy?)"
				}
				errs = append(errs, errors.New(msg))
				continue
			}
			if it.Tab > 0 {
				errs = append(errs, fmt.Errorf("item at line %d: tab used for indentation at line %d (YAML forbids it); read with each tab as two columns: check its fields against the cluster", it.Line, it.Tab))
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
	if ok && lm.cut && !closed && len(items) > 0 {
		// Read up to the file limit: the last item is cut there.
		last := items[len(items)-1]
		items, closed = items[:len(items)-1], true
		errs = perItem(true)
		return append(errs, fmt.Errorf("line %d: the file is read only up to the limit for one object file: the item at line %d, cut there, and every item after it are not read", last.Line, last.Line))
	}
	if ok {
		errs = perItem(true)
		if brk.Line > 0 {
			errs = append(errs, brk.error(len(items), nil))
		}
		return errs
	}
	var list struct {
		Items []T `json:"items"`
	}
	if err := yaml.Unmarshal(data, &list); err != nil {
		if len(items) == 0 {
			return []error{err}
		}
		// A List in block form that breaks off mid-way: the items before
		// the break are read.
		errs = perItem(false)
		return append(errs, brk.error(len(items), err))
	}
	// A JSON List's items are cited at the line of their '{' when the
	// position-aware walk finds as many as the decode did.
	var itemLines []int
	if isJSON(data) {
		if l := jsonItemLines(data); len(l) == len(list.Items) {
			itemLines = l
		}
	}
	for i := range list.Items {
		if why := subjectCheck(lean, &list.Items[i]); why != "" {
			errs = append(errs, fmt.Errorf("item %d of the list: %s", i+1, why))
			continue
		}
		line := 0
		if itemLines != nil {
			line = itemLines[i]
		}
		if !add(&list.Items[i], line, false) {
			return errs
		}
	}
	return errs
}

// subjectCheck is subjectProblem for the lean decodes (the model's
// subjects), "" for the others.
func subjectCheck(lean bool, obj any) string {
	if !lean {
		return ""
	}
	return subjectProblem(obj)
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
