package history

import (
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/search"
)

// TestExploreStateLimit: a state limit below what the universe stores
// ends the run unknown, saying which limit, with no witness (the engine
// checks the limit between blocks of a level, so the states stored pass
// it, up to the whole run's); a limit the run stays within changes
// nothing; a negative one is refused.
func TestExploreStateLimit(t *testing.T) {
	u := DefaultUniverse()
	u.Depth = shortrun.Size(t, 5, 4)
	whole, err := ExploreWith(u, Healing(), ReportAll, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if whole.Status != search.StatusOK || whole.BoundHit != "" || whole.Distinct < 100 {
		t.Fatalf("the whole run: %s %q, %d states", whole.Status, whole.BoundHit, whole.Distinct)
	}
	limit := whole.Distinct / 3
	cut, err := ExploreWith(u, Healing(), ReportAll, Options{MaxStates: limit})
	if err != nil {
		t.Fatal(err)
	}
	if cut.Status != search.StatusUnknown || !strings.Contains(cut.BoundHit, "state limit") || cut.Witness != nil ||
		cut.Distinct <= limit || cut.Distinct > whole.Distinct {
		t.Fatalf("limit %d: %s %q, %d states of %d", limit, cut.Status, cut.BoundHit, cut.Distinct, whole.Distinct)
	}
	within, err := ExploreWith(u, Healing(), ReportAll, Options{MaxStates: whole.Distinct})
	if err != nil {
		t.Fatal(err)
	}
	if within.Status != search.StatusOK || within.BoundHit != "" || within.Distinct != whole.Distinct || within.Rounds != whole.Rounds {
		t.Fatalf("limit %d: %s %q, %d states, %d rounds; whole %d, %d", whole.Distinct, within.Status, within.BoundHit,
			within.Distinct, within.Rounds, whole.Distinct, whole.Rounds)
	}
	if _, err := ExploreWith(u, Healing(), ReportAll, Options{MaxStates: -1}); err == nil {
		t.Fatal("a negative state limit was accepted")
	}
}
