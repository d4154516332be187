package model

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestGatherFreezeEdges: Freeze links pods to their store objects and nodes,
// and indexes node events, node logs and kubelet journals by host key.
func TestGatherFreezeEdges(t *testing.T) {
	pod := &Pod{Object: corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "a", UID: "u1"}, Spec: corev1.PodSpec{NodeName: "w1.example.com"}}}
	other := &Pod{Object: corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "b", UID: "u2"}}}
	node := &Node{Object: corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "w1.example.com"}}}
	st := New()
	st.Add(&Object{Kind: Pods, Namespace: "ns", Name: "a", UID: "u1", Typed: &pod.Object})
	st.Add(&Object{Kind: Pods, Namespace: "ns", Name: "b", UID: "stale"})
	st.Freeze()
	ev := &Event{Object: EventObject{InvolvedObject: &EventReference{Kind: "Node", Name: "w1"}}}
	g := &Gather{Pods: []*Pod{pod, other}, Nodes: []*Node{node}, Objects: st, Events: []*Event{ev},
		NodeLog: map[string][]*LogGroup{"w1": {{Text: "short"}}, "w1.example.com": {{Text: "full"}}}, KubeletLogNodes: []string{"w1"}}
	g.Freeze()
	o, _ := st.Get(Pods, "ns", "a")
	if o.Pod() != pod || st.PodFor("ns", "a", "u1") != pod {
		t.Errorf("pod a not linked to its store object")
	}
	if b, _ := st.Get(Pods, "ns", "b"); b.Pod() != nil {
		t.Errorf("pod b linked to a store object of another UID")
	}
	if pod.Node() != node || other.Node() != nil {
		t.Errorf("Node() = %v, %v", pod.Node(), other.Node())
	}
	if got := g.NodeEvents("w1.example.com"); len(got) != 1 || got[0] != ev {
		t.Errorf("NodeEvents = %v", got)
	}
	if got := g.EventsOf("Node", "", "w1"); len(got) != 1 {
		t.Errorf("EventsOf = %v", got)
	}
	if got := g.NodeLogOf("w1"); len(got) != 2 || got[0].Text != "short" || got[1].Text != "full" {
		t.Errorf("NodeLogOf = %v", got)
	}
	if !g.HasKubeletLog("w1.example.com") || g.HasKubeletLog("w2") {
		t.Errorf("HasKubeletLog wrong")
	}
	if !HostMatch("w1", "w1.example.com") || HostMatch("w1", "w10") || HostMatch("", "") || HostMatch("", "w1") {
		t.Errorf("HostMatch wrong")
	}
}
