package parser

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/podstatus"
)

func TestChoosePrinter(t *testing.T) {
	node := func(kubelet string) *model.Node {
		var n model.Node
		n.Object.Status.NodeInfo = corev1.NodeSystemInfo{KubeletVersion: kubelet}
		return &n
	}
	tests := []struct {
		name      string
		cv        string
		upgrading bool
		apiserver string
		kubelets  []string
		want      model.PrinterChoice
	}{
		{"settled ClusterVersion wins over kubelets", "4.8.0", false, "1.22.1", []string{"v1.20.0"},
			model.PrinterChoice{Version: podstatus.Version{Major: 1, Minor: 21}, From: "ClusterVersion 4.8.0"}},
		{"upgrade under way: the kube-apiserver operand", "4.8.0", true, "1.22.1", []string{"v1.21.1"},
			model.PrinterChoice{Version: podstatus.Version{Major: 1, Minor: 22}, From: "kube-apiserver ClusterOperator version 1.22.1"}},
		{"upgrade under way without operator: kubelets newer than the completed release", "4.8.0", true, "", []string{"v1.21.1", "v1.22.0-rc.0+75ee307"},
			model.PrinterChoice{Version: podstatus.Version{Major: 1, Minor: 22}, From: "highest kubelet version v1.22.0-rc.0+75ee307"}},
		{"upgrade under way without operator: the completed release when kubelets lag", "4.9.0", true, "", []string{"v1.21.1"},
			model.PrinterChoice{Version: podstatus.Version{Major: 1, Minor: 22}, From: "ClusterVersion 4.9.0 (last completed; an upgrade is under way)"}},
		{"no ClusterVersion: the operator", "", false, "1.27.3", []string{"v1.26.0"},
			model.PrinterChoice{Version: podstatus.Version{Major: 1, Minor: 27}, From: "kube-apiserver ClusterOperator version 1.27.3"}},
		{"plain Kubernetes: highest kubelet", "", false, "", []string{"v1.23.17", "v1.24.2", "garbage", ""},
			model.PrinterChoice{Version: podstatus.Version{Major: 1, Minor: 24}, From: "highest kubelet version v1.24.2"}},
		{"nothing", "", false, "", nil,
			model.PrinterChoice{Version: podstatus.Version{}, From: "no version in the gather: the newest printer"}},
		{"unreadable ClusterVersion falls through", "nightly", false, "", []string{"v1.25.0"},
			model.PrinterChoice{Version: podstatus.Version{Major: 1, Minor: 25}, From: "highest kubelet version v1.25.0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBuilder("x")
			b.g.ClusterVersion = tt.cv
			b.cvUpgrading = tt.upgrading
			b.apiserverVersion = tt.apiserver
			for _, k := range tt.kubelets {
				b.g.Nodes = append(b.g.Nodes, node(k))
			}
			if d := cmp.Diff(tt.want, b.choosePrinter()); d != "" {
				t.Error(d)
			}
		})
	}
}
