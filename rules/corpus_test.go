package rules

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mgtriage/mgtriage/parser"
	"github.com/mgtriage/mgtriage/parser/model"
)

// TestHealthyCorpusRaisesNothingOnHealthyPods checks, on the real gathers of
// ../shared/corpus (skipped when absent), that no finding above low is
// raised for a pod that is Running and ready with no restarts, or Completed.
func TestHealthyCorpusRaisesNothingOnHealthyPods(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus tests skipped with -short")
	}
	for _, name := range corpusGathers {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("..", "..", "shared", "corpus", name)
			if _, err := os.Stat(dir); err != nil {
				t.Skipf("corpus %s not present", name)
			}
			g, err := parser.Load(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			fs := Evaluate(Builtin(), g)
			for _, f := range fs {
				pods := []*model.Pod{f.Pod}
				for _, m := range f.Also {
					pods = append(pods, m.Pod)
				}
				for _, p := range pods {
					if p == nil || severityRank(f.Severity) > severityRank("medium") {
						continue
					}
					healthy := (p.Columns.Status == "Running" && p.Columns.ReadyContainers == p.Columns.TotalContainers && p.Columns.RestartCount == 0) ||
						p.Columns.Status == "Completed"
					if healthy {
						t.Errorf("%s (%s) raised on healthy pod %s (%s %s %s)", f.Rule.ID, f.Severity, p.Key(), p.Columns.Ready, p.Columns.Status, p.Columns.Restarts)
					}
				}
			}
			t.Logf("%s: %d findings", name, len(fs))
		})
	}
}

// corpusGathers are the gathers of ../shared/corpus the rule tests read.
var corpusGathers = []string{"mg-metal-ocp49", "mg-aws-ocp48", "mg-fragment-ocp418", "insights-archive-sample",
	"sos-ubuntu-k8s123", "k8s-failing-pods/analyze-files", "k8s-failing-pods/k3s-support-bundle"}

// openShiftAdvice matches words of advice that only OpenShift has: its CLI,
// MachineSets, the cluster-wide pull secret, SCCs, OpenShift namespaces.
var openShiftAdvice = regexp.MustCompile("(?i)(^|[\\s`(\"'])oc\\s|machineset|cluster pull secret|\\bsccs?\\b|securitycontextconstraints|openshift-config|machineconfigpool|docs\\.openshift\\.com")

// TestKubernetesCorpusNoOpenShiftAdvice: on the plain Kubernetes gathers of
// ../shared/corpus (a node sosreport, pod captures, a k3s support bundle;
// skipped when absent) no finding's title, hint, remediation or docs gives
// OpenShift-only advice.
func TestKubernetesCorpusNoOpenShiftAdvice(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus tests skipped with -short")
	}
	for _, name := range []string{"sos-ubuntu-k8s123", "k8s-failing-pods/analyze-files", "k8s-failing-pods/k3s-support-bundle"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("..", "..", "shared", "corpus", name)
			if _, err := os.Stat(dir); err != nil {
				t.Skipf("corpus %s not present", name)
			}
			g, err := parser.Load(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			fs := Evaluate(Builtin(), g)
			for _, f := range fs {
				for _, s := range append(append([]string{f.Title, f.Hint}, f.Remediation...), f.Docs...) {
					if m := openShiftAdvice.FindString(s); m != "" {
						t.Errorf("%s on %s gives OpenShift-only advice (%q): %s", f.Rule.ID, f.Subject(), strings.TrimSpace(m), s)
					}
				}
			}
			t.Logf("%s: %d findings, none with OpenShift-only advice", name, len(fs))
		})
	}
}
