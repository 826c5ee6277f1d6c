package catalog

import (
	"github.com/nip-rs/harness/history/community"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/ruleset"
	"github.com/nip-rs/harness/witnessfile"
)

// communityEntries are the community universes at their default depths.
// A run leaves out the rule set's known findings (community.Known), as
// the mutant gate does: the text's two rekey gaps are findings of record,
// not failures of every run. They have no seeded simulation: rapid drives
// their steps in the package's tests.
func communityEntries() []Entry {
	var out []Entry
	for _, u := range community.Universes() {
		out = append(out, Entry{Name: u.Name, Doc: u.Doc, Layer: ruleset.LayerCommunity, Depth: u.Depth, Kind: community.KindCommunity,
			explore: func(rules ruleset.Set, b Bound) (*Summary, error) {
				uu := *u
				uu.Depth = b.Depth
				r := rules.Community
				res, err := community.ExploreWith(&uu, r, func(inv string) bool { return community.Known(r, inv) },
					community.Options{Workers: b.Workers, MaxStates: b.MaxStates, Progress: b.Progress})
				if err != nil {
					return nil, err
				}
				s := &Summary{Status: res.Status, BoundHit: res.BoundHit, Distinct: res.Distinct, Violations: map[string]int64{}}
				for inv, n := range res.Violations {
					s.Violations[inv] = int64(n)
				}
				if w := res.Witness; w != nil {
					s.Invariant, s.JSON, s.Text = w.Invariant, w.JSON(), w.Text
				}
				return s, nil
			},
			replay: func(rules ruleset.Set, w *witnessfile.Witness) (*witnessfile.Replayed, error) {
				return mutants.ReplayCommunityWith(w, rules.Community)
			},
		})
	}
	return out
}
