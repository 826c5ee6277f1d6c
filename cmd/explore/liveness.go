package main

import (
	"fmt"
	"io"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
)

// The two liveness checks -check names: no re-publish cycle without user
// actions, and eventual agreement.
const (
	checkLiveness  = "liveness"
	checkAgreement = "agreement"
)

// livenessFlags are the flags that mean something with -check.
var livenessFlags = []string{"check", "universe", "depth", "rules", "tie", "workers", "max-states", "witness"}

// exploreLiveness runs the liveness check -check names on a network
// universe under each tie policy (exhaustive.LivenessRun): with -check
// liveness, no re-publish cycle without user actions under weak fairness
// on deliveries; with -check agreement, an override set on one device
// reaches every upgraded device once the user stops, under fair delivery,
// with -depth bounding the user actions. Exit 0 when the property holds,
// 1 on a witness, 2 on bad flags, 3 when the state bound was reached or
// the premise never met (unknown).
func exploreLiveness(o *options, stdout, stderr io.Writer) int {
	if f := cli.Unmeant(o.set, livenessFlags...); f != "" {
		return usageError(stderr, fmt.Errorf("-%s has no meaning with -check %s", f, o.check))
	}
	u, err := exhaustive.LivenessUniverse(cat, o.universe)
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
	r := exhaustive.LivenessRun{Check: o.check, Universe: u, Tie: o.tie, Ties: tl, Rules: rules, RulesName: o.rules, Depth: o.depth,
		Workers: o.workers, MaxStates: exhaustive.LivenessMaxStates(o.isSet("max-states"), o.maxStates), WitnessDir: o.witness}
	fmt.Fprintln(stdout, r.Head())
	code, err := r.Run(stdout, func(err error) { fmt.Fprintln(stderr, "explore:", err) })
	if err != nil {
		return usageError(stderr, err)
	}
	return code
}
