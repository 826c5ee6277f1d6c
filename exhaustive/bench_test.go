package exhaustive

import (
	"fmt"
	"testing"

	"github.com/nip-rs/harness/model"
)

// BenchmarkReference explores the reference universe at depths 4 to 6
// under each tie policy and reports distinct states per second.
func BenchmarkReference(b *testing.B) {
	for _, depth := range []int{4, 5, 6} {
		for _, tie := range []model.TiePolicy{model.ClearWins, model.SetWins} {
			b.Run(fmt.Sprintf("depth=%d/tie=%s", depth, tie), func(b *testing.B) {
				var states int
				for b.Loop() {
					r, err := Explore(Config{Universe: Reference(), Depth: depth, Rules: model.Proposed().WithTie(tie)})
					if err != nil {
						b.Fatal(err)
					}
					states = r.Distinct
				}
				b.ReportMetric(float64(states), "states")
				b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
			})
		}
	}
}
