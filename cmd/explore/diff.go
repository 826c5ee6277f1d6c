package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// diffFlags are the flags with a meaning for -diff.
var diffFlags = map[string]bool{"diff": true, "universe": true, "depth": true, "tie": true, "json": true, "witness": true}

// diffRules runs the lockstep search of two rule sets (exhaustive.Diff):
// the shortest history in which something a user can see differs, or
// "no difference within the bounds" with the bounds. Exit 0 either way
// (a difference is what an amendment is for); 2 on a bad flag or name.
func diffRules(o *options, stdout, stderr io.Writer) int {
	names := strings.Split(o.diff, ",")
	if len(names) != 2 || names[0] == "" || names[1] == "" || names[0] == names[1] {
		return usageError(stderr, fmt.Errorf("-diff %q: want two different rule sets, A,B (see -list)", o.diff))
	}
	if o.universe == loadUniverse {
		return diffLoad(o, names, stdout, stderr)
	}
	if o.universe == history.UniverseName {
		return diffWalk(o, names, stdout, stderr)
	}
	for _, f := range o.set {
		if !diffFlags[f] {
			return usageError(stderr, fmt.Errorf("-%s has no meaning with -diff (it takes -universe, -depth, -tie, -witness and -json)", f))
		}
	}
	u, err := cat.Universe(o.universe)
	if err != nil {
		return usageError(stderr, fmt.Errorf("%v; -diff also takes -universe %s, the full-state load's scenarios, and -universe %s, the paged walk", err, loadUniverse, history.UniverseName))
	}
	tl, err := cli.ParseTies(o.tie)
	if err != nil {
		return usageError(stderr, err)
	}
	if !o.isSet("tie") {
		tl = tl[:1]
	}
	if len(tl) != 1 {
		return usageError(stderr, fmt.Errorf("-diff takes one tie policy (clear or set)"))
	}
	rules := make([]*model.Rules, 2)
	for i, n := range names {
		r, err := diffSide(n, tl[0])
		if err != nil {
			return usageError(stderr, fmt.Errorf("-diff: %v", err))
		}
		rules[i] = r
	}
	res, err := exhaustive.Diff(u, rules[0], rules[1], o.depth)
	if err != nil {
		return usageError(stderr, err)
	}
	file, err := writeDiffWitness(o.witness, res.WitnessJSON(tl[0]), res.A, res.B, u.Name, tl[0].String())
	if err != nil {
		return usageError(stderr, err)
	}
	if o.json {
		b, _ := json.MarshalIndent(res.Document(), "", "  ") // plain data always marshals
		fmt.Fprintln(stdout, string(b))
		return exitOK
	}
	fmt.Fprintf(stdout, "explore -diff=%s -universe=%s -depth=%d -tie=%s (version %s)\n", o.diff, u.Name, res.Depth, tl[0], cli.Version())
	for _, l := range res.Lines() {
		fmt.Fprintln(stdout, l)
	}
	if file != "" {
		fmt.Fprintf(stdout, "witness written to %s (replay: explore -replay %s)\n", file, file)
	}
	return exitOK
}

// diffSide is a side of -diff: the rule set named under tie
// (amendments.RulesUnder).
func diffSide(name string, tie model.TiePolicy) (*model.Rules, error) {
	return amendments.RulesUnder(cat, name, tie)
}

// writeDiffWitness writes a difference witness (witnessfile.WriteDiff).
var writeDiffWitness = witnessfile.WriteDiff
