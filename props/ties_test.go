package props_test

import (
	"fmt"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"

	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/props"
	"github.com/nip-rs/harness/relaysim"
)

// tieCases is how many scenarios the tie-order search draws per check
// and rule set (pinned in testdata/figures).
const tieCases = 5000

// TestTieOrderIsNotNeeded: over insertion-ties, the relay that breaks
// only R1's tie clause (same-second events capped newest-stored first,
// as badger, lmdb and @nostr-relay/core do), neither the load as the text
// states it nor the proposed load says complete without a coordinate or
// fails to end, in tieCases scenarios each; the probe's order-ties
// reports a requirement of its own (model.ReqTieOrder). The same
// search over non-prefix, which breaks R1's order by created_at, finds a
// false complete: the search can see an R1 fault when there is one.
func TestTieOrderIsNotNeeded(t *testing.T) {
	p := relaysim.InsertionTies(searchCap)
	if len(p.Breaks) != 1 || p.Breaks[0] != model.ReqTieOrder {
		t.Fatalf("insertion-ties breaks %v, want only %s", p.Breaks, model.ReqTieOrder)
	}
	cases := shortrun.Size(t, tieCases, 500)
	for _, rules := range []*model.Rules{model.Spec(), model.Proposed()} {
		for _, check := range []string{props.CheckSoundness, props.CheckQuiescent} {
			w, err := props.Search(props.SearchConfig{Check: check, Rules: rules, Profile: p.Name, Cases: cases, Seed: searchSeed})
			if err != nil {
				t.Fatal(err)
			}
			if w != nil {
				t.Errorf("%s, %s over %s: %s", rules.Name, check, p.Name, w.Violation)
			}
		}
	}
	if w, err := props.Search(props.SearchConfig{Check: props.CheckSoundness, Rules: model.Proposed(), Profile: "non-prefix", Cases: cases, Seed: searchSeed}); err != nil || w == nil {
		t.Errorf("non-prefix: the search found no false complete (%v): it would not see an R1 fault either", err)
	}
	if cases != tieCases {
		return // the pinned figure is the full run's count
	}
	note := figfile.For(t, *update)
	note.Line(fmt.Sprintf("%s scenarios", num.Commas(tieCases)))
}
