package report

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestCleanText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "Back-off restarting failed container", "Back-off restarting failed container"},
		{"tab kept", "a\tb", "a\tb"},
		{"CSI colour", "\x1b[31mERROR\x1b[0m done", "ERROR done"},
		{"CSI with params", "\x1b[1;97;41mX\x1b[2J\x1b[?25l", "X"},
		{"OSC title with BEL", "a\x1b]0;pwned\x07b", "ab"},
		{"OSC hyperlink with ST", "\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\", "click"},
		{"OSC unterminated stops at line end", "a\x1b]0;title\nnext", "a\nnext"},
		{"two-byte escape", "a\x1bcb\x1b(Bc", "abc"},
		{"ESC at end", "abc\x1b", "abc"},
		{"CSI cut short", "abc\x1b[12", "abc"},
		{"CR LF", "a\r\nb", "a\nb"},
		{"lone CR", "progress 10%\rprogress 20%", "progress 10%\nprogress 20%"},
		{"C0 and DEL", "a\x00b\x07c\x08d\x7fe", "abcde"},
		{"C1 CSI", "a\u009b31mb", "a31mb"},
		{"bidi override", "abc\u202edcba\u2066x\u2069", "abcdcbax"},
		{"invalid UTF-8", "a\xffb", "a\ufffdb"},
		{"unicode kept", "Größe 容器 ✓", "Größe 容器 ✓"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, cleanText(tt.in)); diff != "" {
				t.Errorf("cleanText(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestCleanLine(t *testing.T) {
	if got, want := cleanLine("a\r\nb\tc\nd\x1b[0m"), "a b c d"; got != want {
		t.Errorf("cleanLine = %q, want %q", got, want)
	}
}

func TestTruncateRunes(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"a longer sentence", 10, "a longer…"},
		{"容器容器容器", 4, "容器容…"},
		{"anything", 0, "anything"},
	}
	for _, tt := range tests {
		if got := truncateRunes(tt.in, tt.n); got != tt.want {
			t.Errorf("truncateRunes(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestGatherTime(t *testing.T) {
	start := time.Date(2024, 5, 1, 12, 0, 0, 500, time.FixedZone("CEST", 2*3600))
	end := start.Add(90*time.Second + 400*time.Millisecond)
	tests := []struct {
		name string
		g    Gather
		want string
	}{
		{"none", Gather{}, "unknown (no readable timestamp file)"},
		{"start only, in UTC", Gather{CollectedAt: &start}, "2024-05-01T10:00:00Z"},
		{"with duration", Gather{CollectedAt: &start, FinishedAt: &end}, "2024-05-01T10:00:00Z, collection took 1m30s"},
		{"end before start", Gather{CollectedAt: &end, FinishedAt: &start}, "2024-05-01T10:01:30Z"},
		{"inferred", Gather{CollectedAt: &start, CollectedAtInferred: "inferred: the latest of 3 times in the gather (event 3)"},
			"2024-05-01T10:00:00Z (no timestamp file; inferred: the latest of 3 times in the gather (event 3))"},
	}
	for _, tt := range tests {
		if got := gatherTime(tt.g); got != tt.want {
			t.Errorf("%s: gatherTime = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestWebLink(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"https://docs.openshift.com/a/b.html#x", "https://docs.openshift.com/a/b.html#x", true},
		{"http://example.com", "http://example.com", true},
		{" https://example.com/x \n", "https://example.com/x", true},
		{"javascript:alert(1)", "", false},
		{"JavaScript:alert(1)", "", false},
		{"data:text/html,<script>", "", false},
		{"//evil.example/x", "", false},
		{"https://user:pw@evil.example/", "", false},
		{"https://example.com/?q=<script>", "", false},
		{"https://example.com/a b", "https://example.com/a%20b", true},
		{"/relative/path", "", false},
	}
	for _, tt := range tests {
		got, ok := webLink(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("webLink(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestSplitStep(t *testing.T) {
	tests := []struct {
		in   string
		want []stepPart
	}{
		{"oc get pods -n x", []stepPart{{"oc get pods -n x", true}}},
		{"  oc logs p --previous  ", []stepPart{{"oc logs p --previous", true}}},
		{"Check the logs: oc logs p -n x", []stepPart{{"Check the logs: ", false}, {"oc logs p -n x", true}}},
		{"Run `oc describe pod p` and look at Events", []stepPart{{"Run ", false}, {"oc describe pod p", true}, {" and look at Events", false}}},
		{"Review the heap settings", []stepPart{{"Review the heap settings", false}}},
		{"Odd ` backtick: oc get x", []stepPart{{"Odd ` backtick: ", false}, {"oc get x", true}}},
		{"oc adm top pod 'a`b`' -n x", []stepPart{{"oc adm top pod 'a`b`' -n x", true}}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, splitStep(tt.in)); diff != "" {
			t.Errorf("splitStep(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestSeverityCounts(t *testing.T) {
	r := &Report{Findings: []Finding{{Severity: "high"}, {Severity: "high"}, {Severity: "weird\x1b[31m"}}}
	want := []severityCount{{"critical", 0}, {"high", 2}, {"medium", 0}, {"low", 0}, {"info", 0}, {"weird", 1}}
	if diff := cmp.Diff(want, severityCounts(r)); diff != "" {
		t.Errorf("counted from findings (-want +got):\n%s", diff)
	}
	r.Summary.BySeverity = map[string]int{"critical": 4}
	want = []severityCount{{"critical", 4}, {"high", 0}, {"medium", 0}, {"low", 0}, {"info", 0}}
	if diff := cmp.Diff(want, severityCounts(r)); diff != "" {
		t.Errorf("from the summary (-want +got):\n%s", diff)
	}
}

// hasControl reports a control character other than tab and newline.
func hasControl(s string) bool {
	for _, r := range s {
		if r != '\t' && r != '\n' && (unicode.IsControl(r) || isHiddenControl(r)) {
			return true
		}
	}
	return false
}

func FuzzCleanText(f *testing.F) {
	for _, s := range []string{"plain", "\x1b[31mred\x1b[0m", "a\x1b]0;t\x07b", "\r\n\r", "\xff\xfe", "\u202e\u009b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := cleanText(s)
		if !utf8.ValidString(out) {
			t.Fatalf("cleanText(%q) = %q is not valid UTF-8", s, out)
		}
		if hasControl(out) || strings.Contains(out, "\r") {
			t.Fatalf("cleanText(%q) = %q keeps a control character", s, out)
		}
		if line := cleanLine(s); strings.ContainsAny(line, "\n\t") {
			t.Fatalf("cleanLine(%q) = %q keeps a line break", s, line)
		}
	})
}

func TestBoundedList(t *testing.T) {
	tests := []struct {
		name  string
		in    []string
		limit int
		shown []string
		more  int
	}{
		{"short", []string{"a", "b"}, 10, []string{"a", "b"}, 0},
		{"cut", []string{"a", "b", "c"}, 2, []string{"a", "b"}, 1},
		{"already cut upstream", []string{"a", "b", "… and 7 more"}, 10, []string{"a", "b"}, 7},
		{"both", []string{"a", "b", "c", "... and 7 more"}, 1, []string{"a"}, 9},
		{"no limit", []string{"a", "… and 2 more"}, 0, []string{"a"}, 2},
		{"empty", nil, 3, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shown, more := boundedList(tt.in, tt.limit)
			if diff := cmp.Diff(tt.shown, shown); diff != "" || more != tt.more {
				t.Errorf("boundedList = %v, %d; want %v, %d", shown, more, tt.shown, tt.more)
			}
		})
	}
}

func TestObjectsSummary(t *testing.T) {
	pod := func(name string) Object { return Object{Kind: "Pod", Namespace: "shop", Name: name} }
	tests := []struct {
		name string
		f    Finding
		want string
	}{
		{"one pod", Finding{Objects: []Object{pod("a")}}, "shop/a"},
		{"grouped", Finding{Objects: []Object{pod("a"), pod("b"), pod("c")}, GroupedBy: "workload shop/Deployment/web"}, "3 pods (same workload shop/Deployment/web)"},
		{"several, no group", Finding{Objects: []Object{pod("a"), pod("b")}}, "2 pods"},
		{"node and pod", Finding{Objects: []Object{{Kind: "Node", Name: "n1"}, pod("a")}}, "node/n1 +1"},
		{"hostile group", Finding{Objects: []Object{pod("a"), pod("b")}, GroupedBy: "node \x1b[2Jn1\n"}, "2 pods (same node n1)"},
		{"none", Finding{}, "-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := objectsSummary(tt.f); got != tt.want {
				t.Errorf("objectsSummary = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestStageCell(t *testing.T) {
	for _, tt := range []struct {
		p    Pod
		want string
	}{
		{Pod{Stage: "PodScheduled", StageReason: "Unschedulable"}, "PodScheduled: Unschedulable"},
		{Pod{Stage: "Started"}, "Started"},
		{Pod{StageReason: "orphan"}, ""},
	} {
		if got := stageCell(tt.p); got != tt.want {
			t.Errorf("stageCell(%+v) = %q, want %q", tt.p, got, tt.want)
		}
	}
}

func TestWriteJSONEscapesHidden(t *testing.T) {
	r := &Report{Gather: Gather{Path: "a\u202eb\u0085c\ufeffd<e>"}}
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"path": "a\u202eb\u0085c\ufeffd\u003ce\u003e"`) {
		t.Errorf("hidden characters not escaped: %s", b.String())
	}
	back, err := ReadJSON(&b)
	if err != nil || back.Gather.Path != r.Gather.Path {
		t.Errorf("round trip: %q, %v", back.Gather.Path, err)
	}
}

// TestVersionWords: a report without a ClusterVersion says what is known
// (the kubelet's Kubernetes version) and that the cluster version is not in
// the input, and why, in every view; never "OpenShift unknown".
func TestVersionWords(t *testing.T) {
	sos := []Layout{{Kind: "sosreport", Node: "master-0"}}
	mg := []Layout{{Kind: "must-gather"}}
	tests := []struct {
		name string
		g    Gather
		want versionsKnown
	}{
		{"cluster version", Gather{ClusterVersion: "4.14.8", KubernetesVersion: "v1.27.8", Layouts: mg},
			versionsKnown{"OpenShift 4.14.8, Kubernetes v1.27.8", "OpenShift 4.14.8 (Kubernetes v1.27.8)", "4.14.8", "v1.27.8"}},
		{"node sosreport", Gather{KubernetesVersion: "v1.27.8+4fab27b", Distribution: "OpenShift", Layouts: sos},
			versionsKnown{"OpenShift node, Kubernetes v1.27.8+4fab27b (the kubelet's); the cluster version is not in the input: a node sosreport holds no ClusterVersion",
				"OpenShift node, Kubernetes v1.27.8+4fab27b (cluster version not in the input)",
				"not in the input (a node sosreport holds no ClusterVersion)", "v1.27.8+4fab27b (the kubelet's)"}},
		{"inspect without ClusterVersion", Gather{KubernetesVersion: "v1.29.1", Distribution: "OpenShift", Layouts: append(mg, sos...)},
			versionsKnown{"OpenShift, Kubernetes v1.29.1 (the kubelet's); the cluster version is not in the input: no ClusterVersion was gathered",
				"OpenShift, Kubernetes v1.29.1 (cluster version not in the input)",
				"not in the input (no ClusterVersion was gathered)", "v1.29.1 (the kubelet's)"}},
		{"no version at all", Gather{Layouts: sos},
			versionsKnown{"OpenShift node; neither the cluster version nor the Kubernetes version is in the input: a node sosreport holds no ClusterVersion, and no kubelet version was found",
				"OpenShift node (cluster and Kubernetes versions not in the input)",
				"not in the input (a node sosreport holds no ClusterVersion)", "not in the input either"}},
		{"vanilla Kubernetes", Gather{KubernetesVersion: "v1.30.2", Distribution: "Kubernetes"},
			versionsKnown{"Kubernetes v1.30.2 (not OpenShift: commands are kubectl's)", "Kubernetes v1.30.2", "none: not OpenShift", "v1.30.2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, versionWords(tt.g)); diff != "" {
				t.Errorf("versionWords (-want +got):\n%s", diff)
			}
			r := &Report{Gather: tt.g}
			var md, html, term bytes.Buffer
			if err := WriteMarkdown(&md, r, MarkdownOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := WriteHTML(&html, r); err != nil {
				t.Fatal(err)
			}
			if err := WriteTerminal(&term, r, TerminalOptions{}); err != nil {
				t.Fatal(err)
			}
			for name, out := range map[string]string{"md": md.String(), "html": html.String(), "terminal": term.String()} {
				if strings.Contains(out, "OpenShift unknown") {
					t.Errorf("%s says OpenShift unknown", name)
				}
			}
			if !strings.Contains(term.String(), "mgtriage: "+tt.want.Short) {
				t.Errorf("terminal header lacks %q:\n%s", tt.want.Short, term.String())
			}
		})
	}
}
