package props

import (
	"fmt"
	"slices"

	"github.com/nip-rs/harness/relaysim"
)

// The ranges the generators draw from (DrawConfig, DrawSetup, DrawStep)
// and the minimiser keeps (it lowers values, never below these floors). A
// witness outside them is one no search could have written; the tests of
// this file draw the generators' extremes and require them to match.
const (
	// MinCap, MaxCap bound a scenario's relay cap (DrawConfig). A cap
	// under the floor is a relay the requirements do not admit: replaying
	// a scenario under it would report a counterexample the rules did not
	// produce.
	MinCap, MaxCap = 2, 5
	// MinN, MaxN bound the limit n a load requests (DrawConfig).
	MinN, MaxN = 2, 6
	// maxSetupSteps is DrawSetup's longest history: four coordinates,
	// three foreign groups, two deletions.
	maxSetupSteps = 4 + 3 + 2
	// MaxSteps bounds a scenario: the setup, the load's start, and the
	// interleaving phase.
	MaxSteps = maxSetupSteps + 1 + maxInterleaved
	// MinAt, MaxAt bound the seconds a publication or a foreign write is
	// drawn at (DrawSetup up to the clock, DrawStep up to five above).
	MinAt, MaxAt = StartClock - 30, StartClock + 5
	// MaxCount bounds a foreign write's events (DrawSetup's 1..5; each
	// is stored and every load answers over them).
	MaxCount = 5
	// MaxOthers bounds the other subscriptions an installation opens on
	// the load's connection (DrawConfig, over a relay that bounds its
	// subscriptions only).
	MaxOthers = 2
)

// stepI is the range of Step.I per operation (the union of DrawSetup's
// and DrawStep's); an operation absent here carries no I.
var stepI = map[string][2]int{
	OpDeliver: {0, 3}, OpFlush: {0, 3}, OpProcess: {0, 2}, OpDelete: {0, 20}, OpTick: {1, 3}, OpPublish: {0, 4},
}

// ValidateWitness reports the first field of a load witness that no
// search could have written, naming it: the check, the relay profile, the
// cap and limit, the number of steps, and every step's operation and
// parameters against the ranges the generators draw. It runs nothing; a
// witness it accepts replays in milliseconds.
func ValidateWitness(w Witness) error {
	if w.Check != CheckSoundness && w.Check != CheckQuiescent && w.Check != CheckTermination {
		return fmt.Errorf("check %q: want %s, %s or %s", w.Check, CheckSoundness, CheckQuiescent, CheckTermination)
	}
	if err := ValidateConfig(w.Config); err != nil {
		return err
	}
	if len(w.Steps) > MaxSteps {
		return fmt.Errorf("steps: %d, more than the %d a scenario draws (%d of history, the start, %d interleaved)", len(w.Steps), MaxSteps, maxSetupSteps, maxInterleaved)
	}
	for k, s := range w.Steps {
		if err := validateStep(s); err != nil {
			return fmt.Errorf("steps[%d]: %v", k, err)
		}
	}
	return nil
}

// ValidateConfig reports a configuration no search draws: an unknown
// profile, or a cap or limit outside the generators' ranges.
func ValidateConfig(c Config) error {
	if _, err := relaysim.ByName(c.Profile, MinCap); err != nil {
		var names []string
		for _, p := range relaysim.All(MinCap) {
			names = append(names, p.Name)
		}
		return fmt.Errorf("config.profile %q: want one of %v", c.Profile, names)
	}
	if c.Cap < MinCap || c.Cap > MaxCap {
		return fmt.Errorf("config.cap %d: want %d..%d (a relay under the floor is not one the requirements admit)", c.Cap, MinCap, MaxCap)
	}
	if c.N < MinN || c.N > MaxN {
		return fmt.Errorf("config.n %d: want %d..%d", c.N, MinN, MaxN)
	}
	p, _ := relaysim.ByName(c.Profile, MinCap)
	if c.Others < 0 || c.Others > MaxOthers || (c.Others > 0 && p.MaxSubs == 0) {
		return fmt.Errorf("config.others %d: want 0..%d, and 0 over a relay that does not bound its subscriptions", c.Others, MaxOthers)
	}
	return nil
}

var knownOps = []string{OpStart, OpProcess, OpDeliver, OpFlush, OpSettle, OpPublish, OpForeign, OpDelete, OpTick, OpLapse, OpCloseFence, OpRound, OpOpen}

var knownTimings = []string{WhenNow, WhenSame, WhenAbove, WhenBelow, WhenAt}

func validateStep(s Step) error {
	if !slices.Contains(knownOps, s.Op) {
		return fmt.Errorf("op %q: want one of %v", s.Op, knownOps)
	}
	if r, ok := stepI[s.Op]; ok {
		if s.I < r[0] || s.I > r[1] {
			return fmt.Errorf("%s i %d: want %d..%d", s.Op, s.I, r[0], r[1])
		}
	} else if s.I != 0 {
		return fmt.Errorf("%s carries no i (got %d)", s.Op, s.I)
	}
	if s.Op == OpForeign {
		if s.Count < 1 || s.Count > MaxCount {
			return fmt.Errorf("foreign count %d: want 1..%d", s.Count, MaxCount)
		}
	} else if s.Count != 0 {
		return fmt.Errorf("%s carries no count (got %d)", s.Op, s.Count)
	}
	if s.Op == OpPublish {
		if !slices.Contains(knownTimings, s.When) {
			return fmt.Errorf("publish when %q: want one of %v", s.When, knownTimings)
		}
	} else if s.When != "" {
		return fmt.Errorf("%s carries no when (got %q)", s.Op, s.When)
	}
	if s.Op == OpForeign || (s.Op == OpPublish && s.When == WhenAt) {
		if s.At < MinAt || s.At > MaxAt {
			return fmt.Errorf("%s at %d: want %d..%d", s.Op, s.At, MinAt, MaxAt)
		}
	} else if s.At != 0 {
		return fmt.Errorf("%s carries no at (got %d)", s.Op, s.At)
	}
	if s.Lower && (s.Op != OpPublish || s.When != WhenSame) {
		return fmt.Errorf("%s carries no lower", s.Op)
	}
	if s.Spread && s.Op != OpForeign {
		return fmt.Errorf("%s carries no spread", s.Op)
	}
	return nil
}
