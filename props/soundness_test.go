package props

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/nip-rs/harness/model"
)

// TestSoundnessConformant: under a relay meeting the five requirements, a
// complete verdict is never false, whatever the interleaving of the
// load's messages with other installations' writes (same-second
// replacements, moves above the cursor, new coordinates below it),
// foreign data, deletions, lapses and further loads; and no load is left
// running with nothing to exchange.
func TestSoundnessConformant(t *testing.T) {
	withChecks(1000, func() { checkProperty(t, SoundnessProperty(model.Proposed(), "conformant")) })
}

// TestQuiescentConformant: with nothing written during the load, the
// verdict is exactly the one the spec's reasoning predicts (Predict), and
// a complete one is sound.
func TestQuiescentConformant(t *testing.T) {
	withChecks(1000, func() { checkProperty(t, QuiescentProperty(model.Proposed(), "conformant")) })
}

// TestMachineReachesEveryVerdict guards the search itself: over the
// conformant relay the state machine's scenarios end in complete
// verdicts, plateaus, lapsed fences and failures, and they contain the
// interleavings the properties are about.
func TestMachineReachesEveryVerdict(t *testing.T) {
	seen := map[string]int{}
	withChecks(300, func() {
		rapid.Check(t, func(rt *rapid.T) {
			src := rapidSource{rt}
			cfg := DrawConfig(src, "conformant")
			steps := append(append(DrawSetup(src), Step{Op: OpStart}), DrawInterleaving(src)...)
			w, err := NewWorld(cfg, model.Proposed())
			if err != nil {
				rt.Fatal(err)
			}
			for _, s := range steps {
				if w.Running() && s.Op == OpPublish {
					seen["publish during a load: "+s.When]++
				}
				w.Apply(s)
			}
			w.Finish()
			for _, r := range w.Results() {
				seen[r.Verdict.String()+"/"+r.Reason.String()]++
			}
		})
	})
	for _, want := range []string{"complete/none", "cannot-prove-complete/plateau", "cannot-prove-complete/fence-lapsed", "failed/relay-failure",
		"publish during a load: same", "publish during a load: above", "publish during a load: below"} {
		if seen[want] == 0 {
			t.Errorf("no scenario reached %q: %v", want, seen)
		}
	}
}
