package rules

import "testing"

// TestLimitRangeJoin: as the decider of the LimitRange signatures, the
// limitRange join decides when a LimitRange's default limit, given to a
// container without a limit, is below its request (or names the LimitRange
// whose bound the pod breaks), and rules the default out when the container
// sets its own limit.
func TestLimitRangeJoin(t *testing.T) {
	testDeciderTable(t, "limitRange", []deciderCase{
		{Signature: "limitrange-default-limit-below-request", Case: "a Deployment's second container requests 1 cpu and sets no limit, the LimitRange default cpu limit is 500m", Decided: true, CauseHas: []string{"perf-lab-core-resource-limits", "default cpu limit of 500m", "container dashboard"}},
		{Signature: "limitrange-default-limit-below-request", Case: "a StatefulSet's container requests 2Gi memory, the LimitRange default memory limit is 768Mi", Decided: true, CauseHas: []string{"default-limits", "768Mi", "requests 2Gi memory"}},
		{Signature: "limitrange-default-limit-below-request", Case: "near miss, the container sets its own cpu limit below its request (no default applies)", RuledOut: true},
		{Signature: "limitrange-bound-exceeded", Case: "a container's cpu limit 4 above the LimitRange max 2", Decided: true, CauseHas: []string{"container-bounds", "maximum of 2 cpu per Container"}},
	})
}
