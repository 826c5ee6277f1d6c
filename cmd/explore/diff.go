package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/nip-rs/harness/catalog"
	"github.com/nip-rs/harness/history"
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
	names := strings.Split(o.diff, ",")
	if len(names) != 2 || names[0] == "" || names[1] == "" || names[0] == names[1] {
		return usageError(stderr, fmt.Errorf("-diff %q: want two different rule sets, A,B (see -list)", o.diff))
	}
	takes, with := []string{"universe", "depth", "tie"}, ""
	switch o.universe {
	case catalog.LoadDiffUniverse:
		takes, with = []string{"seed", "cases"}, " -universe "+o.universe
	case history.UniverseName:
		takes, with = []string{"variant", "depth"}, " -universe "+o.universe
	}
	if f := cli.Unmeant(o.set, append(takes, "diff", "universe", "witness", "json")...); f != "" {
		return usageError(stderr, fmt.Errorf("-%s has no meaning with -diff%s (it takes -%s, -witness and -json)", f, with, strings.Join(takes, ", -")))
	}
	req := catalog.DiffRequest{A: names[0], B: names[1], Universe: o.universe, Variant: o.variant, Depth: o.depth,
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
	if o.json {
		b, _ := json.MarshalIndent(res.Doc, "", "  ") // plain data always marshals
		fmt.Fprintln(stdout, string(b))
		return exitOK
	}
	fmt.Fprintf(stdout, "explore -diff=%s %s (version %s)\n", o.diff, res.Bounds, cli.Version())
	for _, l := range res.Lines {
		fmt.Fprintln(stdout, l)
	}
	if res.Witness != "" {
		fmt.Fprintf(stdout, "witness written to %s (replay: explore -replay %s)\n", res.Witness, res.Witness)
	}
	return exitOK
}
