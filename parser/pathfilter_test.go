package parser

import (
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
