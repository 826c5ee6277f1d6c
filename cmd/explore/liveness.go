package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
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
	if m, ok := mutants.Lookup(o.rules); ok && m.Change.Model == nil {
		return usageError(stderr, fmt.Errorf("-rules %s: a mutant of another layer than the core", o.rules))
	}
	rules, err := cat.Rules(o.rules)
	if err != nil {
		return usageError(stderr, fmt.Errorf("-rules: %v", err))
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
		fmt.Fprintln(stdout, livenessLine(res, t))
		switch res.Status {
		case exhaustive.StatusViolation:
			code = exitViolation
			p, err := writeLasso(o.witness, res, t)
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

// livenessLine is one run's verdict and the counts that make it
// non-vacuous.
func livenessLine(res *exhaustive.LivenessResult, t model.TiePolicy) string {
	status := res.Status.String()
	if res.BoundHit != "" {
		status += " (bound: " + res.BoundHit + ")"
	}
	return fmt.Sprintf("liveness %s tie %s rules %s depth %d: %s; roots %d, states %d, edges %d, triggered publications %d, "+
		"states with a message in flight and a publication enabled %d, cyclic components %d (unfair %d, %d of them publishing; fair %d, %d of them publishing)",
		res.Universe, t, res.Rules, res.Depth, status, res.Roots, res.States, res.Edges, res.Publications, res.Premise,
		res.Components, res.Unfair, res.UnfairWithPublication, res.Fair, res.WithPublication)
}

// writeLasso writes a run's lasso to dir.
func writeLasso(dir string, res *exhaustive.LivenessResult, t model.TiePolicy) (string, error) {
	if res.Witness == nil {
		return "", errors.New("a violation without a lasso")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("witness directory: %w", err)
	}
	p := filepath.Join(dir, fmt.Sprintf("liveness-%s-depth%d-%s.json", res.Universe, res.Depth, t))
	if err := os.WriteFile(p, res.Witness.JSON(t), 0o644); err != nil {
		return "", fmt.Errorf("write witness: %w", err)
	}
	return p, nil
}
