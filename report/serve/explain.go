package serve

// ExplainIn names a rule and, optionally, one subject.
type ExplainIn struct {
	Rule    string `json:"rule" jsonschema:"a rule id (see the findings' ruleId)"`
	Subject string `json:"subject,omitempty" jsonschema:"a pod as namespace/name, or a node name; absent: every subject the rule considered"`
}

// ExplainOut is the rule's explanation.
type ExplainOut struct{}
