package parser

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSosRulesSameAsPattern checks the fast matcher of the sosreport's path
// rules against the patterns, and that every path the tests classify by
// them is classified.
func TestSosRulesSameAsPattern(t *testing.T) {
	for _, p := range []string{
		"sos/sos_commands/kubernetes/cluster-info/kubectl_--kubeconfig_x_get_-o_json_--namespace_kube-system_pods",
		"sos/sos_commands/logs/journalctl_--no-pager_--unit_kubelet", "sos/sos_commands/logs/journalctl_--no-pager_--unit_kubelet.xz",
		"sos/sos_commands/host/hostname", "hostname", "date", "x/date", "sos_commands/sos_commands/date/date",
		"sos/sos_commands/crio/crictl_inspect_0123456789ab", "", "/", "//",
	} {
		for i, r := range pathRules {
			if d := cmp.Diff(r.re.FindStringSubmatch(p), pathSet.Match(i, p)); d != "" {
				t.Errorf("%q, rule %d (%s): Match differs from the pattern (-want +got):\n%s", p, i, r.re, d)
			}
		}
	}
	for _, p := range []string{"sos/sos_commands/kubernetes/cluster-info/kubectl_--kubeconfig_x_get_-o_json_--namespace_kube-system_pods",
		"sos/sos_commands/logs/journalctl_--no-pager_--unit_kubelet", "sos/sos_commands/host/hostname", "date",
		"img/namespaces/shop/core/pods.yaml", "timestamp"} {
		if classify(p, nil).Kind == kindOther {
			t.Errorf("%s: not classified", p)
		}
	}
}
