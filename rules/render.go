package rules

import (
	"errors"
	"fmt"
	"strings"
	"text/template"
	"text/template/parse"
	"unicode/utf8"
)

// MaxRenderedText bounds one rendered template of a rule or signature (a
// hint, its alternatives, a remediation step, a signature's cause or fix),
// in bytes. Execution stops when the text reaches it, so a template that
// multiplies its values never holds more than this in memory; the text then
// ends with a note of the cut (renderNote).
const MaxRenderedText = 64 << 10

// errRenderCap stops a template's execution at MaxRenderedText.
var errRenderCap = fmt.Errorf("the rendered text reached the %d KiB limit", MaxRenderedText>>10)

// cappedWriter keeps at most max bytes and fails the write that would pass
// them, which stops text/template's execution there.
type cappedWriter struct {
	b   []byte
	max int
	cut bool
}

func (w *cappedWriter) Write(p []byte) (int, error) {
	if room := w.max - len(w.b); len(p) > room {
		w.b = append(w.b, p[:room]...)
		w.cut = true
		return room, errRenderCap
	}
	w.b = append(w.b, p...)
	return len(p), nil
}

// renderCapped executes tpl over vars into at most MaxRenderedText bytes;
// cut is true when execution stopped there (text is then the first
// MaxRenderedText bytes, on a UTF-8 boundary).
func renderCapped(tpl *template.Template, vars Vars) (text string, cut bool, err error) {
	w := &cappedWriter{max: MaxRenderedText}
	err = tpl.Execute(w, vars)
	if w.cut {
		b := w.b
		for i := len(b) - 1; i >= max(0, len(b)-utf8.UTFMax); i-- {
			if utf8.RuneStart(b[i]) {
				if !utf8.FullRune(b[i:]) {
					b = b[:i] // the last rune was cut
				}
				break
			}
		}
		return string(b), true, nil
	}
	return string(w.b), false, err
}

// renderNote ends a rendered text cut at MaxRenderedText.
var renderNote = fmt.Sprintf(" …[cut: the rule's template renders more than %d KiB]", MaxRenderedText>>10)

// execTemplate renders tpl over vars, trimmed, cut at MaxRenderedText with
// renderNote; an execution error is the text "(template error: …)".
func execTemplate(tpl *template.Template, vars Vars) string {
	text, cut, err := renderCapped(tpl, vars)
	if err != nil {
		return fmt.Sprintf("(template error: %v)", err)
	}
	if cut {
		return strings.TrimSpace(text) + renderNote
	}
	return strings.TrimSpace(text)
}

// templateFuncs are the functions hint and remediation templates may call:
// cap upper-cases the first letter ("{{cap .ContainerKind}}").
var templateFuncs = template.FuncMap{
	"cap": func(s string) string {
		if s == "" {
			return s
		}
		return strings.ToUpper(s[:1]) + s[1:]
	},
}

// allowedFuncs are the functions a rule's template may call: the
// comparisons and logic of text/template, len, index, slice and cap. The
// others build text without bound in a template variable (printf, print,
// println; html, js and urlquery, which grow what they escape) or call out
// (call).
var allowedFuncs = map[string]bool{
	"and": true, "or": true, "not": true, "eq": true, "ne": true, "lt": true, "le": true, "gt": true, "ge": true,
	"len": true, "index": true, "slice": true, "cap": true,
}

// checkTemplate refuses what would let a template's work grow faster than
// its own text: loops (range), templates of its own (define, block,
// template, which may call each other any number of times) and the
// functions allowedFuncs leaves out. What is left writes each value at most
// once per action, so with values of bounded length a template's output and
// time grow with its length.
func checkTemplate(tpl *template.Template) error {
	if n := len(tpl.Templates()); n > 1 {
		return errors.New("define and block are not allowed in rule templates (a template of its own may call others any number of times); write the text out")
	}
	var problem error
	eachTemplateNode(tpl, func(n parse.Node) bool {
		switch n := n.(type) {
		case *parse.RangeNode:
			problem = errors.New("range is not allowed in rule templates (template values are single strings)")
		case *parse.TemplateNode:
			problem = errors.New("{{template}} is not allowed in rule templates; write the text out")
		case *parse.IdentifierNode:
			if !allowedFuncs[n.Ident] {
				problem = fmt.Errorf("function %s is not allowed in rule templates (allowed: and, or, not, eq, ne, lt, le, gt, ge, len, index, slice, cap)", n.Ident)
			}
		}
		return problem == nil
	})
	return problem
}

// longestVars returns vars with every value at the longest a finding gives
// it (maxVarText bytes; Cause MaxEvidenceText, a whole evidence line): the
// representative values under which validation renders a template.
func longestVars(vars Vars) Vars {
	out := make(Vars, len(vars)+1)
	for k := range vars {
		out[k] = longestValue[:maxVarText]
	}
	out["Cause"] = longestValue
	return out
}

// longestValue is the value longestVars gives (its first maxVarText bytes,
// or all of it for Cause).
var longestValue = strings.Repeat("x", MaxEvidenceText)

// checkRender parses and checks text as a template named name and renders it
// with sample values (sample: each present, so an unknown value fails) and
// with the longest values (longestVars); it returns the template, or the
// reason it cannot render under MaxRenderedText.
func checkRender(name, text string, sample Vars) (*template.Template, error) {
	tpl, err := template.New(name).Funcs(templateFuncs).Option("missingkey=error").Parse(text)
	if err != nil {
		return nil, err
	}
	if err := checkTemplate(tpl); err != nil {
		return nil, err
	}
	if _, cut, err := renderCapped(tpl, sample); err != nil {
		return nil, err
	} else if cut {
		return nil, fmt.Errorf("renders more than %d KiB with one-character values; a rendered text is cut there", MaxRenderedText>>10)
	}
	if _, cut, err := renderCapped(tpl, longestVars(sample)); err != nil {
		return nil, err
	} else if cut {
		return nil, fmt.Errorf("renders more than %d KiB with every value at its longest (%d KiB, {{.Cause}} %d KiB), where a finding's text is cut; use each value fewer times",
			MaxRenderedText>>10, maxVarText>>10, MaxEvidenceText>>10)
	}
	return tpl, nil
}
