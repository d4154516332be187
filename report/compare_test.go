package report

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func snap(path string, at time.Time) *Snapshot {
	return &Snapshot{Path: path, CollectedAt: at, NodeUIDs: map[string]string{}, NamespaceUIDs: map[string]string{},
		Pods: map[string]*SnapPod{}, Nodes: map[string]*SnapNode{}, Operators: map[string]SnapOperator{},
		Pools: map[string]SnapPool{}, Config: map[string]ConfigItem{}, Gathered: map[string]bool{}}
}

func snapF(rule, sev, subject, scope string) SnapFinding {
	return SnapFinding{Finding: Finding{RuleID: rule, Severity: sev, Title: rule}, Subject: subject, Scope: scope, Namespace: "shop", Workload: subject}
}

var t0 = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func TestSameCluster(t *testing.T) {
	cases := []struct {
		name          string
		a, b          func(*Snapshot)
		wantBy        string
		wantRefuseSub string
	}{
		{"cluster ID", func(s *Snapshot) { s.ClusterID = "c1" }, func(s *Snapshot) { s.ClusterID = "c1" }, "cluster ID", ""},
		{"other cluster ID", func(s *Snapshot) { s.ClusterID = "c1" }, func(s *Snapshot) { s.ClusterID = "c2" }, "", "is cluster c2"},
		{"node UIDs when one has no cluster ID", func(s *Snapshot) { s.ClusterID = "c1"; s.NodeUIDs["w1"] = "u1" }, func(s *Snapshot) { s.NodeUIDs["w1"] = "u1" }, "node UIDs", ""},
		{"namespace UIDs", func(s *Snapshot) { s.NamespaceUIDs["kube-system"] = "n1" }, func(s *Snapshot) { s.NamespaceUIDs["kube-system"] = "n1" }, "namespace UIDs", ""},
		{"namespaces of the same name, other UIDs", func(s *Snapshot) { s.NamespaceUIDs["kube-system"] = "n1" }, func(s *Snapshot) { s.NamespaceUIDs["kube-system"] = "n2" }, "", "1 namespace of the same name with a different UID (kube-system)"},
		{"no node name in common", func(s *Snapshot) { s.NodeUIDs["a-1"] = "u1" }, func(s *Snapshot) { s.NodeUIDs["b-1"] = "u2" }, "", "no node name in common (a-1; b-1)"},
		{"nodes re-created under the same names", func(s *Snapshot) { s.NodeUIDs["w1"] = "u1" }, func(s *Snapshot) { s.NodeUIDs["w1"] = "u2" }, "not verified", ""},
		{"nothing to compare", func(*Snapshot) {}, func(*Snapshot) {}, "not verified", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, b := snap("old.tar.gz", t0), snap("new.tar.gz", t0.Add(time.Hour))
			c.a(a)
			c.b(b)
			d, err := Compare(a, b, Tool{}, RuleTable{})
			if c.wantRefuseSub != "" {
				var m *ClusterMismatchError
				if !errors.As(err, &m) || !strings.Contains(err.Error(), c.wantRefuseSub) || !strings.Contains(err.Error(), "old.tar.gz") || !strings.Contains(err.Error(), "new.tar.gz") {
					t.Fatalf("want a refusal naming both gathers with %q, got %v", c.wantRefuseSub, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.SameCluster != c.wantBy {
				t.Errorf("same cluster by %q, want %q", d.SameCluster, c.wantBy)
			}
		})
	}
}

func TestCompareFindingStates(t *testing.T) {
	a, b := snap("old", t0), snap("new", t0.Add(2*time.Hour))
	for _, s := range []*Snapshot{a, b} {
		s.ClusterID = "c1"
		s.Gathered["pods/shop"] = true
	}
	still := snapF("crashloop-back-off", "high", "Deployment/shop/api", "pods/shop")
	// Evidence an hour before OLD is not when the failure began: the two
	// gathers, two hours apart, are all that is known.
	still.Finding.Evidence = []Evidence{{Time: timePtr(t0.Add(-time.Hour)), Text: "Back-off restarting failed container"}}
	a.Findings = []SnapFinding{
		still,
		snapF("image-pull-back-off", "high", "Deployment/shop/web", "pods/shop"), // → another cause in NEW
		snapF("pending-unschedulable", "medium", "Deployment/shop/db", "pods/shop"),
		snapF("container-oom-killed", "high", "Deployment/shop/gone", "pods/shop"),
		snapF("node-not-ready", "critical", "node/w1", "nodes"), // NEW gathered no nodes
	}
	b.Findings = []SnapFinding{
		snapF("crashloop-back-off", "high", "Deployment/shop/api", "pods/shop"),
		snapF("crashloop-back-off", "high", "Deployment/shop/web", "pods/shop"),
		snapF("pending-unschedulable", "high", "Deployment/shop/db", "pods/shop"),
		snapF("crashloop-back-off", "high", "Deployment/infra/agent", "pods/infra"), // OLD gathered no pods in infra
		snapF("crashloop-back-off", "high", "Deployment/shop/cart", "pods/shop"),
	}
	a.Gathered["nodes"] = true
	b.Config["Workload images Deployment/shop/cart"] = ConfigItem{Kind: "Workload images", Ref: "Deployment/shop/cart", Scope: []string{"workload:Deployment/shop/cart"}, Digest: "x:2", Summary: "x:2"}
	a.Config["Workload images Deployment/shop/cart"] = ConfigItem{Kind: "Workload images", Ref: "Deployment/shop/cart", Scope: []string{"workload:Deployment/shop/cart"}, Digest: "x:1", Summary: "x:1"}
	a.Gathered["networkpolicies.networking.k8s.io/shop"] = true
	b.Config["NetworkPolicy networkpolicy/shop/deny-all"] = ConfigItem{List: "networkpolicies.networking.k8s.io/shop", Kind: "NetworkPolicy", Ref: "networkpolicy/shop/deny-all", Scope: []string{"ns:shop"}, Digest: "d", Summary: "policyTypes Egress"}
	d, err := Compare(a, b, Tool{}, RuleTable{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range d.Findings {
		got = append(got, f.State+" "+f.RuleID+" "+f.Subject+" "+f.Why)
	}
	want := []string{
		"new crashloop-back-off Deployment/shop/cart ",
		"changed crashloop-back-off Deployment/shop/web cause image-pull-back-off → crashloop-back-off",
		"changed pending-unschedulable Deployment/shop/db severity medium → high",
		"still-failing crashloop-back-off Deployment/shop/api ",
		"resolved container-oom-killed Deployment/shop/gone ",
		"not-comparable node-not-ready node/w1 nodes were not gathered in NEW",
		"not-comparable crashloop-back-off Deployment/infra/agent the pods of namespace infra were not gathered in OLD",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("states (-want +got):\n%s", diff)
	}
	var cfg []string
	for _, c := range d.Findings[0].Config {
		cfg = append(cfg, configLine(c))
	}
	wantCfg := []string{"NetworkPolicy networkpolicy/shop/deny-all added (policyTypes Egress)", "Workload images Deployment/shop/cart changed: x:1 → x:2"}
	if diff := cmp.Diff(wantCfg, cfg); diff != "" {
		t.Errorf("config on the new finding's chain (-want +got):\n%s", diff)
	}
	if f := d.Findings[3]; f.FailingSeconds != int64(2*time.Hour/time.Second) || f.Since == nil || !f.Since.Equal(t0) {
		t.Errorf("still failing since %v for %ds, want OLD's gather time %v and the 2h between the gathers", f.Since, f.FailingSeconds, t0)
	}
	if d.SameCollection {
		t.Errorf("gathers 2h apart are said to be the same collection")
	}
}

func TestComparePodsAndRestarts(t *testing.T) {
	a, b := snap("old", t0), snap("new", t0.Add(4*time.Hour))
	b.Gathered["pods/shop"], a.Gathered["pods/shop"] = true, true
	pod := func(name, uid, workload, status string, healthy bool, restarts int32) *SnapPod {
		return &SnapPod{Namespace: "shop", Name: name, UID: uid, Workload: workload, Status: status, Healthy: healthy, Restarts: map[string]int32{"app": restarts}}
	}
	a.Pods["shop/q-0"] = pod("q-0", "u1", "pod/shop/q-0", "Running", true, 2)
	b.Pods["shop/q-0"] = pod("q-0", "u1", "pod/shop/q-0", "Running", true, 10)
	a.Pods["shop/lost"] = pod("lost", "u2", "pod/shop/lost", "Running", true, 0)
	a.Pods["shop/api-1"] = pod("api-1", "u3", "Deployment/shop/api", "Running", true, 0)
	b.Pods["shop/api-2"] = pod("api-2", "u4", "Deployment/shop/api", "Error", false, 0)
	d, err := Compare(a, b, Tool{}, RuleTable{})
	if err != nil {
		t.Fatal(err)
	}
	want := []RestartChange{{Namespace: "shop", Pod: "q-0", Container: "app", Old: 2, New: 10, Delta: 8, PerHour: 2, Status: "Running"}}
	if diff := cmp.Diff(want, d.Pods.Restarts); diff != "" {
		t.Errorf("restarts (-want +got):\n%s", diff)
	}
	if len(d.Pods.Gone) != 1 || d.Pods.Gone[0].OldPod != "lost" {
		t.Errorf("gone: %+v", d.Pods.Gone)
	}
	if len(d.Pods.Replaced) != 1 || len(d.Pods.NewlyUnhealthy) != 1 || d.Pods.NewlyUnhealthy[0].NewPod != "api-2" {
		t.Errorf("replaced %+v, newly unhealthy %+v", d.Pods.Replaced, d.Pods.NewlyUnhealthy)
	}
}

// TestDiffWritersEscape: strings from a gather reach Markdown and HTML
// escaped, and the HTML page loads nothing from the network.
func TestDiffWritersEscape(t *testing.T) {
	a, b := snap("old", t0), snap("new", t0.Add(time.Hour))
	a.Gathered["pods/shop"] = true
	evil := `<script>alert(1)</script>](http://x)|*`
	f := snapF("crashloop-back-off", "high", "Deployment/shop/"+evil, "pods/shop")
	f.Finding.Hint = evil
	f.Finding.Evidence = []Evidence{{Path: "p.yaml", Line: 3, Kind: "status", Text: evil + "\n```"}}
	b.Findings = []SnapFinding{f}
	b.Events = []SnapEvent{{Type: "Warning", Reason: evil, Object: "Pod/shop/" + evil, When: t0.Add(time.Minute), Count: 1}}
	d, err := Compare(a, b, Tool{}, RuleTable{})
	if err != nil {
		t.Fatal(err)
	}
	var md, html bytes.Buffer
	if err := WriteDiffMarkdown(&md, d); err != nil {
		t.Fatal(err)
	}
	if err := WriteDiffHTML(&html, d); err != nil {
		t.Fatal(err)
	}
	checkHTMLContentSecurityPolicy(t, html.String())
	for _, bad := range []string{"<script>", "| *"} {
		if !inFence(md.String(), bad) {
			t.Errorf("markdown holds %q unescaped", bad)
		}
	}
	if strings.Count(md.String(), "](http://x)") != strings.Count(md.String(), "\\](http://x)")+fencedCount(md.String(), "](http://x)") {
		t.Errorf("markdown holds a link unescaped:\n%s", md.String())
	}
	if strings.Contains(html.String(), "<script>alert") || !strings.Contains(html.String(), "&lt;script&gt;alert") {
		t.Errorf("html holds the hostile text unescaped")
	}
	for _, net := range []string{"<link", "src=\"http", "@import", "<script"} {
		if strings.Contains(html.String(), net) {
			t.Errorf("html holds %q", net)
		}
	}
	if !strings.Contains(html.String(), "--critical:") {
		t.Error("html lacks the analyze report's style sheet")
	}
}

// inFence reports whether every occurrence of s in md is inside a fenced block.
func inFence(md, s string) bool {
	in := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			in = !in
			continue
		}
		if strings.Contains(line, s) && !in {
			return false
		}
	}
	return true
}

// fencedCount counts the occurrences of s inside fenced blocks of md.
func fencedCount(md, s string) int {
	in, n := false, 0
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			in = !in
			continue
		}
		if in {
			n += strings.Count(line, s)
		}
	}
	return n
}

// FuzzDiffWriters feeds arbitrary gather strings (subject, hint, evidence,
// event reason, node name) through Compare and both writers: no panic, and
// no raw markup of the input reaches the HTML.
func FuzzDiffWriters(f *testing.F) {
	f.Add("Deployment/shop/cart", "hint", "evidence\n```", "BackOff", "worker-1")
	f.Add("<img src=x onerror=alert(1)>", "]]><!--", "\x1b[31m\u202e", "<b>", "</style><script>")
	f.Fuzz(func(t *testing.T, subject, hint, text, reason, node string) {
		// Markers around each string find it in the page: the template's
		// own markup never sits between them (a marker in front only is
		// fooled when the writer drops the rest, such as terminal escapes,
		// and the template's "</td>" follows).
		subject, hint, text, reason, node = "ZQ"+subject+"QZ", "ZQ"+hint+"QZ", "ZQ"+text+"QZ", "ZQ"+reason+"QZ", "ZQ"+node+"QZ"
		a, b := snap("old", t0), snap("new", t0.Add(time.Hour))
		a.Gathered["pods/shop"], b.Gathered["pods/shop"] = true, true
		sf := snapF("crashloop-back-off", "high", subject, "pods/shop")
		sf.Finding.Hint = hint
		sf.Finding.Evidence = []Evidence{{Path: text, Kind: "event", Text: text}}
		b.Findings = []SnapFinding{sf}
		a.Nodes[node] = &SnapNode{Name: node, Ready: "False"}
		b.Nodes[node] = &SnapNode{Name: node, Ready: "True", Taints: []string{hint}}
		b.Events = []SnapEvent{{Type: "Warning", Reason: reason, Object: "Pod/shop/" + subject, When: t0.Add(time.Minute), Count: 1}}
		d, err := Compare(a, b, Tool{}, RuleTable{})
		if err != nil {
			t.Fatal(err)
		}
		var md, html, js bytes.Buffer
		if err := WriteDiffMarkdown(&md, d); err != nil {
			t.Fatal(err)
		}
		if err := WriteDiffHTML(&html, d); err != nil {
			t.Fatal(err)
		}
		if err := WriteDiffJSON(&js, d); err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{subject, hint, text, reason, node} {
			if strings.ContainsAny(s, "<>") && strings.Contains(html.String(), s) {
				t.Errorf("html holds %q unescaped", s)
			}
		}
	})
}

// TestDiffPlurals: every count of the diff views takes the singular with 1
// and the plural otherwise, in the cards, the OLD/NEW lines and the closing
// lines of a section.
func TestDiffPlurals(t *testing.T) {
	d := &Diff{
		Old:     DiffSide{Path: "old", Findings: 1, Pods: 1},
		New:     DiffSide{Path: "new", Findings: 2, Pods: 3},
		Summary: DiffSummary{New: 1, Changed: 1, StillFailing: 2, Resolved: 0, NewlyUnhealthy: 1, Recovered: 2, Restarted: 1, WarningEvents: 2},
		Pods:    PodChanges{Appeared: 1, CompletedGone: 2},
	}
	var md, html bytes.Buffer
	if err := WriteDiffMarkdown(&md, d); err != nil {
		t.Fatal(err)
	}
	if err := WriteDiffHTML(&html, d); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"(1 finding, 1 pod)", "(2 findings, 3 pods)",
		"1 healthy pod appeared; 2 completed pods (installer, pruner, Job runs) left.",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("diff.md lacks %q", want)
		}
	}
	for _, want := range []string{
		"1 finding, 1 pod</dd>", "2 findings, 3 pods</dd>",
		"<b>1</b>new finding</div>", "<b>1</b>pod newly unhealthy</div>", "<b>2</b>pods recovered</div>",
		"<b>1</b>container restarted</div>", "<b>2</b>warning events since OLD</div>",
		"1 healthy pod appeared; 2 completed pods (installer, pruner, Job runs) left.",
	} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("diff.html lacks %q", want)
		}
	}
	for name, out := range map[string]string{"diff.md": md.String(), "diff.html": html.String()} {
		if m := regexp.MustCompile(`\b1</b>[a-z ]*s\b[^a-z]|\b1 [a-z]+s\b|[a-z]\(s\)`).FindString(out); m != "" && !strings.Contains(m, "1 of") {
			t.Errorf("%s has a plural after 1 or a (s): %q", name, m)
		}
	}
}

// FuzzReadDiffJSON: any bytes given to render --from are told apart (report,
// diff or neither) without a panic, and a diff that decodes renders in each
// format.
func FuzzReadDiffJSON(f *testing.F) {
	f.Add([]byte(`{"schemaVersion":1,"old":{"path":"a","findings":1},"new":{"path":"b"},"sameCluster":"cluster ID","swapped":true,"notes":["n"]}`))
	f.Add([]byte(`{"schemaVersion":1,"gather":{"files":3}}`))
	f.Add([]byte(`{"old":{},"new":{},"sameCluster":"x","findings":[{"state":"new","old":null,"new":{"ruleID":"r","evidence":[{"path":"p","line":1,"text":"<b>"}]}}]}`))
	f.Add([]byte(`[1,2`))
	f.Fuzz(func(t *testing.T, b []byte) {
		kind, why := JSONKind(b)
		if (kind == "") == (why == "") {
			t.Fatalf("JSONKind = %q, %q: exactly one of them must be set", kind, why)
		}
		if kind != KindDiff {
			return
		}
		d, err := ReadDiffJSON(bytes.NewReader(b))
		if err != nil {
			_ = JSONErrorText(err)
			return
		}
		for _, w := range []func(io.Writer, *Diff) error{WriteDiffMarkdown, WriteDiffHTML, WriteDiffJSON} {
			if err := w(io.Discard, d); err != nil {
				t.Fatalf("a diff that decodes does not render: %v", err)
			}
		}
	})
}

// TestCompareSameCollection: one collection given twice (a folder and its
// own archive) is said to be the same collection in every format, and no
// duration is given, whatever the findings' evidence times.
func TestCompareSameCollection(t *testing.T) {
	a, b := snap("must-gather.local.1", t0), snap("must-gather.local.1.tar.gz", t0)
	for _, s := range []*Snapshot{a, b} {
		s.ClusterID = "c1"
		s.Gathered["pods/shop"] = true
		f := snapF("container-restarted", "low", "Pod/shop/queue-0", "pods/shop")
		f.Finding.Evidence = []Evidence{{Time: timePtr(t0.Add(-31 * time.Minute)), Text: "lastState terminated exitCode 137"}}
		s.Findings = []SnapFinding{f}
		s.Pods["shop/queue-0"] = &SnapPod{Namespace: "shop", Name: "queue-0", UID: "u1", Workload: "pod/shop/queue-0", Status: "Running", Ready: "1/1", Healthy: true, Restarts: map[string]int32{"app": 3}}
	}
	d, err := Compare(a, b, Tool{}, RuleTable{})
	if err != nil {
		t.Fatal(err)
	}
	if !d.SameCollection || d.IntervalSeconds != 0 {
		t.Errorf("same collection %v, interval %ds; want true, 0", d.SameCollection, d.IntervalSeconds)
	}
	for _, f := range d.Findings {
		if f.FailingSeconds != 0 || f.Since != nil {
			t.Errorf("%s %s: a duration (%ds since %v) between two copies of one collection", f.State, f.RuleID, f.FailingSeconds, f.Since)
		}
	}
	for name, w := range map[string]func(io.Writer, *Diff) error{"md": WriteDiffMarkdown, "html": WriteDiffHTML, "json": WriteDiffJSON} {
		var buf bytes.Buffer
		if err := w(&buf, d); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if !strings.Contains(out, "the same collection") {
			t.Errorf("%s does not say the same collection:\n%s", name, out)
		}
		for _, bad := range []string{"failing for", "fired in both", "Fired in both", "31m", "failingSeconds", `"since"`} {
			if strings.Contains(out, bad) {
				t.Errorf("%s holds %q: a duration two copies of one collection cannot show", name, bad)
			}
		}
	}
}
