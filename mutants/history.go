package mutants

import (
	"reflect"

	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/ruleset"
	"github.com/nip-rs/harness/witnessfile"
)

// KindHistory is the exhaustive universe of the paged history walk
// (community-history-sync.md), explored under a rule set's history.Rules.
const KindHistory = "history"

// CheckHistory is the walk's generic check: its default universe, every
// invariant except the document's known limitation, to the depth bound.
const CheckHistory = KindHistory + ":" + history.UniverseName

// History lists the mutants of the paged history walk, each one
// history.Rules field replaced. They leave model.Rules as it is: only the
// walk's check runs for them, and the walk's check runs only for them.
func History() []Mutant {
	spec := history.Spec()
	walk := func(id, rule, section string, apply func(r *history.Rules)) Mutant {
		return Mutant{ID: id, Rule: rule, Section: section, Change: ruleset.OnHistory(apply), ExpectedBy: []string{CheckHistory}}
	}
	return []Mutant{
		walk("H1", "a page boundary is exclusive (until = oldest - 1)", "community-history-sync §3, rules carried over",
			func(r *history.Rules) { r.Boundary = func(oldest int64) int64 { return oldest } }),
		alsoLive(walk("H2", "an all-empty round is failed, never exhausted", "community-history-sync, failure semantics",
			func(r *history.Rules) {
				r.Exhausted = func(_ int, failed bool) bool { return !failed }
				r.Failed = func(_ int, failed bool) bool { return failed }
			})),
		walk("H3", "a refused or silent relay blocks every cursor advance", "community-history-sync, failure semantics",
			func(r *history.Rules) { r.Complete = func(asked, failed int) bool { return asked > failed } }),
		walk("H4", "the bridge walks from the newest page down to the saved newest", "community-history-sync §3, bridge",
			func(r *history.Rules) {
				r.BridgeNeeded = func(history.PageSummary, history.Cursor) bool { return false }
			}),
		walk("H5", "newest advances only on a complete round (the bridge finished)", "community-history-sync §3, rules carried over",
			func(r *history.Rules) { r.AdvanceNewest = func(ok, _, _ bool) bool { return ok } }),
		alsoLive(walk("H6", "the older pass resumes at the saved oldest", "community-history-sync §3, older pass",
			func(r *history.Rules) {
				r.OlderFrom = func(saved history.Cursor, seen int64, ok bool) (int64, bool) {
					if ok {
						return seen - 1, true
					}
					return spec.OlderFrom(saved, seen, ok)
				}
			})),
		walk("H7", "a rekey clears exhausted", "community-history-sync §6",
			func(r *history.Rules) { r.Rekey = func(c history.Cursor) history.Cursor { return c } }),
		walk("H8", "auth-required is not a failure: the REQ is re-issued after AUTH", "community-history-sync, revision 2 and §3",
			func(r *history.Rules) { r.Closed = func(string) history.Settle { return history.Refuse } }),
		walk("H9", "AuthenticationFailed settles the relay as refused and is reported", "community-history-sync §3",
			func(r *history.Rules) { r.AuthFailed = func() history.Settle { return history.Wait } }),
		walk("H10", "exhausted is sticky in the cursor merge", "community-history-sync, cursors",
			func(r *history.Rules) {
				r.Merge = func(saved, proposed history.Cursor) history.Cursor {
					c := history.Merge(saved, proposed)
					c.Exhausted = proposed.Exhausted
					return c
				}
			}),
		walk("H11", "a relay bottoms out only with fewer wraps than the limit", "community-history-sync §3, exhausted is earned",
			func(r *history.Rules) {
				r.Bottomed = func(delivered, limit int, _ history.Capacity) bool { return delivered <= limit }
			}),
		walk("H16", "a warm open re-asks only CURSOR_OVERLAP below the saved newest", "community-history-sync §2-3, the window rule",
			func(r *history.Rules) {
				r.Opening = func(c history.Cursor, overlap int64) history.Window { return history.Opening(c, 2*overlap) }
			}),
		walk("H17", "the older pass is skipped when the cursor is already exhausted", "community-history-sync §3, phase 2b",
			func(r *history.Rules) { r.SkipOlder = func(history.Cursor) bool { return false } }),
		// The proposal's rules (history.Proposed), each dropped from it:
		// caught in the universe variant that has the hole it closes.
		proposed(walk("H12", "the oldest second of a page not proven short is asked again pinned", "proposed: same-second safe boundary",
			func(r *history.Rules) { r.Pin = spec.Pin })),
		proposed(walk("H13", "a short answer proves a relay bottomed only when its cap is known to cover the limit", "proposed: cap detection",
			func(r *history.Rules) { r.Bottomed = spec.Bottomed })),
		proposed(walk("H14", "the newest page asks nothing dated beyond local time plus the clock skew", "proposed: clock bound",
			func(r *history.Rules) { r.Ceiling = spec.Ceiling })),
		proposed(walk("H15", "a wrap outside the page's window is evidence against its relay", "proposed: hostile relays",
			func(r *history.Rules) { r.Stray = spec.Stray })),
		proposed(walk("H18", "the bridge walks down to the newest page's since, the overlap included", "proposed: late wraps inside the overlap",
			func(r *history.Rules) { r.BridgeFloor = spec.BridgeFloor })),
		proposed(walk("H19", "a wrap dated where no honest writer dates one is ignored, not held against its relay", "proposed: hostile relays (impossible dates)",
			func(r *history.Rules) { r.Impossible = spec.Impossible })),
		proposed(walk("H20", "a short pinned answer is proven by the page it came from asked again at the pinned limit", "proposed: same-second safe boundary (a second beyond a page)",
			func(r *history.Rules) { r.ProveCap = spec.ProveCap })),
		// Two whose every reachable state is right: a walk that never
		// ends, which only the walk's liveness check sees.
		walkLive(walk("H21", "a complete, bottomed older page seals the channel exhausted", "community-history-sync §3, exhausted is earned",
			func(r *history.Rules) { r.Exhausted = func(int, bool) bool { return false } })),
		walkLive(proposed(walk("H22", "a pinned re-ask starts above what the store holds at the second", "proposed: same-second safe boundary (a wide second)",
			func(r *history.Rules) { r.PinHeld = spec.PinHeld }))),
	}
}

// proposedBase names the history mutants that change history.Proposed
// rather than the document's rules.
var proposedBase = map[string]bool{"H12": true, "H13": true, "H14": true, "H15": true, "H18": true, "H19": true, "H20": true, "H22": true}

// alsoLive marks a mutant the walk's liveness check catches beside its
// safety check: its rounds loop without ending the walk as well.
func alsoLive(m Mutant) Mutant {
	m.ExpectedBy = append(m.ExpectedBy, CheckWalkLiveness)
	return m
}

// walkLive marks a mutant the walk's liveness check is expected to catch
// (and no safety check of the walk).
func walkLive(m Mutant) Mutant {
	m.ExpectedBy = []string{CheckWalkLiveness}
	return m
}

// proposed marks a mutant of the proposal; a catalogue entry without its
// id in proposedBase is a programming error caught by the tests.
func proposed(m Mutant) Mutant { return m }

// historyBase is the rule set a history mutant changes.
func historyBase(id string) *history.Rules {
	if proposedBase[id] {
		return history.Proposed()
	}
	return history.Spec()
}

// HistoryRules is the walk's rule set of a history mutant, named after it
// (the walk's layer of Set).
func (m Mutant) HistoryRules() *history.Rules {
	if m.Change.History == nil {
		return historyBase(m.ID).Clone()
	}
	return m.Set().History
}

// historyChecks is the walk's part of the suite.
func historyChecks() []Check {
	return []Check{{Name: CheckHistory, Kind: KindHistory, TieIndependent: true}}
}

// historyUniverses are the walk's universes a run under rules explores,
// in order: the control's (m nil) or a mutant's. A mutant of the proposal
// runs the universe variants the proposal is verified in
// (history.GateVariants), in order, until one catches it; a mutant of the
// document's rules the default universe and then the overlap variant. The
// control runs the universes its rules are checked in: the text's, the
// default universe and the overlap variant (the others exist to show the
// text's holes); any other rule set, every variant.
func historyUniverses(rules *history.Rules, m *Mutant) []history.NamedUniverse {
	universes := []history.NamedUniverse{{Name: "default", U: history.DefaultUniverse()}}
	if m == nil {
		for _, v := range history.GateVariants() {
			if v.Name != "default" && (v.Name == "overlap" || !walkIsText(rules)) {
				universes = append(universes, v)
			}
		}
	}
	if m != nil {
		for _, v := range history.GateVariants() {
			// A mutant of the proposal runs every variant; one of the
			// document's rules the default universe, then the overlap
			// variant (the only one where an overlap is more than zero).
			switch {
			case proposedBase[m.ID] && v.Name != "default":
				universes = append(universes, v)
			case !proposedBase[m.ID] && v.Name == "overlap":
				universes = append(universes, v)
			}
		}
		// A mutant of the proposal, and one that only changes the overlap
		// (an equivalent in the default universe, whose overlap is zero),
		// meet their variant before the default universe's whole search.
		if proposedBase[m.ID] || m.ID == "H16" {
			universes = append(universes[1:], universes[0])
		}
	}
	return universes
}

// history runs the walk's universes (historyUniverses) under rules; a
// mutant's run stops at its first violation.
func (r *runner) history(rules *history.Rules, m *Mutant) *Finding {
	f := &Finding{Depth: -1}
	for _, u := range historyUniverses(rules, m) {
		out, err := history.Explore(u.U, rules, history.ReportGate, r.opts.Workers, m != nil)
		if err != nil {
			return setupFailure(err)
		}
		f.Work += int64(out.Distinct)
		if w := out.Witness; w != nil {
			f.Invariant, f.Detail, f.Depth = w.Invariant, w.Detail, len(w.Actions)
			f.Witness = &Witness{Kind: KindHistory, JSON: w.JSON(), Text: out.Text}
			break
		}
	}
	return f
}

// HistoryRuleSet resolves the rule set a history witness names: the walk's
// own ("spec", "healing", "proposed") or a history mutant's id.
func HistoryRuleSet(name string) (*history.Rules, bool) {
	if mk, ok := history.RuleSets()[name]; ok {
		return mk(), true
	}
	if m, ok := Lookup(name); ok && m.Change.History != nil {
		return m.HistoryRules(), true
	}
	return nil, false
}

// ReplayHistory replays a history witness under the rule set it names
// (HistoryRuleSet). An unknown rule set is a bad witness.
func ReplayHistory(w *witnessfile.Witness) (*witnessfile.Replayed, error) {
	rules, ok := HistoryRuleSet(w.Rules)
	if !ok {
		return nil, witnessfile.Bad("rules %q: not a history rule set (spec, healing, proposed, H1-H%d)", w.Rules, len(History()))
	}
	return history.ReplayWith(w, rules)
}

// walkIsText reports whether rules decide every point of the walk as the
// text does (every field the text's, a function field by the code it runs).
func walkIsText(rules *history.Rules) bool {
	return len(diffFields(reflect.ValueOf(history.Spec()).Elem(), reflect.ValueOf(rules).Elem(), "")) == 0
}
