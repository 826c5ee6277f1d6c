package relaycheck_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/internal/testrelay/khatrutest"
	"github.com/nip-rs/harness/relaycheck"
)

// profileOpts are the probe's options for the per-check profiles: the
// sequential checks stop at 14 exercised trials (a violation rate of at
// most 20% at 95% confidence), enough for a relay whose fault shows in
// every trial, and a push not seen within a second counts as missed (the
// fault relays answer in process, so only a withheld frame waits).
func profileOpts(dial relaycheck.Dialer) relaycheck.Options {
	return relaycheck.Options{SecretKey: probeSK, Base: probeBase, Timeout: time.Second, Dial: dial,
		BarrierTrials: 200, Confidence: 0.95, MaxRate: 0.2}
}

// checkProfile is one check held by a relay that breaks exactly its
// property: the verdict and what its evidence must name, and the other
// checks that rightly see the same fault (every check not named must
// conform).
type checkProfile struct {
	check string
	fault func() fault
	want  relaycheck.Verdict
	// detail must occur in the check's Detail; evidence in its evidence
	// (what was sent, what came back, what was wanted), if set.
	detail, evidence string
	also             map[string]relaycheck.Verdict
	// capacity, if set, is the subscription capacity the report must
	// record, and evicts whether it says the relay evicts past it.
	capacity int
	evicts   bool
	// quick marks the profiles the quick gate runs: one relay violating
	// each requirement, the one that waits least where there are several
	// (every profile probes every check, the others conforming).
	quick bool
}

func checkProfiles() []checkProfile {
	return []checkProfile{
		// The relay's own cap (a query with no limit or one above it)
		// keeps the oldest matches; a limit within the cap is honoured.
		{check: "cap-prefix", want: viol, quick: true, detail: "not the newest", evidence: `d=relaycheck:cap-0 `, fault: func() fault {
			return fault{cap: 1000, answer: func(_ *faultRelay, _ *faultConn, s *faultSub, evs []*nostr.Event) []*nostr.Event {
				if (s.f.Limit == 0 || s.f.Limit > 10) && len(evs) > 10 {
					return evs[len(evs)-10:]
				}
				return evs
			}}
		}},
		// A pinned window that the limit does not cut loses its last
		// event (an off-by-one in the equality path).
		{check: "bounds-pinned", want: viol, detail: "delivered 2, want 3", evidence: `["REQ","pin",`, fault: func() fault {
			return fault{answer: func(_ *faultRelay, _ *faultConn, s *faultSub, evs []*nostr.Event) []*nostr.Event {
				if pinned(s.f) && len(evs) > 0 && len(evs) < s.f.Limit {
					return evs[:len(evs)-1]
				}
				return evs
			}}
		}},
		// The paging path (limit 10 and up, no tag, a window of more than
		// one second) takes since as exclusive.
		{check: "bounds-since", want: viol, detail: "delivered 0, want 3", evidence: `["REQ","since",`, fault: func() fault {
			return fault{answer: pagingBound(func(f nostr.Filter, ev *nostr.Event) bool { return ev.CreatedAt == *f.Since })}
		}},
		// ... or until as exclusive (a cursor resuming below a page).
		{check: "bounds-until", want: viol, detail: "delivered 0, want 3", evidence: `["REQ","until",`, fault: func() fault {
			return fault{answer: pagingBound(func(f nostr.Filter, ev *nostr.Event) bool { return ev.CreatedAt == *f.Until })}
		}},
		// The right events, the right seconds, but each second's events
		// in reverse: only the order within a tie is wrong.
		{check: "order-ties", want: viol, quick: true, detail: "did not deliver the lowest ids in ascending order", evidence: `["REQ","ties",`, fault: func() fault {
			return fault{answer: func(_ *faultRelay, _ *faultConn, _ *faultSub, evs []*nostr.Event) []*nostr.Event {
				return reverseTies(evs)
			}}
		}},
		// A limit of 1 or 2 is answered by an ascending scan: the oldest.
		{check: "order-newest", want: viol, detail: "did not keep the newest", evidence: `d=relaycheck:ord-2`, fault: func() fault {
			return fault{
				filter: func(f nostr.Filter) nostr.Filter {
					if f.Limit > 0 && f.Limit <= 2 {
						f.Limit = 10
					}
					return f
				},
				answer: func(_ *faultRelay, _ *faultConn, s *faultSub, evs []*nostr.Event) []*nostr.Event {
					if s.f.Limit > 0 && s.f.Limit <= 2 && len(evs) > s.f.Limit {
						return evs[len(evs)-s.f.Limit:]
					}
					return evs
				}}
		}},
		// A limit below the cap is answered with one event too many.
		{check: "answers-valid", want: viol, detail: "events past a limit with no write racing", evidence: `1 events past the bound of ["REQ","floor",`, fault: func() fault {
			return fault{filter: func(f nostr.Filter) nostr.Filter {
				if f.Limit > 0 && f.Limit < 10 {
					f.Limit++
				}
				return f
			}}
		}},
		// A window bounded above is capped at 5, an open one at 10.
		{check: "cap-stable", want: viol, quick: true, detail: "delivered [10 5 5]", evidence: `["REQ","cap-1",`, fault: func() fault {
			return fault{answer: func(_ *faultRelay, _ *faultConn, s *faultSub, evs []*nostr.Event) []*nostr.Event {
				if s.f.Until != nil && (s.f.Limit == 0 || s.f.Limit > 5) && len(evs) > 5 {
					return evs[:5]
				}
				return evs
			}}
		}},
		// Limit 2 over an open-ended window delivers 1.
		{check: "floor", want: viol, quick: true, detail: "limit 2 over 30 matches delivered 1", evidence: `["REQ","floor",`, fault: func() fault {
			return fault{answer: func(_ *faultRelay, _ *faultConn, s *faultSub, evs []*nostr.Event) []*nostr.Event {
				if s.f.Limit == 2 && s.f.Until == nil && len(evs) == 2 {
					return evs[:1]
				}
				return evs
			}}
		}},
		// A pinned window cut by its limit delivers one fewer.
		{check: "floor-pinned", want: viol, detail: "delivered 1, want 2", evidence: `["REQ","pin2",`, fault: func() fault {
			return fault{answer: func(_ *faultRelay, _ *faultConn, s *faultSub, evs []*nostr.Event) []*nostr.Event {
				if pinned(s.f) && s.f.Limit >= 2 && len(evs) == s.f.Limit {
					return evs[:len(evs)-1]
				}
				return evs
			}}
		}},
		// The live matcher takes since as exclusive: stored answers are
		// right, but an event at a subscription's since is never pushed.
		// The subscription checks see no push at all and say so.
		{check: "push", want: viol, quick: true, detail: "not pushed within 1s to push-0-0, push-0-1, push-0-2, push-0-3", evidence: "nothing on push-0-0", fault: func() fault {
			return fault{push: func(f nostr.Filter, ev *nostr.Event) fate {
				if f.Since != nil && ev.CreatedAt == *f.Since {
					return drop
				}
				return deliver
			}}
		}, also: checks{"push-settled": viol, "subs-fence": unkn, "subs-capacity": unkn}},
		// A subscription stops receiving after its fifth distinct pushed
		// event (a push budget per subscription): one write per fresh
		// subscription, as the push check makes, never runs it out.
		{check: "push-settled", want: viol, quick: true, detail: "trial 6: accepted", evidence: "nothing on settled-0", fault: func() fault {
			seen := map[string]map[string]bool{}
			return fault{push: func(f nostr.Filter, ev *nostr.Event) fate {
				if f.Until == nil {
					return deliver
				}
				k := f.String()
				if seen[k] == nil {
					seen[k] = map[string]bool{}
				}
				if seen[k][ev.ID] = true; len(seen[k]) > 5 {
					return drop
				}
				return deliver
			}}
		}},
		// Pushes to open-ended subscriptions go out through a slower
		// queue, behind the next end-of-stored-events on the connection.
		{check: "barrier", want: viol, quick: true, detail: "delivered", evidence: "the fence push before EOSE bar-0-0", fault: func() fault {
			return fault{push: func(f nostr.Filter, _ *nostr.Event) fate {
				if f.Until == nil {
					return holdToEOSE
				}
				return deliver
			}}
		}},
		// While a coordinate replaced twice or more has a version in
		// flight, a query for it is answered by a replica two versions
		// behind: older than the version already acknowledged.
		{check: "atomic", want: viol, quick: true, detail: "found only versions older than the acknowledged", evidence: `["REQ","atom-2",`, fault: func() fault {
			return fault{answer: func(r *faultRelay, _ *faultConn, s *faultSub, evs []*nostr.Event) []*nostr.Event {
				d := s.f.Tags["d"]
				if !s.inflight || len(d) != 1 {
					return evs
				}
				vs := r.versions["30078:"+s.f.Authors[0]+":"+d[0]]
				if len(vs) < 3 {
					return evs
				}
				return []*nostr.Event{vs[len(vs)-3]}
			}}
		}},
		// Every read racing a replacement is ordered before it: the
		// answer holds the acknowledged version, never the one in flight.
		// That is conformant, but the race is never exercised, so the
		// check must stop at its cap unknown, not conform.
		// (Its 200 trials are paced up to 50 ms apart;
		// TestBarrierNeverExercisedIsUnknown holds the same rule for the
		// barrier at 3 trials in the quick gate.)
		{check: "atomic", want: unkn, detail: "in none of 200 trials", fault: func() fault {
			return fault{answer: func(r *faultRelay, _ *faultConn, s *faultSub, evs []*nostr.Event) []*nostr.Event {
				d := s.f.Tags["d"]
				if !s.inflight || len(d) != 1 || d[0] != "relaycheck:atomic" {
					return evs
				}
				vs := r.versions["30078:"+s.f.Authors[0]+":"+d[0]]
				if len(vs) < 2 {
					return evs
				}
				return []*nostr.Event{vs[len(vs)-2]}
			}}
		}},
		// A result cache per connection, invalidated by that connection's
		// own writes only: the prober writes on one and reads on another.
		{check: "fresh-after-write", want: viol, quick: true, detail: "is missing from its answer", evidence: `["REQ","fresh-a2",`, fault: func() fault {
			return fault{answer: func(r *faultRelay, c *faultConn, s *faultSub, evs []*nostr.Event) []*nostr.Event {
				key := cacheKey(s.f)
				if hit, ok := r.caches[c][key]; ok {
					return hit
				}
				if r.caches[c] == nil {
					r.caches[c] = map[string][]*nostr.Event{}
				}
				r.caches[c][key] = evs
				return evs
			}}
		}},
		// A repeated filter is answered from a cache that every write
		// empties, but which the first answer warms from a replica one
		// write behind: the second asking misses the last write.
		{check: "fresh-repeat", want: viol, detail: "is missing from its answer", evidence: `["REQ","fresh-b2",`, fault: replicaCache},
		// Two subscriptions per connection: the third closes the oldest,
		// unannounced. Any such count below the push check's four also
		// leaves that check's first subscriptions dead, and the barrier's
		// fence once a trial's queries open.
		{check: "subs-fence", want: viol, detail: "stopped receiving", evidence: "subs-fence: nothing", fault: func() fault { return fault{maxSubs: 2} },
			also: checks{"subs-capacity": viol, "push": viol, "push-settled": viol, "barrier": viol}},
		// 63 subscriptions per connection: the 64th closes the oldest.
		{check: "subs-capacity", want: viol, quick: true, detail: "only 63 received the event; 1 (the oldest) were dropped", evidence: "subs-000: nothing", fault: func() fault { return fault{maxSubs: 63} },
			capacity: 63, evicts: true},
		// 20 subscriptions per connection, the 21st refused with CLOSED: a
		// stated capacity, which conforms, and is recorded as 20.
		{check: "subs-capacity", want: conf, detail: "20 subscriptions kept; the relay refused the next with CLOSED", fault: func() fault { return fault{refuseSubs: 20} },
			capacity: 20},
		// A version exactly one second newer is stored beside the old one.
		{check: "replace-newer", want: viol, quick: true, detail: "holds 2 versions", evidence: `["REQ","replace-newer",`, fault: func() fault {
			return fault{version: func(r *faultRelay, cur, ev *nostr.Event) {
				if cur != nil && ev.CreatedAt == cur.CreatedAt+1 {
					r.ghosts = append(r.ghosts, cur)
				}
			}}
		}},
		// An older version arriving second is stored too.
		{check: "replace-older", want: viol, detail: "holds 2 versions", evidence: `["REQ","replace-older",`, fault: func() fault {
			return fault{version: func(r *faultRelay, cur, ev *nostr.Event) {
				if cur != nil && ev.CreatedAt < cur.CreatedAt {
					r.ghosts = append(r.ghosts, ev)
				}
			}}
		}},
		// Within one second the first arrival wins.
		{check: "replace-same-high-first", want: viol, detail: "holds 1 versions", evidence: `["REQ","replace-same-high-first",`, fault: func() fault {
			return fault{version: func(r *faultRelay, cur, ev *nostr.Event) {
				if cur != nil && ev.CreatedAt == cur.CreatedAt && ev.ID < cur.ID {
					r.hidden[ev.ID] = true
					r.ghosts = append(r.ghosts, cur)
				}
			}}
		}},
		// Within one second the last arrival wins.
		{check: "replace-same-low-first", want: viol, detail: "holds 1 versions", evidence: `["REQ","replace-same-low-first",`, fault: func() fault {
			return fault{version: func(r *faultRelay, cur, ev *nostr.Event) {
				if cur != nil && ev.CreatedAt == cur.CreatedAt && ev.ID > cur.ID {
					r.hidden[cur.ID] = true
					r.ghosts = append(r.ghosts, ev)
				}
			}}
		}},
		// A #t filter is read without its tag (a tag index path that
		// forgets the tag when it falls back to a scan). The probe drops
		// such events as not matching the filter, so answers-valid sees
		// them too.
		{check: "tags", want: viol, quick: true, detail: "events the #t filter does not match", evidence: `["REQ","tags",`, fault: func() fault {
			return fault{filter: func(f nostr.Filter) nostr.Filter {
				if _, ok := f.Tags["t"]; ok {
					f.Tags = nil
				}
				return f
			}}
		}, also: checks{"answers-valid": viol}},
		// An event with d = "read-state:" deletes the older read-state:*
		// coordinates of its author (a prefix match where an exact one was
		// meant).
		{check: "collateral-d", want: viol, quick: true, detail: "3 of 3 coordinates deleted", evidence: `EVENT d="read-state:"`, fault: func() fault {
			return fault{version: func(r *faultRelay, _, ev *nostr.Event) {
				if ev.Tags.GetD() != "read-state:" {
					return
				}
				for _, cur := range r.current {
					if cur.PubKey == ev.PubKey && hasPrefixD(cur, "read-state:") && cur.CreatedAt < ev.CreatedAt {
						r.hidden[cur.ID] = true
					}
				}
			}}
		}},
		// No answer at all: the honest verdict is unknown.
		{check: "tags", want: unkn, detail: "context deadline exceeded", fault: func() fault {
			return fault{silentREQ: func(f nostr.Filter) bool { _, ok := f.Tags["t"]; return ok }}
		}},
		{check: "collateral-d", want: unkn, detail: `d="": no answer within 1s`, fault: func() fault {
			return fault{silentEvent: func(ev *nostr.Event) bool { return ev.Kind == 30078 && ev.Tags.GetD() == "" }}
		}},
	}
}

// pagingBound is the answer of a relay whose paging path (a limit of 10
// or more, no tag filter, a window of more than one second) drops the
// events at one bound, which at says.
func pagingBound(at func(f nostr.Filter, ev *nostr.Event) bool) func(*faultRelay, *faultConn, *faultSub, []*nostr.Event) []*nostr.Event {
	return func(_ *faultRelay, _ *faultConn, s *faultSub, evs []*nostr.Event) []*nostr.Event {
		f := s.f
		if f.Limit < 10 || len(f.Tags) > 0 || f.Since == nil || f.Until == nil || *f.Since >= *f.Until {
			return evs
		}
		var out []*nostr.Event
		for _, ev := range evs {
			if !at(f, ev) {
				out = append(out, ev)
			}
		}
		return out
	}
}

// replicaCache is the fresh-repeat fault: an entry made from the first
// answer to a filter holds that answer as it was before the last write
// (the write's replaced version back in its place), and is used only
// while no write came after it.
func replicaCache() fault {
	type entry struct {
		writes int
		evs    []*nostr.Event
	}
	cache := map[string]entry{}
	return fault{answer: func(r *faultRelay, _ *faultConn, s *faultSub, evs []*nostr.Event) []*nostr.Event {
		key := cacheKey(s.f)
		if e, ok := cache[key]; ok && e.writes == s.writes {
			return e.evs
		}
		var behind []*nostr.Event
		for _, ev := range evs {
			switch {
			case r.last == nil || ev.ID != r.last.ID:
				behind = append(behind, ev)
			case r.lastReplaced != nil && s.f.Matches(r.lastReplaced):
				behind = append(behind, r.lastReplaced)
			}
		}
		cache[key] = entry{s.writes, behind}
		return evs
	}}
}

// TestCheckProfiles: each check of the probe is held by a relay that
// breaks exactly its property, narrowly, and is otherwise conformant:
// the check gives the wanted verdict, its detail and evidence name what
// was sent and what came back, the checks that rightly see the same
// fault give theirs, and every other check conforms. The quick gate runs
// the profiles marked quick (TestQuickProfilesCoverEveryRequirement).
func TestCheckProfiles(t *testing.T) {
	// Every profile is a relay in memory of its own; the probes wait on
	// timeouts where a fault silences an answer, so they overlap.
	t.Parallel()
	for _, tc := range checkProfiles() {
		t.Run(tc.check+"-"+string(tc.want), func(t *testing.T) {
			if !tc.quick {
				shortrun.Skip(t, "this check's profile; the quick gate runs one violating profile per requirement")
			}
			t.Parallel()
			r := newFaultRelay(tc.fault())
			rep, err := relaycheck.Probe(context.Background(), "ws://fault", profileOpts(r.dial))
			if err != nil {
				t.Fatal(err)
			}
			seen := false
			for _, c := range rep.Checks {
				want, named := tc.also[c.ID]
				if c.ID == tc.check {
					want, named, seen = tc.want, true, true
					assertEvidence(t, c, tc.detail, tc.evidence)
				}
				if !named {
					want = conf
				}
				if c.Verdict != want {
					t.Errorf("%s: %s, want %s (%s)", c.ID, c.Verdict, want, c.Detail)
				}
			}
			if !seen {
				t.Fatalf("the probe ran no check %q", tc.check)
			}
			if tc.capacity > 0 && (rep.SubCapacity != tc.capacity || rep.SubEvicts != tc.evicts) {
				t.Errorf("subscription capacity %d (evicts %v), want %d (evicts %v)", rep.SubCapacity, rep.SubEvicts, tc.capacity, tc.evicts)
			}
		})
	}
}

// assertEvidence: the detail names the fault, and a violation's evidence
// names the frame sent, what came back and what was wanted.
func assertEvidence(t *testing.T, c relaycheck.Check, detail, evidence string) {
	t.Helper()
	if !strings.Contains(c.Detail, detail) {
		t.Errorf("%s: detail %q, want it to contain %q", c.ID, c.Detail, detail)
	}
	if c.Verdict != viol {
		if len(c.Evidence) != 0 {
			t.Errorf("%s: %s with evidence %v", c.ID, c.Verdict, c.Evidence)
		}
		return
	}
	var all []string
	for _, e := range c.Evidence {
		if e.Sent == "" || e.Want == "" {
			t.Errorf("%s: evidence without what was sent or wanted: %+v", c.ID, e)
		}
		all = append(all, e.Sent, strings.Join(e.Got, "; "), e.Want)
	}
	if len(all) == 0 {
		t.Errorf("%s: a violation with no evidence", c.ID)
	}
	if joined := strings.Join(all, " | "); !strings.Contains(joined, evidence) {
		t.Errorf("%s: evidence %q, want it to contain %q", c.ID, joined, evidence)
	}
}

// TestCheckProfilesConforming: the conforming khatru peer conforms on
// every check, the sequential ones at the profiles' bound.
func TestCheckProfilesConforming(t *testing.T) {
	t.Parallel()
	r := startKhatru(t, khatrutest.Options{MaxLimit: 10, Conforming: true})
	opts := profileOpts(nil)
	opts.Timeout = 3 * time.Second
	rep, err := relaycheck.Probe(context.Background(), r.URL, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Checks) != len(relaycheck.Checks) {
		t.Errorf("%d checks reported, %d in the catalogue", len(rep.Checks), len(relaycheck.Checks))
	}
	for _, c := range rep.Checks {
		if c.Verdict != conf {
			t.Errorf("%s: %s (%s)", c.ID, c.Verdict, c.Detail)
		}
	}
}

// TestCheckProfilesCoverCatalogue: every check the probe runs has a
// profile that makes it violate.
func TestCheckProfilesCoverCatalogue(t *testing.T) {
	held := map[string]bool{}
	for _, tc := range checkProfiles() {
		if tc.want == viol {
			held[tc.check] = true
		}
	}
	for _, c := range relaycheck.Checks {
		if !held[c.ID] {
			t.Errorf("check %s has no profile that violates it", c.ID)
		}
	}
}

// TestQuickProfilesCoverEveryRequirement: the profiles the quick gate
// runs hold every requirement of the catalogue violated at least once.
func TestQuickProfilesCoverEveryRequirement(t *testing.T) {
	byID := map[string]relaycheck.Requirement{}
	for _, c := range relaycheck.Checks {
		byID[c.ID] = c.Requirement
	}
	held := map[relaycheck.Requirement]bool{}
	for _, tc := range checkProfiles() {
		if tc.quick && tc.want == viol {
			held[byID[tc.check]] = true
		}
	}
	for _, c := range relaycheck.Checks {
		if !held[c.Requirement] {
			t.Errorf("%s: no quick profile violates it (%s has none)", c.Requirement, c.ID)
			held[c.Requirement] = true // said once
		}
	}
}

// TestSilentRelayConformsNowhere: a relay that accepts every write but
// answers no REQ at all gives the probe nothing to judge: no check may
// conform, and answers-valid, which judges the answers read, says that
// none was read.
//
// Every query waits out the exchange timeout, which makes the test's
// time; the quick gate waits 100 ms instead of a second (a relay that
// never answers sends nothing in either).
func TestSilentRelayConformsNowhere(t *testing.T) {
	t.Parallel()
	r := newFaultRelay(fault{silentREQ: func(nostr.Filter) bool { return true }})
	opts := profileOpts(r.dial)
	if shortrun.On(t, "each exchange waits 100 ms for the answer that never comes, not a second") {
		opts.Timeout = 100 * time.Millisecond
	}
	rep, err := relaycheck.Probe(context.Background(), "ws://fault", opts)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range rep.Checks {
		if c.Verdict == conf {
			t.Errorf("%s conforms against a relay that answers nothing: %s", c.ID, c.Detail)
		}
		if c.ID == "answers-valid" {
			found = true
			if c.Verdict != unkn || !strings.Contains(c.Detail, "no answer was read") {
				t.Errorf("answers-valid: %s (%s), want unknown: no answer was read", c.Verdict, c.Detail)
			}
		}
	}
	if !found {
		t.Fatal("the probe ran no answers-valid check")
	}
}
