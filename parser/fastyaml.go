package parser

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/mgtriage/mgtriage/parser/internal/yaml11"
)

// yamlToJSON converts one YAML document in the block style that oc and
// kubectl write (block mappings and sequences, plain, quoted and literal
// scalars, `{}` and `[]`) into the JSON that sigs.k8s.io/yaml would make of
// it, so that encoding/json can decode it straight into a typed object. It
// returns ok=false for anything outside that subset or anything whose JSON
// could differ (flow collections, anchors, tags, folded scalars, comments
// after values, non-string keys, duplicate keys, numbers other than plain
// decimal integers, yes/no/on/off, control characters, ...): the caller then
// hands the document to the YAML library unchanged.
//
// With lean set, a `managedFields:` block under the top-level `metadata:` is
// skipped without being converted (no reader of the model looks at it, and
// it is often half of an object's text), and a managedFields key anywhere
// else makes the document fall back to the library.
func yamlToJSON(data []byte, lean bool, lm loadMem) ([]byte, bool) {
	return yamlToJSONChecked(data, lean, false, lm)
}

// yamlToJSONChecked is yamlToJSON that skips the byte scan when bytesOK.
// The JSON's buffer comes from lm.bufs (the load's): the caller may hand it
// back with lm.bufs.Put once it keeps nothing of it.
func yamlToJSONChecked(data []byte, lean, bytesOK bool, lm loadMem) ([]byte, bool) {
	if !bytesOK && !fastYAMLBytesOK(data) {
		return nil, false
	}
	w := lm.scratch.getYAMLWork(data)
	c := yconv{lines: w.lines, lean: lean, out: lm.bufs.Get(len(data) + len(data)/4), scratch: w.scratch}
	defer func() { lm.scratch.putYAMLWork(w, c.scratch, nil) }()
	c.skipBlank()
	if c.i < len(c.lines) && c.lines[c.i].indent == 0 && string(c.lines[c.i].text) == "---" {
		c.i++
		c.skipBlank()
	}
	if c.i >= len(c.lines) {
		return []byte("null"), true
	}
	c.block(c.lines[c.i].indent, 0)
	c.skipBlank()
	if c.bad || c.i < len(c.lines) {
		lm.bufs.Put(c.out)
		return nil, false
	}
	return c.out, true
}

// fastYAMLBytesOK rejects bytes that the YAML library treats specially:
// control characters (carriage returns included), DEL, C1 controls, the
// byte-order mark, U+FFFE/U+FFFF and the Unicode line separators, and text
// that is not UTF-8. Every byte of a gather's YAML passes through it, so it
// passes over eight bytes at a time of printable ASCII (the bulk of any
// file) and looks at each byte only in a word that holds another one.
func fastYAMLBytesOK(data []byte) bool {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	ascii := true
	i := 0
	for ; i+8 <= len(data); i += 8 {
		w := binary.LittleEndian.Uint64(data[i:])
		// Line breaks and tabs, which most words of YAML hold, are allowed:
		// they are made printable (0x20 set) before the test.
		p := w | zeroBytes(w^'\n'*ones)>>2 | zeroBytes(w^'\t'*ones)>>2
		// A byte under 0x20 (the first term), or at 0x7f or above (the
		// second): each test is exact about whether the word holds one.
		if (p-0x20*ones)&^p&high == 0 && ((w+ones)|w)&high == 0 {
			continue
		}
		for j := i; j < i+8; j++ {
			if !yamlByteOK(data, j) {
				return false
			}
			ascii = ascii && data[j] < 0x80
		}
	}
	for ; i < len(data); i++ {
		if !yamlByteOK(data, i) {
			return false
		}
		ascii = ascii && data[i] < 0x80
	}
	return ascii || utf8.Valid(data)
}

// zeroBytes returns 0x80 in each byte of the result where v has a zero byte,
// and 0 elsewhere (exact: no carry crosses bytes).
func zeroBytes(v uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return ^((v&low7 + low7) | v) & 0x8080808080808080
}

// yamlByteOK reports whether data[i] is allowed by fastYAMLBytesOK, looking
// at the bytes after it for the multi-byte sequences it rejects.
func yamlByteOK(data []byte, i int) bool {
	switch b := data[i]; {
	case b < 0x20:
		return b == '\n' || b == '\t'
	case b == 0x7f:
		return false
	case b == 0xc2:
		return !(i+1 < len(data) && data[i+1] >= 0x80 && data[i+1] <= 0x9f)
	case b == 0xef:
		return !(i+2 < len(data) && (data[i+1] == 0xbb && data[i+2] == 0xbf || data[i+1] == 0xbf && data[i+2] >= 0xbe))
	case b == 0xe2:
		return !(i+2 < len(data) && data[i+1] == 0x80 && (data[i+2] == 0xa8 || data[i+2] == 0xa9))
	}
	return true
}

type yline struct {
	indent int    // leading spaces
	text   []byte // the line after its leading spaces, trailing spaces removed
	raw    []byte // the whole line without its line break
	blank  bool   // whitespace only, or a comment line
	eol    bool   // a line break follows
}

// yamlWork is what converting one document needs besides its output: its
// lines and the scratch buffer of quoted scalars. A gather has hundreds of
// thousands of items to convert, and a line is 64 bytes, so the load's
// scratchPools
// keeps them from one item to the next.
type yamlWork struct {
	lines   []yline
	scratch []byte
	// out is the output buffer of the event decoder, which reads one
	// scalar at a time (yamlToJSON's output goes to its caller instead).
	out []byte
}

// getYAMLWork returns a yamlWork from sp holding the lines of data; hand
// it back with putYAMLWork once done with them.
func (sp *scratchPools) getYAMLWork(data []byte) *yamlWork {
	var w *yamlWork
	if sp != nil {
		w, _ = sp.yamlWork.Get().(*yamlWork)
	}
	if w == nil {
		w = new(yamlWork)
	}
	w.lines = appendYAMLLines(w.lines[:0], data)
	return w
}

// putYAMLWork clears the lines (they hold slices of the document), keeps
// scratch and out (the converter's copies of them, which may have grown;
// nil out keeps w's) and hands w back, unless it grew past a million lines
// or a buffer past a megabyte.
func (sp *scratchPools) putYAMLWork(w *yamlWork, scratch, out []byte) {
	clear(w.lines)
	if out != nil {
		w.out = out[:0]
	}
	if sp == nil || cap(w.lines) > 1<<20 || cap(scratch) > 1<<20 || cap(w.out) > 1<<20 {
		return
	}
	w.lines, w.scratch = w.lines[:0], scratch[:0]
	sp.yamlWork.Put(w)
}

// appendYAMLLines appends the lines of data to lines.
func appendYAMLLines(lines []yline, data []byte) []yline {
	lines = slices.Grow(lines, bytes.Count(data, []byte{'\n'})+1)
	for len(data) > 0 {
		raw, rest, eol := bytes.Cut(data, []byte{'\n'})
		data = rest
		n := 0
		for n < len(raw) && raw[n] == ' ' {
			n++
		}
		text := bytes.TrimRight(raw[n:], " ")
		lines = append(lines, yline{indent: n, text: text, raw: raw, eol: eol, blank: len(text) == 0 || text[0] == '#'})
	}
	return lines
}

type yconv struct {
	lines []yline
	i     int
	out   []byte
	bad   bool
	lean  bool
	// raw: a string scalar is written as '"' and its bytes, unescaped and
	// unterminated (the event decoder's scalars; never a whole document).
	raw bool
	// scratch is reused for the text of quoted scalars.
	scratch []byte
}

// indexQuoteOrBackslash returns the index of the first '"' or '\\' in s, or -1.
func indexQuoteOrBackslash(s []byte) int {
	q := bytes.IndexByte(s, '"')
	e := bytes.IndexByte(s, '\\')
	switch {
	case q < 0:
		return e
	case e < 0 || q < e:
		return q
	}
	return e
}

// appendStr writes a string scalar's value: as a JSON string, or raw.
func (c *yconv) appendStr(s []byte) {
	if c.raw {
		c.out = append(append(c.out, '"'), s...)
		return
	}
	c.out = appendJSONString(c.out, s)
}

func (c *yconv) skipBlank() {
	for c.i < len(c.lines) && c.lines[c.i].blank {
		c.i++
	}
}

// docMarker reports a "---" or "..." line at column 0.
func docMarker(ln yline) bool {
	return ln.indent == 0 && (bytes.HasPrefix(ln.text, []byte("---")) || bytes.HasPrefix(ln.text, []byte("...")))
}

func isSeqItem(text []byte) bool {
	return len(text) > 0 && text[0] == '-' && (len(text) == 1 || text[1] == ' ')
}

// block converts the mapping or sequence whose first line is c.lines[c.i],
// at indent n; depth is 0 for the document's top node.
func (c *yconv) block(n, depth int) {
	ln := &c.lines[c.i]
	if ln.indent != n || ln.text[0] == '\t' || docMarker(*ln) {
		c.bad = true
		return
	}
	if isSeqItem(ln.text) {
		c.seq(n, depth)
		return
	}
	c.mapping(n, depth, false)
}

// mapping converts a block mapping at indent n. inMeta is set for the
// top-level object's metadata.
func (c *yconv) mapping(n, depth int, inMeta bool) {
	c.out = append(c.out, '{')
	var seen [16][]byte // most mappings have fewer keys: no allocation
	keys := seen[:0]
	wrote := 0
	for !c.bad {
		c.skipBlank()
		if c.i >= len(c.lines) || c.lines[c.i].indent < n {
			break
		}
		ln := c.lines[c.i]
		if ln.indent > n || isSeqItem(ln.text) || docMarker(ln) {
			c.bad = true
			return
		}
		key, rest, ok := splitKey(ln.text)
		if !ok {
			c.bad = true
			return
		}
		for _, k := range keys {
			if bytes.EqualFold(k, key) {
				c.bad = true // duplicates: the library and encoding/json disagree on which wins
				return
			}
		}
		keys = append(keys, key)
		c.i++
		if c.lean && bytes.EqualFold(key, []byte("managedFields")) {
			if !inMeta || len(rest) > 0 {
				c.bad = true // FieldsV1 keeps raw JSON: only the skipped block is safe
				return
			}
			c.skipBlock(n)
			continue
		}
		if wrote > 0 {
			c.out = append(c.out, ',')
		}
		wrote++
		c.out = appendJSONString(c.out, key)
		c.out = append(c.out, ':')
		c.value(rest, n, depth+1, depth == 0 && string(key) == "metadata", true)
	}
	c.out = append(c.out, '}')
}

// skipBlock passes over the value of a key at indent n that has nothing on
// its own line: the lines indented deeper, and a sequence at indent n.
func (c *yconv) skipBlock(n int) {
	for c.i < len(c.lines) {
		ln := c.lines[c.i]
		if !ln.blank && (ln.indent < n || ln.indent == n && !isSeqItem(ln.text)) {
			return
		}
		c.i++
	}
}

// seq converts a block sequence at indent n.
func (c *yconv) seq(n, depth int) {
	c.out = append(c.out, '[')
	first := true
	for !c.bad {
		c.skipBlank()
		if c.i >= len(c.lines) || c.lines[c.i].indent < n {
			break
		}
		ln := &c.lines[c.i]
		if ln.indent > n {
			c.bad = true
			return
		}
		if !isSeqItem(ln.text) {
			break
		}
		if !first {
			c.out = append(c.out, ',')
		}
		first = false
		rest := ln.text[1:]
		if len(rest) == 0 {
			c.i++
			c.value(nil, n, depth+1, false, false)
			continue
		}
		k := 0
		for k < len(rest) && rest[k] == ' ' {
			k++
		}
		content := rest[k:]
		if isSeqItem(content) || content[0] == '\t' {
			c.bad = true
			return
		}
		if _, _, ok := splitKey(content); ok {
			// "- key: value": a mapping whose keys sit at the content's column.
			ln.indent, ln.text = n+1+k, content
			c.mapping(n+1+k, depth+1, false)
			continue
		}
		c.i++
		c.value(content, n, depth+1, false, false)
	}
	c.out = append(c.out, ']')
}

// value converts the value whose text on its key's (or item's) line is rest;
// the lines after it, from c.i, may continue it. n is the indent of the key
// or item. In a mapping (inMap), a sequence may sit at the key's own indent.
func (c *yconv) value(rest []byte, n, depth int, isMeta, inMap bool) {
	if len(rest) == 0 {
		c.skipBlank()
		if c.i < len(c.lines) {
			ln := c.lines[c.i]
			if ln.indent > n {
				if isMeta && !isSeqItem(ln.text) {
					c.mapping(ln.indent, depth, true)
					return
				}
				c.block(ln.indent, depth)
				return
			}
			if inMap && ln.indent == n && isSeqItem(ln.text) {
				c.seq(n, depth)
				return
			}
		}
		c.out = append(c.out, "null"...)
		return
	}
	switch rest[0] {
	case '"':
		c.quoted(rest, n, true)
	case '\'':
		c.quoted(rest, n, false)
	case '|':
		c.literal(rest, n)
	case '[', '{':
		if len(rest) == 2 && (rest[1] == ']' && rest[0] == '[' || rest[1] == '}' && rest[0] == '{') {
			c.out = append(c.out, rest...)
			return
		}
		c.bad = true
	default:
		c.plain(rest, n)
	}
}

// plainStartOK reports whether a plain scalar may start with b's first
// bytes (no indicator that the library would read as something else).
func plainStartOK(b []byte) bool {
	switch b[0] {
	case '-', '?', ':':
		return len(b) > 1 && b[1] != ' ' && b[1] != '\t' && b[0] == '-'
	case ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', '\t':
		return false
	}
	return true
}

// plainTextOK reports whether b can be (part of) a plain scalar on one line:
// no ": " or " #", no tab, and no ':' at its end.
func plainTextOK(b []byte) bool {
	return bytes.IndexByte(b, '\t') < 0 && !bytes.Contains(b, []byte(": ")) && !bytes.Contains(b, []byte(" #")) &&
		b[len(b)-1] != ':'
}

// splitKey splits "key: rest" or "key:" into a plain key and the rest, trimmed.
func splitKey(text []byte) (key, rest []byte, ok bool) {
	if !plainStartOK(text) {
		return nil, nil, false
	}
	j := bytes.Index(text, []byte(": "))
	switch {
	case j >= 0:
		rest = bytes.TrimLeft(text[j+2:], " ")
	case text[len(text)-1] == ':':
		j = len(text) - 1
	default:
		return nil, nil, false
	}
	key = bytes.TrimRight(text[:j], " ")
	if len(key) == 0 || bytes.IndexByte(key, '\t') >= 0 || bytes.Contains(key, []byte(" #")) || yaml11.Resolve(key) != yaml11.String {
		return nil, nil, false
	}
	if len(rest) > 0 && rest[0] == '#' {
		return nil, nil, false
	}
	return key, rest, true
}

// plain converts a plain scalar and its continuation lines (those indented
// deeper than n), folded as YAML folds them.
func (c *yconv) plain(first []byte, n int) {
	if !plainStartOK(first) || !plainTextOK(first) {
		c.bad = true
		return
	}
	text := first
	var folded []byte
	breaks := 0
	for c.i < len(c.lines) {
		ln := c.lines[c.i]
		if len(ln.text) == 0 {
			breaks++
			c.i++
			continue
		}
		if ln.indent <= n {
			break
		}
		if ln.text[0] == '#' || ln.text[0] == '\t' || !plainTextOK(ln.text) {
			c.bad = true
			return
		}
		if folded == nil {
			folded = append([]byte(nil), first...)
		}
		if breaks == 0 {
			folded = append(folded, ' ')
		}
		for ; breaks > 0; breaks-- {
			folded = append(folded, '\n')
		}
		folded = append(folded, ln.text...)
		text = folded
		c.i++
	}
	switch yaml11.Resolve(text) {
	case yaml11.String:
		c.appendStr(text)
	case yaml11.Null:
		c.out = append(c.out, "null"...)
	case yaml11.Bool, yaml11.Int:
		c.out = append(c.out, text...)
	default:
		c.bad = true
	}
}

// quoted converts a single- or double-quoted scalar that starts at rest and
// may continue on the following lines (indented deeper than n).
func (c *yconv) quoted(rest []byte, n int, double bool) {
	b := c.scratch[:0]
	defer func() { c.scratch = b[:0] }()
	protected := 0 // b[:protected] came from escapes and is not trimmed at a line end
	s := rest[1:]
	for {
		for len(s) > 0 {
			// Copy up to the next byte that may end or escape.
			k := bytes.IndexByte(s, '\'')
			if double {
				k = indexQuoteOrBackslash(s)
			}
			if k < 0 {
				b, s = append(b, s...), nil
				break
			}
			b = append(b, s[:k]...)
			s = s[k:]
			ch := s[0]
			switch {
			case !double && ch == '\'':
				if len(s) > 1 && s[1] == '\'' {
					b = append(b, '\'')
					s = s[2:]
					continue
				}
				c.endQuoted(b, s[1:])
				return
			case double && ch == '"':
				c.endQuoted(b, s[1:])
				return
			case double && ch == '\\':
				if len(s) == 1 {
					// An escaped line break: join with the next line as is.
					s = nil
					if !c.nextQuotedLine(n, &s, true, &b) {
						return
					}
					protected = len(b)
					continue
				}
				r, size, ok := yamlEscape(s[1:])
				if !ok {
					c.bad = true
					return
				}
				b = utf8.AppendRune(b, r)
				protected = len(b)
				s = s[1+size:]
			default:
				b = append(b, ch)
				s = s[1:]
			}
		}
		// End of the line inside the quotes: trim, fold with the next.
		t := len(b)
		for t > protected && (b[t-1] == ' ' || b[t-1] == '\t') {
			t--
		}
		b = b[:t]
		if !c.nextQuotedLine(n, &s, false, &b) {
			return
		}
	}
}

// nextQuotedLine moves to the next line of a quoted scalar (the line read so
// far is c.lines[c.i-1]), appending the folded line break to b (a space, or
// one "\n" per empty line; nothing after an escaped break), and sets s to the
// line's text without leading blanks.
func (c *yconv) nextQuotedLine(n int, s *[]byte, escaped bool, b *[]byte) bool {
	if prev := c.lines[c.i-1]; !prev.eol || len(prev.raw) > prev.indent+len(prev.text) {
		c.bad = true // trailing blanks: an escaped one would have been trimmed from text
		return false
	}
	breaks := 0
	for c.i < len(c.lines) {
		ln := c.lines[c.i]
		t := bytes.TrimLeft(ln.raw, " \t")
		if len(t) > 0 {
			if ln.indent <= n || ln.indent == 0 && (bytes.HasPrefix(t, []byte("---")) || bytes.HasPrefix(t, []byte("..."))) {
				c.bad = true
				return false
			}
			if escaped && breaks > 0 {
				c.bad = true
				return false
			}
			if !escaped {
				if breaks == 0 {
					*b = append(*b, ' ')
				}
				for ; breaks > 0; breaks-- {
					*b = append(*b, '\n')
				}
			}
			*s = t
			c.i++
			return true
		}
		if !ln.eol {
			break
		}
		breaks++
		c.i++
	}
	c.bad = true // the file ends inside the quotes
	return false
}

// endQuoted writes the scalar b once its closing quote is found; after the
// quote only blanks may follow on the line.
func (c *yconv) endQuoted(b, after []byte) {
	if len(bytes.Trim(after, " \t")) > 0 {
		c.bad = true
		return
	}
	c.appendStr(b)
}

var yamlSimpleEscapes = map[byte]rune{'0': 0, 'a': 7, 'b': 8, 't': 9, '\t': 9, 'n': 10, 'v': 11, 'f': 12, 'r': 13,
	'e': 0x1b, ' ': ' ', '"': '"', '/': '/', '\\': '\\', 'N': 0x85, '_': 0xa0, 'L': 0x2028, 'P': 0x2029}

// yamlEscape decodes the escape after a backslash: the rune and how many
// bytes of s it took.
func yamlEscape(s []byte) (rune, int, bool) {
	if r, ok := yamlSimpleEscapes[s[0]]; ok {
		return r, 1, true
	}
	width := 0
	switch s[0] {
	case 'x':
		width = 2
	case 'u':
		width = 4
	case 'U':
		width = 8
	}
	if width == 0 || len(s) < 1+width {
		return 0, 0, false
	}
	v, err := strconv.ParseUint(string(s[1:1+width]), 16, 32)
	if err != nil || v > utf8.MaxRune || v >= 0xd800 && v <= 0xdfff {
		return 0, 0, false
	}
	return rune(v), 1 + width, true
}

// literal converts a literal block scalar ("|" or "|-") whose content lines
// are indented deeper than n.
func (c *yconv) literal(header []byte, n int) {
	strip := false
	switch string(header) {
	case "|":
	case "|-":
		strip = true
	default:
		c.bad = true // keep chomping, indentation indicators, comments
		return
	}
	if c.i >= len(c.lines) {
		c.bad = true
		return
	}
	first := c.lines[c.i]
	m := first.indent
	if len(bytes.TrimLeft(first.raw, " ")) == 0 || m <= n || first.raw[m] == '\t' {
		c.bad = true // leading empty lines, or an empty scalar
		return
	}
	var b []byte
	pending := 0 // empty lines not yet written
	last := -1
	for c.i < len(c.lines) {
		ln := c.lines[c.i]
		if len(bytes.Trim(ln.raw, " ")) == 0 {
			if len(ln.raw) > m || bytes.IndexByte(ln.raw, '\t') >= 0 {
				c.bad = true
				return
			}
			pending++
			c.i++
			continue
		}
		if ln.indent < m {
			break
		}
		if last >= 0 {
			b = append(b, '\n')
		}
		for ; pending > 0; pending-- {
			b = append(b, '\n')
		}
		b = append(b, ln.raw[m:]...)
		last = c.i
		c.i++
	}
	if !c.lines[last].eol {
		c.bad = true
		return
	}
	if !strip {
		b = append(b, '\n')
	}
	c.appendStr(b)
}

// appendJSONString appends s as a JSON string.
func appendJSONString(out, s []byte) []byte {
	out = append(out, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch >= 0x20 && ch != '"' && ch != '\\' {
			continue
		}
		out = append(out, s[start:i]...)
		switch ch {
		case '"', '\\':
			out = append(out, '\\', ch)
		case '\n':
			out = append(out, '\\', 'n')
		case '\t':
			out = append(out, '\\', 't')
		case '\r':
			out = append(out, '\\', 'r')
		default:
			out = append(out, '\\', 'u', '0', '0', "0123456789abcdef"[ch>>4], "0123456789abcdef"[ch&15])
		}
		start = i + 1
	}
	out = append(out, s[start:]...)
	return append(out, '"')
}
