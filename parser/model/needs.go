package model

// Literal is a piece of text that every line a rule can match contains: a
// rule table's cause patterns reduce to such literals (see
// rules.Table.LineLiterals). Fold marks a case-insensitive one (ASCII case).
type Literal struct {
	Text string
	Fold bool
}
