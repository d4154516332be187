package rules

import (
	"fmt"
	"slices"
	"strings"
	"text/template"
	"text/template/parse"
)

// templateValues lists the template values ({{.Name}}) that tpl reads, in
// the order they first appear.
func templateValues(tpl *template.Template) []string {
	var out []string
	eachTemplateNode(tpl, func(n parse.Node) bool {
		if f, ok := n.(*parse.FieldNode); ok && len(f.Ident) > 0 && !slices.Contains(out, f.Ident[0]) {
			out = append(out, f.Ident[0])
		}
		return true
	})
	return out
}

// eachTemplateNode calls visit on every node of tpl's parse tree, parents
// before their children, in the order of the text, until visit returns
// false. It is the one walk of a rule template's tree (templateValues,
// checkTemplate); a nil template or tree has no nodes.
func eachTemplateNode(tpl *template.Template, visit func(parse.Node) bool) {
	if tpl == nil || tpl.Tree == nil {
		return
	}
	stopped := false
	var walk func(n parse.Node)
	walk = func(n parse.Node) {
		if stopped || n == nil {
			return
		}
		switch n := n.(type) {
		case *parse.ListNode:
			if n == nil {
				return
			}
		case *parse.PipeNode:
			if n == nil {
				return
			}
		}
		if !visit(n) {
			stopped = true
			return
		}
		switch n := n.(type) {
		case *parse.ListNode:
			for _, c := range n.Nodes {
				walk(c)
			}
		case *parse.ActionNode:
			walk(n.Pipe)
		case *parse.IfNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.RangeNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.WithNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.TemplateNode:
			walk(n.Pipe)
		case *parse.PipeNode:
			for _, c := range n.Cmds {
				walk(c)
			}
		case *parse.CommandNode:
			for _, a := range n.Args {
				walk(a)
			}
		case *parse.ChainNode:
			walk(n.Node)
		}
	}
	walk(tpl.Tree.Root)
}

// filledValues are the template values some source fills for a rule's hits:
// the base values of its matcher's subject, the matcher's own, Cause when
// the rule has a match.cause, and the values of its joins for a pod rule.
func (r *Rule) filledValues(kind matcherKind) []string {
	groups := [][]string{subjectValues(r.matcher), kind.fills, platformValues(), r.letNames()}
	if r.Match.Cause != "" {
		groups = append(groups, causeValues())
	}
	if r.matcher.on() == onPod && len(r.joins) > 0 {
		for _, j := range r.joins {
			groups = append(groups, j.fills)
		}
	}
	return values(groups...)
}

// unfilledProblem words a template value that tpl (the text of field) reads
// and no source fills for r, or returns "" when every value it reads is
// filled.
func (r *Rule) unfilledProblem(field string, tpl *template.Template, filled []string) string {
	var missing []string
	for _, v := range templateValues(tpl) {
		if !slices.Contains(filled, v) {
			missing = append(missing, "{{."+v+"}}")
		}
	}
	if len(missing) == 0 {
		return ""
	}
	return fmt.Sprintf("%s uses %s, which nothing fills for this rule (it would always be empty): its matcher %s, subject, cause and joins fill only %s; %s",
		field, strings.Join(missing, ", "), r.Match.Matcher, strings.Join(filled, ", "), fillHint(missing))
}

// fillHint says where the values a rule lacks come from.
func fillHint(missing []string) string {
	var hints []string
	for _, m := range missing {
		v := strings.TrimSuffix(strings.TrimPrefix(m, "{{."), "}}")
		switch {
		case slices.Contains(causeValues(), v):
			hints = append(hints, m+" needs a match.cause")
		case slices.Contains(joinValues(), v):
			hints = append(hints, m+" needs joins on a pod rule")
		default:
			var by []string
			for _, k := range matcherRegistry() {
				if slices.Contains(k.fills, v) {
					by = append(by, k.name)
				}
			}
			if slices.Contains(podBaseValues(), v) {
				by = append([]string{"every pod matcher"}, by...)
			} else if slices.Contains(nodeBaseValues(), v) {
				by = append([]string{"every node matcher"}, by...)
			}
			hints = append(hints, m+" is filled by "+orNone(by))
		}
	}
	return strings.Join(hints, "; ")
}
