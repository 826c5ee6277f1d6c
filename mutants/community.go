package mutants

import (
	"slices"
	"strings"
	"sync"

	"github.com/nip-rs/harness/history/community"
	"github.com/nip-rs/harness/ruleset"
	"github.com/nip-rs/harness/witnessfile"
)

// KindCommunity is a universe of package history/community (the rest of
// community-history-sync.md beside the walk), explored under a rule set's
// community.Rules.
const KindCommunity = community.KindCommunity

// CheckCommunity names the check of one community universe.
func CheckCommunity(universe string) string { return KindCommunity + ":" + universe }

// Community lists the mutants of the community mechanisms, each one
// community.Rules field replaced. Like the walk's, they leave model.Rules
// as it is: only the community universes run for them, and those run only
// for them.
func Community() []Mutant {
	spec := community.Spec()
	k := func(id, rule, section, universe string, apply func(r *community.Rules)) Mutant {
		return Mutant{ID: id, Rule: rule, Section: "community-history-sync, " + section, Change: ruleset.OnCommunity(apply), ExpectedBy: []string{CheckCommunity(universe)}}
	}
	const epochs, live, side, sched, neg, honest, pump = "epochs", "live", "side", "sched", "nip77", "honest", "pump"
	return []Mutant{
		k("K1", "a retired key reads nothing sealed after its rotation", "§6, the read cutoff", epochs,
			func(r *community.Rules) { r.Readable = func(community.HeldKey, int) bool { return true } }),
		k("K2", "a key is retired at its rotation's publish time, not at adoption", "§6, the read cutoff", epochs,
			func(r *community.Rules) { r.RetireAt = func(_, adoptedAt int) int { return adoptedAt } }),
		k("K3", "a superseded key is kept as a prior, never overwritten", "§6, held epochs", epochs,
			func(r *community.Rules) { r.Keep = func([]community.HeldKey) []community.HeldKey { return nil } }),
		k("K4", "adoption requires a rotation that extends the held key", "§6, adopt strictly", epochs,
			func(r *community.Rules) {
				r.Judge = func(at []community.Rotation, joinedAt int) (community.Verdict, int) {
					for i, rot := range at {
						if rot.Kind == community.ForkIn {
							return community.Adopt, i
						}
					}
					return spec.Judge(at, joinedAt)
				}
			}),
		liveK(k("K5", "a complete blob-less rotation past the member's epoch removes it", "§6, removed", epochs,
			func(r *community.Rules) {
				r.Judge = func(at []community.Rotation, joinedAt int) (community.Verdict, int) {
					v, i := spec.Judge(at, joinedAt)
					if v == community.Removed {
						return community.NotYet, -1
					}
					return v, i
				}
			}), community.PropRekey, true),
		k("K6", "a forking rotation is neither an adoption nor a removal", "§6, removal vs strand", epochs,
			func(r *community.Rules) {
				r.Judge = func(at []community.Rotation, joinedAt int) (community.Verdict, int) {
					v, i := spec.Judge(at, joinedAt)
					if v == community.NotYet && slices.ContainsFunc(at, func(rot community.Rotation) bool { return rot.Kind == community.ForkOut }) {
						return community.Removed, -1
					}
					return v, i
				}
			}),
		k("K7", "adoption chains within one pass", "§6, adoption chains", epochs,
			func(r *community.Rules) { r.Chain = func(n int) bool { return n < 1 } }),
		k("K8", "the rekey watch looks CHANNEL_REKEY_LOOKAHEAD epochs ahead", "§6, the rekey watch", epochs,
			func(r *community.Rules) { r.Watch = func(held int) []int { return []int{held + 1} } }),
		k("K9", "a retired epoch is asked once more", "reference, live wire", live,
			func(r *community.Rules) { r.LiveEpoch = func(k community.HeldKey, _ bool) bool { return !k.Retired } }),
		k("K10", "a retired epoch asked once more is frozen out of the live REQ", "reference, live wire", live,
			func(r *community.Rules) { r.LiveEpoch = func(community.HeldKey, bool) bool { return true } }),
		k("K11", "the live window is the oldest held cursor", "§2, the live REQ stays", live,
			func(r *community.Rules) {
				r.LiveWindow = func(newest []*int) (int, bool) {
					top, any := 0, false
					for _, n := range newest {
						if n == nil {
							return 0, false
						}
						if !any || *n > top {
							top, any = *n, true
						}
					}
					return top - community.CursorOverlap, any
				}
			}),
		k("K12", "a channel with no cursor makes the live window wide", "§2, the live REQ stays", live,
			func(r *community.Rules) {
				r.LiveWindow = func(newest []*int) (int, bool) {
					var held []*int
					for _, n := range newest {
						if n != nil {
							held = append(held, n)
						}
					}
					return spec.LiveWindow(held)
				}
			}),
		k("K13", "the live REQ asks for both wrap kinds", "§5, both wrap kinds", live,
			func(r *community.Rules) { r.LiveKinds = func() []int { return []int{community.KindWrap} } }),
		k("K14", "a private channel with a held key gets a plane", "§5, private channels", live,
			func(r *community.Rules) { r.LivePlane = func(private, held bool) bool { return held && !private } }),
		k("K15", "messages and side events have separate budgets", "§4 and the reference, side events", side,
			func(r *community.Rules) {
				r.Select = func(span []community.Row, limit, _ int) ([]community.Row, []community.Row) {
					var msgs, sides []community.Row
					for _, row := range span[:min(limit, len(span))] {
						if row.Side() {
							sides = append(sides, row)
						} else {
							msgs = append(msgs, row)
						}
					}
					return msgs, sides
				}
			}),
		k("K16", "a side event newer than the row window still folds", "§4 and the reference, side events", side,
			func(r *community.Rules) {
				r.Select = func(span []community.Row, limit, budget int) ([]community.Row, []community.Row) {
					msgs, sides := spec.Select(span, limit, budget)
					if len(msgs) == 0 {
						return msgs, sides
					}
					top := msgs[0].At
					return msgs, slices.DeleteFunc(sides, func(s community.Row) bool { return s.At > top })
				}
			}),
		k("K17", "the side-event budget is four times the row budget", "§4, SIDE_EVENT_FACTOR", side,
			func(r *community.Rules) { r.SideBudget = func(limit int) int { return limit } }),
		k("K18", "a request during a round is coalesced, not run beside it", "the Signed model, RefreshGate", sched,
			func(r *community.Rules) { r.OnRequest = func(bool) (bool, bool) { return true, false } }),
		k("K19", "a request during a round runs it once more after it", "§3, coalescing", sched,
			func(r *community.Rules) { r.FollowUp = func(bool) bool { return false } }),
		k("K20", "the scheduler starts a channel at most once per 30 s", "phase 4, MIN_ROUND_INTERVAL", sched,
			func(r *community.Rules) { r.Gate = func(int, *int) bool { return true } }),
		k("K21", "every stale channel is re-run", "phase 4, STALE_AFTER", sched,
			func(r *community.Rules) { r.Pick = func(due []int) []int { return due[:min(1, len(due))] } }),
		k("K22", "an unsupported NIP-77 relay falls back to the walk, never exhausted", "phase 4, NIP-77", neg,
			func(r *community.Rules) {
				r.Negentropy = func(o community.NegOutcome) community.NegPath {
					if o == community.NegUnsupported {
						return community.Reconciled
					}
					return spec.Negentropy(o)
				}
			}),
		k("K23", "an unsupported NIP-77 relay is walked, not given up", "phase 4, NIP-77", neg,
			func(r *community.Rules) {
				r.Negentropy = func(o community.NegOutcome) community.NegPath {
					if o == community.NegUnsupported {
						return community.RelayFailed
					}
					return spec.Negentropy(o)
				}
			}),
		k("K24", "a failed round is unreachable relays, not an all-empty read", "§7, honest states", honest,
			func(r *community.Rules) {
				r.Honest = func(p community.Progress) community.Panel {
					pn := spec.Honest(p)
					pn.Unreached = p.Failed
					return pn
				}
			}),
		k("K25", "history that cannot be read is counted, not dropped", "§7, honest states", honest,
			func(r *community.Rules) {
				r.Honest = func(p community.Progress) community.Panel {
					pn := spec.Honest(p)
					pn.Unreadable = 0
					return pn
				}
			}),
		k("K26", "the pump's window is fixed from the first notification", "§2, the pump", pump,
			func(r *community.Rules) {
				r.WindowEnds = func(_, last, now int) bool { return now-last >= community.PumpWindow }
			}),
		k("K27", "a burst collapses to one signal per community", "§2, the pump", pump,
			func(r *community.Rules) { r.Signals = func(events []int) []int { return events } }),
		k("K28", "auth-required settles nothing: the REQ is re-issued", "revision 2, auth-required", pump,
			func(r *community.Rules) {
				r.Settle = func(n community.Notification) (community.Settled, bool) {
					if n.Type == community.Closed {
						return community.Refused, true
					}
					return spec.Settle(n)
				}
			}),
		k("K29", "a page id resolves only through the page registry", "§2, subscription ids", pump,
			func(r *community.Rules) {
				r.RouteOf = func(id string, pages, watches map[string]int) community.Route {
					if strings.HasPrefix(id, "concord-history-") {
						return community.Route{Kind: community.RoutePage}
					}
					return spec.RouteOf(id, pages, watches)
				}
			}),
		k("K30", "a rekey watch's event wakes adoption, not the fold", "§6, the rekey watch", pump,
			func(r *community.Rules) {
				r.RouteOf = func(id string, pages, watches map[string]int) community.Route {
					rt := spec.RouteOf(id, pages, watches)
					if rt.Kind == community.RouteRekey {
						rt.Kind = community.RouteCommunity
					}
					return rt
				}
			}),
		k("K31", "a blob-less rotation that predates the join strands the member, it does not remove it", "§6, removal vs strand", epochs,
			func(r *community.Rules) {
				r.Judge = func(at []community.Rotation, _ int) (community.Verdict, int) { return spec.Judge(at, 0) }
			}),
		// Two that leave the member with something to do forever: the
		// community liveness properties see them (and K5, whose member is
		// never removed and so waits on its next epoch forever). No pass
		// runs after K32's first adoption, so no safety check of the epochs
		// universe judges one; K33's missing plane is also seen by W1 once
		// a wrap arrives on it. No rule change of the live universe escapes
		// W1 that way (a wrap can always be published on the plane a stale
		// REQ misses); in a community quiet after the rotation only the
		// property sees K33 (community.LiveQuietProperty).
		liveK(k("K32", "an adoption re-installs the rekey watch (the plane set changed)", "§6, the rekey watch", epochs,
			func(r *community.Rules) { r.Rewatch = func() bool { return false } }), community.PropRekey, false),
		liveK(k("K33", "a delivered rotation re-installs the live REQ (the plane set changed)", "§6, re-install the subscription", live,
			func(r *community.Rules) { r.Reinstall = func() bool { return false } }), community.PropLive, true),
	}
}

// liveK makes a community mutant expected by the liveness check of
// property, and by its universe's safety check as well when safety is set.
func liveK(m Mutant, property string, safety bool) Mutant {
	if !safety {
		m.ExpectedBy = nil
	}
	m.ExpectedBy = append(m.ExpectedBy, CheckCommunityLiveness(property))
	return m
}

// CommunityRules is the community rule set of a community mutant, named
// after it (the community layer of Set).
func (m Mutant) CommunityRules() *community.Rules {
	if m.Change.Community == nil {
		return community.Spec().Clone()
	}
	return m.Set().Community
}

// communityChecks is the community universes' part of the suite.
func communityChecks() []Check {
	var out []Check
	for _, u := range community.Universes() {
		out = append(out, Check{Name: CheckCommunity(u.Name), Kind: KindCommunity, Universe: u.Name, TieIndependent: true})
	}
	return out
}

// reached holds, per community universe, the rules fields its control run
// called: a universe that never calls a field cannot tell a mutant of that
// field from the document's rules, so the mutant's run of it is the
// control's, and is not repeated.
var reached struct {
	sync.Mutex
	fields map[string][]string
}

// community runs one community universe under rules, the control's (m
// nil) or a mutant's, the known findings of the rules excluded
// (community.Known: the text's two rekey findings, unless the rules heal
// them); a mutant's run stops at its first violation. The fields a
// control run reaches are kept per rule set: a mutant, a change of the
// text's rules, skips only a universe whose run under the text's rules
// never reached the field it changes.
func (r *runner) community(c Check, rules *community.Rules, m *Mutant) *Finding {
	// The universe by the community package's own name lookup, not the
	// catalogue's (package catalog): the catalogue imports this package
	// (its community and walk entries replay witnesses through it), so it
	// cannot be imported here. Both resolve a name in community.Universes.
	u, ok := community.UniverseNamed(c.Universe)
	if !ok {
		return setupFailure(community.ErrWitness)
	}
	known := rules
	if m != nil {
		known = community.Spec() // a mutant of the text: the text's findings are not the mutant's
	}
	skip := func(inv string) bool { return community.Known(known, inv) }
	var res community.Result
	if m == nil {
		counted, calls := community.Counting(rules)
		res = community.Explore(u, counted, skip, false)
		reached.Lock()
		if reached.fields == nil {
			reached.fields = map[string][]string{}
		}
		reached.fields[u.Name+"|"+rules.Name] = community.Reached(calls)
		reached.Unlock()
	} else {
		reached.Lock()
		fields, known := reached.fields[u.Name+"|"+community.Spec().Name]
		reached.Unlock()
		changed := community.Changed(community.Spec(), rules)
		if known && !slices.ContainsFunc(changed, func(f string) bool { return slices.Contains(fields, f) }) {
			return &Finding{Depth: -1} // the universe never reaches the changed rule: its run is the control's
		}
		res = community.Explore(u, rules, skip, true)
	}
	f := &Finding{Work: int64(res.Distinct), Depth: -1}
	if w := res.Witness; w != nil {
		f.Invariant, f.Detail, f.Depth = w.Invariant, w.Detail, len(w.Actions)
		f.Witness = &Witness{Kind: KindCommunity, JSON: w.JSON(), Text: w.Text}
	}
	return f
}

// CommunityRuleSet resolves the rule set a community witness names: the
// package's own ("spec", "rekey-heal") or a community mutant's id.
func CommunityRuleSet(name string) (*community.Rules, bool) {
	if mk, ok := community.RuleSets()[name]; ok {
		return mk(), true
	}
	if m, ok := Lookup(name); ok && m.Change.Community != nil {
		return m.CommunityRules(), true
	}
	return nil, false
}

// ReplayCommunity replays a community witness file under the rule set it
// names (CommunityRuleSet), for cmd/explore -replay. An unknown rule set
// or a file the package refuses is a bad witness.
func ReplayCommunity(w *witnessfile.Witness) (*witnessfile.Replayed, error) {
	cw, err := community.Parse(w.Raw)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	rules, ok := CommunityRuleSet(w.Rules)
	if !ok {
		return nil, witnessfile.Bad("rules %q: not a community rule set (spec, rekey-heal, K1-K%d)", w.Rules, len(Community()))
	}
	return replayCommunity(cw, rules)
}

// ReplayCommunityWith replays a community witness file under rules, the
// community layer of a rule set the caller resolved (an amendment's).
func ReplayCommunityWith(w *witnessfile.Witness, rules *community.Rules) (*witnessfile.Replayed, error) {
	cw, err := community.Parse(w.Raw)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	return replayCommunity(cw, rules)
}

func replayCommunity(cw *community.Witness, rules *community.Rules) (*witnessfile.Replayed, error) {
	rep, err := community.Replay(cw, rules)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	out := &witnessfile.Replayed{Reproduced: rep.Reproduced, Text: rep.Text}
	for _, v := range rep.Found {
		out.Found = append(out.Found, v.String())
		if v.Invariant == cw.Invariant && out.Detail == "" {
			out.Detail = v.Detail
		}
	}
	return out, nil
}
