package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mgtriage/mgtriage/parser"
	"github.com/mgtriage/mgtriage/report"
	"github.com/mikelolasagasti/xz"
)

// citationFixtures are the fixture gathers of the repository, as globs
// from the repository's root.
var citationFixtures = []string{
	"fixtures/sample",
	"fixtures/cases/*/input",
	"fixtures/causes/*",
	"fixtures/bundles/*",
	"fixtures/sos/*",
	"fixtures/journals/*",
	"fixtures/keptline/gather",
	"fixtures/sigexample/input",
	"fixtures/upload/*",
	"fixtures/diff/*/*",
}

// TestCitationsLandOnTheirLine analyses every corpus gather (skipped with a
// message when the corpus is absent) and every fixture gather, opens every
// path:line the findings' evidence cites inside the gather (archive members
// through parser.Walk, never extracted) and checks that the line exists (no
// line 0), that it holds the quoted text (a summary: the cited field, whose
// value or name the summary names), and that a status, spec or object
// citation in a list file lies inside an item that names one of the
// finding's objects. Line 1 passes only on these same terms, or as the first
// line of a whole object the summary is about (a store object of a kind whose
// fields have no lines, a pod without field lines): those are counted per
// gather, and in the corpus gathers, where every citation reaches its field,
// they fail. It logs the citations checked per gather.
func TestCitationsLandOnTheirLine(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses every fixture and corpus gather: not in -short")
	}
	var inputs []string
	for _, g := range citationFixtures {
		m, err := filepath.Glob(filepath.Join("../..", g))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m {
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				inputs = append(inputs, p)
			}
		}
	}
	if entries, err := os.ReadDir(corpusRoot); err != nil {
		t.Logf("corpus absent (%v): citations of the corpus gathers not checked", err)
	} else {
		for _, e := range entries {
			if e.IsDir() {
				inputs = append(inputs, filepath.Join(corpusRoot, e.Name()))
			}
		}
	}
	total := 0
	for _, in := range inputs {
		name := strings.TrimPrefix(in, "../../")
		if strings.HasPrefix(in, corpusRoot) {
			name = "corpus/" + strings.TrimPrefix(in, corpusRoot+"/")
		}
		t.Run(name, func(t *testing.T) {
			n, zero, one, start, bad := checkCitations(t, in)
			total += n
			t.Logf("%s: %d citations checked, %d at line 0, %d at line 1, %d at the first line of the object they summarise, %d failing", name, n, zero, one, start, len(bad))
			for _, b := range bad {
				t.Error(b)
			}
			if strings.HasPrefix(in, corpusRoot) && start > 0 {
				t.Errorf("%s: %d citations at the first line of an object rather than its field (listed above with -v)", name, start)
			}
		})
	}
	t.Logf("%d citations checked in %d gathers", total, len(inputs))
}

// checkCitations analyses input (every part of it, --split) and checks
// each cited path:line; it returns the citations checked, those at line 0
// and at line 1, and what is wrong with the others.
func checkCitations(t *testing.T, input string) (n, zero, one, objStart int, bad []string) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := Main([]string{input, "-o", out, "--format", "json", "--split"}, IOStreams{Out: &stdout, ErrOut: &stderr, NoColor: true})
	var reports []string
	_ = filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == "report.json" {
			reports = append(reports, p)
		}
		return nil
	})
	if len(reports) == 0 {
		t.Fatalf("no report.json (exit %d): %s", code, stderr.String())
	}
	type cite struct {
		ev      report.Evidence
		rule    string
		objects []string
	}
	var cites []cite
	for _, p := range reports {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var r report.Report
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, f := range r.Findings {
			var objs []string
			for _, o := range f.Objects {
				objs = append(objs, o.Name)
			}
			for _, e := range f.Evidence {
				cites = append(cites, cite{e, f.RuleID, objs})
			}
		}
	}
	files := readCited(t, input, func(p string) bool {
		for _, c := range cites {
			if c.ev.Path == p || strings.HasSuffix(p, "/"+c.ev.Path) {
				return true
			}
		}
		return false
	})
	for _, c := range cites {
		n++
		where := fmt.Sprintf("%s: %s:%d [%s]", c.rule, c.ev.Path, c.ev.Line, c.ev.Kind)
		if strings.HasSuffix(c.ev.Path, "/") {
			continue // a folder (an install bundle's resources/ of empty files): no line to cite
		}
		switch c.ev.Line {
		case 0:
			zero++
			bad = append(bad, where+": line 0")
			continue
		case 1:
			one++
		}
		var why []string
		found := false
		for p, data := range files {
			if p != c.ev.Path && !strings.HasSuffix(p, "/"+c.ev.Path) {
				continue
			}
			found = true
			w, start := citationProblem(data, c.ev, c.objects)
			if w == "" {
				why = nil
				if start {
					objStart++
					t.Logf("object start: %s\n\ttext: %s", where, clipCite(c.ev.Text, 120))
				}
				break
			}
			why = append(why, w)
		}
		switch {
		case !found:
			bad = append(bad, where+": the cited file is not in the gather")
		case len(why) > 0:
			bad = append(bad, where+": "+why[0]+"\n\ttext: "+clipCite(c.ev.Text, 160))
		}
	}
	return n, zero, one, objStart, bad
}

// readCited reads every member of input that want names, decompressed
// when it is a gzip or xz stream (the line numbers of a compressed journal
// are its text's), through the parser's walk.
func readCited(t *testing.T, input string, want func(string) bool) map[string][]byte {
	files := map[string][]byte{}
	err := parser.Walk(context.Background(), input, func(m parser.Member) error {
		if !want(m.Path) {
			return nil
		}
		rc, err := m.Open()
		if err != nil {
			return err
		}
		defer rc.Close()
		data, err := io.ReadAll(io.LimitReader(rc, 1<<30))
		if err != nil {
			return err
		}
		switch {
		case bytes.HasPrefix(data, []byte{0x1f, 0x8b}):
			if zr, err := gzip.NewReader(bytes.NewReader(data)); err == nil {
				if d, err := io.ReadAll(io.LimitReader(zr, 1<<30)); err == nil {
					data = d
				}
			}
		case bytes.HasPrefix(data, []byte{0xfd, '7', 'z', 'X', 'Z', 0}):
			if zr, err := xz.NewReader(bytes.NewReader(data), 0); err == nil {
				if d, err := io.ReadAll(io.LimitReader(zr, 1<<30)); err == nil {
					data = d
				}
			}
		}
		files[m.Path] = data
		return nil
	}, nil)
	if err != nil {
		t.Fatalf("walk %s: %v", input, err)
	}
	return files
}

// citationProblem says what is wrong with the citation of ev in data, ""
// when nothing is; start says the citation is a summary of a whole object
// cited at the object's first line (a list item's, or the file's), which
// passes when that object is one of the finding's.
func citationProblem(data []byte, ev report.Evidence, objects []string) (problem string, start bool) {
	lines := bytes.Split(data, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	if ev.Line < 1 || ev.Line > len(lines) {
		return fmt.Sprintf("line %d: the file has %d lines", ev.Line, len(lines)), false
	}
	line := string(lines[ev.Line-1])
	// A YAML block scalar's text starts on the lines after its key.
	if v := strings.TrimSpace(line); strings.HasSuffix(v, ": |") || strings.HasSuffix(v, ": |-") || strings.HasSuffix(v, ": >") || strings.HasSuffix(v, ": >-") {
		for k := ev.Line; k < len(lines) && k < ev.Line+3; k++ {
			line += " " + string(lines[k])
		}
	}
	item, inList := enclosingItem(data, ev.Line)
	names := func(b []byte) bool {
		for _, o := range objects {
			if o != "" && bytes.Contains(b, []byte(o)) {
				return true
			}
		}
		return false
	}
	summary := ev.Summary
	switch ev.Kind {
	case "status", "spec", "object", "alert":
		summary = true // the tool's words about the cited object or field
	}
	switch {
	case summary && names([]byte(line)):
		// A row of a table (crictl's) or a line that names the object.
	case !summary:
		if !quoteOnLine(line, ev.Text) {
			return fmt.Sprintf("line %d does not hold the quoted text: %q", ev.Line, clipCite(line, 160)), false
		}
	case summaryOnLine(line, ev.Text):
	case messageLineStart(line, ev.Text):
	case objectStart(lines, ev.Line, inList) && (names(data) && !inList || inList && names(item) || len(objects) == 0 || strings.Contains(ev.Text, objectName(item, data, inList))):
		return "", true
	default:
		return fmt.Sprintf("line %d holds no field the summary names: %q", ev.Line, clipCite(line, 160)), false
	}
	switch ev.Kind {
	case "status", "spec", "object":
		if inList && len(objects) > 0 && !names(item) && !strings.Contains(ev.Text, objectName(item, data, inList)) {
			return fmt.Sprintf("line %d lies in a list item that names none of %v", ev.Line, objects), false
		}
	}
	return "", false
}

// objectStart reports whether line n (1-based) starts an object: the first
// line of a list item, or the first line of a file of one object (after a
// leading "---").
func objectStart(lines [][]byte, n int, inList bool) bool {
	l := strings.TrimSpace(string(lines[n-1]))
	if inList {
		return strings.HasPrefix(l, "- ") || l == "{"
	}
	for k := 0; k < n-1; k++ {
		if t := strings.TrimSpace(string(lines[k])); t != "" && t != "---" {
			return false
		}
	}
	return true
}

// objectName returns the metadata.name of the cited object (the list item,
// or the whole file), "\x00" when it has none.
func objectName(item, data []byte, inList bool) string {
	if !inList {
		item = data
	}
	var obj struct {
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	if bytes.HasPrefix(bytes.TrimSpace(item), []byte("{")) {
		_ = json.Unmarshal(item, &obj)
	} else if m := metadataNameRe.FindSubmatch(item); m != nil {
		obj.Metadata.Name = strings.Trim(string(m[1]), `"'`)
	}
	if obj.Metadata.Name == "" {
		return "\x00"
	}
	return obj.Metadata.Name
}

var metadataNameRe = regexp.MustCompile(`(?m)^\s{0,4}metadata:\n(?:\s+.*\n)*?\s{2,6}name: (\S+)`)

// flat is s with the escapes of JSON and quoted YAML read, and its runs of
// space collapsed.
func flat(s string) string {
	s = strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\n`, " ", `\t`, " ", `\u003c`, "<", `\u003e`, ">", `\u0026`, "&", "''", "'").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// quoteOnLine reports whether line holds the start of text, the quoted
// line, or of one of its parts after a ": " (an event's message after
// "Type Reason: ", a journal line's message after "node kubelet: "). An
// empty quote cites an empty line (or one holding its timestamp alone).
func quoteOnLine(line, text string) bool {
	l := flat(line)
	text = strings.TrimSuffix(text, "…")
	if strings.TrimSpace(text) == "" {
		return true
	}
	cands := []string{text}
	for rest := text; ; {
		_, after, ok := strings.Cut(rest, ": ")
		if !ok {
			break
		}
		cands, rest = append(cands, after), after
	}
	for _, c := range cands {
		c = flat(c)
		if utf8.RuneCountInString(c) < 8 && c != flat(text) {
			continue
		}
		if utf8.RuneCountInString(c) > 24 {
			c = string([]rune(c)[:24])
		}
		if strings.Contains(l, c) {
			return true
		}
	}
	return false
}

// summaryOnLine reports whether line is a field (`key: value`, `- key:
// value` or `"key": value`) whose value, or for an object or list its key,
// the summary text names.
// messageLineStart reports whether line is a line of a folded
// double-quoted YAML message on which the quoted line of the message
// begins: the text after its last "\n" escape starts the quote in text.
func messageLineStart(line, text string) bool {
	i := strings.LastIndex(line, `\n`)
	if i < 0 {
		return false
	}
	seg := flat(strings.TrimRight(line[i+2:], `"`))
	_, quote, ok := strings.Cut(text, " line: ")
	return ok && len(seg) >= 4 && strings.HasPrefix(flat(quote), seg)
}

func summaryOnLine(line, text string) bool {
	l := strings.TrimSpace(line)
	l = strings.TrimSpace(strings.TrimPrefix(l, "- "))
	key, val, ok := strings.Cut(l, ":")
	if !ok {
		return false
	}
	key = strings.Trim(strings.TrimSpace(key), `"'`)
	val = strings.TrimSpace(val)
	val = strings.TrimSuffix(val, ",")
	val = strings.Trim(val, `"'`)
	switch val {
	case "", "{", "[", "|", "|-", ">", ">-", "{}", "[]", "null":
		// The key of an object or list: the field the summary is about.
		return key != "" && !strings.ContainsAny(key, " {[")
	}
	v := flat(val)
	if utf8.RuneCountInString(v) > 24 {
		v = string([]rune(v)[:24])
	}
	// The value, or the field by name ("allocatable memory 4.7Gi" cites
	// "memory: 4911884Ki").
	return strings.Contains(flat(text), v) || regexp.MustCompile(`\b`+regexp.QuoteMeta(key)+`\b`).MatchString(text)
}

// enclosingItem returns the text of the list item (a YAML `- ` item of a
// top-level items: list, or an element of a JSON List's "items") that holds
// line; false when the file is not a list.
func enclosingItem(data []byte, line int) ([]byte, bool) {
	t := bytes.TrimLeft(data, " \t\r\n")
	if len(t) > 0 && t[0] == '{' {
		dec := json.NewDecoder(bytes.NewReader(data))
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			return nil, false
		}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, false
			}
			if k != "items" {
				var skip json.RawMessage
				if dec.Decode(&skip) != nil {
					return nil, false
				}
				continue
			}
			if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
				return nil, false
			}
			for dec.More() {
				start := dec.InputOffset()
				var it json.RawMessage
				if dec.Decode(&it) != nil {
					return nil, false
				}
				end := int(dec.InputOffset())
				first := bytes.Count(data[:start], []byte("\n")) + 1
				last := bytes.Count(data[:end], []byte("\n")) + 1
				if first <= line && line <= last {
					return it, true
				}
			}
			return nil, false
		}
		return nil, false
	}
	items, _, ok := parser.SplitList(data)
	if !ok || len(items) == 0 {
		return nil, false
	}
	k := sort.Search(len(items), func(i int) bool { return items[i].Line > line }) - 1
	if k < 0 {
		return nil, false
	}
	return items[k].Data, true
}

func clipCite(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
