package sosreport

import (
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/model"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const parisDir = "../../fixtures/sos/k8s-control-plane-paris/sosreport-cp-1-2025-03-04-xkqzvbn/"

// nodeSummary is what the tests compare of a Node.
type nodeSummary struct {
	Name, Ready, ReadyReason, Kubelet, OS, Runtime string
	Roles                                          []string
	Unschedulable                                  bool
	Created, Heartbeat                             time.Time
	Line                                           int
}

func summarize(n model.Node) nodeSummary {
	s := nodeSummary{Name: n.Object.Name, Kubelet: n.Object.Status.NodeInfo.KubeletVersion, OS: n.Object.Status.NodeInfo.OSImage,
		Runtime: n.Object.Status.NodeInfo.ContainerRuntimeVersion, Unschedulable: n.Object.Spec.Unschedulable,
		Created: n.Object.CreationTimestamp.Time, Line: n.Source.Line}
	for k := range n.Object.Labels {
		if len(k) > len(roleLabelPrefix) && k[:len(roleLabelPrefix)] == roleLabelPrefix {
			s.Roles = append(s.Roles, k[len(roleLabelPrefix):])
		}
	}
	for _, c := range n.Object.Status.Conditions {
		if c.Type == corev1.NodeReady {
			s.Ready, s.ReadyReason, s.Heartbeat = string(c.Status), c.Reason, c.LastHeartbeatTime.Time
		}
	}
	return s
}

func TestParseNodeTable(t *testing.T) {
	now := time.Date(2025, 3, 4, 9, 15, 0, 0, time.UTC)
	data, err := os.ReadFile(parisDir + "sos_commands/kubernetes/cluster-info/kubectl_get_nodes")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseNodeTable(data, "p", now)
	if err != nil {
		t.Fatal(err)
	}
	var sums []nodeSummary
	for _, n := range got {
		sums = append(sums, summarize(n))
	}
	want := []nodeSummary{
		{Name: "cp-1.lab.example.test", Ready: "True", Kubelet: "v1.29.4", Roles: []string{"control-plane"}, Unschedulable: true, Created: now.Add(-412 * 24 * time.Hour), Line: 2},
		{Name: "wk-1.lab.example.test", Ready: "False", Kubelet: "v1.29.4", Roles: []string{"worker"}, Created: now.Add(-412 * 24 * time.Hour), Line: 3},
		{Name: "wk-2.lab.example.test", Ready: "True", Kubelet: "v1.29.4", Roles: []string{"worker"}, Created: now.Add(-3*time.Hour - 4*time.Minute), Line: 4},
	}
	if d := cmp.Diff(want, sums); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}

	// -o wide: the addresses, OS image (with spaces), kernel and runtime;
	// no date: no creation time.
	wide := "NAME     STATUS    ROLES    AGE   VERSION   INTERNAL-IP   EXTERNAL-IP   OS-IMAGE                                                KERNEL-VERSION                 CONTAINER-RUNTIME\n" +
		"node-a   Unknown   <none>   45d   v1.27.8   192.0.2.7     <none>        Red Hat Enterprise Linux CoreOS 414.92.202402130420-0   5.14.0-284.52.1.el9_2.x86_64   cri-o://1.27.3-6.rhaos4.14.git7eb2281.el9\n"
	got, err = ParseNodeTable([]byte(wide), "w", time.Time{})
	if err != nil || len(got) != 1 {
		t.Fatalf("%v %v", got, err)
	}
	o := got[0].Object
	if o.Status.NodeInfo.OSImage != "Red Hat Enterprise Linux CoreOS 414.92.202402130420-0" || o.Status.NodeInfo.KernelVersion != "5.14.0-284.52.1.el9_2.x86_64" ||
		o.Status.NodeInfo.ContainerRuntimeVersion != "cri-o://1.27.3-6.rhaos4.14.git7eb2281.el9" || !o.CreationTimestamp.IsZero() ||
		!cmp.Equal(o.Status.Addresses, []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "192.0.2.7"}}) ||
		len(o.Status.Conditions) != 1 || o.Status.Conditions[0].Status != corev1.ConditionUnknown || len(o.Labels) != 0 {
		t.Errorf("wide row %+v", o)
	}
	for _, bad := range []string{"", "no table\n", "NAME STATUS\nx Ready\n"} {
		if _, err := ParseNodeTable([]byte(bad), "b", now); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

func TestParseKubectlAge(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"10s", 10 * time.Second, true},
		{"6m31s", 6*time.Minute + 31*time.Second, true},
		{"3h4m", 3*time.Hour + 4*time.Minute, true},
		{"45d", 45 * 24 * time.Hour, true},
		{"2y45d", (2*365 + 45) * 24 * time.Hour, true},
		{"9999y", 0, false},
		{"99999999999999999d", 0, false},
		{"<unknown>", 0, false},
		{"", 0, false},
		{"5 days", 0, false},
	} {
		got, ok := parseKubectlAge(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("%q: %v %v, want %v %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestParseNodeDescribe(t *testing.T) {
	data, err := os.ReadFile(parisDir + "sos_commands/kubernetes/cluster-info/kubectl_describe_node_wk-1.lab.example.test")
	if err != nil {
		t.Fatal(err)
	}
	n, err := ParseNodeDescribe(data, "d")
	if err != nil {
		t.Fatal(err)
	}
	o := n.Object
	hb := time.Date(2025, 3, 4, 8, 40, 2, 0, time.UTC)
	tr := time.Date(2025, 3, 4, 8, 44, 51, 0, time.UTC)
	wantReady := corev1.NodeCondition{Type: corev1.NodeReady, Status: corev1.ConditionFalse, LastHeartbeatTime: metav1.NewTime(hb), LastTransitionTime: metav1.NewTime(tr),
		Reason: "KubeletNotReady", Message: "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady"}
	if len(o.Status.Conditions) != 4 || !cmp.Equal(o.Status.Conditions[3], wantReady) || o.Status.Conditions[0].Reason != "NodeStatusUnknown" {
		t.Errorf("conditions %+v", o.Status.Conditions)
	}
	wantInfo := corev1.NodeSystemInfo{MachineID: "5d1c0e7a9b3f4e2a8c6d0f1e2a3b4c5d", SystemUUID: "4c4c4544-0042-3510-8052-b7c04f4e3232", BootID: "0b7e2c51-3f6a-4d9e-9a41-6c2f8e1d7b30",
		KernelVersion: "6.8.0-45-generic", OSImage: "Ubuntu 24.04.1 LTS", OperatingSystem: "linux", Architecture: "amd64",
		ContainerRuntimeVersion: "containerd://1.7.12", KubeletVersion: "v1.29.4"}
	if d := cmp.Diff(wantInfo, o.Status.NodeInfo); d != "" {
		t.Errorf("nodeInfo (-want +got)\n%s", d)
	}
	wantTaints := []corev1.Taint{{Key: "node.kubernetes.io/unreachable", Effect: corev1.TaintEffectNoExecute}, {Key: "node.kubernetes.io/unreachable", Effect: corev1.TaintEffectNoSchedule}}
	if d := cmp.Diff(wantTaints, o.Spec.Taints); d != "" {
		t.Errorf("taints (-want +got)\n%s", d)
	}
	if o.Name != "wk-1.lab.example.test" || n.Source.Line != 1 || o.Labels["kubernetes.io/hostname"] != "wk-1.lab.example.test" || len(o.Labels) != 4 ||
		o.Annotations["node.alpha.kubernetes.io/ttl"] != "0" || !o.CreationTimestamp.Equal(&metav1.Time{Time: time.Date(2024, 1, 20, 8, 0, 12, 0, time.UTC)}) ||
		o.Spec.Unschedulable || o.Spec.ProviderID != "example://wk-1" || o.Spec.PodCIDR != "10.244.1.0/24" || len(o.Spec.PodCIDRs) != 1 {
		t.Errorf("node %+v", o.ObjectMeta)
	}
	if q := o.Status.Allocatable[corev1.ResourceCPU]; q.Cmp(resource.MustParse("7500m")) != 0 || len(o.Status.Capacity) != 4 {
		t.Errorf("capacity %v allocatable %v", o.Status.Capacity, o.Status.Allocatable)
	}
	if !cmp.Equal(o.Status.Addresses, []corev1.NodeAddress{{Type: "InternalIP", Address: "192.0.2.21"}, {Type: "Hostname", Address: "wk-1.lab.example.test"}}) {
		t.Errorf("addresses %v", o.Status.Addresses)
	}
	// Roles without a label of their own become one; no Name is an error.
	n, err = ParseNodeDescribe([]byte("Name: n1\nRoles: infra,worker\nLabels: <none>\n"), "d")
	if err != nil || summarize(n).Name != "n1" || len(n.Object.Labels) != 2 {
		t.Errorf("roles: %+v %v", n.Object.Labels, err)
	}
	if _, err := ParseNodeDescribe([]byte("Roles: x\n"), "d"); err == nil {
		t.Error("no Name: want an error")
	}
}

func TestClassifyNodeText(t *testing.T) {
	for p, want := range map[string]Kind{
		"sos_commands/kubernetes/cluster-info/kubectl_get_nodes":                                       NodeTable,
		"s/sos_commands/kubernetes/kubectl_--kubeconfig_.root.cdk.cdk_addons_kubectl_config_get_nodes": NodeTable,
		"sos_commands/kubernetes/cluster-info/kubectl_get_nodes_-o_wide":                               NodeTable,
		"sos_commands/openshift/cluster_resources/nodes/oc_get__nodes":                                 NodeTable,
		"sos_commands/kubernetes/nodes/kubectl_--kubeconfig_x_describe_node_juju-1":                    NodeDescribe,
		"sos_commands/openshift/cluster_resources/nodes/oc_describe_nodes_master-0.example.test":       NodeDescribe,
		"sos_commands/kubernetes/cluster-info/kubectl_get_-o_json_nodes":                               Other,
		"sos_commands/kubernetes/cluster-info/kubectl_get_namespaces":                                  Other,
		"sos_commands/kubernetes/cluster-info/default/pods/kubectl_describe_pods_web-1":                Other,
	} {
		if got := Classify(p).Kind; got != want {
			t.Errorf("%s: %v, want %v", p, got, want)
		}
	}
}
