package exhaustive

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// observeIn runs one observation on a universe of the catalogue (or a
// liveness universe) under rules (nil: proposed).
func observeIn(t *testing.T, name, universe string, rules *model.Rules, workers int) *ObserveResult {
	t.Helper()
	o, err := LookupObservation(name)
	if err != nil {
		t.Fatal(err)
	}
	u, err := ObservationUniverse(NewCatalog(), universe)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Observe(ObserveConfig{Universe: u, Observation: o, Rules: rules, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// What each registry entry answers on the universes a spec author asks
// about: the shortest depth where it is reached, or not reached within
// the universe's bounds.
func TestObservationOutcomes(t *testing.T) {
	for _, tc := range []struct {
		obs, universe string
		depth         int // -1: not reached
	}{
		{"divergence", "reference", 1},
		{"divergence", "network-pair", 1},
		{"legacy-holds-override-key", "reference", -1}, // its legacy device drops ov_* keys
		{"legacy-holds-override-key", "network-whole", 3},
		{"settled-disagreement", "network-pair", -1},
		{"settled-disagreement", "hierarchy-pair", -1},
	} {
		res := observeIn(t, tc.obs, tc.universe, nil, 2)
		switch {
		case tc.depth < 0 && (res.Outcome() != "not reached within the bounds" || res.Distinct < 100):
			t.Errorf("%s on %s: %s after %d states, want not reached over a real search", tc.obs, tc.universe, res.Outcome(), res.Distinct)
		case tc.depth >= 0 && (res.Witness == nil || len(res.Witness.Actions) != tc.depth):
			t.Errorf("%s on %s: %s (%+v), want reached at depth %d", tc.obs, tc.universe, res.Outcome(), res.Witness, tc.depth)
		}
	}
}

// The settled disagreement is not reached because the rules keep devices
// together, not because the predicate cannot hold: with one device
// deciding ties set-wins among clear-wins peers it is reached.
func TestSettledDisagreementCanBeReached(t *testing.T) {
	u := NetworkPairUniverse()
	u.Devices[0].Rules = func(run *model.Rules) *model.Rules { return run.WithTie(model.SetWins) }
	o, _ := LookupObservation("settled-disagreement")
	// d0 reads c0 and marks it unread, d1 marks it read, and d0 receives
	// d1's tombstone: d0 then holds the tie (1,1,10) live, d1 would hold
	// it dead, and d0's publication changes nothing d1 publishes.
	res, err := Observe(ObserveConfig{Universe: u, Observation: o, Depth: 7})
	if err != nil {
		t.Fatal(err)
	}
	if res.Witness == nil || len(res.Witness.Actions) != 5 || !strings.Contains(res.Witness.Detail, "nothing in flight") {
		t.Fatalf("one set-wins device: %s, want reached", res.Outcome())
	}
}

// A witness is the same bytes at any worker count, and its replay
// reproduces it: the observation first holds after its last action, with
// the detail stored.
func TestObservationWitnessReplays(t *testing.T) {
	for _, tc := range []struct{ obs, universe string }{
		{"divergence", "reference"},
		{"legacy-holds-override-key", "network"},
	} {
		one := observeIn(t, tc.obs, tc.universe, nil, 1).Witness.JSON()
		two := observeIn(t, tc.obs, tc.universe, nil, 2).Witness.JSON()
		if !bytes.Equal(one, two) {
			t.Fatalf("%s on %s: the witness depends on the worker count:\n%s\n%s", tc.obs, tc.universe, one, two)
		}
		w, err := witnessfile.Parse(one)
		if err != nil {
			t.Fatal(err)
		}
		r, err := ReplayObservationFile(NewCatalog(), w)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Reproduced || r.Detail != w.Detail || !bytes.Equal(w.JSON(), one) {
			t.Errorf("%s on %s: replay %+v of\n%s", tc.obs, tc.universe, r, one)
		}
		// One action more: the observation held before the last step, so
		// it is not the shortest trace, and the replay says so.
		dev := 0
		w.Actions = append(w.Actions, witnessfile.Action{Action: "mark_unread", Device: &dev, Ctx: "c1"})
		w.Raw = nil
		w, err = witnessfile.Parse(w.JSON())
		if err != nil {
			t.Fatal(err)
		}
		if r, err := ReplayObservationFile(NewCatalog(), w); err != nil || r.Reproduced {
			t.Errorf("%s on %s with an action prepended: %+v, %v", tc.obs, tc.universe, r, err)
		}
	}
}

// The stored witness (which -replay's test of every stored witness runs)
// is what the search writes today, byte for byte (-update rewrites it).
func TestObservationGoldenWitness(t *testing.T) {
	res := observeIn(t, "legacy-holds-override-key", "network-whole", model.Proposed().WithTie(model.ClearWins), 2)
	golden(t, "observe-legacy-holds-override-key.witness.json", res.Witness.JSON())
}

// A file Observe could not have written is refused as bad, naming why.
func TestObservationReplayRefusesBadFiles(t *testing.T) {
	good := string(observeIn(t, "divergence", "reference", nil, 2).Witness.JSON())
	for name, in := range map[string]string{
		"unknown member":       strings.Replace(good, `"detail"`, `"extra": 1, "detail"`, 1),
		"unknown observation":  strings.Replace(good, `"invariant": "divergence"`, `"invariant": "nope"`, 1),
		"universe not its own": strings.Replace(good, `"universe": "reference"`, `"universe": "ceiling"`, 1),
		"unknown universe":     strings.Replace(good, `"universe": "reference"`, `"universe": "nowhere"`, 1),
		"depth too small":      strings.Replace(good, `"depth": 4`, `"depth": 0`, 1),
		"action not enabled":   strings.Replace(good, `"action": "mark_unread"`, `"action": "compact"`, 1),
		"trailing data":        good + "{}",
	} {
		w, err := witnessfile.Parse([]byte(in))
		if err == nil {
			_, err = ReplayObservationFile(NewCatalog(), w)
		}
		if !errors.Is(err, witnessfile.ErrBad) {
			t.Errorf("%s: %v, want ErrBad", name, err)
		}
	}
}

// An observation on a universe it does not name, or past the state bound,
// is no answer: an error, or unknown.
func TestObservationBounds(t *testing.T) {
	o, _ := LookupObservation("settled-disagreement")
	if _, err := Observe(ObserveConfig{Universe: Reference(), Observation: o}); err == nil {
		t.Error("settled-disagreement ran on the reference universe, which it does not name")
	}
	res, err := Observe(ObserveConfig{Universe: NetworkPairUniverse(), Observation: o, MaxStates: 50})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome() != "unknown" || res.BoundHit == "" {
		t.Errorf("50 states: %s, want unknown", res.Outcome())
	}
	if _, err := LookupObservation("nope"); err == nil || !strings.Contains(err.Error(), "divergence") {
		t.Errorf("unknown name: %v, want the known names listed", err)
	}
}

// The observation line carries the outcome with what makes it an answer,
// and a search that found nothing has no witness file to write.
func TestObserveLine(t *testing.T) {
	r := &ObserveResult{Universe: "network", Observation: "divergence", Rules: "proposed", Tie: model.SetWins, Depth: 3, Distinct: 9}
	head := "observe divergence universe network tie set rules proposed depth 3: "
	if got, want := r.Line(), head+"not reached within the bounds (9 states stored)"; got != want {
		t.Errorf("line\n %s\nwant\n %s", got, want)
	}
	if p, err := r.WriteWitness(t.TempDir()); err == nil || p != "" {
		t.Errorf("nothing observed: %q %v", p, err)
	}
	r.BoundHit = "state limit 5"
	if got, want := r.Line(), head+"unknown (bound: state limit 5; 9 states stored)"; got != want {
		t.Errorf("line\n %s\nwant\n %s", got, want)
	}
	r.Witness = &witnessfile.Witness{Detail: "c0 apart", Actions: make([]witnessfile.Action, 2)}
	if got, want := r.Line(), head+"reached at depth 2 (9 states stored): c0 apart"; got != want {
		t.Errorf("line\n %s\nwant\n %s", got, want)
	}
}
