package community

import (
	"testing"
	"time"
)

func TestScratch(t *testing.T) {
	for _, d := range []int{6, 7} {
		for _, r := range []*Rules{Spec(), Heal()} {
			st := time.Now()
			res := Explore(EpochsUniverse(d), r, func(inv string) bool { return Known(r, inv) }, false)
			t.Logf("depth %d %s: %d states, %d violating, %s", d, r.Name, res.Distinct, res.Violating, time.Since(st))
			if res.Witness != nil {
				t.Logf("%s", res.Witness.Text)
			}
		}
	}
}
