package rules

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
)

// TestNodeRequestsJoin: the nodeRequests join decides on the rows marked Decided (with the
// deciding words in its cause) and stays undecided on the others, where
// the rule's matcher still hits.
func TestNodeRequestsJoin(t *testing.T) {
	testJoinTable(t, "nodeRequests", []joinCase{
		{Rule: "unschedulable-insufficient-resources", Case: "the gathered pods' memory requests leave neither worker room for 24Gi (nodeRequests decides)", Decided: true, CauseHas: []string{"24Gi", "16Gi on worker-1"}},
		{Rule: "unschedulable-insufficient-resources", Case: "only workers, the scheduler's message ends the resource with a full stop (nodeRequests decides)", Decided: true, CauseHas: []string{"24Gi", "16Gi on worker-1"}},
		{Rule: "unschedulable-insufficient-resources", Case: "workers out of memory requests, masters tainted (condition)", Decided: false},
		{Rule: "unschedulable-insufficient-resources", Case: "no node offers a GPU, FailedScheduling events only", Decided: false},
		{Rule: "unschedulable-insufficient-resources", Case: "pod does not tolerate the taints and matches no node selector (no resource shortage)", Decided: false},
	})
}

// TestRoomText: computed byte amounts read like the requests they are
// compared with; CPU and small amounts keep their canonical form.
func TestRoomText(t *testing.T) {
	for in, want := range map[string]string{
		"30863320Ki": "29.4Gi",
		"32Gi":       "32Gi",
		"1536Mi":     "1.5Gi",
		"512Ki":      "512Ki",
		"1500m":      "1500m",
		"2":          "2",
		"-1Gi":       "-1Gi",
		"3Ti":        "3Ti",
	} {
		if got := roomText(resource.MustParse(in)); got != want {
			t.Errorf("roomText(%s) = %q, want %q", in, got, want)
		}
	}
}
