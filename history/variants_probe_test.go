package history

import (
	"testing"
	"time"
)

func TestProbeVariants(t *testing.T) {
	for _, nu := range Variants()[1:] {
		for _, d := range []int{3, 4, 5} {
			for _, rules := range []*Rules{Spec(), Proposed()} {
				u := nu.U
				u.Depth = d
				start := time.Now()
				out, err := Explore(u, rules, ReportAll, 0, false)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s d%d %s: %d states %v %s", nu.Name, d, rules.Name, out.Distinct, out.Violations, time.Since(start))
				if out.Witness != nil && d == 5 {
					t.Logf("%s", out.Text)
				}
			}
		}
	}
}
