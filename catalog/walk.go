package catalog

import (
	"fmt"

	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/ruleset"
	"github.com/nip-rs/harness/search"
	"github.com/nip-rs/harness/witnessfile"
)

// WalkVariantName is the entry name of a variant of the walk: "walk" for
// the default universe, "walk-<variant>" for the others.
func WalkVariantName(variant string) string {
	if variant == "default" {
		return history.UniverseName
	}
	return history.UniverseName + "-" + variant
}

// walkEntries are the paged history walk and each of its variants. Every
// walk witness names the universe "walk" (its variant is in the file's
// parameters), so only the default entry replays.
func walkEntries() []Entry {
	var out []Entry
	for _, v := range history.Variants() {
		u := v.U
		e := Entry{Name: WalkVariantName(v.Name), Doc: walkVariantDoc(v.Name, u), Layer: ruleset.LayerHistory, Depth: u.Depth,
			Kind: history.KindHistory,
			explore: func(rules ruleset.Set, b Bound) (*Summary, error) {
				return exploreWalk(u, rules, b)
			},
			simulate: func(rules ruleset.Set, s SimBound) (*Summary, error) {
				out, err := history.Simulate(u, rules.History, history.ReportAll, s.Walks, s.Steps, s.Seed)
				if err != nil {
					return nil, err
				}
				sum := walkSummary(rules.History, search.StatusUnknown, int(out.Checked), out.Violations, out.Witness, out.Text)
				sum.Counters = map[string]int64{"walks": int64(out.Walks), "steps": out.Steps, "rounds": out.Rounds, "stuck": int64(out.Stuck),
					"walk": int64(out.Walk), "raw_depth": int64(out.RawDepth)}
				if len(sum.Violations) > 0 {
					sum.Status = search.StatusViolation // a sample proves nothing else
				}
				return sum, nil
			},
		}
		if v.Name == "default" {
			e.replay = func(rules ruleset.Set, w *witnessfile.Witness) (*witnessfile.Replayed, error) {
				return history.ReplayWith(w, rules.History)
			}
		}
		out = append(out, e)
	}
	return out
}

// WalkDoc is the walk's line in a listing: its default universe's shape.
func WalkDoc() string {
	u := history.DefaultUniverse()
	return fmt.Sprintf("the paged history walk (community-history-sync.md): 2 relays, one channel, wraps at 1..%d, pages of %d wrap, catch-up budget %d page, scroll-up budget %d pages",
		u.MaxT, u.Round.PageWraps, u.Round.CatchUpPages, u.Round.LoadOlderPages)
}

// WalkVariantDoc says how a variant differs from the default universe.
func WalkVariantDoc(u history.UniverseConfig) string {
	switch {
	case u.Backdate:
		return fmt.Sprintf("%d seconds of overlap, a member may date a wrap that far back", u.Round.OverlapMs)
	case u.Tick > 1:
		return fmt.Sprintf("%d consecutive wraps share each created_at second", u.Tick)
	case u.Round.OverlapMs > 0:
		return fmt.Sprintf("a warm open re-asks %d second(s) below the saved newest", u.Round.OverlapMs)
	case u.Cap > 0:
		return fmt.Sprintf("relay 1 caps every REQ at %d, pages of %d, wraps at 1..%d, depth %d", u.Cap, u.Round.PageWraps, u.MaxT, u.Depth)
	case u.Future:
		return "a member may date a wrap far ahead of every clock"
	case u.Strays:
		return "a relay may answer with its newest wraps, ignoring the page's window"
	}
	return "the universe above"
}

func walkVariantDoc(name string, u history.UniverseConfig) string {
	if name == "default" {
		return WalkDoc()
	}
	return "the paged history walk, variant " + name + ": " + WalkVariantDoc(u)
}

// walkSummary splits the violations into those the rule set is documented
// to break (history.Known) and the rest; an exploration whose only
// violations are documented is ok.
func walkSummary(rules *history.Rules, st search.Status, distinct int, v map[string]int64, w *witnessfile.Witness, text string) *Summary {
	s := &Summary{Status: st, Distinct: distinct, Violations: map[string]int64{}, Documented: map[string]int64{}, Text: text}
	for id, n := range v {
		if history.Known(rules, id) {
			s.Documented[id] = n
		} else {
			s.Violations[id] = n
		}
	}
	if st == search.StatusViolation && len(s.Violations) == 0 {
		s.Status = search.StatusOK
	}
	if w != nil {
		s.Invariant, s.JSON, s.Witness = w.Invariant, w.JSON(), w
	}
	return s
}
