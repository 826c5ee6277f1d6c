package relaycheck

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nip-rs/harness/model"
)

// Policy is what Gate does with a relay it has no valid record of.
type Policy uint8

const (
	// LoadUnproven loads against a relay without a valid record, and the
	// load's verdict is at best cannot-prove-complete (unproven): a
	// client must still be able to read its state on a relay nobody has
	// probed.
	LoadUnproven Policy = iota
	// ProbeFirst refuses to load against a relay without a valid record
	// until a probe has recorded it.
	ProbeFirst
)

// loadSubs is how many subscriptions a load keeps open on its connection
// at once: the fence and one query.
const loadSubs = 2

// GateOptions configures Gate.
type GateOptions struct {
	Policy Policy
	// OtherSubs is how many other subscriptions the caller keeps open on
	// the load's connection while it runs: a relay is admitted only when
	// they and the load's own fit its measured subscription capacity.
	OtherSubs int
	// Now is the time records are judged at (zero: time.Now()).
	Now time.Time
	// Passes is the LoadConfig.Passes the client loads with. With two or
	// more the load reads every coordinate again in a second pass and
	// makes one round trip after the last, so a relay that replaces by
	// deleting before saving (R6 broken) or lets a push fall behind an
	// end-of-stored-events (R5 broken) is no longer a false complete,
	// under the passes' timing assumption: a split replacement finishes,
	// and a queued push goes out, within PassGap (within a pass and a
	// round trip when PassGap is zero). The gate then requires neither
	// R5, nor R6, nor R1's tie clause (kept only because the probe's R6
	// misses such relays), and its decision says so, with the assumption.
	Passes int
	// PassGap is the LoadConfig.PassGap the client loads with; the
	// decision's Config carries it. With two or more passes and a gap of
	// at least PushSettle the gate requires R4 only of a settled
	// subscription (ReqPushSettled): the load waits the gap after the
	// fence's answer, so a relay that registers a subscription for
	// pushes only after answering it (rely) misses no push the load
	// relies on, under the assumption that registration finishes within
	// the gap.
	PassGap time.Duration
}

// RecommendedPassGap is the gap the reports assume of a client loading
// with two passes (LoadConfig.PassGap): twice PushSettle, so that the
// probe's settled push check covers the fence's registration with room
// to spare, and short beside a load's round trips on a real network.
const RecommendedPassGap = 2 * PushSettle

// Decision is the gate's answer for one relay.
type Decision struct {
	// Config is the load configuration to use: KnownNonConforming set,
	// with the evidence, when the store holds evidence against the relay;
	// Unproven set, with why, when the relay is not proven to meet every
	// load requirement.
	Config model.LoadConfig
	// Unproven reports that Config.Unproven is set.
	Unproven bool
	// Refused is set under ProbeFirst for a relay without a valid
	// record: do not load.
	Refused bool
	Reason  string
	// Violated lists the requirements whose violation refused the relay
	// (those the client's options defend are not among them).
	Violated []Requirement
}

// Gate is GateWith with only a policy.
func Gate(s Store, relay string, cfg model.LoadConfig, pol Policy) (Decision, error) {
	return GateWith(s, relay, cfg, GateOptions{Policy: pol})
}

// GateWith decides how to load against a relay given the evidence store
// (Full-State Load: a client must not load against a relay it has
// evidence violates the requirements). It trusts positive evidence only:
//
//   - evidence of a violation (a probe's or a load's, valid): no load
//     (Config.KnownNonConforming, with the evidence);
//   - no record, an expired one, or one of another probe version: under
//     LoadUnproven the load runs with Config.Unproven set (it collects
//     everything but never says complete); under ProbeFirst it is
//     refused;
//   - a valid probe record in which some load requirement is unknown, or
//     whose subscription capacity cannot hold OtherSubs beside the
//     load's own two: the load runs unproven, under either policy;
//   - a valid probe record in which every load requirement conforms and
//     the subscriptions fit: the load runs as configured, and may say
//     complete.
func GateWith(s Store, relay string, cfg model.LoadConfig, o GateOptions) (Decision, error) {
	if o.OtherSubs < 0 {
		return Decision{}, fmt.Errorf("relaycheck: gate: %d other subscriptions", o.OtherSubs)
	}
	if o.Policy > ProbeFirst {
		return Decision{}, fmt.Errorf("relaycheck: gate: unknown policy %d", o.Policy)
	}
	rec, ok, err := s.Get(relay)
	if err != nil {
		return Decision{}, err
	}
	now := o.Now
	if now.IsZero() {
		now = time.Now()
	}
	d := Decision{Config: cfg}
	defended := map[Requirement]bool{}
	if o.Passes >= 2 {
		defended[ReqAtomic], defended[ReqTieOrder], defended[ReqBarrier] = true, true, true
		// With a gap of at least PushSettle, waited after the fence's
		// answer (model's Rules.Load.SettleFence), the load rests on R4
		// to a settled subscription, which the gate then requires in R4's
		// place (the soundness search's late-registration-settling and
		// racy-settling).
		defended[ReqPush] = o.PassGap >= PushSettle
	}
	// A relay that evicts silently past a capacity the probe measured
	// (R8 broken, as @nostr-relay/core past 20) never evicts a
	// subscription of a connection that stays within it: the load is
	// configured with that capacity and refuses to start beyond it
	// (LoadRules.FenceFits, the proposal fence-within-capacity), which
	// the soundness search covers over a relay evicting past its
	// capacity (relaysim.SubCapped).
	if ok && rec.SubEvicts && rec.SubCapacity > 0 && o.OtherSubs+loadSubs <= rec.SubCapacity {
		defended[ReqSubs] = true
		d.Config.RelayMaxSubs, d.Config.OtherSubs = rec.SubCapacity, o.OtherSubs
	}
	var violated []Requirement
	if ok {
		for _, req := range rec.Violated {
			if !defended[req] {
				violated = append(violated, req)
			}
		}
	}
	unproven := func(why string) (Decision, error) {
		d.Config.Unproven, d.Unproven, d.Reason = why, true, why
		return d, nil
	}
	absent := ""
	switch {
	case !ok:
		absent = "no probe has recorded " + relay
	case !rec.ExpiresAt().After(now):
		absent = fmt.Sprintf("the record of %s expired on %s", relay, rec.ExpiresAt().UTC().Format(time.DateOnly))
	case rec.Source == "probe" && rec.ProbeVersion != ProbeVersion:
		absent = fmt.Sprintf("the record of %s is from probe version %q, not %s", relay, rec.ProbeVersion, ProbeVersion)
	case len(violated) > 0:
		d.Config.KnownNonConforming, d.Violated = true, violated
		d.Config.Evidence = fmt.Sprintf("%s evidence: %v: %s", rec.Source, violated, rec.Detail)
		d.Reason = d.Config.Evidence
		return d, nil
	}
	if absent != "" {
		if o.Policy == ProbeFirst {
			d.Refused, d.Reason = true, absent
			return d, nil
		}
		return unproven(absent)
	}
	if rec.Source != "probe" {
		return unproven("no probe has recorded " + relay + " (only a load's record)")
	}
	var notProven []string
	if o.Passes >= 2 {
		d.Config.Passes = max(d.Config.Passes, o.Passes)
		d.Config.PassGap = max(d.Config.PassGap, o.PassGap)
		within := "within a pass, and a push the relay queued behind an end-of-stored-events goes out within a round trip"
		if d.Config.PassGap > 0 {
			within = fmt.Sprintf("and a push the relay queued behind an end-of-stored-events goes out, within the %s gap", d.Config.PassGap)
		}
		d.Reason = fmt.Sprintf("%d passes: R5, R6 and R1's tie clause not required, assuming a replacement the relay splits finishes %s", o.Passes, within)
		if defended[ReqPush] {
			d.Reason += fmt.Sprintf("; R4 required only of a subscription answered %s ago (%s), assuming the relay registers the fence for pushes within the %s gap", PushSettle, ReqPushSettled, d.Config.PassGap)
		}
	}
	for _, req := range LoadRequirements {
		if defended[req] {
			continue
		}
		i := slices.IndexFunc(rec.Verdicts, func(rv RequirementVerdict) bool { return rv.Requirement == req })
		switch {
		case i < 0:
			notProven = append(notProven, string(req)+" not probed")
		case rec.Verdicts[i].Verdict != Conforms:
			notProven = append(notProven, fmt.Sprintf("%s %s", req, rec.Verdicts[i].Verdict))
		}
	}
	if len(notProven) > 0 {
		return unproven("the probe did not prove " + strings.Join(notProven, ", "))
	}
	if need := o.OtherSubs + loadSubs; need > rec.SubCapacity {
		return unproven(fmt.Sprintf("%d subscriptions on the load's connection (%d others and the load's %d); the probe saw %d kept", need, o.OtherSubs, loadSubs, rec.SubCapacity))
	}
	return d, nil
}
