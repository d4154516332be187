package rules

import "testing"

// TestTerminationMessageJoin: terminationMessage decides with the line that
// names the failure (a panic line before an earlier error line) and rules
// the signature out when no line does.
func TestTerminationMessageJoin(t *testing.T) {
	testDeciderTable(t, "terminationMessage", []deciderCase{
		{Signature: "termination-message-cause", Case: "the log's last lines in the termination message name the unset variable", Decided: true, CauseHas: []string{`("ERROR: 2026/11/20 09:08:01 main.go:155: AUTHN_URL must be provided")`, "FallbackToLogsOnError"}},
		{Signature: "termination-message-cause", Case: "a Go panic, the panic line is chosen over the earlier error line", Decided: true, CauseHas: []string{`("panic: runtime error`, "/dev/termination-log"}},
		{Signature: "termination-message-cause", Case: "near miss, the message says nothing but info lines and a bare exit status", RuledOut: true},
	})
}

// TestSaidLine: the line of a termination message that says why.
func TestSaidLine(t *testing.T) {
	for _, tc := range []struct{ name, msg, want string }{
		{"klog fatal after info", "I0803 1 main.go:178] Valid token audiences:\nF0803 1 main.go:275] Failed to initialize certificate reloader: open /etc/tls/tls.crt: no such file or directory\n", "F0803 1 main.go:275] Failed to initialize certificate reloader: open /etc/tls/tls.crt: no such file or directory"},
		{"flag help is not the failure", "Error: unknown flag: --verbose\n      --alsologtostderr   log to standard error as well as files\n", "Error: unknown flag: --verbose"},
		{"stack frames skipped", "goroutine 1 [running]:\nmain.main()\n\t/src/main.go:12 +0x1d\n", ""},
		{"a bare reason says nothing", "Error\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := saidLine(tc.msg); got != tc.want {
				t.Errorf("saidLine = %q, want %q", got, tc.want)
			}
		})
	}
}
