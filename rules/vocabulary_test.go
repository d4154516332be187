package rules

import (
	"testing"

	"github.com/mgtriage/mgtriage/parser/model"
)

func TestVocabulary(t *testing.T) {
	if v := vocabularyFor(&model.Gather{Distribution: model.DistributionOpenShift}); v != nil {
		t.Fatal("an OpenShift gather keeps the table's words")
	}
	v := vocabularyFor(&model.Gather{Distribution: model.DistributionKubernetes, ContainerRuntime: "containerd"})
	for _, tc := range []struct{ in, want string }{
		{"Read it: `oc -n shop logs web-1 -c app --previous`", "Read it: `kubectl -n shop logs web-1 -c app --previous`"},
		{"`oc get nodes --show-labels`", "`kubectl get nodes --show-labels`"},
		{"`oc adm node-logs worker-1 -u kubelet | tail`", "`ssh worker-1 journalctl -u kubelet | tail`"},
		{"`oc debug node/w-1 -- chroot /host crictl ps`", "`kubectl debug node/w-1 -it --image=busybox -- chroot /host crictl ps`"},
		{"`oc adm top pod x` and `oc adm uncordon NODE`", "`kubectl top pod x` and `kubectl uncordon NODE`"},
		{"`oc -n shop adm top pod web --containers`", "`kubectl -n shop top pod web --containers`"},
		{"`oc adm certificate approve <name>`", "`kubectl certificate approve <name>`"},
		{"CRI-O cannot start container web", "containerd cannot start container web"},
		{"`oc adm policy add-scc-to-user anyuid -z default`", "`oc adm policy add-scc-to-user anyuid -z default`"},
		{"the proc of a job", "the proc of a job"},
	} {
		if got := v(tc.in); got != tc.want {
			t.Errorf("%q\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// TestVocabularyApplyKubectl: a finding's remediation on a Kubernetes gather
// gets the same kubectl forms as vocabularyFor gives (oc -n NS adm top is
// kubectl -n NS top, not kubectl -n NS adm top).
func TestVocabularyApplyKubectl(t *testing.T) {
	v := newVocabulary(&model.Gather{Distribution: model.DistributionKubernetes, ContainerRuntime: "containerd"})
	f := &Finding{Rule: &Rule{}, Remediation: []string{"Compare: `oc -n shop adm top pod web --containers`", "Logs: `oc -n shop logs web -c app --previous`"}}
	v.apply(f)
	want := []string{"Compare: `kubectl -n shop top pod web --containers`", "Logs: `kubectl -n shop logs web -c app --previous`"}
	if len(f.Remediation) != len(want) {
		t.Fatalf("remediation %q, want %q", f.Remediation, want)
	}
	for i := range want {
		if f.Remediation[i] != want[i] {
			t.Errorf("step %d: %q, want %q", i, f.Remediation[i], want[i])
		}
	}
}
