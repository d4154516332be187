package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/model"
)

func TestRequiredLiterals(t *testing.T) {
	tests := []struct {
		pattern string
		want    []model.Literal
	}{
		{`Waiting for volume`, []model.Literal{{Text: "Waiting for volume"}}},
		{`(?i)x509: [^"\\]*`, []model.Literal{{Text: "x509: ", Fold: true}}},
		{`lookup \S+ on \S+: timeout|EAI_AGAIN`, []model.Literal{{Text: ": timeout"}, {Text: "EAI_AGAIN"}}},
		{`(?:configmap|secret) "[^"]+" not found`, []model.Literal{{Text: `" not found`}}},
		{`[0-9]+`, nil},
		{`.*|error`, nil},
		{`ab`, nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, requiredLiterals(tt.pattern)); diff != "" {
			t.Errorf("requiredLiterals(%q) (-want +got):\n%s", tt.pattern, diff)
		}
	}
}
