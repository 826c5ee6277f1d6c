package community

import (
	"testing"
	"time"
)

func TestScratch(t *testing.T) {
	for _, u := range Universes() {
		for _, r := range []*Rules{Spec(), Heal()} {
			st := time.Now()
			res := Explore(u, r, func(inv string) bool { return Known(r, inv) }, false)
			t.Logf("%s %s: %d states, %d violating, %s", u.Name, r.Name, res.Distinct, res.Violating, time.Since(st))
			if res.Witness != nil {
				t.Logf("%s", res.Witness.Text)
			}
		}
	}
}
