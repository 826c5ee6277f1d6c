package main

import (
	"fmt"
	"io"
	"math"

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

// checkProperty is the property each -check value runs.
var checkProperty = map[string]string{checkLiveness: exhaustive.InvNoRepublishCycle, checkAgreement: exhaustive.InvOverrideReaches}

// livenessFlags are the flags that mean something with -check.
var livenessFlags = []string{"check", "universe", "depth", "rules", "tie", "workers", "max-states", "witness"}

// exploreLiveness runs the liveness check -check names (exhaustive.Liveness)
// on a network universe under each tie policy: with -check liveness, no
// re-publish cycle without user actions under weak fairness on deliveries;
// with -check agreement, an override set on one device reaches every
// upgraded device once the user stops, under fair delivery, with -depth
// bounding the user actions. It prints the graph's counts, which say the
// check was not vacuous, and writes the first witness found as a witness
// file (kind liveness) that -replay checks. Exit 0 when the property
// holds, 1 on a witness, 2 on bad flags, 3 when the state bound was
// reached or the premise never met (unknown).
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
	depth := o.depth
	if depth == 0 {
		depth = u.Depth
	}
	// The explorer's default guard counts safety states; the liveness
	// graphs have their own default, and 0 lifts the bound as it does
	// there.
	maxStates := exhaustive.DefaultLivenessStates
	switch {
	case o.isSet("max-states") && o.maxStates == 0:
		maxStates = math.MaxInt32
	case o.isSet("max-states"):
		maxStates = o.maxStates
	}
	// The agreement graph is walked by one worker: its header names none.
	workers := fmt.Sprintf(" -workers=%d", o.workers)
	if o.check == checkAgreement {
		workers = ""
	}
	fmt.Fprintf(stdout, "explore -check=%s -universe=%s -depth=%d -tie=%s -rules=%s%s -max-states=%d (version %s)\n",
		o.check, u.Name, depth, o.tie, o.rules, workers, maxStates, cli.Version())
	code := exitOK
	for _, t := range tl {
		res, err := exhaustive.Liveness(exhaustive.LivenessConfig{Universe: u, Property: checkProperty[o.check], Depth: depth,
			Rules: rules.WithTie(t), Workers: o.workers, MaxStates: maxStates})
		if err != nil && res != nil {
			// A result with an error: the premise was never met.
			fmt.Fprintf(stdout, "%s %s tie %s: unknown: %v\n", o.check, u.Name, t, err)
			code = max(code, exitUnknown)
			continue
		}
		if err != nil {
			return usageError(stderr, err)
		}
		fmt.Fprintln(stdout, res.Line(t))
		switch res.Status {
		case exhaustive.StatusViolation:
			code = exitViolation
			p, err := res.WriteWitness(o.witness, t)
			if err != nil {
				fmt.Fprintln(stderr, "explore:", err)
			} else {
				fmt.Fprintf(stdout, "witness written to %s\n", p)
			}
			fmt.Fprint(stdout, res.Witness)
		case exhaustive.StatusUnknown:
			if code == exitOK {
				code = exitUnknown
			}
		}
	}
	return code
}
