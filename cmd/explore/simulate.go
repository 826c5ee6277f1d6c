package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/witnessfile"
)

// simOptions are the simulation flags: -simulate N walks of -steps K
// transitions from -seed S, over -universe under -rules and -tie.
type simOptions struct {
	walks int
	steps int
	seed  uint64
}

func (s *simOptions) register(fs *flag.FlagSet) {
	fs.IntVar(&s.walks, "simulate", 0, "run this many seeded random walks instead of the exhaustive search (0: off)")
	fs.IntVar(&s.steps, "steps", 40, fmt.Sprintf("transitions per simulated walk, at most %d", witnessfile.MaxDepth))
	fs.Uint64Var(&s.seed, "seed", 1, "seed of the simulated walks")
}

// simulate runs the walks under each tie policy asked for, prints the seed
// and the coverage, and writes each shrunk witness as text and JSON.
func simulate(o *options, stdout, stderr io.Writer) int {
	s := o.sim
	if s.walks < 0 || s.steps < 1 || s.steps > witnessfile.MaxDepth {
		// A longer walk's witness is one no file can carry (and a network
		// world's causal past cannot record).
		return usageError(stderr, fmt.Errorf("-simulate %d -steps %d: need walks >= 0 and steps 1..%d", s.walks, s.steps, witnessfile.MaxDepth))
	}
	u, tl, rules, err := runInputs(o)
	if err != nil {
		return usageError(stderr, err)
	}
	fmt.Fprintf(stdout, "explore -universe=%s -simulate=%d -steps=%d -seed=%d -tie=%s -rules=%s -workers=%d (version %s)\n",
		u.Name, s.walks, s.steps, s.seed, o.tie, o.rules, o.workers, cli.Version())
	code := exitOK
	for _, t := range tl {
		res, err := exhaustive.Simulate(exhaustive.SimConfig{Universe: u, Rules: rules.WithTie(t), Walks: s.walks, Steps: s.steps,
			Seed: s.seed, Workers: o.workers})
		if err != nil {
			return usageError(stderr, err)
		}
		fmt.Fprintf(stdout, "tie %s: seed %d, %d walks, %d steps, %d states checked, %d walks stuck\n",
			t, res.Seed, res.Walks, res.Steps, res.Checked, res.Stuck)
		for _, inv := range res.Invariants {
			fmt.Fprintf(stdout, "  %-4s %-64s %d %s, %d violations\n", inv.Label, inv.Doc, inv.Checked, inv.Unit, inv.Violations)
		}
		if res.Witness == nil {
			fmt.Fprintf(stdout, "tie %s: ok, no violation\n", t)
			continue
		}
		code = exitViolation
		text, err := exhaustive.Text(cat, res.Witness)
		if err != nil {
			return usageError(stderr, err)
		}
		fmt.Fprintf(stdout, "tie %s: violation %s in walk %d after %d steps, shrunk to %d\n%s",
			t, res.Witness.Invariant, res.Walk, res.RawDepth, len(res.Witness.Actions), text)
		if err := os.MkdirAll(o.witness, 0o755); err != nil {
			return usageError(stderr, err)
		}
		base := filepath.Join(o.witness, fmt.Sprintf("simulate-%s-seed%d-%s", u.Name, s.seed, t))
		if err := os.WriteFile(base+".json", res.Witness.JSON(), 0o644); err != nil {
			return usageError(stderr, err)
		}
		if err := os.WriteFile(base+".txt", []byte(text), 0o644); err != nil {
			return usageError(stderr, err)
		}
		fmt.Fprintf(stdout, "witness: %s.json, %s.txt\n", base, base)
	}
	return code
}
