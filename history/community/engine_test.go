package community

import (
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/search"
)

// TestWorkersAgree: the figures and the witness of every universe do not
// depend on how many workers the engine runs, whether the run counts
// every violation or stops at the first.
func TestWorkersAgree(t *testing.T) {
	spec := Spec()
	// The quick gate compares the runs that count every violation.
	stops := []bool{false, true}[:shortrun.Size(t, 2, 1)]
	for _, u := range Universes() {
		for _, stop := range stops {
			var runs []Result
			for _, workers := range []int{1, 4} {
				res, err := ExploreWith(u, spec, nil, Options{StopAtFirst: stop, Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				runs = append(runs, res)
			}
			a, b := runs[0], runs[1]
			if a.Distinct != b.Distinct || a.Violating != b.Violating || a.Status != b.Status || witnessJSON(a) != witnessJSON(b) {
				t.Errorf("%s, stop at first %v: 1 worker %d states %d violating %s, 4 workers %d states %d violating %s",
					u.Name, stop, a.Distinct, a.Violating, witnessJSON(a), b.Distinct, b.Violating, witnessJSON(b))
			}
		}
	}
}

func witnessJSON(r Result) string {
	if r.Witness == nil {
		return "no witness"
	}
	return string(r.Witness.JSON()) + r.Witness.Text
}

// TestStopAtFirstFigures: a run stopped at its first violation reports
// the states reached before the violating transition and that one
// violation; the full run finds the same witness and more of both.
func TestStopAtFirstFigures(t *testing.T) {
	u := EpochsUniverse(6)
	full := Explore(u, Spec(), nil, false)
	stop := Explore(u, Spec(), nil, true)
	if full.Witness == nil || stop.Witness == nil || witnessJSON(full) != witnessJSON(stop) {
		t.Fatalf("the two runs' witnesses differ:\n%s\n%s", witnessJSON(full), witnessJSON(stop))
	}
	if stop.Violating != 1 || full.Violating <= 1 {
		t.Errorf("violating: stopped %d, full %d", stop.Violating, full.Violating)
	}
	// The witness's prefix reached states of every depth below its own,
	// and the stopped run saw fewer states than the whole bound holds.
	if stop.Distinct <= len(stop.Witness.Actions) || stop.Distinct >= full.Distinct {
		t.Errorf("stopped run: %d states (full %d, witness of %d actions)", stop.Distinct, full.Distinct, len(stop.Witness.Actions))
	}
}

// TestStateBound: a state limit below the universe's size ends the run
// unknown, saying which bound it hit, with no witness claimed.
func TestStateBound(t *testing.T) {
	res, err := ExploreWith(HonestUniverse(), Spec(), nil, Options{MaxStates: 10})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != search.StatusUnknown || !strings.Contains(res.BoundHit, "state limit 10") {
		t.Errorf("status %v, bound %q", res.Status, res.BoundHit)
	}
	full := Explore(HonestUniverse(), Spec(), nil, false)
	if full.Status != search.StatusOK || full.Distinct <= 10 {
		t.Errorf("unbounded: status %v, %d states", full.Status, full.Distinct)
	}
}

// TestRefusedUniverse: a universe the engine cannot run comes back
// unknown with the reason, not as a pass.
func TestRefusedUniverse(t *testing.T) {
	u := *HonestUniverse()
	u.Depth = -1
	res := Explore(&u, Spec(), nil, false)
	if res.Status != search.StatusUnknown || res.BoundHit == "" {
		t.Errorf("negative depth: status %v, bound %q", res.Status, res.BoundHit)
	}
	if _, err := ExploreWith(nil, Spec(), nil, Options{}); err == nil {
		t.Error("no universe: no error")
	}
}
