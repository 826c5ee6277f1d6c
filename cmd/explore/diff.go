package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/nip-rs/harness/catalog"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/mutants"
)

// diffRules runs -diff A,B (catalog.Diff): the lockstep search of two rule
// sets in an override universe, the load's scenarios (-universe load) or
// the walk (-universe walk), and says the shortest history after which
// something a user can see differs, or "no difference within the bounds"
// with the bounds. Exit 0 either way (a difference is what an amendment
// is for); 2 on a bad flag or name.
func diffRules(o *options, stdout, stderr io.Writer) int {
	a, b, err := catalog.ParseDiffPair(o.diff)
	if err != nil {
		return usageError(stderr, err)
	}
	takes, with := catalog.DiffFlags(o.universe)
	if f := cli.Unmeant(o.set, append(takes, "diff", "universe", "witness", "json")...); f != "" {
		return usageError(stderr, fmt.Errorf("-%s has no meaning with -diff%s (it takes -%s, -witness and -json)", f, with, strings.Join(takes, ", -")))
	}
	req := catalog.DiffRequest{A: a, B: b, Universe: o.universe, Variant: o.variant, Depth: o.depth,
		Cases: o.cases, Seed: mutants.DefaultSeed, WitnessDir: o.witness}
	if o.isSet("tie") {
		req.Tie = o.tie
	}
	if o.isSet("seed") {
		req.Seed = o.sim.seed
	}
	res, err := universes.Diff(req)
	if err != nil {
		return usageError(stderr, err)
	}
	res.Write(stdout, o.diff, o.json)
	return exitOK
}
