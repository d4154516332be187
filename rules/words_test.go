package rules

import (
	"strings"
	"testing"

	"github.com/mgtriage/mgtriage/parser/model"
)

// A merged finding names every other pod once, and another container of its
// own pod as such, never as "1 more pod" naming itself.
func TestCoverTextNamesEachPodOnce(t *testing.T) {
	mk := func(name string) *model.Pod {
		p := testPod(t, strings.Replace(imagePullPod, "name: cart}", "name: "+name+"}", 1))
		return p
	}
	a, b := mk("cart-1"), mk("cart-2")
	f := Finding{Pod: a, Container: "cart", groupKey: "registry docker.io (# too many requests)", GroupedBy: "registry docker.io",
		Also: []Member{{Pod: a, Container: "sidecar"}, {Pod: b, Container: "cart"}, {Pod: b, Container: "sidecar"}}}
	got := coverText(&f)
	want := " The same finding covers 1 more pod of the same registry docker.io with the same error: shop/cart-2. It also holds for container sidecar of this pod."
	if got != want {
		t.Errorf("coverText =\n%q, want\n%q", got, want)
	}
}

// The same pod listed twice (two gather roots) gets a rule's finding once.
func TestOneFindingPerRuleAndObject(t *testing.T) {
	p := testPod(t, crashPod)
	q := testPod(t, crashPod)
	q.Object.UID = "uid-catalog-recreated"
	fs := evaluate(t, p, q)
	if got := ruleIDs(fs); len(got) != 1 {
		t.Errorf("findings = %v, want one", got)
	}
}

// Runtime and CLI words follow the gather: Docker's daemon message makes the
// hint say Docker, and a Kubernetes sosreport gets kubectl, journalctl on the
// node and no OpenShift docs.
func TestVocabularyFollowsTheGather(t *testing.T) {
	pod := testPod(t, `
metadata: {name: api}
spec: {nodeName: worker-0, containers: [{name: api, image: "registry.example.com/shop/api:v1"}]}
status:
  phase: Pending
  containerStatuses:
  - name: api
    image: "registry.example.com/shop/api:v1"
    ready: false
    restartCount: 2
    state: {waiting: {reason: RunContainerError, message: 'Error response from daemon: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "/app/serve": stat /app/serve: no such file or directory: unknown'}}
`)
	for _, tt := range []struct {
		name         string
		layouts      []model.Layout
		distribution string
		cli          string
	}{
		{"openshift must-gather", []model.Layout{{Kind: "must-gather"}}, model.DistributionOpenShift, "`oc "},
		{"kubernetes sosreport", []model.Layout{{Kind: "sosreport"}}, model.DistributionKubernetes, "`kubectl "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := &model.Gather{CollectedAt: gatherTime, Pods: []*model.Pod{pod}, KubeletLogNodes: []string{"worker-0"}, Layouts: tt.layouts, Distribution: tt.distribution}
			g.Freeze()
			var f *Finding
			for _, x := range Evaluate(Builtin(), g) {
				if x.Rule.ID == "container-command-not-found" {
					f = &x
				}
			}
			if f == nil {
				t.Fatal("container-command-not-found did not fire")
			}
			if strings.Contains(f.Hint, "CRI-O") || !strings.Contains(f.Hint, "Docker") {
				t.Errorf("hint does not name Docker: %s", f.Hint)
			}
			for _, s := range f.Remediation {
				if strings.Contains(s, "`") && !strings.Contains(s, tt.cli) {
					t.Errorf("remediation %q lacks %s", s, tt.cli)
				}
			}
			for _, d := range f.Docs {
				if tt.cli == "`kubectl " && strings.Contains(d, "openshift.com") {
					t.Errorf("OpenShift docs for a Kubernetes gather: %s", d)
				}
			}
		})
	}
}
