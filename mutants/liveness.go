package mutants

import (
	"fmt"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
)

// KindLiveness is the gate's liveness check of a universe built for it
// (exhaustive.LivenessUniverses): no re-publish cycle without user actions,
// under weak fairness on deliveries (exhaustive.Liveness).
const KindLiveness = "liveness"

// ClassLiveness is the class of a liveness check: it asserts that the
// protocol stops writing on its own, not that a state is right.
const ClassLiveness = "liveness"

// livenessChecks is one liveness check per liveness universe, and the
// eventual-agreement check of network-pair.
func livenessChecks() []Check {
	var out []Check
	for _, u := range exhaustive.LivenessUniverses() {
		out = append(out, Check{Name: KindLiveness + ":" + u.Name, Kind: KindLiveness, Universe: u.Name})
	}
	return append(out, Check{Name: CheckAgreement("network-pair"), Kind: KindLiveness, Universe: "network-pair", Prop: exhaustive.InvOverrideReaches})
}

// CheckAgreement names the eventual-agreement check of a universe: an
// override set on one device reaches every device once the user stops,
// under fair delivery (exhaustive.Agreement).
func CheckAgreement(universe string) string { return KindLiveness + ":" + universe + "/agreement" }

// liveness runs a liveness check. Its Work is the product graph's states.
// A run that meets its state bound or never meets its premise could not
// tell anything: a setup failure, never a pass.
func (r *runner) liveness(c Check, rules *model.Rules) *Finding {
	u, err := exhaustive.LivenessUniverse(r.opts.Catalog, c.Universe)
	if err != nil {
		return setupFailure(err)
	}
	if c.Prop == exhaustive.InvOverrideReaches {
		return r.agreement(c, u, rules)
	}
	res, err := exhaustive.Liveness(exhaustive.LivenessConfig{Universe: u, Rules: rules, Workers: r.opts.Workers})
	if err != nil {
		return setupFailure(err)
	}
	if res.Status == exhaustive.StatusUnknown {
		return setupFailure(fmt.Errorf("%s: %s", c.Name, res.BoundHit))
	}
	f := &Finding{Work: int64(res.States), Depth: -1}
	if w := res.Witness; w != nil {
		f.Invariant, f.Detail, f.Depth = exhaustive.InvNoRepublishCycle, w.Detail, len(w.Prefix)+len(w.Approach)+len(w.Loop)
		f.Witness = &Witness{Kind: KindLiveness, JSON: w.JSON(rules.Tie), Text: w.String()}
	}
	return f
}

// agreement runs the eventual-agreement check. Its Work is the graph's
// states; as for the re-publish check, a bound or an unmet premise is a
// setup failure.
func (r *runner) agreement(c Check, u exhaustive.Universe, rules *model.Rules) *Finding {
	res, err := exhaustive.Agreement(exhaustive.LivenessConfig{Universe: u, Rules: rules})
	if err != nil {
		return setupFailure(err)
	}
	if res.Status == exhaustive.StatusUnknown {
		return setupFailure(fmt.Errorf("%s: %s", c.Name, res.BoundHit))
	}
	f := &Finding{Work: int64(res.States), Depth: -1}
	if w := res.Witness; w != nil {
		f.Invariant, f.Detail, f.Depth = exhaustive.InvOverrideReaches, w.Detail, len(w.Prefix)+len(w.Loop)
		f.Witness = &Witness{Kind: KindLiveness, JSON: w.JSON(rules.Tie), Text: w.String()}
	}
	return f
}
