package mutants

import (
	"math"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/ruleset"
)

// Generic checks of the full-state load: a false complete under a
// conforming relay (props.CheckSoundness), a verdict other than the
// one the procedure predicts over a relay nothing writes to during the
// load (props.CheckQuiescent), and a load that reaches no verdict within
// its bound once the relay is scheduled fairly (props.CheckTermination). A runner executes one with
// props.SearchProfiles over m.Rules() and the profiles props.GateProfiles
// names (soundness: every profile meeting the five requirements), the
// part after "load:" being the props check name, for Options.LoadCases
// cases per profile drawn from the project's seeded generator
// (props.Seeded) of Options.Seed.
const (
	CheckLoadSoundness   = "load:soundness"
	CheckLoadQuiescent   = "load:quiescent"
	CheckLoadTermination = "load:termination"
)

// Load lists the mutants of the full-state load, each one LoadRules field
// replaced (Full-State Load).
func Load() []Mutant {
	return []Mutant{
		{
			ID: "L1", Rule: "query the pinned window {since:T, until:T} before advancing past T",
			Section:    "Full-State Load, step 4",
			Change:     ruleset.OnModel(func(r *model.Rules) { r.Load.PinWindow = func(nostr.Timestamp) bool { return false } }),
			ExpectedBy: []string{CheckLoadSoundness, CheckLoadQuiescent},
		},
		{
			ID: "L2", Rule: "never judge completeness against the requested limit",
			Section: "Full-State Load, step 7 and the requested-limit paragraph",
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Load.Finished = func(delivered, requested int) bool { return delivered < requested }
			}),
			ExpectedBy: []string{CheckLoadSoundness, CheckLoadQuiescent},
		},
		{
			ID: "L3", Rule: "the fence is established by its end-of-stored-events, not by sending its REQ",
			Section:    "Full-State Load, the mutation fence",
			Change:     ruleset.OnModel(func(r *model.Rules) { r.Load.FenceEstablished = func(sent, _ bool) bool { return sent } }),
			ExpectedBy: []string{CheckLoadSoundness},
		},
		{
			ID: "L4", Rule: "T is the lowest created_at over all delivered events, not only read-state ones",
			Section: "Full-State Load, step 3",
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Load.CursorFrom = func(_ *nostr.Event, readState bool) bool { return readState }
			}),
			ExpectedBy: []string{CheckLoadSoundness, CheckLoadQuiescent},
		},
		{
			ID: "L5", Rule: "fence deliveries never move the cursor",
			Section:    "Full-State Load, step 2",
			Change:     ruleset.OnModel(func(r *model.Rules) { r.Load.FenceMovesCursor = func(*nostr.Event) bool { return true } }),
			ExpectedBy: []string{CheckLoadSoundness},
		},
		{
			ID: "L6", Rule: "retain the greatest created_at, then the lowest id",
			Section: "Full-State Load, step 2",
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Load.Retain = func(held, cand *nostr.Event) bool { return cand.CreatedAt > held.CreatedAt }
			}),
			ExpectedBy: []string{CheckLoadSoundness},
		},
		{
			ID: "L7", Rule: "no tag constraint in the enumeration filter",
			Section: "Full-State Load, the tag-free filter; Fetching",
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Load.EnumerationFilter = func(pk string, n int) nostr.Filter {
					f := spec.Load.EnumerationFilter(pk, n)
					f.Tags = nostr.TagMap{"t": {"read-state"}}
					return f
				}
			}),
			ExpectedBy: []string{CheckLoadSoundness, CheckLoadQuiescent},
		},
		{
			ID: "L8", Rule: "the floor is L = 2",
			Section:    "Full-State Load, the floor",
			Change:     ruleset.OnModel(func(r *model.Rules) { r.Load.Floor = func() int { return 1 } }),
			ExpectedBy: []string{CheckLoadQuiescent},
		},
		{
			ID: "L9", Rule: "a second is discharged only when the pinned window delivers fewer than max(C, L)",
			Section: "Full-State Load, step 5",
			// A pinned window that delivers exactly max(C, L) events, the
			// most a cap that bound inside the second can leave, discharges.
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Load.Exhausted = func(pinned, c, floor int) bool { return pinned <= max(c, floor) }
			}),
			ExpectedBy: []string{CheckLoadSoundness, CheckLoadQuiescent},
		},
		{
			ID: "L10", Rule: "fence deliveries never contribute to C",
			Section:    "Full-State Load, step 2",
			Change:     ruleset.OnModel(func(r *model.Rules) { r.Load.FenceCountsForC = func(*nostr.Event) bool { return true } }),
			ExpectedBy: []string{CheckLoadSoundness},
		},
		{
			ID: "L11", Rule: "a query delivery the fence pushed while the query was in flight is not a query result",
			Section: "Full-State Load, step 3 and the relay requirements",
			// Over a relay that pushes onto the query's own subscription
			// (conformant-query-push), a backdated push counted as a
			// result drops the cursor below the band.
			Change:     ruleset.OnModel(func(r *model.Rules) { r.Load.PushIsResult = func(*nostr.Event) bool { return true } }),
			ExpectedBy: []string{CheckLoadSoundness},
		},
		{
			ID: "L12", Rule: "no load where the client's other subscriptions and the load's may exceed the relay's capacity",
			Section: "Full-State Load, the mutation fence (proposed: subscription capacity)",
			// The load runs whatever the connection holds: over sub-capped
			// the installation's other subscriptions crowd the fence out.
			Change:     ruleset.OnModel(func(r *model.Rules) { r.Load.FenceFits = func(int, int) bool { return true } }),
			ExpectedBy: []string{CheckLoadSoundness},
		},
		{
			ID: "L13", Rule: "a load configured for several passes runs every pass before it says complete",
			Section: "Full-State Load, step 7 (client option: passes against split replacements)",
			// One pass only: over a relay that deletes before it saves, a
			// query in the gap finds neither version and nothing reads
			// the coordinate again.
			Change:     ruleset.OnModel(func(r *model.Rules) { r.Load.Passes = func(int) int { return 1 } }),
			ExpectedBy: []string{CheckLoadSoundness},
		},
		{
			ID: "L14", Rule: "a load of several passes waits its gap after the fence's answer before its first query",
			Section: "Full-State Load, the mutation fence (client option: passes against a relay that registers subscriptions late)",
			// No wait: over racy-settling the fence is registered only at
			// the second pass's gap, so a split that settles first sends
			// its push to nobody, and a second split pending at the
			// verdict hides the coordinate from the second pass too.
			Change:     ruleset.OnModel(func(r *model.Rules) { r.Load.SettleFence = func(int) bool { return false } }),
			ExpectedBy: []string{CheckLoadSoundness},
		},
		{
			ID: "L15", Rule: "a load configured for several passes runs that many, then gives its verdict",
			Section: "Full-State Load, step 7 (client option: passes against split replacements)",
			// A multi-pass load that starts another pass whenever one
			// ends never says anything, so nothing it says is wrong: only
			// the termination check sees it, over the relays whose races
			// make a client configure passes.
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Load.Passes = func(configured int) int {
					if configured > 1 {
						return math.MaxInt
					}
					return max(configured, 1)
				}
			}),
			ExpectedBy: []string{CheckLoadTermination},
		},
	}
}
