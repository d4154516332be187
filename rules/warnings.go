package rules

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// Warnings returns what is legal in the rule files at path but probably not
// meant, each with file:line: a rule that can never fire because an earlier
// rule of its group takes every object it would match; a user rule without a
// cause or required join placed before the built-in rules of its group (it
// takes their objects, proven causes included); a category no built-in rule
// uses (reports group findings by category); a disable of an id that is not
// a built-in rule; a cause pattern that cannot match any message shape its
// matcher reads (shapeWarning). It returns nil when the files have errors (see Validate).
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
		data, err := readRuleFile(f, ruleBytesLimit)
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
	// One pass: per group, the first rule of each matcher and params that
	// takes every object a later rule with that matcher and params could
	// (no cause, no required join, no where:) met so far; per group and matcher, the
	// positions of the built-in rules.
	takers := map[string]*Rule{}
	builtins := map[string][]int{}
	for i, b := range t.Rules {
		if b.Group != "" && !local[b] {
			k := b.Group + "\x00" + b.Match.Matcher
			builtins[k] = append(builtins[k], i)
		}
	}
	for i, r := range t.Rules {
		takerKey := r.Group + "\x00" + r.Match.Matcher + "\x00" + string(bytes.TrimSpace(r.Match.Params))
		if local[r] {
			out = append(out, localWarnings(t, i, r, categories, cats, takers[takerKey], builtins[r.Group+"\x00"+r.Match.Matcher])...)
		}
		if _, seen := takers[takerKey]; !seen && r.Group != "" && r.Match.Cause == "" && r.Require == "" && r.Where == "" {
			takers[takerKey] = r
		}
	}
	return out
}

// localWarnings are the warnings of the user's rule r at position i of t:
// a category no built-in rule has, an earlier rule of its group that takes
// all its objects (taker, nil when none), and, for a rule with no cause,
// required join or where:, the built-in rules of its group and matcher after it (at
// the positions builtins lists) whose objects it takes.
func localWarnings(t *Table, i int, r *Rule, categories map[string]bool, cats []string, taker *Rule, builtins []int) Errors {
	var out Errors
	if w := shapeWarning(r); w != "" {
		out = append(out, ValidationError{File: r.File, Line: lineOf(r.fieldLines, "match.cause", r.Line), Rule: r.ID, Msg: w})
	}
	if !categories[r.Category] {
		out = append(out, ValidationError{File: r.File, Line: r.Line, Rule: r.ID, Msg: fmt.Sprintf("category %q is used by no built-in rule (%s); its findings are grouped apart", r.Category, strings.Join(cats, ", "))})
	}
	if r.Group == "" {
		return out
	}
	if taker != nil {
		out = append(out, ValidationError{File: r.File, Line: r.Line, Rule: r.ID, Msg: fmt.Sprintf("never fires: rule %s comes first in group %s, uses the same matcher and has no cause or required join, so it takes every object this rule would", taker.ID, r.Group)})
	}
	if r.Match.Cause == "" && r.Require == "" && r.Where == "" {
		var after []string
		for _, j := range builtins {
			if j > i {
				after = append(after, t.Rules[j].ID)
			}
		}
		if len(after) > 0 {
			out = append(out, ValidationError{File: r.File, Line: r.Line, Rule: r.ID, Msg: fmt.Sprintf("has no cause or required join and comes before the built-in rules of group %s (%s): it takes their objects, proven causes included", r.Group, list(after, 4))})
		}
	}
	return out
}
