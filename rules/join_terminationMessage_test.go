package rules

import (
	"strings"
	"testing"
	"time"
)

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
// TestSaidLineBounded: a hostile termination message of megabytes is read
// from its end only (16 KiB), in bounded time, and the line picked is
// counted among the whole message's lines.
func TestSaidLineBounded(t *testing.T) {
	msg := strings.Repeat("error "+strings.Repeat("a ", 200)+"\n", 2500) + "F1120 09:10:01.000000 1 main.go:40] cannot read /etc/tls/tls.crt: permission denied\n"
	start := time.Now()
	said, k := saidLine(msg)
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("saidLine of %d bytes took %s", len(msg), took)
	}
	if !strings.HasPrefix(said, "F1120") || k != 2500 {
		t.Errorf("saidLine = %q at line %d, want the fatal line at 2500", said, k)
	}
}

func TestSaidLine(t *testing.T) {
	for _, tc := range []struct{ name, msg, want string }{
		{"klog fatal after info", "I0803 1 main.go:178] Valid token audiences:\nF0803 1 main.go:275] Failed to initialize certificate reloader: open /etc/tls/tls.crt: no such file or directory\n", "F0803 1 main.go:275] Failed to initialize certificate reloader: open /etc/tls/tls.crt: no such file or directory"},
		{"flag help is not the failure", "Error: unknown flag: --verbose\n      --alsologtostderr   log to standard error as well as files\n", "Error: unknown flag: --verbose"},
		{"stack frames skipped", "goroutine 1 [running]:\nmain.main()\n\t/src/main.go:12 +0x1d\n", ""},
		{"a bare reason says nothing", "Error\n", ""},
		{"a log tail: the last error ended the run, the ones before are its shutdown",
			"2026-11-20T09:10:01.100Z\tINFO\tshop.controller\tShutdown signal received, waiting for all workers to finish\n" +
				"2026-11-20T09:10:01.101Z\tERROR\tshop.controller.status\tReconciler error\t{\"error\": \"failed to update status: context canceled\"}\n" +
				"2026-11-20T09:10:01.102Z\tINFO\tshop.controller.status\tAll workers finished\n" +
				"2026-11-20T09:10:01.103Z\tERROR\tshop.main\terror starting\t{\"error\": \"failed to wait for caches to sync: no matches for kind \\\"Widget\\\" in group \\\"shop.example.com\\\"\"}\n",
			"2026-11-20T09:10:01.103Z ERROR shop.main error starting {\"error\": \"failed to wait for caches to sync: no matches for kind \\\"Widget\\\" in group \\\"shop.example.com\\\"\"}"},
		{"a Python traceback ends with its exception", "Traceback (most recent call last):\n  File \"/app/main.py\", line 3, in <module>\n    url = os.environ[\"DATABASE_URL\"]\nKeyError: 'DATABASE_URL'\n", "KeyError: 'DATABASE_URL'"},
		{"a Java exception's deepest cause", "java.lang.IllegalStateException: Failed to load the application context\n\tat org.example.App.main(App.java:12)\nCaused by: java.io.FileNotFoundException: /config/app.yml (No such file or directory)\n\tat java.io.FileInputStream.open0(Native Method)\n", "Caused by: java.io.FileNotFoundException: /config/app.yml (No such file or directory)"},
		{"a recovered panic: its first line, which names the object, not the repeats as the stack unwinds",
			"2026-07-22T10:28:41.509Z\tINFO\tStarting workers\n2026-07-22T10:28:41.511Z\tINFO\tObserved a panic in reconciler: runtime error: invalid memory address or nil pointer dereference\t{\"name\": \"orders-db\", \"namespace\": \"shop\"}\npanic: runtime error: invalid memory address or nil pointer dereference [recovered]\n\tpanic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x1a3f2c4]\n\ngoroutine 388 [running]:\n",
			"2026-07-22T10:28:41.511Z INFO Observed a panic in reconciler: runtime error: invalid memory address or nil pointer dereference {\"name\": \"orders-db\", \"namespace\": \"shop\"}"},
		{"a fatal line outranks a later error", "F1120 09:10:01.000000 1 main.go:40] cannot read /etc/tls/tls.crt: permission denied\nE1120 09:10:01.000100 1 server.go:9] shutting down: failed to close listener\n", "F1120 09:10:01.000000 1 main.go:40] cannot read /etc/tls/tls.crt: permission denied"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, _ := saidLine(tc.msg); got != tc.want {
				t.Errorf("saidLine = %q, want %q", got, tc.want)
			}
		})
	}
}
