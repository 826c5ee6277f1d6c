package props_test

import (
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/props"
)

// TestTerminationProduction: under the spec and the production rules,
// every load over every profile the gate searches reaches a verdict
// within its bound, and each search had loads running when Finish began
// (otherwise Search errs). It logs the most of its bound a load used.
func TestTerminationProduction(t *testing.T) {
	// The quick gate searches the conformant profile only, and draws
	// fewer loads per profile.
	profiles := props.GateProfiles(props.CheckTermination)
	if shortrun.On(t, "the searches over the conformant profile only") {
		profiles = profiles[:1]
	}
	for _, name := range []string{"spec", model.ProposedName} {
		if w := searchShared(t, props.CheckTermination, name, profiles...); w != nil {
			t.Fatalf("%s: %s\n%v", name, w.Violation, w.Steps)
		}
	}
	worst, worstBound, running := 0.0, 0, 0
	for _, p := range props.GateProfiles(props.CheckTermination) {
		for c := range shortrun.Size(t, 200, 40) {
			src := props.NewSeeded(searchSeed, c)
			cfg := props.DrawConfig(src, p)
			w, err := props.NewWorld(cfg, model.Proposed())
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range props.DrawSetup(src) {
				w.Apply(s)
			}
			w.Apply(props.Step{Op: props.OpStart})
			for range src.IntRange(0, 40, "steps") {
				w.Apply(props.DrawStep(src))
			}
			if !w.Running() {
				continue
			}
			running++
			if v := w.Finish(); v != nil && v.Check == props.CheckTermination {
				t.Fatalf("%s case %d: %v", p, c, v)
			}
			used, bound := w.FinishMessages()
			if r := float64(used) / float64(bound); r > worst {
				worst, worstBound = r, bound
			}
		}
	}
	if running == 0 {
		t.Fatal("no load was running when Finish began")
	}
	t.Logf("%d running loads; the most any used is %.1f%% of its bound (%d)", running, 100*worst, worstBound)
}

// TestTerminationCatchesEndlessPasses: the mutant that restarts its
// passes forever is found, the witness says no verdict, and it replays
// under the mutant but not under the production rules.
func TestTerminationCatchesEndlessPasses(t *testing.T) {
	rules := rulesNamed(t, "L15")
	w := searchGateShared(t, props.CheckTermination, "L15")
	if w == nil || !strings.HasPrefix(w.Violation, "termination: no verdict after ") {
		t.Fatalf("endless passes not caught: %+v", w)
	}
	if v, _ := props.Replay(*w, rules); v == nil || v.Error() != w.Violation {
		t.Fatalf("witness does not replay: %v, want %s", v, w.Violation)
	}
	if v, _ := props.Replay(*w, model.Proposed()); v != nil {
		t.Fatalf("witness violates the production rules too: %v", v)
	}
	// Neither safety check reports it: a load with no verdict says
	// nothing false.
	short := shortrun.On(t, "the safety searches over the conformant profile only")
	for _, check := range []string{props.CheckSoundness, props.CheckQuiescent} {
		profiles := props.GateProfiles(check)
		if short {
			profiles = profiles[:1]
		}
		if got := searchShared(t, check, "L15", profiles...); got != nil {
			t.Errorf("%s reports the endless load: %s", check, got.Violation)
		}
	}
}

// TestTerminationVacuous: a search in which no load is ever running when
// Finish begins (every load refused at its start) fails loudly instead of
// passing.
func TestTerminationVacuous(t *testing.T) {
	rules := model.Proposed().Clone()
	rules.Name = "refuse-every-load"
	rules.Load.FenceFits = func(int, int) bool { return false }
	_, err := props.Search(props.SearchConfig{Check: props.CheckTermination, Rules: rules, Profile: "conformant", Cases: 20, Seed: searchSeed})
	if err == nil || !strings.Contains(err.Error(), "vacuous") {
		t.Fatalf("vacuous search: err %v, want one saying it is vacuous", err)
	}
}
