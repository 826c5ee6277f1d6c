package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/props"
)

// loadUniverse is the -universe name of the full-state load's scenarios
// for -diff: not one of the catalogue's universes (the explorer has no
// load), the seeded scenario search of package props.
const loadUniverse = "load"

// diffLoadFlags are the flags with a meaning for -diff -universe load.
var diffLoadFlags = map[string]bool{"diff": true, "universe": true, "json": true, "witness": true, "seed": true, "cases": true}

// diffLoad runs the load's seeded soundness scenarios under two rule sets
// (props.DiffSearch) over the relay profiles the gate searches, and says
// the first scenario, shrunk, after which a user sees a load's verdict,
// reason or retained coordinates otherwise; or "no difference within the
// bounds" with the bounds. Exit 0 either way; 2 on a bad flag or name.
func diffLoad(o *options, names []string, stdout, stderr io.Writer) int {
	for _, f := range o.set {
		if !diffLoadFlags[f] {
			return usageError(stderr, fmt.Errorf("-%s has no meaning with -diff -universe load (it takes -seed, -cases, -witness and -json)", f))
		}
	}
	if o.cases < 1 {
		return usageError(stderr, fmt.Errorf("-cases %d: need at least 1", o.cases))
	}
	seed := mutants.DefaultSeed
	if o.isSet("seed") {
		seed = o.sim.seed
	}
	var rules [2]*model.Rules
	for i, n := range names {
		r, err := ruleSetNamed(n)
		if err != nil {
			return usageError(stderr, fmt.Errorf("-diff: %v", err))
		}
		rules[i] = r
	}
	res, err := props.DiffSearch(props.DiffConfig{A: rules[0], B: rules[1], Profiles: props.GateProfiles(props.CheckSoundness), Cases: o.cases, Seed: seed})
	if err != nil {
		return usageError(stderr, err)
	}
	file, err := writeDiffWitness(o.witness, res.WitnessJSON(), res.A, res.B, loadUniverse)
	if err != nil {
		return usageError(stderr, err)
	}
	if o.json {
		b, _ := json.MarshalIndent(res.Document(loadUniverse), "", "  ") // plain data always marshals
		fmt.Fprintln(stdout, string(b))
		return exitOK
	}
	fmt.Fprintf(stdout, "explore -diff=%s -universe=%s -cases=%d -seed=%d (version %s)\n", o.diff, loadUniverse, res.Cases, res.Seed, cli.Version())
	for _, l := range res.Lines() {
		fmt.Fprintln(stdout, l)
	}
	if file != "" {
		fmt.Fprintf(stdout, "witness written to %s (replay: explore -replay %s)\n", file, file)
	}
	return exitOK
}

// ruleSetNamed resolves a rule set name of -diff and of a difference
// witness (exhaustive.Catalog.RuleSet).
func ruleSetNamed(name string) (*model.Rules, error) { return cat.RuleSet(name) }
