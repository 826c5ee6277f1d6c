package catalog

import (
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/ruleset"
	"github.com/nip-rs/harness/search"
)

// exploreWalk runs one of the walk's universes to the bound: its depth,
// workers, state limit and progress all reach the walk's search, as they
// reach every other layer's. A run the state limit ends is unknown, with
// BoundHit saying which limit, even when all it found so far is the rule
// set's documented limitation: what lies beyond the limit did not run.
func exploreWalk(u history.UniverseConfig, rules ruleset.Set, b Bound) (*Summary, error) {
	u.Depth = b.Depth
	out, err := history.ExploreWith(u, rules.History, history.ReportAll,
		history.Options{Workers: b.Workers, MaxStates: b.MaxStates, Progress: b.Progress})
	if err != nil {
		return nil, err
	}
	s := walkSummary(rules.History, out.Status, out.Distinct, out.Violations, out.Witness, out.Text)
	s.PerDepth, s.Counters = out.PerDepth, map[string]int64{"rounds": out.Rounds}
	if out.BoundHit != "" {
		s.BoundHit = out.BoundHit
		if s.Status == search.StatusOK {
			s.Status = search.StatusUnknown
		}
	}
	return s, nil
}
