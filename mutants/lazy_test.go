package mutants

import (
	"testing"

	"github.com/nip-rs/harness/internal/shortrun"
)

// A run of a few mutants places the checks it reaches in the full run's
// order (cheapest first under the control) without running the whole
// control: its suite is a prefix of the full suite.
func TestLazyOrderIsTheFullOrder(t *testing.T) {
	shortrun.Skip(t, "the whole control's order, which a lazy run's is compared with")
	opts := Options{}
	opts.fill()
	// The full control, shared with TestGate's run in the same process.
	r := &runner{opts: opts, cache: map[string]*Finding{}, ctl: map[string]*Finding{}}
	suite, _ := r.control()
	full := &Report{Suite: suite}
	// L1 is caught by a load search, H1 only by the walk: the lazy order
	// must place the universes and the walk's checks as the full one does.
	lazy, err := Run(Options{Only: []string{"L1", "H1"}})
	if err != nil {
		t.Fatal(err)
	}
	if !lazy.Lazy || len(lazy.Suite) == 0 || len(lazy.Suite) >= len(full.Suite) {
		t.Fatalf("lazy suite of %d checks (lazy %t), full %d", len(lazy.Suite), lazy.Lazy, len(full.Suite))
	}
	explored, walked := false, false
	for i, c := range lazy.Suite {
		f := full.Suite[i]
		if c.Name != f.Name || c.Work != f.Work {
			t.Errorf("check %d: lazy %s (%d), full %s (%d)", i, c.Name, c.Work, f.Name, f.Work)
		}
		explored = explored || c.Kind == KindExplore
		walked = walked || c.Kind == KindHistory
	}
	if !explored || !walked {
		t.Errorf("the lazy suite placed a universe %t, the walk %t: a probe is not exercised", explored, walked)
	}
	for _, r := range lazy.Results {
		if r.Status != StatusCaught {
			t.Errorf("%s %s: %s", r.Mutant.ID, r.Tie, r.Status)
		}
	}
}
