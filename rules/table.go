// Package rules owns the versioned rule table (embedded YAML under table/) and
// the engine that evaluates it over a parsed gather into findings with
// evidence. Rules are data: each names a matcher (a Go function in this
// package) with typed, strictly decoded parameters, an optional cause pattern
// that evidence must match, and the hint, remediation and docs to print. The
// package knows nothing of output formats.
package rules

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"text/template"

	"sigs.k8s.io/yaml"

	"github.com/mgtriage/mgtriage/parser/model"
)

// SchemaVersion is the rule file layout this engine reads.
const SchemaVersion = 1

//go:embed table/*.yaml
var builtin embed.FS

// Table is a rule table: its header and its rules in evaluation order.
type Table struct {
	SchemaVersion int    `json:"schemaVersion"`
	Version       string `json:"version"`
	Released      string `json:"released"`
	Rules         []*Rule
	// Signatures is the failure-signature catalogue (see Signature), in
	// matching order.
	Signatures []*Signature
	// agentNamespaces are the namespaces whose agents' logs the signatures
	// read (indexAgents).
	agentNamespaces []string
	// Local lists the user rule files applied with Override; a report then
	// shows the table version as "<version>+local".
	Local []string
}

// Rule is one entry of the table. Rules with the same Group are alternatives
// for one object: the first of them in table order that fires wins, so a
// specific cause is listed before the general fallback.
type Rule struct {
	ID       string `json:"id"`
	Version  int    `json:"version"`
	Severity string `json:"severity"`
	Title    string `json:"title"`
	Category string `json:"category"`
	Group    string `json:"group,omitempty"`
	Match    Match  `json:"match"`
	Hint     string `json:"hint"`
	// Alternatives is the part of the hint that lists the textbook causes
	// of the symptom; it is added to the hint only when nothing decides one
	// (no join decided, no signature states the cause).
	Alternatives string   `json:"alternatives,omitempty"`
	Remediation  []string `json:"remediation"`
	Docs         []string `json:"docs"`
	// GroupBy says which findings of this rule correlation merges into one:
	// owner (default: pods of the same workload), registry, node or none.
	GroupBy string `json:"groupBy,omitempty"`
	// Explains lists the categories of pod findings that this node rule
	// accounts for on its node.
	Explains []string `json:"explains,omitempty"`
	// OpenShift restricts the rule to a range of OpenShift releases, as
	// space-separated constraints: ">=4.12 <4.16".
	OpenShift string `json:"openshift,omitempty"`
	// General marks a rule that names only the symptom (an init container
	// failed, a crash loop, a container not ready): when a more specific
	// rule explains the same container with the same evidence, the general
	// finding is folded into it (Finding.AlsoMatched).
	General bool `json:"general,omitempty"`
	// Disabled removes a rule (used by user files to switch a built-in off).
	Disabled bool `json:"disabled,omitempty"`
	// Joins names the joins (see JoinNames) whose second objects the rule
	// reads: each cites the objects it reached as evidence and fills
	// {{.Decided}} (the cause the objects prove), {{.Fix}} and {{.Unchecked}}
	// (what the gather lacks to decide).
	Joins []string `json:"joins,omitempty"`
	// Require names one of Joins that must decide the cause for the rule to
	// fire; otherwise the next rule of the group gets the object.
	Require string `json:"require,omitempty"`
	// Where is a CEL expression over the rule's subject and the gather's
	// object store (see docs/rules.md, "Conditions with where:"): the rule
	// fires on a subject only when it gives true.
	Where string `json:"where,omitempty"`
	// Let names CEL expressions (lower-case names) evaluated when Where
	// holds; the hint and remediation templates read their values as
	// {{.name}}.
	Let map[string]string `json:"let,omitempty"`

	// File and Line locate the rule's definition, for validation messages.
	File string `json:"-"`
	Line int    `json:"-"`
	// fieldLines holds the 1-based line of each key of the rule's YAML
	// ("severity", "match.cause", "remediation[1]"), so that a validation
	// error points at the offending line, not at the rule's first.
	fieldLines map[string]int
	// badKeys holds the keys (fieldLines paths) whose values did not decode:
	// compile does not report them a second time.
	badKeys map[string]bool

	// local marks a rule read from a user file (Override), not the embedded table.
	local    bool
	matcher  matcher
	joins    []join     // the joins Joins names, resolved by compile
	cause    *litRegexp // match.cause behind its prefilter, built once per table
	hint     *template.Template
	alts     *template.Template
	remedies []*template.Template
	// where and lets are Where and Let compiled; celKinds the kinds their
	// lookups read (Table.Needs declares them).
	where    *celProgram
	lets     []letProgram
	celKinds []model.Kind
	// exprStart holds, for "where" and each "let.<name>", where its text
	// starts in the rule file (for errors at line:column).
	exprStart map[string]celPos
}

// letProgram is one compiled let: expression.
type letProgram struct {
	name string
	*celProgram
}

// Match selects the symptom: a matcher and its parameters, and optionally a
// Cause, a regular expression (RE2) that one evidence line must match for the
// rule to fire; that line is cited first and its text fills {{.Cause}}.
type Match struct {
	Matcher string          `json:"matcher"`
	Params  json.RawMessage `json:"params,omitempty"`
	Cause   string          `json:"cause,omitempty"`
}

// file is the layout of one rule file.
type file struct {
	SchemaVersion int             `json:"schemaVersion"`
	Version       string          `json:"version,omitempty"`
	Released      string          `json:"released,omitempty"`
	Rules         json.RawMessage `json:"rules"`
	Signatures    json.RawMessage `json:"signatures"`
}

// ValidationError is one problem in a rule file, with its position.
type ValidationError struct {
	File string
	Line int
	// Column is the 1-based column of a CEL expression's problem (0: the
	// line as a whole).
	Column int
	Rule   string
	Msg    string
}

func (e ValidationError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
		if e.Column > 0 {
			loc += fmt.Sprintf(":%d", e.Column)
		}
	}
	if strings.HasPrefix(e.Rule, "signature ") {
		return fmt.Sprintf("%s: %s: %s", loc, e.Rule, e.Msg)
	}
	if e.Rule != "" {
		return fmt.Sprintf("%s: rule %s: %s", loc, e.Rule, e.Msg)
	}
	return fmt.Sprintf("%s: %s", loc, e.Msg)
}

// Errors is every problem found in a set of rule files.
type Errors []ValidationError

func (es Errors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

var idRe = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

var severities = map[string]bool{"critical": true, "high": true, "medium": true, "low": true, "info": true}

// Builtin returns the embedded rule table. It panics if the embedded table is
// invalid, which the package tests rule out.
func Builtin() *Table {
	t, err := loadFS(builtin, "table")
	if err != nil {
		panic("builtin rule table: " + err.Error())
	}
	return t
}

func loadFS(fsys fs.FS, dir string) (*Table, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	t := &Table{}
	var errs Errors
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		p := dir + "/" + e.Name()
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			errs = append(errs, ValidationError{File: p, Msg: err.Error()})
			continue
		}
		errs = append(errs, t.add(p, data, true)...)
	}
	errs = append(errs, t.compile()...)
	errs = append(errs, t.compileSignatures()...)
	t.indexAgents()
	if len(errs) > 0 {
		return t, errs
	}
	return t, nil
}

// Validate reads the rule files at path (a file or a folder of *.yaml) and
// returns every problem found, each with file:line. An empty result means the
// files are valid on their own and together with the built-in table.
func Validate(path string) Errors {
	t := Builtin()
	return t.Override(path)
}

// Override adds the rules in the file or folder at path to t: a rule with the
// id of an existing rule replaces it (or removes it, with disabled: true), a
// new id is appended, or, when it names the group of built-in rules, placed
// before the first of them (user rules take precedence in their group). It returns every problem found; t is unchanged then.
func (t *Table) Override(path string) Errors {
	files, err := ruleFiles(path)
	if err != nil {
		return Errors{{File: path, Msg: err.Error()}}
	}
	user := &Table{}
	var errs Errors
	budget := ruleBytesLimit
	for _, f := range files {
		data, err := readRuleFile(f, budget)
		if err != nil {
			return Errors{{File: f, Msg: err.Error()}}
		}
		budget -= int64(len(data))
		errs = append(errs, user.add(f, data, false)...)
		if n := len(user.Rules) + len(user.Signatures); n > rulesLimit {
			return Errors{{File: f, Msg: fmt.Sprintf("more than %d rules and signatures, the limit for the rule files of one path together: keep the ones you need", rulesLimit)}}
		}
	}
	errs = append(errs, user.compile()...)
	errs = append(errs, user.compileSignatures()...)
	if len(errs) > 0 {
		// In file and line order, as a reader goes through the files.
		sort.SliceStable(errs, func(i, j int) bool {
			if errs[i].File != errs[j].File {
				return errs[i].File < errs[j].File
			}
			return errs[i].Line < errs[j].Line
		})
		return errs
	}
	t.Rules = mergeRules(t.Rules, user.Rules)
	t.overrideSignatures(user.Signatures)
	kept := t.Rules[:0]
	for _, r := range t.Rules {
		if !r.Disabled {
			kept = append(kept, r)
		}
	}
	t.Rules = kept
	t.Local = append(t.Local, files...)
	if !strings.HasSuffix(t.Version, "+local") {
		t.Version += "+local"
	}
	return nil
}

// mergeRules returns table with the user rules applied in file order, in one
// pass: a user rule with the id of a rule of table takes its place; a new one
// goes before the first rule of its group that no user rule has replaced so
// far (after the new rules of the group placed there before it), or, with no
// such rule, at the end.
func mergeRules(table, user []*Rule) []*Rule {
	slots := make([]*Rule, len(table)) // each slot's rule, replaced as the user's come
	copy(slots, table)
	index := make(map[string]int, len(table))
	groupSlots := map[string][]int{} // the slots of each group, in table order
	for i, r := range table {
		index[r.ID] = i
		if r.Group != "" {
			groupSlots[r.Group] = append(groupSlots[r.Group], i)
		}
	}
	replaced := make([]bool, len(table))
	first := map[string]int{} // per group, how many of its slots lead with a replaced rule
	before := map[int][]*Rule{}
	var tail []*Rule
	for _, r := range user {
		if i, ok := index[r.ID]; ok {
			slots[i], replaced[i] = r, true
			continue
		}
		g := groupSlots[r.Group]
		k := first[r.Group]
		for k < len(g) && replaced[g[k]] {
			k++
		}
		first[r.Group] = k
		if r.Group == "" || k == len(g) {
			tail = append(tail, r)
			continue
		}
		before[g[k]] = append(before[g[k]], r)
	}
	out := make([]*Rule, 0, len(table)+len(user))
	for i, r := range slots {
		out = append(out, before[i]...)
		out = append(out, r)
	}
	return append(out, tail...)
}

// MaxRuleBytes bounds the user's rule files (the file, or a folder's files
// together), in bytes: a file past it is refused before any of it is
// parsed, having read at most one byte more. MaxRules bounds the rules and
// signatures they hold together. Loading costs about a millisecond of CPU
// per rule, growing linearly (BenchmarkLoadRules), so the limits bound a
// run's start to about two seconds and its memory to under 100 MB (`rules
// validate` of 2,000 rules: 1.9 s of CPU, 86 MB peak).
const (
	MaxRuleBytes = 1 << 20
	MaxRules     = 2_000
)

// ruleBytesLimit and rulesLimit are MaxRuleBytes and MaxRules; the
// rule-loading benchmark raises them.
var (
	ruleBytesLimit int64 = MaxRuleBytes
	rulesLimit           = MaxRules
)

// openRuleFile opens a rule file; tests replace it to count what is read.
var openRuleFile = func(p string) (io.ReadCloser, error) { return os.Open(p) }

// readRuleFile reads the regular file at p, refusing it, with the limit
// named, when it holds more than limit bytes: it reads at most limit+1.
func readRuleFile(p string, limit int64) ([]byte, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	f, err := openRuleFile(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("larger than the %s limit on rule files (the file, or a folder's files together); refused before parsing: keep the rules you need", mib(ruleBytesLimit))
	}
	return data, nil
}

// mib writes n bytes as "4 MiB" (or bytes when not whole mebibytes).
func mib(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

func ruleFiles(path string) ([]string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return []string{path}, nil
	}
	matches, err := filepath.Glob(filepath.Join(path, "*.yaml"))
	if err != nil {
		return nil, err
	}
	if len(matches) == 0 {
		return nil, errors.New("folder holds no *.yaml rule files")
	}
	sort.Strings(matches)
	return matches, nil
}

// add decodes one rule file strictly and returns every problem it finds, not
// the first: each key the file or a rule does not have and each value of the
// wrong kind, at its line and with the rule's id. A rule with such problems
// is still added, so compile checks its other keys (and skips the ones that
// did not decode). A header file (builtin) may set the table version; every
// file must state schemaVersion.
func (t *Table) add(name string, data []byte, builtin bool) Errors {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		// The YAML parser may place an error at the end of the input one line
		// past the last: cite the last line.
		return Errors{{File: name, Line: min(yamlErrorLine(err), bytes.Count(data, []byte("\n"))+1), Msg: yamlSyntaxText(err)}}
	}
	if s := bytes.TrimSpace(js); len(s) > 0 && s[0] == '[' {
		return Errors{{File: name, Line: 1, Msg: "a rule file is a mapping: `schemaVersion: 1` and `rules:` holding the list of rules (see docs/rules.md)"}}
	}
	text := strings.Split(string(data), "\n")
	top := topKeyLines(text)
	var errs Errors
	var f file
	bad := map[string]bool{}
	for _, p := range decodeKeys(js, &f, "", "a rule file (its keys: schemaVersion, version, released, rules, signatures)") {
		bad[p.Key] = true
		errs = append(errs, ValidationError{File: name, Line: top[p.Key], Msg: p.Msg})
	}
	switch {
	case bad["schemaVersion"]:
	case f.SchemaVersion == 0 && top["schemaVersion"] == 0:
		errs = append(errs, ValidationError{File: name, Line: 1, Msg: fmt.Sprintf("schemaVersion is missing; add `schemaVersion: %d` at the top", SchemaVersion)})
	case f.SchemaVersion != SchemaVersion:
		errs = append(errs, ValidationError{File: name, Line: top["schemaVersion"], Msg: fmt.Sprintf("schemaVersion is %d, this program reads %d", f.SchemaVersion, SchemaVersion)})
	}
	if f.Version != "" && builtin {
		t.SchemaVersion, t.Version, t.Released = f.SchemaVersion, f.Version, f.Released
	}
	errs = append(errs, t.addSignatures(name, data, text, top, f.Signatures, builtin)...)
	if len(f.Rules) == 0 || string(f.Rules) == "null" {
		return errs
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(f.Rules, &raw); err != nil {
		return append(errs, ValidationError{File: name, Line: top["rules"], Msg: fmt.Sprintf("rules holds %s where a list of rules belongs (each item starts with `- id:`)", yamlKindOf(f.Rules))})
	}
	lines := listLines(data, "rules:")
	if len(lines) != len(raw) {
		lines = nil // a flow list or an unusual layout: rules are placed by their first line only when every one is found
	}
	for i, r := range raw {
		rule := &Rule{File: name, local: !builtin}
		fields := map[string]int{}
		if i < len(lines) {
			rule.Line = lines[i]
			end := len(text) + 1
			if i+1 < len(lines) {
				end = lines[i+1]
			}
			fields = fieldLines(text, rule.Line, end)
		}
		probs := decodeKeys(r, rule, "", "a rule")
		rule.fieldLines = fields
		for key, n := range fields {
			if key == "where" || strings.HasPrefix(key, "let.") {
				if rule.exprStart == nil {
					rule.exprStart = map[string]celPos{}
				}
				rule.exprStart[key] = exprPos(text, n)
			}
		}
		rule.badKeys = map[string]bool{}
		where := rule.ID
		if where == "" {
			where = fmt.Sprintf("#%d (no id)", i+1)
		}
		for _, p := range probs {
			rule.badKeys[p.Key] = true
			if p.Meant != "" {
				rule.badKeys[p.Meant] = true
			}
			line := rule.Line
			if p.Key != "" {
				line = lineOf(fields, p.Key, rule.Line)
			}
			errs = append(errs, ValidationError{File: name, Line: line, Rule: where, Msg: p.Msg})
		}
		t.Rules = append(t.Rules, rule)
	}
	return errs
}

// topKeyLines maps the top-level keys of a YAML file (no indent) to their
// 1-based lines.
func topKeyLines(text []string) map[string]int {
	out := map[string]int{}
	for i, line := range text {
		if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' || line[0] == '-' {
			continue
		}
		if key, _, ok := strings.Cut(line, ":"); ok {
			key = strings.Trim(strings.TrimSpace(key), `"'`)
			if _, seen := out[key]; !seen {
				out[key] = i + 1
			}
		}
	}
	return out
}

var unknownFieldRe = regexp.MustCompile(`unknown field "([^"]+)"`)

// fieldLines maps the keys of one rule item, lines [start, end) of a rule
// file (1-based), to their lines: top-level keys by name ("severity"),
// nested ones by path ("match.cause"), and the items of a list by index
// ("remediation[1]", "docs[0]"). A key's first occurrence wins.
func fieldLines(text []string, start, end int) map[string]int {
	out := map[string]int{}
	type level struct {
		indent int
		key    string
		items  int
	}
	var stack []level
	for n := start; n < end && n-1 < len(text); n++ {
		line := text[n-1]
		trimmed := strings.TrimLeft(line, " ")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		indent := len(line) - len(trimmed)
		item := false
		if n == start {
			trimmed = strings.TrimPrefix(trimmed, "- ")
			indent += 2
		} else if strings.HasPrefix(trimmed, "- ") || trimmed == "-" {
			item = true
		}
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent && !(item && stack[len(stack)-1].indent == indent) {
			stack = stack[:len(stack)-1]
		}
		if item {
			// A list item of the key above it (at this or a smaller indent).
			if len(stack) > 0 {
				top := &stack[len(stack)-1]
				key := fmt.Sprintf("%s[%d]", top.key, top.items)
				top.items++
				if _, ok := out[key]; !ok {
					out[key] = n
				}
			}
			continue
		}
		key, _, ok := strings.Cut(trimmed, ":")
		if !ok || strings.ContainsAny(key, " \"'") {
			continue
		}
		path := key
		if len(stack) > 0 {
			path = stack[len(stack)-1].key + "." + key
		}
		if _, seen := out[path]; !seen {
			out[path] = n
		}
		stack = append(stack, level{indent: indent, key: path})
	}
	return out
}

// parentField is the path above field: "match" for "match.params",
// "remediation" for "remediation[1]", "" for a top-level key.
func parentField(field string) string {
	if i := strings.LastIndexAny(field, ".["); i > 0 {
		return field[:i]
	}
	return ""
}

// lineOf returns the line of field (a path as fieldLines writes it, or its
// last part), else fallback.
func lineOf(fields map[string]int, field string, fallback int) int {
	if n, ok := fields[field]; ok {
		return n
	}
	for k, n := range fields {
		if k == field || strings.HasSuffix(k, "."+field) {
			return n
		}
	}
	return fallback
}

// listLines returns the 1-based line of each item of the list under the
// top-level key (the key with its colon, "rules:" or "signatures:") (a line "- key: ..." at the list's indent), whatever
// the item's first key.
func listLines(data []byte, key string) []int {
	var out []int
	in, indent := false, -1
	for i, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		n := len(line) - len(trimmed)
		if n == 0 && !strings.HasPrefix(trimmed, "-") {
			in = strings.HasPrefix(trimmed, key)
			continue
		}
		if !in || !(strings.HasPrefix(trimmed, "- ") || trimmed == "-") {
			continue
		}
		if indent < 0 {
			indent = n
		}
		if n == indent {
			out = append(out, i+1)
		}
	}
	return out
}

var yamlLineRe = regexp.MustCompile(`line (\d+)`)

func yamlErrorLine(err error) int {
	if m := yamlLineRe.FindStringSubmatch(err.Error()); m != nil {
		var n int
		fmt.Sscanf(m[1], "%d", &n)
		return n
	}
	return 0
}

// reporter returns the function that reports a problem of one entry of a
// rule file (a rule or a signature, named who, starting at line start) in
// errs: a problem of field (a path as fieldLines writes it) goes at that
// field's line, else at the line of the nearest key above it (a flow mapping
// "match: {matcher: x}" is one line), else at the entry's first line (a
// missing title is the entry's problem, not a line's); a field that did not
// decode (badKeys, reported by add) is not reported again.
func reporter(errs *Errors, file string, start int, who string, fieldLines map[string]int, badKeys map[string]bool) func(field, format string, args ...any) {
	return func(field, format string, args ...any) {
		for f := field; f != ""; f = parentField(f) {
			if badKeys[f] {
				return
			}
		}
		line := start
		for f := field; f != ""; f = parentField(f) {
			if n, ok := fieldLines[f]; ok {
				line = n
				break
			}
		}
		*errs = append(*errs, ValidationError{File: file, Line: line, Rule: who, Msg: fmt.Sprintf(format, args...)})
	}
}

// checkIdentity checks what every entry of a rule file has: an id of
// lower-case words, not repeated (seen maps the ids met so far to their
// file:line, and gets this one's at), and, unless the entry is disabled, a
// version of 1 or more. It reports whether the entry is disabled, so that
// nothing more of it is checked. what names the entry's kind ("rule").
func checkIdentity(bad func(field, format string, args ...any), what, id string, version int, disabled bool, at string, seen map[string]string) bool {
	if !idRe.MatchString(id) {
		bad("id", "id %q must be lower-case words joined by '-'", id)
	}
	if prev, dup := seen[id]; dup {
		bad("id", "id repeats the %s at %s", what, prev)
	}
	seen[id] = at
	if disabled {
		return true
	}
	if version < 1 {
		bad("version", "version must be 1 or more")
	}
	return false
}

// compile checks every rule and prepares its matcher, cause and templates.
func (t *Table) compile() Errors {
	var errs Errors
	seen := map[string]string{}
	for _, r := range t.Rules {
		bad := reporter(&errs, r.File, r.Line, r.ID, r.fieldLines, r.badKeys)
		if checkIdentity(bad, "rule", r.ID, r.Version, r.Disabled, fmt.Sprintf("%s:%d", r.File, r.Line), seen) {
			continue
		}
		if r.Severity == "" {
			bad("severity", "severity is missing: one of critical, high, medium, low, info")
		} else if !severities[r.Severity] {
			bad("severity", "severity %q is not one of critical, high, medium, low, info", r.Severity)
		}
		if strings.TrimSpace(r.Title) == "" {
			bad("title", "title is empty")
		}
		if strings.TrimSpace(r.Hint) == "" {
			bad("hint", "hint is empty")
		}
		if len(r.Remediation) == 0 {
			bad("remediation", "remediation lists no step")
		}
		for i, d := range r.Docs {
			if !strings.HasPrefix(d, "https://") {
				bad(fmt.Sprintf("docs[%d]", i), "docs link %q must start with https://", d)
			}
		}
		var m matcher
		var err error
		if r.Match.Matcher == "" {
			bad("match.matcher", "match names no matcher: add `match:` with `matcher:` one of %s", strings.Join(MatcherNames(), ", "))
		} else if probs := paramProblems(r.Match); len(probs) > 0 {
			for _, p := range probs {
				bad(p.Key, "%s", p.Msg)
			}
		} else if m, err = newMatcher(r.Match.Matcher, r.Match.Params); err != nil {
			field := "match.matcher"
			if _, ok := r.fieldLines["match.params"]; ok && strings.HasPrefix(err.Error(), "params of ") {
				field = "match.params"
				if m := unknownFieldRe.FindStringSubmatch(err.Error()); m != nil {
					if _, ok := r.fieldLines["match.params."+m[1]]; ok {
						field = "match.params." + m[1]
					}
				}
			}
			bad(field, "match: %v", err)
		}
		r.matcher = m
		if !groupByValues[r.GroupBy] {
			bad("groupBy", "groupBy %q is not one of owner, registry, node, none", r.GroupBy)
		}
		if len(r.Explains) > 0 && m != nil && m.on() != onNode {
			bad("explains", "explains is for node rules; matcher %s looks at pods", r.Match.Matcher)
		}
		for _, c := range strings.Fields(r.OpenShift) {
			if _, err := checkConstraint(c, [2]int{4, 0}); err != nil {
				bad("openshift", "openshift: %v", err)
			}
		}
		r.joins = r.joins[:0]
		for i, name := range r.Joins {
			j, ok := lookupJoin(name)
			if !ok {
				bad(fmt.Sprintf("joins[%d]", i), "joins: unknown join %q (known: %s)", name, strings.Join(JoinNames(), ", "))
				continue
			}
			r.joins = append(r.joins, j)
		}
		if r.Require != "" && !slices.Contains(r.Joins, r.Require) {
			bad("require", "require: %q is not one of the rule's joins", r.Require)
		}
		if r.Match.Cause != "" {
			re, err := regexp.Compile(r.Match.Cause)
			if err != nil {
				bad("match.cause", "match.cause: %v", err)
			}
			r.cause = nil
			if re != nil {
				r.cause = &litRegexp{re: re, filter: newLitFilter(r.Match.Cause)}
			}
		}
		sample := r.compileCEL(&errs, bad)
		r.hint, err = checkRender(r.ID+".hint", r.Hint, sample)
		if err != nil {
			bad("hint", "hint: %v", err)
		}
		r.alts = nil
		if r.Alternatives != "" {
			if r.alts, err = checkRender(r.ID+".alternatives", r.Alternatives, sample); err != nil {
				bad("alternatives", "alternatives: %v", err)
			}
		}
		r.remedies = r.remedies[:0]
		for i, step := range r.Remediation {
			tpl, err := checkRender(fmt.Sprintf("%s.remediation[%d]", r.ID, i), step, sample)
			if err != nil {
				bad(fmt.Sprintf("remediation[%d]", i), "remediation[%d]: %v", i, err)
			}
			r.remedies = append(r.remedies, tpl)
		}
		if kind, ok := lookupMatcher(r.Match.Matcher); ok && m != nil {
			filled := r.filledValues(kind)
			if msg := r.unfilledProblem("hint", r.hint, filled); msg != "" {
				bad("hint", "%s", msg)
			}
			if r.alts != nil {
				if msg := r.unfilledProblem("alternatives", r.alts, filled); msg != "" {
					bad("alternatives", "%s", msg)
				}
			}
			for i, tpl := range r.remedies {
				if msg := r.unfilledProblem(fmt.Sprintf("remediation[%d]", i), tpl, filled); msg != "" {
					bad(fmt.Sprintf("remediation[%d]", i), "%s", msg)
				}
			}
		}
	}
	return errs
}

// parseTemplate parses a hint or remediation template and renders it under
// MaxRenderedText (checkRender): unknown values, forbidden constructs and a
// text that cannot render under the cap are refused at validation.
func parseTemplate(name, text string) (*template.Template, error) {
	return checkRender(name, text, sampleVars())
}
