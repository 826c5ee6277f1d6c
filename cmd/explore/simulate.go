package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/mbt"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// simOptions are the simulation flags: -simulate N walks of -steps K
// transitions from -seed S, over -universe under -rules and -tie; -shard
// runs one block of the walks, -merge combines the blocks' documents.
type simOptions struct {
	walks int
	steps int
	seed  uint64
	shard string
	merge bool
}

func (s *simOptions) register(fs *flag.FlagSet) {
	fs.IntVar(&s.walks, "simulate", 0, "run this many seeded random walks instead of the exhaustive search (0: off)")
	fs.IntVar(&s.steps, "steps", 40, fmt.Sprintf("transitions per simulated walk, at most %d", witnessfile.MaxDepth))
	fs.Uint64Var(&s.seed, "seed", 1, "seed of the simulated walks; with -diff A,B -universe load, of the load scenarios (20240601 when not given, the load searches' seed)")
	fs.StringVar(&s.shard, "shard", "", "with -simulate -json: run part i of n of the walks (i/n, counted from 1: 1/3, 2/3, 3/3; part i is the i-th contiguous block)")
	fs.BoolVar(&s.merge, "merge", false, "combine the -simulate -shard -json documents named as arguments into the whole run's -json document (-witness is the only other flag)")
}

// simulate runs the walks under each tie policy asked for, prints the seed
// and the coverage (or with -json the document), and writes each shrunk
// witness as text and JSON (a shard carries it in its document instead).
func simulate(o *options, stdout, stderr io.Writer) int {
	s := o.sim
	if s.walks < 0 || s.steps < 1 || s.steps > witnessfile.MaxDepth {
		// A longer walk's witness is one no file can carry (and a network
		// world's causal past cannot record).
		return usageError(stderr, fmt.Errorf("-simulate %d -steps %d: need walks >= 0 and steps 1..%d", s.walks, s.steps, witnessfile.MaxDepth))
	}
	shard, err := cli.ParseShard(s.shard)
	switch {
	case err != nil:
		return usageError(stderr, err)
	case !shard.Whole() && !o.json:
		return usageError(stderr, fmt.Errorf("-shard %s: a shard's result is its -json document (add -json)", s.shard))
	case !shard.Whole() && o.html != "":
		return usageError(stderr, fmt.Errorf("-shard with -html: a page of one part is not the run's"))
	case shard.Count > s.walks:
		return usageError(stderr, fmt.Errorf("-shard %s: %d walks cannot be split into %d parts", s.shard, s.walks, shard.Count))
	}
	u, tl, rules, err := runInputs(o)
	if err != nil {
		return usageError(stderr, err)
	}
	sr := exhaustive.SimRun{Universe: u.Name, Tie: o.tie, Rules: o.rules, Walks: s.walks, Steps: s.steps, Seed: s.seed}
	if o.json {
		fmt.Fprintln(stderr, sr.Head(o.workers))
	} else {
		fmt.Fprintln(stdout, sr.Head(o.workers))
	}
	var traces func(t model.TiePolicy, from, n int) error
	if o.itf.dir != "" {
		traces = func(t model.TiePolicy, from, n int) error {
			return mbt.WriteWalks(o.itf.dir, mbt.TraceWalks{Universe: u, Rules: rules, Tie: t, Walks: n, From: from, Steps: s.steps, Seed: s.seed,
				Profile: o.itf.profile}, stderr)
		}
	}
	d, err := sr.Block(cat, u, tl, rules, shard, o.workers, traces)
	if err != nil {
		return usageError(stderr, err)
	}
	if o.json {
		d.Write(stdout)
	} else {
		d.WriteText(stdout)
	}
	w := stdout
	if o.json {
		w = stderr // the names follow the document
	}
	if shard.Whole() {
		if err := d.SaveWitnesses(o.witness, w); err != nil {
			return usageError(stderr, err)
		}
	}
	return d.Exit()
}

// mergeSim is -merge for simulations: the blocks of one run, checked by
// cli.ReadShards and combined in walk order by exhaustive.MergeSim.
func mergeSim(o *options, stdout, stderr io.Writer) int {
	var errs []string
	for _, f := range o.set {
		if f != "merge" && f != "witness" {
			errs = append(errs, "-"+f)
		}
	}
	if len(errs) > 0 {
		return usageError(stderr, fmt.Errorf("-merge takes only shard files (and -witness): the run's flags are in them, not %v", errs))
	}
	files, err := cli.ReadShards(o.args, func() *simDoc { return new(simDoc) })
	if err != nil {
		return usageError(stderr, err)
	}
	var names []string
	var docs []*exhaustive.SimDoc
	for _, f := range files {
		names, docs = append(names, f.Name), append(docs, &f.Doc.SimDoc)
	}
	out, err := exhaustive.MergeRun(names, docs)
	if err != nil {
		return usageError(stderr, fmt.Errorf("-merge: %v", err))
	}
	out.Write(stdout)
	if err := out.SaveWitnesses(o.witness, stderr); err != nil {
		return usageError(stderr, err)
	}
	return out.Exit()
}

// simDoc is a simulation's document (exhaustive.SimDoc) as the command
// reads it back: a shard part whose run line and block -merge checks
// (simpart.go).
type simDoc struct{ exhaustive.SimDoc }
