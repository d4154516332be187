package report

import (
	"bytes"
	"strings"
	"testing"
)

// hostileReport is the test report with escape sequences in every string the
// terminal view prints.
func hostileReport(t *testing.T) *Report {
	r := loadReport(t)
	const esc = "\x1b[2J\x1b]0;pwned\x07\r\u009b31m"
	r.Gather.ClusterVersion += esc
	r.Gather.KubernetesVersion += esc
	r.Rules.Version += esc
	for i := range r.Findings {
		f := &r.Findings[i]
		f.RuleID += esc
		f.Hint = esc + f.Hint
		f.Objects[0].Name += esc
	}
	return r
}

func TestTerminalNoEscapeWithoutColor(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteTerminal(&buf, hostileReport(t), TerminalOptions{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, bad := range []string{"\x1b", "\r", "\a", "\u009b", "pwned"} {
		if strings.Contains(out, bad) {
			t.Errorf("terminal output contains %q:\n%s", bad, out)
		}
	}
}

func TestTerminalColorOnlyOurs(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteTerminal(&buf, hostileReport(t), TerminalOptions{Color: true}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, sgrSeverity[SeverityCritical]+"critical"+sgrReset) {
		t.Errorf("colour output lacks a coloured severity:\n%s", out)
	}
	rest := strings.NewReplacer(sgrReset, "", sgrBold, "").Replace(out)
	for _, sgr := range sgrSeverity {
		rest = strings.ReplaceAll(rest, sgr, "")
	}
	if strings.Contains(rest, "\x1b") || strings.Contains(rest, "pwned") {
		t.Errorf("colour output holds escapes other than its own:\n%q", rest)
	}
}

func TestTerminalMaxFindings(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteTerminal(&buf, loadReport(t), TerminalOptions{MaxFindings: 1}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.Contains(out, "image-pull-backoff") || !strings.Contains(out, "… and 2 more findings") {
		t.Errorf("MaxFindings 1 not kept:\n%s", out)
	}
}

func TestTerminalHintTruncated(t *testing.T) {
	r := loadReport(t)
	r.Findings = r.Findings[:1]
	r.Findings[0].Hint = strings.Repeat("word ", 100)
	var buf bytes.Buffer
	if err := WriteTerminal(&buf, r, TerminalOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(buf.String(), "\n") {
		if strings.Contains(line, "word") && !strings.Contains(line, "word…") {
			t.Errorf("hint not cut with …: %s", line)
		}
	}
}
