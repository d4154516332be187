package parser

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRequiredLiterals(t *testing.T) {
	tests := []struct {
		re   string
		want []string
	}{
		{`^(.*/)?namespaces/([^/]+)/core/pods\.(?:yaml|json)$`, []string{"namespaces/", "/core/pods."}},
		{`^(.*/)?(?:sos_commands/host/)?hostname$`, []string{"hostname"}},
		{`(?i)kubelet`, nil},
		{`a|b`, nil},
		{`^x(y)z$`, []string{"x", "y", "z"}},
	}
	for _, tt := range tests {
		t.Run(tt.re, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, requiredLiterals(regexp.MustCompile(tt.re))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestPathLiteralsNeverBlind checks, on the paths the tests classify, that
// every path a rule's pattern matches contains the rule's literals.
func TestPathLiteralsNeverBlind(t *testing.T) {
	paths := []string{
		"must-gather.local.1/img/namespaces/shop/core/pods.yaml",
		"namespaces/shop/core/events.json",
		"img/namespaces/shop/pods/a-1/a-1.yaml",
		"img/namespaces/shop/pods/a-1/c/c/logs/previous.insecure.log",
		"img/cluster-scoped-resources/core/nodes/n1.yaml",
		"cluster-scoped-resources/core/nodes.json",
		"img/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml",
		"img/host_service_logs/masters/kubelet_service.log.gz",
		"img/nodes/n1/n1_kubelet.gz",
		"timestamp", "img/version", "must-gather.logs",
		"sos/sos_commands/kubernetes/cluster-info/kubectl_--kubeconfig_x_get_-o_json_--namespace_kube-system_pods",
		"sos/sos_commands/logs/journalctl_--no-pager_--unit_kubelet", "sos/sos_commands/host/hostname", "date",
	}
	for _, p := range paths {
		for i, r := range pathRules {
			if r.re.MatchString(p) && !containsAll(p, pathLiterals[i]) {
				t.Errorf("%s matches %s but lacks one of %q", p, r.re, pathLiterals[i])
			}
		}
		if classify(p).Kind == kindOther {
			t.Errorf("%s: not classified", p)
		}
	}
}

// sameMatches fails t when matchRule differs from the rule's whole pattern
// on p for any rule.
func sameMatches(t *testing.T, p string) {
	t.Helper()
	for i, r := range pathRules {
		if d := cmp.Diff(r.re.FindStringSubmatch(p), matchRule(i, p)); d != "" {
			t.Errorf("%q, rule %d (%s): matchRule differs from the pattern (-want +got):\n%s", p, i, r.re, d)
		}
	}
}

// TestMatchRuleSameAsPattern checks the tail matcher against the patterns on
// paths with repeated and nested anchors (a root that itself holds
// "namespaces/", a namespace called "namespaces"), and that most rules have
// a tail (else classify's speed is gone).
func TestMatchRuleSameAsPattern(t *testing.T) {
	for _, p := range []string{
		"must-gather.local.1/img/namespaces/shop/core/pods.yaml",
		"a/namespaces/namespaces/core/pods.yaml",
		"namespaces/x/namespaces/y/core/events.yaml",
		"img/namespaces/shop/pods/a-1/a-1.yaml",
		"img/namespaces/shop/pods/a-1/c/c/logs/previous.insecure.log",
		"x/namespaces/a/pods/namespaces/b/pods/p/p.yaml",
		"img/cluster-scoped-resources/core/nodes/n1.yaml",
		"cluster-scoped-resources/cluster-scoped-resources/core/nodes.yaml",
		"img/nodes/n1/n1_kubelet.gz", "nodes/nodes/kubelet",
		"timestamp", "a/timestamp", "/timestamp", "a//timestamp", "", "/", "//",
		"sos/sos_commands/crio/crictl_inspect_0123456789ab",
		"sos/sos_commands/logs/journalctl_--no-pager_--unit_kubelet", "sos/sos_commands/host/hostname", "hostname", "x/date",
		"img/namespaces/shop/apps/deployments.yaml", "img/namespaces/shop/apps/deployments/web.yaml",
		"img/cluster-scoped-resources/machineconfiguration.openshift.io/kubeletconfigs/x.yaml",
		// Segment edge cases: an extension alone, both extensions, empty folders, the insecure logs.
		"namespaces/a/.yaml", "namespaces/a/b.yaml.json", "namespaces//b.yaml", "namespaces/a/b/.json",
		"namespaces/a/pods/p/c/c/logs/current.insecure.log", "namespaces/a/pods/p/c/c/logs/previous.log.log",
		"namespaces/a/pods/p/c//logs/current.log", "namespaces/a/pods/p/c/c/logs/", "namespaces/a/pods/p/p.yaml/",
		"cluster-scoped-resources/x/y.yaml", "cluster-scoped-resources/x/y/z.json", "cluster-scoped-resources/x/y/z/w.yaml",
		"namespaces/a\n/b\xff/c.yaml",
	} {
		sameMatches(t, p)
	}
	tails := 0
	for _, tl := range pathTails {
		if tl != nil {
			tails++
		}
	}
	if tails < len(pathRules)*3/4 {
		t.Errorf("only %d of %d path rules have a tail matcher", tails, len(pathRules))
	}
	// Every segment form names a rule's tail: a pattern edited without its
	// segments would quietly go back to the engine.
	used := map[string]bool{}
	for i, tl := range pathTails {
		if tl != nil && tl.segs != nil {
			used[pathRules[i].re.String()[len(rootPrefix):]] = true
		}
	}
	for src := range segmentTails {
		if !used[src] {
			t.Errorf("segmentTails has %q, the tail of no rule", src)
		}
	}
}

// TestMatchRuleCorpus compares the tail matcher with the patterns on every
// file path of the shared corpus.
func TestMatchRuleCorpus(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("corpus absent: %v", err)
	}
	n := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			sameMatches(t, filepath.ToSlash(rel))
			n++
		}
		return nil
	})
	t.Logf("%d corpus paths", n)
}

func FuzzMatchRule(f *testing.F) {
	f.Add("must-gather.local.1/img/namespaces/shop/core/pods.yaml")
	f.Add("a/namespaces/namespaces/pods/p/c/c/logs/current.log")
	f.Add("sos/sos_commands/logs/journalctl_--no-pager_--unit_kubelet.xz")
	f.Fuzz(func(t *testing.T, p string) {
		if len(p) > 4096 {
			return
		}
		sameMatches(t, p)
	})
}

// BenchmarkClassify classifies every file path of the corpus metal gather
// (skipped when absent), the member classification every pass makes.
func BenchmarkClassify(b *testing.B) {
	root := filepath.Join("..", "..", "shared", "corpus", "mg-metal-ocp49")
	var paths []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	if len(paths) == 0 {
		b.Skip("corpus absent")
	}
	b.ReportMetric(float64(len(paths)), "paths/op")
	for b.Loop() {
		for _, p := range paths {
			classify(p)
		}
	}
}
