package rules

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// userRule is one user rule of a crash loop whose hint is hint (YAML, one
// line, double-quoted text without the quotes).
func userRule(id, hint string) string {
	return fmt.Sprintf(`  - id: %s
    version: 1
    severity: medium
    title: A user rule
    category: crash-loop
    match:
      matcher: containerWaiting
      params: {reasons: [CrashLoopBackOff]}
      cause: 'connection refused[^\n]*'
    hint: "%s"
    remediation:
      - "Check the service."
`, id, hint)
}

func writeRuleFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.ReadCloser
	n *int64
}

func (c countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	*c.n += int64(n)
	return n, err
}

func (c countingReader) Close() error { return c.r.Close() }

// TestRuleFileSizeCap: a rule file over the size limit is refused, with the
// limit named, having read one byte past the limit and parsed nothing; a
// folder's files count together.
func TestRuleFileSizeCap(t *testing.T) {
	defer func(l int64, open func(string) (io.ReadCloser, error)) { ruleBytesLimit, openRuleFile = l, open }(ruleBytesLimit, openRuleFile)
	ruleBytesLimit = 1 << 20
	var read int64
	openRuleFile = func(p string) (io.ReadCloser, error) {
		f, err := os.Open(p)
		return countingReader{f, &read}, err
	}
	dir := t.TempDir()
	// 3 MiB of one comment line: not YAML a parser would like to see whole.
	big := writeRuleFile(t, dir, "big.yaml", "schemaVersion: 1\n# "+strings.Repeat("x", 3<<20)+"\nrules: []\n")
	errs := Validate(big)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "big.yaml: larger than the 1 MiB limit on rule files") {
		t.Fatalf("errors: %v", errs)
	}
	if read != ruleBytesLimit+1 {
		t.Errorf("read %d bytes, want the limit and one more (%d)", read, ruleBytesLimit+1)
	}

	folder := filepath.Join(dir, "site")
	os.Mkdir(folder, 0o755)
	half := "schemaVersion: 1\n# " + strings.Repeat("x", 600<<10) + "\nrules: []\n"
	writeRuleFile(t, folder, "a.yaml", half)
	writeRuleFile(t, folder, "b.yaml", half)
	errs = Validate(folder)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "b.yaml: larger than the 1 MiB limit on rule files (the file, or a folder's files together)") {
		t.Errorf("folder: errors %v", errs)
	}
}

// TestRuleCountCap: more rules than the limit are refused with the limit
// named.
func TestRuleCountCap(t *testing.T) {
	defer func(n int) { rulesLimit = n }(rulesLimit)
	rulesLimit = 3
	var b strings.Builder
	b.WriteString("schemaVersion: 1\nrules:\n")
	for i := range 4 {
		b.WriteString(userRule(fmt.Sprintf("user-%d", i), "Container {{.Container}} fails."))
	}
	p := writeRuleFile(t, t.TempDir(), "many.yaml", b.String())
	errs := Validate(p)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "many.yaml: more than 3 rules and signatures, the limit") {
		t.Errorf("errors: %v", errs)
	}
	rulesLimit = 4
	if errs := Validate(p); len(errs) != 0 {
		t.Errorf("at the limit: %v", errs)
	}
}

// selfDoubling is a rule file whose hint doubles {{.Cause}} 22 times over
// (2^22 copies of an 8 KiB line: 32 GiB): the 23-line rule of issue 34.
func selfDoubling() string {
	var b strings.Builder
	b.WriteString(`{{define \"d0\"}}{{.Cause}}{{end}}`)
	for i := 1; i <= 22; i++ {
		fmt.Fprintf(&b, `{{define \"d%d\"}}{{template \"d%d\" .}}{{template \"d%d\" .}}{{end}}`, i, i-1, i-1)
	}
	b.WriteString(`{{template \"d22\" .}}`)
	return "schemaVersion: 1\nrules:\n" + userRule("doubling", b.String())
}

// TestTemplatesThatCannotRender: validation refuses, at the hint's line,
// a template that multiplies its text (define/template, printf into a
// variable, range) or renders past MaxRenderedText with the longest values.
func TestTemplatesThatCannotRender(t *testing.T) {
	printf := `{{$a := .Cause}}` + strings.Repeat(`{{$a = printf \"%s%s\" $a $a}}`, 22) + `{{$a}}`
	for _, tc := range []struct {
		name, body, want string
	}{
		{"define and template", selfDoubling(), "define and block are not allowed"},
		{"printf", "schemaVersion: 1\nrules:\n" + userRule("printf", printf), "function printf is not allowed"},
		{"js", "schemaVersion: 1\nrules:\n" + userRule("js", `{{js .Cause}}`), "function js is not allowed"},
		{"range", "schemaVersion: 1\nrules:\n" + userRule("range", `{{range 1000000000}}x{{end}}`), "range is not allowed"},
		{"past the cap", "schemaVersion: 1\nrules:\n" + userRule("long", strings.Repeat(`{{.Cause}} `, 9)), "hint: renders more than 64 KiB with every value at its longest"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeRuleFile(t, t.TempDir(), "r.yaml", tc.body)
			errs := Validate(p)
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), "r.yaml:12: rule ") || !strings.Contains(errs[0].Error(), tc.want) {
				t.Errorf("errors: %v; want one at r.yaml:12 saying %q", errs, tc.want)
			}
		})
	}
	p := writeRuleFile(t, t.TempDir(), "ok.yaml", "schemaVersion: 1\nrules:\n"+userRule("fine", strings.Repeat(`{{.Cause}} `, 7)))
	if errs := Validate(p); len(errs) != 0 {
		t.Errorf("seven causes (56 KiB at most): %v", errs)
	}
}

// TestRenderCut: a template that passes validation and still renders past
// MaxRenderedText at run time (a branch the longest values do not take)
// stops there, with the cut said.
func TestRenderCut(t *testing.T) {
	tpl, err := parseTemplate("t", `{{if eq .Restarts "x"}}`+strings.Repeat("{{.Cause}}", 100)+`{{end}}`)
	if err != nil {
		t.Fatal(err)
	}
	vars := sampleVars()
	vars["Cause"] = strings.Repeat("é", MaxEvidenceText/2)
	got := execTemplate(tpl, vars)
	if !strings.HasSuffix(got, renderNote) || len(got) > MaxRenderedText+len(renderNote) || !strings.Contains(renderNote, "64 KiB") {
		t.Errorf("%d bytes ending %q", len(got), got[max(0, len(got)-80):])
	}
	if !utf8.ValidString(got) {
		t.Error("cut inside a character")
	}
}

// TestMergeRulesOrder: user rules applied in one pass land where applying
// them one at a time put them: a replacement takes its rule's place, a new
// rule of a group goes before the first rule of the group not yet replaced
// (after the group's new rules before it), others at the end.
func TestMergeRulesOrder(t *testing.T) {
	rule := func(id, group string) *Rule { return &Rule{ID: id, Group: group} }
	table := []*Rule{rule("a", ""), rule("g1", "g"), rule("g2", "g"), rule("h1", "h")}
	user := []*Rule{rule("new-g", "g"), rule("g1", "g"), rule("new-g2", "g"), rule("new-h", "h"), rule("loose", ""), rule("new-x", "x")}
	var got []string
	for _, r := range mergeRules(table, user) {
		got = append(got, r.ID)
	}
	want := "a new-g g1 new-g2 g2 new-h h1 loose new-x"
	if strings.Join(got, " ") != want {
		t.Errorf("order %v, want %s", got, want)
	}
}
