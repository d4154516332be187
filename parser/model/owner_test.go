package model

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestPodIdentity: a pod's identity survives a rollout and stops at the
// workload, whether or not the ReplicaSet or Job was gathered.
func TestPodIdentity(t *testing.T) {
	st := New()
	owned := func(k Kind, name string, owner Owner) {
		st.Add(&Object{Kind: k, Namespace: "ns", Name: name, Owners: []Owner{owner}})
	}
	owned(ReplicaSets, "api-5d8f", Owner{Kind: "Deployment", Name: "api", Controller: true})
	st.Add(&Object{Kind: Deployments, Namespace: "ns", Name: "api", Owners: []Owner{{Kind: "ClusterVersion", Name: "version", Controller: true}}})
	owned(Jobs, "backup-29395080", Owner{Kind: "CronJob", Name: "backup", Controller: true})
	owned(Jobs, "migrate", Owner{})
	st.Freeze()
	pod := func(kind, owner, hash, node string) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p-1", Labels: map[string]string{}}, Spec: corev1.PodSpec{NodeName: node}}
		if hash != "" {
			p.Labels["pod-template-hash"] = hash
		}
		if kind != "" {
			yes := true
			p.OwnerReferences = []metav1.OwnerReference{{Kind: kind, Name: owner, Controller: &yes}}
		}
		return p
	}
	cases := []struct {
		name string
		pod  *corev1.Pod
		want string
	}{
		{"ReplicaSet gathered, Deployment owned by ClusterVersion", pod("ReplicaSet", "api-5d8f", "5d8f", "w1"), "Deployment/ns/api"},
		{"ReplicaSet not gathered: name without pod-template-hash", pod("ReplicaSet", "web-7c9b6d", "7c9b6d", "w1"), "Deployment/ns/web"},
		{"ReplicaSet not gathered, no hash label", pod("ReplicaSet", "odd-1", "", "w1"), "ReplicaSet/ns/odd-1"},
		{"Job of a gathered CronJob", pod("Job", "backup-29395080", "", "w1"), "CronJob/ns/backup"},
		{"Job not gathered with a scheduled-time suffix", pod("Job", "report-29395440", "", "w1"), "CronJob/ns/report"},
		{"plain Job", pod("Job", "migrate", "", "w1"), "Job/ns/migrate"},
		{"DaemonSet pod: per node", pod("DaemonSet", "agent", "", "w2"), "DaemonSet/ns/agent on w2"},
		{"StatefulSet pod: its own name", pod("StatefulSet", "db", "", "w1"), "pod/ns/p-1"},
		{"static pod: its own name", pod("Node", "w1", "", "w1"), "pod/ns/p-1"},
		{"no owner", pod("", "", "", "w1"), "pod/ns/p-1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := st.PodIdentity(c.pod); got != c.want {
				t.Errorf("PodIdentity = %q, want %q", got, c.want)
			}
		})
	}
	if got := WorkloadOf("DaemonSet/ns/agent on w2"); got != "DaemonSet/ns/agent" {
		t.Errorf("WorkloadOf = %q", got)
	}
}

func TestJobFamily(t *testing.T) {
	for in, want := range map[string]string{"backup-29395080": "backup", "x-1234567": "x-1234567", "29395080": "29395080",
		"a-b-123456789": "a-b", "migrate": "migrate", "-12345678": ""} {
		if got := jobFamily(in); got != want {
			t.Errorf("jobFamily(%q) = %q, want %q", in, got, want)
		}
	}
}
