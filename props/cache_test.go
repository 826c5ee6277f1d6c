package props_test

import (
	"fmt"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/props"
)

// noNonce sends the first band with no until: the fence's own filter.
func noNonce() *model.Rules {
	r := model.Proposed()
	r.Load.FirstUntil = func(uint32) (nostr.Timestamp, bool) { return 0, false }
	r.Name = "no-nonce"
	return r
}

// sameRetry asks a push-only band again with the very filter it sent.
func sameRetry() *model.Rules {
	r := model.Proposed()
	r.Load.Retry = func(prev nostr.Filter, _ int, _ bool) (nostr.Filter, bool) { return prev, true }
	r.Name = "same-retry"
	return r
}

// TestDistinctFiltersOnlyAcrossLoads: a result cache that outlives no
// load (cached-in-load) is survived by the fence alone, so undoing either
// distinct-filter rule (LoadRules.FirstUntil, LoadRules.Retry) leaves no
// false complete for the gate's search to find; a cache spanning loads
// (cached) catches the first band sent without a nonce; testdata/figures
// pins both figures.
func TestDistinctFiltersOnlyAcrossLoads(t *testing.T) {
	note := figfile.For(t, *update)
	for _, r := range []*model.Rules{noNonce(), sameRetry()} {
		if w := search(t, props.CheckSoundness, r, "cached-in-load"); w != nil {
			t.Errorf("%s over cached-in-load: %s", r.Name, w.Violation)
		}
	}
	note.Line(fmt.Sprintf("soundness over `cached-in-load` finds nothing in %s cases (the gate's seed", num.Commas(searchCases)))
	w := search(t, props.CheckSoundness, noNonce(), "cached")
	if w == nil {
		t.Fatal("no-nonce over cached: nothing found")
	}
	note.Line(fmt.Sprintf("the no-nonce rules are caught in %d steps", len(w.Steps)))
}
