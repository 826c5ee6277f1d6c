package main

import (
	"fmt"
	"io"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// observeFlags are the flags that mean something with -observe.
var observeFlags = []string{"observe", "universe", "depth", "rules", "tie", "workers", "max-states", "witness", "symmetry", "html"}

// exploreObserve searches a universe for a state an observation holds on
// under each tie policy (exhaustive.ObserveRun), and with -html draws the
// traces found as one page. Finding or not finding the situation is an
// answer, not a failure: exit 0 for both, 2 for bad flags or an unknown
// observation, 3 when the state bound stopped the search first (unknown).
func exploreObserve(o *options, stdout, stderr io.Writer) int {
	if f := cli.Unmeant(o.set, observeFlags...); f != "" {
		return usageError(stderr, fmt.Errorf("-%s has no meaning with -observe", f))
	}
	obs, err := exhaustive.LookupObservation(o.observe)
	if err != nil {
		return usageError(stderr, err)
	}
	name := o.universe
	if !o.isSet("universe") {
		name = obs.Universes[0]
	}
	u, err := exhaustive.ObservationUniverse(cat, name)
	if err != nil {
		return usageError(stderr, err)
	}
	tl, err := model.ParseTies(o.tie)
	if err != nil {
		return usageError(stderr, err)
	}
	rules, err := universes.CoreRules(o.rules)
	if err != nil {
		return usageError(stderr, err)
	}
	r := exhaustive.ObserveRun{Observation: obs, Universe: u, Tie: o.tie, Ties: tl, Rules: rules, RulesName: o.rules, Depth: o.depth,
		Workers: o.workers, MaxStates: o.maxStates, Symmetry: o.symmetry, WitnessDir: o.witness}
	fmt.Fprintln(stdout, r.Head())
	found, code, err := r.Run(stdout, func(err error) { fmt.Fprintln(stderr, "explore:", err) }, universes.ReplayFile)
	if err != nil {
		return usageError(stderr, err)
	}
	if o.html != "" && len(found) > 0 {
		var ws []*witnessfile.Witness
		var rs []*witnessfile.Replayed
		for _, f := range found {
			ws, rs = append(ws, f.Witness), append(rs, f.Replayed)
		}
		if err := writeHTML(o.html, ws, rs); err != nil {
			return usageError(stderr, err)
		}
		fmt.Fprintf(stdout, "page written to %s\n", o.html)
	}
	return code
}
