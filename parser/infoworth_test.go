package parser

import (
	"bytes"
	"strings"
	"testing"
)

// infoWorthParsingReference is infoWorthParsing the plain way: one
// bytes.Contains per keyword.
func infoWorthParsingReference(msg []byte) bool {
	if i := bytes.Index(msg, []byte("] ")); i > 0 && i < 80 {
		msg = msg[i+2:]
	}
	for _, k := range infoKeywords {
		if bytes.Contains(msg, []byte(k)) {
			return true
		}
	}
	return false
}

func TestInfoWorthParsing(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		want bool
	}{
		{"", false},
		{`I1201 10:00:00.000001    2212 kubelet.go:2099] "SyncLoop (PLEG): event for pod"`, false},
		{`I1201 10:00:00.000001    2212 prober.go:107] "Probe failed" probeType="Readiness"`, true},
		{`I1201 10:00:00.000001    2212 kuberuntime_container.go:700] "Killing container with a grace period"`, true},
		{`I1201 10:00:00.000001    2212 eviction_manager.go:300] "Eviction manager: must evict pod(s)"`, true},
		{`I1201 10:00:00.000001    2212 pod_workers.go:965] "Error syncing pod, skipping"`, true},
		{`I1201 10:00:00.000001    2212 x.go:1] "back-off 5m0s restarting failed container"`, true},
		// The keyword only in the klog header's file name does not count.
		{`I1201 10:00:00.000001    2212 oom_watcher.go:1] "Started"`, false},
		{"no header but a probe", true},
		{"oo", false},
	} {
		if got, ref := infoWorthParsing([]byte(tc.msg)), infoWorthParsingReference([]byte(tc.msg)); got != tc.want || ref != tc.want {
			t.Errorf("infoWorthParsing(%q) = %v, reference %v, want %v", tc.msg, got, ref, tc.want)
		}
	}
}

func FuzzInfoWorthParsing(f *testing.F) {
	f.Add([]byte(`I1201 10:00:00.000001    2212 prober.go:107] "Probe failed"`))
	f.Add([]byte("] oom"))
	f.Fuzz(func(t *testing.T, msg []byte) {
		if got, want := infoWorthParsing(msg), infoWorthParsingReference(msg); got != want {
			t.Fatalf("infoWorthParsing(%q) = %v, reference %v", msg, got, want)
		}
	})
}

// BenchmarkInfoWorthParsing runs the test over the messages of the kubelet
// journal of the corpus metal gather (skipped when absent), against the
// plain loop.
func BenchmarkInfoWorthParsing(b *testing.B) {
	message := func(l []byte) []byte {
		if i := bytes.Index(l, []byte("]: ")); i > 0 {
			return l[i+3:]
		}
		return l
	}
	lines := corpusLines(func(p string) bool { return strings.HasSuffix(p, "kubelet_service.log") }, message, 1<<30)
	benchLineFuncs(b, lines, lineFunc{"index", infoWorthParsing}, lineFunc{"reference", infoWorthParsingReference})
}
