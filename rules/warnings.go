package rules

import (
	"bytes"
	"fmt"
	"os"
	"sort"
	"strings"
)

// Warnings returns what is legal in the rule files at path but probably not
// meant, each with file:line: a rule that can never fire because an earlier
// rule of its group takes every object it would match; a user rule without a
// cause or required join placed before the built-in rules of its group (it
// takes their objects, proven causes included); a category no built-in rule
// uses (reports group findings by category); a disable of an id that is not
// a built-in rule. It returns nil when the files have errors (see Validate).
func Warnings(path string) Errors {
	builtin := Builtin()
	t := Builtin()
	if errs := t.Override(path); len(errs) > 0 {
		return nil
	}
	files, err := ruleFiles(path)
	if err != nil {
		return nil
	}
	known := map[string]bool{}
	categories := map[string]bool{}
	for _, r := range builtin.Rules {
		known[r.ID] = true
		categories[r.Category] = true
	}
	var out Errors
	// Disables of unknown ids: read the user files again (Override drops them).
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		user := &Table{}
		user.add(f, data, false)
		for _, r := range user.Rules {
			if r.Disabled && !known[r.ID] {
				out = append(out, ValidationError{File: r.File, Line: r.Line, Rule: r.ID, Msg: "disables a rule that is not in the built-in table: nothing is switched off"})
			}
		}
	}
	local := map[*Rule]bool{}
	for _, r := range t.Rules {
		if r.File != "" && !strings.HasPrefix(r.File, "table/") {
			local[r] = true
		}
	}
	var cats []string
	for c := range categories {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	for i, r := range t.Rules {
		if !local[r] {
			continue
		}
		if !categories[r.Category] {
			out = append(out, ValidationError{File: r.File, Line: r.Line, Rule: r.ID, Msg: fmt.Sprintf("category %q is used by no built-in rule (%s); its findings are grouped apart", r.Category, strings.Join(cats, ", "))})
		}
		if r.Group == "" {
			continue
		}
		for _, e := range t.Rules[:i] {
			if e.Group == r.Group && takesAll(e, r) {
				out = append(out, ValidationError{File: r.File, Line: r.Line, Rule: r.ID, Msg: fmt.Sprintf("never fires: rule %s comes first in group %s, uses the same matcher and has no cause or required join, so it takes every object this rule would", e.ID, r.Group)})
				break
			}
		}
		if r.Match.Cause == "" && r.Require == "" {
			var after []string
			for _, b := range t.Rules[i+1:] {
				if b.Group == r.Group && !local[b] && b.Match.Matcher == r.Match.Matcher {
					after = append(after, b.ID)
				}
			}
			if len(after) > 0 {
				out = append(out, ValidationError{File: r.File, Line: r.Line, Rule: r.ID, Msg: fmt.Sprintf("has no cause or required join and comes before the built-in rules of group %s (%s): it takes their objects, proven causes included", r.Group, list(after, 4))})
			}
		}
	}
	return out
}

// takesAll reports whether rule e, earlier in the same group, matches every
// object rule r could: same matcher and params, and nothing narrows e.
func takesAll(e, r *Rule) bool {
	return e.Match.Matcher == r.Match.Matcher && e.Match.Cause == "" && e.Require == "" &&
		bytes.Equal(bytes.TrimSpace(e.Match.Params), bytes.TrimSpace(r.Match.Params))
}
