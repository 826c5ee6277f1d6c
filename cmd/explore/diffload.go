package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/props"
	"github.com/nip-rs/harness/witnessfile"
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
		b, _ := json.MarshalIndent(diffLoadDoc(res), "", "  ") // plain data always marshals
		fmt.Fprintln(stdout, string(b))
		return exitOK
	}
	fmt.Fprintf(stdout, "explore -diff=%s -universe=%s -cases=%d -seed=%d (version %s)\n", o.diff, loadUniverse, res.Cases, res.Seed, cli.Version())
	bounds := fmt.Sprintf("relay profiles %s, %d scenarios per profile, seed %d", strings.Join(res.Profiles, ", "), res.Cases, res.Seed)
	if res.Found == nil {
		fmt.Fprintf(stdout, "no difference within the bounds: %s; every load of every scenario ends with the same verdict, reason and retained coordinates under %s and %s\n",
			bounds, res.A, res.B)
		return exitOK
	}
	f := res.Found
	fmt.Fprintf(stdout, "the first load scenario that tells %s and %s apart (scenario %d of the search over %s; case %d, shrunk to %d steps):\n",
		res.A, res.B, res.Scenarios, bounds, f.Case, len(f.Steps))
	fmt.Fprintf(stdout, "  %s\n", f.Config)
	for i, s := range f.Steps {
		fmt.Fprintf(stdout, "  step %d: %s\n", i+1, s)
	}
	fmt.Fprintln(stdout, "then the load runs to its verdict:")
	for _, d := range f.Differences {
		fmt.Fprintf(stdout, "  %s\n", d)
	}
	fmt.Fprintf(stdout, "witness written to %s (replay: explore -replay %s)\n", file, file)
	return exitOK
}

// ruleSetNamed resolves a rule set name of -diff and of a difference
// witness: a catalogue name (-list), or proposed-without-NAME, the
// production rules with one proposal of model.Proposals left out.
func ruleSetNamed(name string) (*model.Rules, error) {
	r, err := cat.Rules(name)
	if err == nil {
		return r, nil
	}
	if p, ok := strings.CutPrefix(name, model.ProposedName+"-without-"); ok {
		if w, found := model.Without(p); found {
			return w, nil
		}
		var known []string
		for _, q := range model.Proposals() {
			known = append(known, q.Name)
		}
		return nil, fmt.Errorf("unknown rule set %q: no proposal %q (known: %s)", name, p, strings.Join(known, ", "))
	}
	return nil, err
}

// replayLoadDiff replays a load difference witness under both rule sets
// it names; reproduced only when the differences are the recorded ones.
func replayLoadDiff(w *witnessfile.Witness) (*witnessfile.Replayed, error) {
	r, err := props.ReplayDiff(w.Raw, ruleSetNamed)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	out := &witnessfile.Replayed{Reproduced: r.Reproduced, Text: r.Text}
	if len(r.Differences) > 0 {
		out.Found = []string{props.InvariantDiff + ": " + r.Differences[0]}
		out.Detail = r.Differences[0]
	}
	return out, nil
}

type diffLoadJSON struct {
	Universe    string   `json:"universe"`
	A           string   `json:"a"`
	B           string   `json:"b"`
	Profiles    []string `json:"profiles"`
	Cases       int      `json:"cases"`
	Seed        uint64   `json:"seed"`
	Scenarios   int      `json:"scenarios"`
	Case        *int     `json:"case"`
	Config      *string  `json:"config"`
	Steps       []string `json:"steps"`
	Differences []string `json:"differences"`
}

func diffLoadDoc(r *props.DiffResult) diffLoadJSON {
	d := diffLoadJSON{Universe: loadUniverse, A: r.A, B: r.B, Profiles: r.Profiles, Cases: r.Cases, Seed: r.Seed, Scenarios: r.Scenarios,
		Steps: []string{}, Differences: []string{}}
	if f := r.Found; f != nil {
		c, cfg := f.Case, f.Config.String()
		d.Case, d.Config = &c, &cfg
		for _, s := range f.Steps {
			d.Steps = append(d.Steps, s.String())
		}
		d.Differences = append(d.Differences, f.Differences...)
	}
	return d
}
