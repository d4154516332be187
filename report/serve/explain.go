package serve

import (
	"encoding/json"
	"sync"

	"github.com/mgtriage/mgtriage/report"
	"github.com/mgtriage/mgtriage/rules"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ExplainIn names a rule and, optionally, one subject.
type ExplainIn struct {
	Rule    string `json:"rule" jsonschema:"a rule id (see the findings' ruleId, or analyze rules list)"`
	Subject string `json:"subject,omitempty" jsonschema:"a pod as namespace/name, or a node name; absent: every subject the rule considered"`
	Cursor  string `json:"cursor,omitempty" jsonschema:"the next value of an earlier answer, to page the subjects"`
}

// ExplainOut is rules.Explain's explanation: the same as analyze rules
// explain --json prints, one implementation.
type ExplainOut struct {
	rules.Explanation
	// Next pages on the subjects when they did not fit the answer budget.
	Next string `json:"next,omitempty"`
}

// explainCache keeps the explanations given, by rule and subject: each is
// one evaluation of the table over the gather, the same every time.
type explainCache struct {
	mu  sync.Mutex
	out map[[2]string]*ExplainOut
}

// maxExplainCached bounds the explanations kept.
const maxExplainCached = 64

// addExplain registers the explain tool.
func (s *Server) addExplain(m *mcp.Server, ro func(string) *mcp.ToolAnnotations) {
	addTool(m, s.maxAnswer(), &mcp.Tool{Name: "explain", Annotations: ro("Explain a rule"),
		Description: "Why a rule did or did not fire on each subject it considered: which step decided (matcher, join, cause pattern, ...), on what value and against what pattern, and for a near miss the closest evidence line. The same explanation as analyze rules explain."},
		tool(s.Explain))
}

// Explain is the explain tool: why in.Rule did or did not fire on each
// subject it considered (rules.Explain).
func (s *Server) Explain(in ExplainIn) (*ExplainOut, error) {
	if err := checkArgs(map[string]string{"rule": in.Rule, "subject": in.Subject}); err != nil {
		return nil, err
	}
	if _, err := parseCursor(in.Cursor); err != nil {
		return nil, err
	}
	full, err := s.explained(in.Rule, in.Subject)
	if err != nil {
		return nil, err
	}
	// The subjects get what the rest of the answer leaves of the budget
	// (at least one).
	out := *full
	out.Subjects = nil
	rest, err := json.Marshal(&out)
	if err != nil {
		return nil, err
	}
	out.Subjects, out.Next, err = page(full.Subjects, in.Cursor, 0, s.opt.AnswerBytes-len(rest))
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// explained is the whole explanation of rule on subject, cached.
func (s *Server) explained(rule, subject string) (*ExplainOut, error) {
	key := [2]string{rule, subject}
	s.explain.mu.Lock()
	defer s.explain.mu.Unlock() // one evaluation at a time: it reads the gather's lazily built indices
	if out := s.explain.out[key]; out != nil {
		return out, nil
	}
	e, err := rules.Explain(s.in.Table, s.in.Gather, rule, subject)
	if err != nil {
		return nil, err
	}
	out := report.Value(s.in.Redactor, &ExplainOut{Explanation: *e})
	if s.explain.out == nil || len(s.explain.out) >= maxExplainCached {
		s.explain.out = map[[2]string]*ExplainOut{}
	}
	s.explain.out[key] = out
	return out, nil
}
