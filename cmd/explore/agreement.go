package main

import (
	"fmt"
	"io"
	"math"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/cli"
)

// checkAgreement is -check's value for the eventual-agreement check.
const checkAgreement = "agreement"

// exploreAgreement runs the eventual-agreement check (exhaustive.Agreement)
// on a network universe under each tie policy: an override set on one
// device reaches every upgraded device once the user stops, under fair
// delivery, with -depth bounding the user actions. It prints the graph's
// counts, which say the check was not vacuous, and writes the first
// witness (kind liveness) that -replay checks. Exit 0 when it holds, 1 on
// a witness, 2 on bad flags, 3 when the state bound was reached or the
// premise never met (unknown).
func exploreAgreement(o *options, stdout, stderr io.Writer) int {
	for _, f := range o.set {
		if !livenessFlags[f] {
			return usageError(stderr, fmt.Errorf("-%s has no meaning with -check %s", f, checkAgreement))
		}
	}
	u, err := exhaustive.LivenessUniverse(cat, o.universe)
	if err != nil {
		return usageError(stderr, err)
	}
	tl, err := cli.ParseTies(o.tie)
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
	maxStates := exhaustive.DefaultLivenessStates
	switch {
	case o.isSet("max-states") && o.maxStates == 0:
		maxStates = math.MaxInt32
	case o.isSet("max-states"):
		maxStates = o.maxStates
	}
	fmt.Fprintf(stdout, "explore -check=agreement -universe=%s -depth=%d -tie=%s -rules=%s -max-states=%d (version %s)\n",
		u.Name, depth, o.tie, o.rules, maxStates, cli.Version())
	code := exitOK
	for _, t := range tl {
		res, err := exhaustive.Agreement(exhaustive.LivenessConfig{Universe: u, Depth: depth, Rules: rules.WithTie(t), MaxStates: maxStates})
		if err != nil && res != nil {
			fmt.Fprintf(stdout, "agreement %s tie %s: unknown: %v\n", u.Name, t, err)
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
