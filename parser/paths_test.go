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

// TestSosKubectlLists: the kubernetes plugin's JSON lists of kinds other
// than pods, events and nodes are read as object lists of the kind kubectl
// names (short names resolved, the core group first), per namespace or
// cluster-wide; a name that is no known kind, and kubectl describe output,
// are not.
func TestSosKubectlLists(t *testing.T) {
	const pre = "sos/sos_commands/kubernetes/"
	for _, tc := range []struct {
		path string
		want classified
	}{
		{pre + "pvc/kubectl_--kubeconfig_x_get_-o_json_--namespace_shop_pvc", classified{Kind: kindObjectList, Root: "sos/", Namespace: "shop", Resource: "persistentvolumeclaims"}},
		{pre + "services/kubectl_--kubeconfig_x_get_-o_json_--namespace_kube-system_services", classified{Kind: kindObjectList, Root: "sos/", Namespace: "kube-system", Resource: "services"}},
		{pre + "rc/kubectl_get_-o_json_--namespace_default_rc", classified{Kind: kindObjectList, Root: "sos/", Namespace: "default", Resource: "replicationcontrollers"}},
		{pre + "deployments/kubectl_get_-o_json_--namespace_default_deployments", classified{Kind: kindObjectList, Root: "sos/", Namespace: "default", Group: "apps", Resource: "deployments"}},
		{pre + "kubectl_get_-o_json_pv", classified{Kind: kindObjectList, Root: "sos/", Resource: "persistentvolumes"}},
		{pre + "kubectl_get_-o_json_--namespace_default_pods", classified{Kind: kindPodList, Root: "sos/", Namespace: "default"}},
		{pre + "kubectl_get_-o_json_nodes", classified{Kind: kindNodeList, Root: "sos/"}},
		{pre + "policies/kubectl_get_-o_json_--namespace_default_policies", classified{Kind: kindOther}},
		{pre + "services/kubectl_--namespace_default_describe_services_kubernetes", classified{Kind: kindOther}},
	} {
		if d := cmp.Diff(tc.want, classify(tc.path, nil), cmp.AllowUnexported(classified{})); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.path, d)
		}
		for i, r := range pathRules {
			if d := cmp.Diff(r.re.FindStringSubmatch(tc.path), pathSet.Match(i, tc.path)); d != "" {
				t.Errorf("%q, rule %d: Match differs from the pattern (-want +got):\n%s", tc.path, i, d)
			}
		}
	}
}
