package rules

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common"
	celast "cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/mgtriage/mgtriage/parser/model"
)

// A rule's `where:` is a CEL expression (cel.dev/cel-go) over the rule's
// subject and the gather's object store; its `let:` names CEL expressions
// whose values its templates read ({{.name}}). The environment (celEnv)
// declares three variables and four functions, all generic:
//
//	subject  map(string, dyn)     the subject's fields (subjectValue)
//	vars     map(string, string)  the template values ({{.Pod}}, {{.Reason}}, ...), "" where the hit fills none
//	joins    map(string, dyn)     per join of the rule: decided, cause, fix, missing
//	lookup(kind, namespace, name)          -> {coverage, object}
//	lookupAll(kind, namespace, selector)   -> {coverage, items, truncated}
//	found(result), absent(result)          -> bool
//
// kind is "resource.group" as the gather's folders name it ("pods",
// "cephclusters.ceph.rook.io") and must be a string literal: the table
// declares the kinds its expressions read (Table.Needs) so that the parser
// decodes them. coverage is "found", "absent" (the list that would hold it
// was gathered and does not), "not gathered" or "filtered"; absent() is true
// only for "absent", so an expression cannot conclude that an object is
// missing from a kind never gathered.

// CELCostLimit bounds the work of one evaluation of a `where:` or `let:`
// expression, in CEL's cost units (about one per value visited); an
// evaluation past it stops with an error naming the rule, which becomes a
// gather problem, and the rule does not fire on that subject.
const CELCostLimit = 1_000_000

// maxReadEvidence bounds the objects a where: condition read that a
// finding cites.
const maxReadEvidence = 3

// MaxLookupItems bounds the objects lookupAll returns; truncated is then
// true. MaxObjectJSON bounds, in bytes, the JSON form of a typed object an
// expression reads whole; a larger one is given by its metadata alone.
const (
	MaxLookupItems = 1000
	MaxObjectJSON  = 256 << 10
)

// celCostLimit is CELCostLimit; tests lower it.
var celCostLimit uint64 = CELCostLimit

// celExprLimit bounds the text of one expression, in code points.
const celExprLimit = 8 << 10

var mapStringDyn = cel.MapType(cel.StringType, cel.DynType)

// celEnv is the one CEL environment of rule expressions, made once.
var celEnv = sync.OnceValues(func() (*cel.Env, error) {
	return cel.NewEnv(
		cel.Variable("subject", mapStringDyn),
		cel.Variable("vars", cel.MapType(cel.StringType, cel.StringType)),
		cel.Variable("joins", cel.MapType(cel.StringType, mapStringDyn)),
		cel.Function("lookup", cel.Overload("lookup_string_string_string",
			[]*cel.Type{cel.StringType, cel.StringType, cel.StringType}, mapStringDyn, cel.LateFunctionBinding())),
		cel.Function("lookupAll", cel.Overload("lookupAll_string_string_string",
			[]*cel.Type{cel.StringType, cel.StringType, cel.StringType}, mapStringDyn, cel.LateFunctionBinding())),
		cel.Function("found", cel.Overload("found_map", []*cel.Type{mapStringDyn}, cel.BoolType,
			cel.UnaryBinding(func(v ref.Val) ref.Val { return types.Bool(coverageOf(v) == model.Found.String()) }))),
		cel.Function("absent", cel.Overload("absent_map", []*cel.Type{mapStringDyn}, cel.BoolType,
			cel.UnaryBinding(func(v ref.Val) ref.Val { return types.Bool(coverageOf(v) == model.Absent.String()) }))),
		cel.ParserExpressionSizeLimit(celExprLimit),
	)
})

// coverageOf reads the coverage of a lookup result ("" when v has none).
func coverageOf(v ref.Val) string {
	m, ok := v.(traits.Mapper)
	if !ok {
		return ""
	}
	c, found := m.Find(types.String("coverage"))
	if !found {
		return ""
	}
	s, _ := c.(types.String)
	return string(s)
}

// celProgram is one compiled expression of a rule.
type celProgram struct {
	text string
	prg  cel.Program
}

// celPos is where an expression's text starts in its rule file: the line of
// its first character, the column (1-based) of that character, and whether
// the text is a literal block (`|`), whose lines are the file's lines.
type celPos struct {
	line, col int
	block     bool
}

// at maps a location inside the expression (CEL's 1-based line, 0-based
// column) to the file's line and 1-based column.
func (p celPos) at(l common.Location) (int, int) {
	if l == nil || l.Line() < 1 {
		return p.line, 0
	}
	// A literal block keeps the file's lines and their indent; a folded or
	// quoted text is one line for CEL, placed from where it starts.
	return p.line + l.Line() - 1, p.col + l.Column()
}

// exprPos finds where the value of the key on line keyLine (1-based) of text
// starts: on the same line after the colon (past an opening quote), or, for
// a block scalar (| or >), on the next line that holds text.
func exprPos(text []string, keyLine int) celPos {
	if keyLine < 1 || keyLine > len(text) {
		return celPos{line: keyLine}
	}
	line := text[keyLine-1]
	i := strings.Index(line, ":")
	if i < 0 {
		return celPos{line: keyLine}
	}
	rest := line[i+1:]
	trimmed := strings.TrimLeft(rest, " ")
	col := i + 2 + len(rest) - len(trimmed)
	if strings.HasPrefix(trimmed, "|") || strings.HasPrefix(trimmed, ">") {
		for n := keyLine + 1; n <= len(text); n++ {
			body := strings.TrimLeft(text[n-1], " ")
			if body == "" {
				continue
			}
			return celPos{line: n, col: len(text[n-1]) - len(body) + 1, block: trimmed[0] == '|'}
		}
		return celPos{line: keyLine + 1, col: 1}
	}
	if strings.HasPrefix(trimmed, `"`) || strings.HasPrefix(trimmed, "'") {
		col++
	}
	return celPos{line: keyLine, col: col}
}

// celIssue is one problem of an expression at its file line and column.
type celIssue struct {
	line, col int
	msg       string
}

// kindRe is a kind as the gather's folders name it: "pods",
// "cephclusters.ceph.rook.io", "network-attachment-definitions.k8s.cni.cncf.io".
var kindRe = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$`)

// compileCEL type-checks text, an expression of a rule (field names it:
// "where", "let.health"), that must give want (nil: any type), and returns
// its program and the kinds its lookups read, or every problem at its file
// line and column (pos: where the text starts).
func compileCEL(field, text string, want *cel.Type, pos celPos) (*celProgram, []model.Kind, []celIssue) {
	env, err := celEnv()
	if err != nil {
		return nil, nil, []celIssue{{pos.line, 0, "the CEL environment: " + err.Error()}}
	}
	checked, iss := env.Compile(text)
	if iss != nil && iss.Err() != nil {
		var out []celIssue
		for _, e := range iss.Errors() {
			line, col := pos.at(e.Location)
			out = append(out, celIssue{line, col, fmt.Sprintf("%s: %s", field, e.Message)})
		}
		return nil, nil, out
	}
	if want != nil && !checked.OutputType().IsExactType(want) && !checked.OutputType().IsExactType(cel.DynType) {
		return nil, nil, []celIssue{{pos.line, pos.col, fmt.Sprintf("%s must be true or false; this expression gives %s", field, checked.OutputType())}}
	}
	native := checked.NativeRep()
	var kinds []model.Kind
	var out []celIssue
	for _, fn := range []string{"lookup", "lookupAll"} {
		for _, call := range celast.MatchDescendants(celast.NavigateAST(native), celast.FunctionMatcher(fn)) {
			args := call.AsCall().Args()
			if len(args) == 0 {
				continue
			}
			line, col := pos.at(native.SourceInfo().GetStartLocation(args[0].ID()))
			var s types.String
			ok := args[0].Kind() == celast.LiteralKind
			if ok {
				s, ok = args[0].AsLiteral().(types.String)
			}
			if !ok {
				out = append(out, celIssue{line, col, fmt.Sprintf("%s: the kind %s reads must be a string literal (\"cephclusters.ceph.rook.io\"), so that the table can declare it", field, fn)})
				continue
			}
			if !kindRe.MatchString(string(s)) {
				out = append(out, celIssue{line, col, fmt.Sprintf("%s: kind %q is not resource.group as the gather's folders name it (\"pods\", \"cephclusters.ceph.rook.io\")", field, string(s))})
				continue
			}
			kinds = append(kinds, model.ParseKind(string(s)))
		}
	}
	if len(out) > 0 {
		return nil, nil, out
	}
	prg, err := env.Program(checked, cel.CostLimit(celCostLimit), cel.EvalOptions(cel.OptOptimize))
	if err != nil {
		return nil, nil, []celIssue{{pos.line, pos.col, fmt.Sprintf("%s: %v", field, err)}}
	}
	return &celProgram{text: text, prg: prg}, kinds, nil
}

// celFunctions lists the environment's functions, one line per overload
// ("name: overload-id(arg types) -> result type"), sorted: the list its
// golden file pins.
func celFunctions() []string {
	env, err := celEnv()
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	var out []string
	for name, fn := range env.Functions() {
		for _, o := range fn.OverloadDecls() {
			var args []string
			for _, a := range o.ArgTypes() {
				args = append(args, a.String())
			}
			recv := ""
			if o.IsMemberFunction() {
				recv = " (member)"
			}
			res := ""
			if o.ResultType() != nil {
				res = o.ResultType().String()
			}
			out = append(out, fmt.Sprintf("%s: %s(%s) -> %s%s", name, o.ID(), strings.Join(args, ", "), res, recv))
		}
	}
	sort.Strings(out)
	return out
}

// celState is what the expressions of one evaluation share: the JSON form
// of the objects and subjects they read, made once, and the runtime errors
// of each rule, reported once as a gather problem.
type celState struct {
	objects  map[*model.Object]map[string]any
	subjects map[subjectID]map[string]any
	errs     map[*Rule]*celRuleError
	order    []*Rule
}

type subjectID struct {
	kind subjectKind
	ptr  any
}

type celRuleError struct {
	first, then string
	more        int
}

// noteError records a runtime error of rule r's expression field ("where",
// "let.vms") on subject name.
func (st *celState) noteError(r *Rule, field, name string, err error) {
	if st.errs == nil {
		st.errs = map[*Rule]*celRuleError{}
	}
	if e, ok := st.errs[r]; ok {
		e.more++
		return
	}
	then := "the rule did not fire there"
	if field != "where" {
		then = "the finding has the value empty"
	}
	st.errs[r] = &celRuleError{first: fmt.Sprintf("rule %s (%s:%d): %s stopped on %s: %s", r.ID, r.File, lineOf(r.fieldLines, field, r.Line), field, name, clip(err.Error(), 512)), then: then}
	st.order = append(st.order, r)
}

// problems words the runtime errors as gather problems, one per rule.
func (st *celState) problems() []model.Problem {
	var out []model.Problem
	for _, r := range st.order {
		e := st.errs[r]
		msg := e.first
		if e.more > 0 {
			msg += fmt.Sprintf(" (and on %d more subjects)", e.more)
		}
		out = append(out, model.Problem{Path: r.File, Error: msg + "; " + e.then})
	}
	return out
}

// objectValue is o as an expression reads it: the JSON form of its typed
// object when decoded (and not larger than MaxObjectJSON), else its
// metadata (name, namespace, uid, labels, and the key names of a ConfigMap
// or Secret as keys).
func (c *evalContext) objectValue(o *model.Object) map[string]any {
	if o == nil {
		return nil
	}
	if v, ok := c.cel.objects[o]; ok {
		return v
	}
	if c.cel.objects == nil {
		c.cel.objects = map[*model.Object]map[string]any{}
	}
	var v map[string]any
	switch t := o.Typed.(type) {
	case nil:
	case *model.Unstructured:
		v = t.Content
	default:
		if b, err := json.Marshal(t); err == nil && len(b) <= MaxObjectJSON {
			_ = json.Unmarshal(b, &v)
		}
	}
	if v == nil {
		meta := map[string]any{"name": o.Name}
		if o.Namespace != "" {
			meta["namespace"] = o.Namespace
		}
		if o.UID != "" {
			meta["uid"] = o.UID
		}
		if len(o.Labels) > 0 {
			l := make(map[string]any, len(o.Labels))
			for k, s := range o.Labels {
				l[k] = s
			}
			meta["labels"] = l
		}
		v = map[string]any{"metadata": meta}
		if len(o.Keys) > 0 {
			keys := make([]any, len(o.Keys))
			for i, k := range o.Keys {
				keys[i] = k
			}
			v["keys"] = keys
		}
	}
	c.cel.objects[o] = v
	return v
}

// lookupFuncs are the late-bound lookup functions over c's store. The
// objects they find are noted in read: what lookup finds (an object the
// expression asked for by name), and what lookupAll lists (a search,
// whose items prove nothing unless the rule names them: see citeRead).
func (c *evalContext) lookupFuncs(read *celRead) map[string]cel.LateBoundFunction {
	str := func(v ref.Val) string { s, _ := v.(types.String); return string(s) }
	return map[string]cel.LateBoundFunction{
		"lookup": func(_ string, args ...ref.Val) ref.Val {
			if len(args) != 3 {
				return types.NewErr("lookup takes kind, namespace, name")
			}
			o, cov := c.gather.Objects.Get(model.ParseKind(str(args[0])), str(args[1]), str(args[2]))
			res := map[string]any{"coverage": cov.String(), "object": nil}
			if o != nil {
				res["object"] = c.objectValue(o)
				read.named = append(read.named, o)
			}
			return types.DefaultTypeAdapter.NativeToValue(res)
		},
		"lookupAll": func(_ string, args ...ref.Val) ref.Val {
			if len(args) != 3 {
				return types.NewErr("lookupAll takes kind, namespace, selector")
			}
			sel, err := labels.Parse(str(args[2]))
			if err != nil {
				return types.NewErr("lookupAll: selector %q: %v", clip(str(args[2]), 200), err)
			}
			objs, cov := c.gather.Objects.List(model.ParseKind(str(args[0])), str(args[1]))
			items := []any{}
			var found []*model.Object
			truncated := false
			for _, o := range objs {
				if !sel.Empty() && !sel.Matches(labels.Set(c.labelsOf(o))) {
					continue
				}
				if len(items) == MaxLookupItems {
					truncated = true
					break
				}
				items = append(items, c.objectValue(o))
				found = append(found, o)
			}
			read.listed = append(read.listed, found...)
			cs := cov.String()
			switch {
			case len(items) > 0:
				cs = model.Found.String()
			case cov == model.Found:
				cs = model.Absent.String()
			}
			return types.DefaultTypeAdapter.NativeToValue(map[string]any{"coverage": cs, "items": items, "truncated": truncated})
		},
	}
}

// labelsOf returns o's labels: the store keeps them for pods, nodes and
// namespaces; other objects hold theirs in their typed form.
func (c *evalContext) labelsOf(o *model.Object) map[string]string {
	if o.Labels != nil {
		return o.Labels
	}
	meta, _ := c.objectValue(o)["metadata"].(map[string]any)
	l, _ := meta["labels"].(map[string]any)
	out := make(map[string]string, len(l))
	for k, v := range l {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// subjectValue is subject s as `subject` reads it. A pod: kind "Pod",
// namespace, name, node, phase, the kubectl columns (ready "1/2", status,
// restarts as a number, age), labels, owner, containers (name, kind, image,
// state, reason, message, exitCode, ready, restartCount, lastReason,
// lastExitCode; null where the status has none) and object (the pod). A
// node: kind "Node", name, labels, conditions (type, status, reason,
// message) and object. A controller: kind, namespace, name, object. A
// ClusterOperator: kind, name, available, degraded, progressing, message. A
// cluster object: its kind as reports print it, namespace, name, object.
// container is the hit's container ("" for none).
func (c *evalContext) subjectValue(s subject, h *hit) map[string]any {
	id := subjectID{kind: s.kind}
	switch s.kind {
	case onPod:
		id.ptr = s.Pod
	case onNode:
		id.ptr = s.Node
	case onWorkload:
		id.ptr = s.Workload
	case onOperator:
		id.ptr = s.Operator
	default:
		id.ptr = h.object
	}
	v, ok := c.cel.subjects[id]
	if !ok {
		v = c.makeSubjectValue(s, h)
		if c.cel.subjects == nil {
			c.cel.subjects = map[subjectID]map[string]any{}
		}
		c.cel.subjects[id] = v
	}
	out := make(map[string]any, len(v)+1)
	for k, x := range v {
		out[k] = x
	}
	out["container"] = h.Container
	return out
}

func strMap(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func (c *evalContext) makeSubjectValue(s subject, h *hit) map[string]any {
	switch s.kind {
	case onPod:
		p := s.Pod
		var containers []any
		for _, ct := range p.Containers {
			m := map[string]any{"name": ct.Name, "kind": ct.Kind, "image": ct.Image, "state": ct.State, "reason": ct.Reason,
				"message": clip(ct.Message, maxVarText), "exitCode": nil, "ready": ct.Ready, "restartCount": int64(ct.RestartCount),
				"lastReason": nil, "lastExitCode": nil}
			if ct.ExitCode != nil {
				m["exitCode"] = int64(*ct.ExitCode)
			}
			if ct.Last != nil {
				m["lastReason"], m["lastExitCode"] = ct.Last.Reason, int64(ct.Last.ExitCode)
			}
			containers = append(containers, m)
		}
		obj, _ := c.gather.Objects.Get(model.Pods, p.Object.Namespace, p.Object.Name)
		var object map[string]any
		if obj != nil {
			object = c.objectValue(obj)
		} else {
			object = c.objectValue(&model.Object{Kind: model.Pods, Namespace: p.Object.Namespace, Name: p.Object.Name, Typed: &p.Object})
		}
		return map[string]any{"kind": "Pod", "namespace": p.Object.Namespace, "name": p.Object.Name, "node": p.Object.Spec.NodeName,
			"phase": string(p.Object.Status.Phase), "ready": p.Columns.Ready, "status": p.Columns.Status, "restarts": int64(p.Columns.RestartCount),
			"age": p.Columns.Age, "labels": strMap(p.Object.Labels), "owner": c.gather.Objects.PodOwner(&p.Object), "containers": containers, "object": object}
	case onNode:
		n := s.Node
		var conds []any
		for _, cd := range n.Object.Status.Conditions {
			conds = append(conds, map[string]any{"type": string(cd.Type), "status": string(cd.Status), "reason": cd.Reason, "message": clip(cd.Message, maxVarText)})
		}
		return map[string]any{"kind": "Node", "name": n.Object.Name, "labels": strMap(n.Object.Labels), "conditions": conds,
			"object": c.objectValue(&model.Object{Kind: model.Nodes, Name: n.Object.Name, Typed: &n.Object})}
	case onWorkload:
		o := s.Workload.Object
		return map[string]any{"kind": s.Workload.Kind, "namespace": o.Namespace, "name": o.Name, "object": c.objectValue(o)}
	case onOperator:
		op := s.Operator
		return map[string]any{"kind": "ClusterOperator", "name": op.Name, "available": op.Available, "degraded": op.Degraded,
			"progressing": op.Progressing, "message": clip(op.Message, maxVarText)}
	}
	if h.object == nil {
		return map[string]any{"kind": h.objectKind}
	}
	return map[string]any{"kind": h.objectKind, "namespace": h.object.Namespace, "name": h.object.Name, "object": c.objectValue(h.object)}
}

// joinsValue is what the rule's joins found for hit h: per join name,
// decided, cause, fix and missing (the objects the gather lacks).
func joinsValue(r *Rule, h *hit) map[string]any {
	out := map[string]any{}
	for _, name := range r.Joins {
		m := map[string]any{"decided": false, "cause": "", "fix": "", "missing": []any{}}
		if jr, ok := h.joined[name]; ok {
			m["decided"], m["cause"], m["fix"] = jr.Decided, jr.Cause, jr.Fix
			var miss []any
			for _, s := range jr.Missing {
				miss = append(miss, s)
			}
			if miss != nil {
				m["missing"] = miss
			}
		}
		out[name] = m
	}
	return out
}

// celVars is the vars an expression reads: every template value (VarNames),
// "" where the hit fills none, so that vars.Decided == "" holds rather than
// failing on a missing key.
func celVars(v Vars) map[string]string {
	out := make(map[string]string, len(varNames)+len(v))
	for _, n := range varNames {
		out[n] = ""
	}
	for k, s := range v {
		out[k] = s
	}
	return out
}

// errWhereType is a where: that gave something other than true or false.
var errWhereType = errors.New("the expression did not give true or false")

// passesWhere evaluates rule r's where: on subject s and hit h: true when
// the rule has none or it gives true; its let: values then go to h.Vars. A
// runtime error (the cost limit, a missing field) is recorded as a gather
// problem and the rule does not fire there.
func (c *evalContext) passesWhere(r *Rule, s subject, h *hit) bool {
	if r.where == nil {
		return true
	}
	var read celRead
	act, err := cel.FunctionVars(map[string]any{
		"subject": c.subjectValue(s, h),
		"vars":    celVars(h.Vars),
		"joins":   joinsValue(r, h),
	}, c.lookupFuncs(&read))
	if err != nil {
		c.cel.noteError(r, "where", subjectName(s, h), err)
		return false
	}
	out, _, err := r.where.prg.Eval(act)
	if err == nil {
		if b, ok := out.(types.Bool); !ok {
			err = errWhereType
		} else if !b {
			if c.trace.on(r) {
				c.trace.whereFalse(r, nil)
			}
			return false
		}
	}
	if err != nil {
		c.cel.noteError(r, "where", subjectName(s, h), err)
		if c.trace.on(r) {
			c.trace.whereFalse(r, err)
		}
		return false
	}
	if len(r.lets) > 0 && h.Vars == nil {
		h.Vars = Vars{}
	}
	for _, l := range r.lets {
		v, _, err := l.prg.Eval(act)
		if err != nil {
			c.cel.noteError(r, "let."+l.name, subjectName(s, h), err)
			h.Vars[l.name] = ""
			continue
		}
		h.Vars[l.name] = celText(v, maxVarText)
	}
	c.citeRead(r, h, &read)
	return true
}

// celRead is what a rule's CEL expressions read from the store for one
// hit: the objects lookup found by name, and those lookupAll listed.
type celRead struct {
	named, listed []*model.Object
}

// citeRead adds to h's evidence the objects the rule's condition read that
// prove its cause with the subject: each object lookup found, and each
// object lookupAll listed that a let: value names (by namespace/name, or
// name) — the objects the hint speaks of; at most maxReadEvidence, each
// once, at its first line.
func (c *evalContext) citeRead(r *Rule, h *hit, read *celRead) {
	cited := map[*model.Object]bool{}
	cite := func(o *model.Object, why string) {
		if cited[o] || len(cited) == maxReadEvidence {
			return
		}
		cited[o] = true
		h.Evidence = append(h.Evidence, c.objectFieldEvidence(o, why))
	}
	for _, o := range read.named {
		cite(o, "read by the rule's where: condition")
	}
	for _, o := range read.listed {
		for _, l := range r.lets {
			v := h.Vars[l.name]
			if v != "" && (strings.Contains(v, o.Namespace+"/"+o.Name) || containsWord(v, o.Name)) {
				cite(o, "named by the rule's let: "+l.name)
				break
			}
		}
	}
}

// containsWord reports whether s holds name as a whole word (not inside
// a longer name: "db" is not in "db-vm").
func containsWord(s, name string) bool {
	if name == "" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(s[i:], name)
		if j < 0 {
			return false
		}
		a, b := i+j, i+j+len(name)
		if (a == 0 || !nameByte(s[a-1])) && (b == len(s) || !nameByte(s[b])) {
			return true
		}
		i = a + 1
	}
}

func nameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_'
}

// jsonAny is the Go type a CEL value converts to for its JSON text.
var jsonAny = reflect.TypeFor[any]()

// celText writes a CEL value as template text, at most max bytes (then
// cut): a string as is, a number or bool as CEL prints it, a list as its
// items joined by ", ", null as "".
func celText(v ref.Val, max int) string {
	var b strings.Builder
	var write func(v ref.Val)
	write = func(v ref.Val) {
		if b.Len() > max {
			return
		}
		switch x := v.(type) {
		case types.String:
			b.WriteString(string(x))
		case types.Null:
		case traits.Lister:
			it := x.Iterator()
			first := true
			for it.HasNext() == types.True && b.Len() <= max {
				if !first {
					b.WriteString(", ")
				}
				first = false
				write(it.Next())
			}
		default:
			if native, err := v.ConvertToNative(jsonAny); err == nil {
				if js, err := json.Marshal(native); err == nil {
					b.Write(js)
					return
				}
			}
			fmt.Fprint(&b, v.Value())
		}
	}
	write(v)
	return clip(b.String(), max)
}

// letNameRe is a let: name: a lower-case first letter, so that it never
// takes the name of a template value the engine fills ({{.Pod}}).
var letNameRe = regexp.MustCompile(`^[a-z][A-Za-z0-9]{0,62}$`)

// letNames are the names of r's let: expressions, sorted.
func (r *Rule) letNames() []string {
	out := make([]string, 0, len(r.Let))
	for n := range r.Let {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// compileCEL type-checks r's where: and let: expressions (reporting each
// problem in errs at its file line and column, or with bad when it has
// none) and returns the sample template values of r: sampleVars with its
// let: names.
func (r *Rule) compileCEL(errs *Errors, bad func(field, format string, args ...any)) Vars {
	sample := sampleVars()
	r.where, r.lets, r.celKinds = nil, nil, nil
	if r.Where == "" && len(r.Let) == 0 {
		return sample
	}
	report := func(field string, iss []celIssue) {
		if r.badKeys[field] || r.badKeys[parentField(field)] {
			return
		}
		for _, is := range iss {
			*errs = append(*errs, ValidationError{File: r.File, Line: is.line, Column: is.col, Rule: r.ID, Msg: is.msg})
		}
	}
	pos := func(field string) celPos {
		if p, ok := r.exprStart[field]; ok {
			return p
		}
		return celPos{line: lineOf(r.fieldLines, field, r.Line)}
	}
	if strings.TrimSpace(r.Where) != "" {
		prg, kinds, iss := compileCEL("where", r.Where, cel.BoolType, pos("where"))
		report("where", iss)
		r.where = prg
		r.celKinds = append(r.celKinds, kinds...)
	} else if _, ok := r.fieldLines["where"]; ok {
		bad("where", "where is empty: write a CEL expression that gives true or false, or leave the key out")
	}
	if len(r.Let) > 0 && strings.TrimSpace(r.Where) == "" {
		bad("let", "let needs a where: expression (its values are computed where it holds)")
	}
	for _, name := range r.letNames() {
		field := "let." + name
		if !letNameRe.MatchString(name) {
			bad(field, "let name %q must start with a lower-case letter and hold letters and digits only (templates read it as {{.%s}})", name, name)
			continue
		}
		sample[name] = "x"
		prg, kinds, iss := compileCEL(field, r.Let[name], nil, pos(field))
		report(field, iss)
		if prg != nil {
			r.lets = append(r.lets, letProgram{name: name, celProgram: prg})
			r.celKinds = append(r.celKinds, kinds...)
		}
	}
	return sample
}
