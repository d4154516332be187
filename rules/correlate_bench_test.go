package rules

import (
	"fmt"
	"testing"

	"github.com/mgtriage/mgtriage/parser/model"
)

// BenchmarkCorrelateOneWorkload: Correlate over n crash-loop findings of
// one workload, each with a gap (a container log not gathered), merged
// into one finding; ns/finding should stay flat as n grows (merging each
// member's gaps copied the list so far: quadratic in the workload's pods).
func BenchmarkCorrelateOneWorkload(b *testing.B) {
	r := &Rule{ID: "crashloop", Severity: "high", Title: "Crash loop"}
	for _, n := range []int{5_000, 20_000, 50_000} {
		b.Run(fmt.Sprintf("findings=%d", n), func(b *testing.B) {
			pods := make([]*model.Pod, n)
			for i := range pods {
				pods[i] = &model.Pod{}
				pods[i].Object.Namespace, pods[i].Object.Name = "shop", fmt.Sprintf("web-7f9c-%06d", i)
			}
			fs := make([]Finding, n)
			for b.Loop() {
				for i, p := range pods {
					fs[i] = Finding{Rule: r, Pod: p, Container: "app", Severity: "high", groupKey: "workload shop/Deployment/web",
						Gaps: []model.Gap{{What: model.GapContainerLog, Namespace: "shop", Pod: p.Object.Name, Container: "app"}}}
				}
				if out := Correlate(fs); len(out) != 1 || len(out[0].Gaps) != n {
					b.Fatalf("%d findings", len(out))
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/finding")
		})
	}
}
