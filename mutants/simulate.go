package mutants

import (
	"fmt"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
)

// KindSimulate is the gate's simulation of a registered universe: seeded
// random walks far past its exhaustive bound (exhaustive.Simulate), the
// same checks at every state.
const KindSimulate = "simulate"

// The gate's simulation bounds: walks per universe and transitions per
// walk. The walks' seed is the gate's seed (Options.Seed).
const (
	gateWalks = 48
	gateSteps = 40
)

// simulateChecks is one simulation check per registered universe.
func simulateChecks(cat *exhaustive.Catalog) []Check {
	var out []Check
	for _, u := range Universes(cat) {
		out = append(out, Check{Name: KindSimulate + ":" + u, Kind: KindSimulate, Universe: u})
	}
	return out
}

// simulate runs a simulation check. Its Work is the successors it computes
// (every transition is tried at every step), the unit closest to an
// explorer's states.
func (r *runner) simulate(c Check, rules *model.Rules) *Finding {
	u, err := r.opts.Catalog.Universe(c.Universe)
	if err != nil {
		return setupFailure(err)
	}
	res, err := exhaustive.Simulate(exhaustive.SimConfig{Universe: u, Rules: rules, Walks: gateWalks, Steps: gateSteps,
		Seed: r.opts.Seed, Workers: r.opts.Workers})
	if err != nil {
		return setupFailure(err)
	}
	f := &Finding{Work: res.Steps * int64(res.Transitions), Depth: -1}
	if w := res.Witness; w != nil {
		text, err := exhaustive.Text(r.opts.Catalog, w)
		if err != nil {
			return setupFailure(fmt.Errorf("%s: %v", c.Name, err))
		}
		f.Invariant, f.Detail, f.Depth = w.Invariant, w.Detail, len(w.Actions)
		f.Witness = &Witness{Kind: KindExplore, JSON: w.JSON(), Text: text}
	}
	return f
}
