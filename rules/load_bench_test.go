package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeManyRules writes a rule file of n rules into dir and returns its
// path: every rule new, a third of them in the built-in group crash-loop
// (each placed before its built-in rules), the rest without a group, each
// with a cause, a hint and a remediation step.
func writeManyRules(tb testing.TB, dir string, n int) string {
	tb.Helper()
	var b strings.Builder
	b.WriteString("schemaVersion: 1\nrules:\n")
	for i := range n {
		group := ""
		if i%3 == 0 {
			group = "\n    group: crash-loop"
		}
		fmt.Fprintf(&b, `  - id: user-rule-%06d
    version: 1
    severity: medium
    title: User rule %d
    category: crash-loop%s
    match:
      matcher: containerWaiting
      params: {reasons: [CrashLoopBackOff], logs: true}
      cause: 'cannot reach service-%06d[^\n]*'
    hint: >-
      Container {{.Container}} of {{.Namespace}}/{{.Pod}} cannot reach service %d ("{{.Cause}}").
    remediation:
      - "Check the service: oc -n {{.Namespace}} get svc"
`, i, i, group, i, i)
	}
	p := filepath.Join(dir, "many.yaml")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

// BenchmarkLoadRules: Override (what `--rules` and `rules validate` do)
// and Warnings with a file of 1k, 10k and 50k rules, the limits lifted
// (MaxRules, MaxRuleBytes); ns/rule should stay flat as the count grows
// (issue 34: it grew with the square of the count).
func BenchmarkLoadRules(b *testing.B) {
	defer func(bytes int64, n int) { ruleBytesLimit, rulesLimit = bytes, n }(ruleBytesLimit, rulesLimit)
	ruleBytesLimit, rulesLimit = 1<<30, 1<<20 // past the limits, to show the cost's growth
	for _, n := range loadRulesSizes {
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			p := writeManyRules(b, b.TempDir(), n)
			for b.Loop() {
				t := Builtin()
				if errs := t.Override(p); len(errs) > 0 {
					b.Fatal(errs[0])
				}
				Warnings(p)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/rule")
		})
	}
}

// loadRulesSizes are BenchmarkLoadRules' rule counts.
var loadRulesSizes = []int{1_000, 10_000, 50_000}
