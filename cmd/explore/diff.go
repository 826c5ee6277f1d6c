package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
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
		b, _ := json.MarshalIndent(diffDoc(res), "", "  ") // plain data always marshals
		fmt.Fprintln(stdout, string(b))
		return exitOK
	}
	fmt.Fprintf(stdout, "explore -diff=%s -universe=%s -depth=%d -tie=%s (version %s)\n", o.diff, u.Name, res.Depth, tl[0], cli.Version())
	if res.Differences == nil {
		fmt.Fprintf(stdout, "no difference within the bounds: universe %s, depth %d, %d distinct pairs of states; a user of any device sees the same frontiers, overrides, failures and published blobs under %s and %s\n",
			u.Name, res.Depth, res.Pairs, res.A, res.B)
		return exitOK
	}
	for _, l := range diffLines(res) {
		fmt.Fprintln(stdout, l)
	}
	fmt.Fprintf(stdout, "witness written to %s (replay: explore -replay %s)\n", file, file)
	return exitOK
}

// diffSide is the rule set name (ruleSetNamed) under tie as a side of
// -diff runs it: an amendment that decides ties itself under its own
// policy.
func diffSide(name string, tie model.TiePolicy) (*model.Rules, error) {
	r, err := ruleSetNamed(name)
	if err != nil {
		return nil, err
	}
	if am, ok := amendments.Lookup(name); ok && am.Pinned {
		return r.WithTie(am.Tie), nil
	}
	return r.WithTie(tie), nil
}

// diffLines says a found difference: the history, then what differs.
func diffLines(res *exhaustive.DiffResult) []string {
	steps := fmt.Sprintf("%d steps", len(res.Actions))
	if len(res.Actions) == 1 {
		steps = "1 step"
	}
	out := []string{fmt.Sprintf("the shortest history that tells %s and %s apart (%s, universe %s, %d distinct pairs of states explored):", res.A, res.B, steps, res.Universe, res.Pairs)}
	for i, a := range res.Actions {
		out = append(out, fmt.Sprintf("  step %d: %s", i+1, a))
	}
	out = append(out, "then:")
	for _, d := range res.Differences {
		out = append(out, "  "+d)
	}
	return out
}

type diffJSON struct {
	Universe    string   `json:"universe"`
	Depth       int      `json:"depth"`
	A           string   `json:"a"`
	B           string   `json:"b"`
	Pairs       int      `json:"pairs"`
	Actions     []string `json:"actions"`
	Differences []string `json:"differences"`
}

func diffDoc(r *exhaustive.DiffResult) diffJSON {
	d := diffJSON{Universe: r.Universe, Depth: r.Depth, A: r.A, B: r.B, Pairs: r.Pairs, Actions: []string{}, Differences: []string{}}
	for _, a := range r.Actions {
		d.Actions = append(d.Actions, a.String())
	}
	d.Differences = append(d.Differences, r.Differences...)
	return d
}

// writeDiffWitness writes a difference witness (data nil: none found) to
// dir as diff-<parts joined by ->.json and returns its path ("" for
// none). Every -diff search and the amendment report name their files so.
func writeDiffWitness(dir string, data []byte, parts ...string) (string, error) {
	if data == nil {
		return "", nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("witness directory: %w", err)
	}
	file := filepath.Join(dir, "diff-"+strings.Join(parts, "-")+".json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		return "", fmt.Errorf("write witness: %w", err)
	}
	return file, nil
}
