package props

import (
	"strings"

	"github.com/nip-rs/harness/model"
)

// Minimize shortens a witness: it drops steps one at a time, last first,
// keeping each removal after which the scenario still violates the same
// check, until no single step can go. Rapid's shrinking simplifies the
// values of a scenario; this removes the steps that did nothing.
func Minimize(wit Witness, rules *model.Rules) Witness {
	kind := checkOf(wit.Violation)
	still := func(steps []Step) (*Violation, bool) {
		v, _ := Replay(Witness{Check: wit.Check, Config: wit.Config, Steps: steps}, rules)
		return v, v != nil && v.Check == kind
	}
	steps := append([]Step(nil), wit.Steps...)
	for changed := true; changed; {
		changed = false
		for i := len(steps) - 1; i >= 0; i-- {
			try := append(append([]Step(nil), steps[:i]...), steps[i+1:]...)
			if v, ok := still(try); ok {
				steps, changed = try, true
				wit.Violation = v.Error()
			}
		}
	}
	wit.Steps = steps
	return wit
}

func checkOf(violation string) string {
	kind, _, _ := strings.Cut(violation, ":")
	return kind
}
