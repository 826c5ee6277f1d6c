package history

import (
	"testing"
	"time"
)

func TestProbeVariants(t *testing.T) {
	for _, nu := range Variants() {
		for _, rules := range []*Rules{Spec(), Healing(), Proposed()} {
			start := time.Now()
			out, err := Explore(nu.U, rules, ReportAll, 0, false)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s %s: %d states %v %s", nu.Name, rules.Name, out.Distinct, out.Violations, time.Since(start))
			if out.Witness != nil {
				t.Logf("%s", out.Text)
			}
		}
	}
}
