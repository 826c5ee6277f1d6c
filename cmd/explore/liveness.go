package main

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/cli"
)

// checkLiveness is -check's value for the liveness check.
const checkLiveness = "liveness"

// livenessFlags are the flags that mean something with -check liveness.
var livenessFlags = map[string]bool{"check": true, "universe": true, "depth": true, "rules": true, "tie": true,
	"workers": true, "max-states": true, "witness": true}

// exploreLiveness runs the liveness check (exhaustive.Liveness) on a
// network universe under each tie policy: no re-publish cycle without user
// actions, under weak fairness on deliveries. It prints the product
// graph's counts, which say the check was not vacuous, and writes the
// first lasso found as a witness file (kind liveness) that -replay checks.
// Exit 0 when no fair cycle publishes, 1 on a lasso, 2 on bad flags, 3
// when the state bound was reached or the premise never met (unknown).
func exploreLiveness(o *options, stdout, stderr io.Writer) int {
	for _, f := range o.set {
		if !livenessFlags[f] {
			return usageError(stderr, fmt.Errorf("-%s has no meaning with -check liveness", f))
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
	// The explorer's default guard counts safety states; the product graph
	// has its own default, and 0 lifts the bound as it does there.
	maxStates := exhaustive.DefaultLivenessStates
	switch {
	case o.isSet("max-states") && o.maxStates == 0:
		maxStates = math.MaxInt32
	case o.isSet("max-states"):
		maxStates = o.maxStates
	}
	fmt.Fprintf(stdout, "explore -check=liveness -universe=%s -depth=%d -tie=%s -rules=%s -workers=%d -max-states=%d (version %s)\n",
		u.Name, depth, o.tie, o.rules, o.workers, maxStates, cli.Version())
	code := exitOK
	for _, t := range tl {
		res, err := exhaustive.Liveness(exhaustive.LivenessConfig{Universe: u, Depth: depth, Rules: rules.WithTie(t),
			Workers: o.workers, MaxStates: maxStates})
		if err != nil && strings.Contains(err.Error(), "premise never met") {
			fmt.Fprintf(stdout, "liveness %s tie %s: unknown: %v\n", u.Name, t, err)
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
