package directed

import (
	"testing"

	"github.com/nip-rs/harness/model"
)

// BenchmarkDirectedSuite runs every directed check under both tie policies.
func BenchmarkDirectedSuite(b *testing.B) {
	points := 0
	for b.Loop() {
		points = 0
		for _, r := range RunSuite(model.Proposed(), ties, 0, nil) {
			points += r.Points
		}
	}
	b.ReportMetric(float64(points), "points")
}
