package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/nip-rs/harness/catalog"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/witnessfile"
)

// diffWalkFlags are the flags with a meaning for -diff -universe walk.
var diffWalkFlags = map[string]bool{"diff": true, "universe": true, "variant": true, "depth": true, "json": true, "witness": true}

// diffWalk runs the walk's lockstep search of two rule sets
// (history.Diff) in one variant: the shortest history after which a
// member's store or saved cursor differs, or "no difference within the
// bounds" with the bounds. Exit 0 either way; 2 on a bad flag or name.
func diffWalk(o *options, names []string, stdout, stderr io.Writer) int {
	for _, f := range o.set {
		if !diffWalkFlags[f] {
			return usageError(stderr, fmt.Errorf("-%s has no meaning with -diff -universe %s (it takes -variant, -depth, -witness and -json)", f, history.UniverseName))
		}
	}
	u, ok := catalog.WalkVariant(o.variant)
	if !ok {
		return usageError(stderr, fmt.Errorf("-variant %s: not a variant of the walk (see -universe walk -list)", o.variant))
	}
	var rules [2]*history.Rules
	for i, n := range names {
		r, ok := catalog.WalkRules(n)
		if !ok {
			return usageError(stderr, fmt.Errorf("-diff: %q is not a rule set of the walk (want one of %s)", n, strings.Join(catalog.WalkRuleNames(), ", ")))
		}
		r = r.Clone()
		r.Name = n
		rules[i] = r
	}
	res, err := history.Diff(u, o.variant, rules[0], rules[1], o.depth)
	if err != nil {
		return usageError(stderr, err)
	}
	file, err := writeDiffWitness(o.witness, res.WitnessJSON(), res.A, res.B, history.UniverseName, o.variant)
	if err != nil {
		return usageError(stderr, err)
	}
	if o.json {
		b, _ := json.MarshalIndent(res, "", "  ") // plain data always marshals
		fmt.Fprintln(stdout, string(b))
		return exitOK
	}
	fmt.Fprintf(stdout, "explore -diff=%s -universe=%s -variant=%s -depth=%d (version %s)\n", o.diff, history.UniverseName, o.variant, res.Depth, cli.Version())
	if res.Differences == nil {
		fmt.Fprintf(stdout, "no difference within the bounds: walk variant %s, depth %d, %d distinct pairs of states; a member sees the same stored wraps and saved cursor under %s and %s\n",
			o.variant, res.Depth, res.Pairs, res.A, res.B)
		return exitOK
	}
	fmt.Fprintf(stdout, "the shortest history that tells %s and %s apart (%d steps, walk variant %s, %d distinct pairs of states explored):\n",
		res.A, res.B, len(res.Actions), o.variant, res.Pairs)
	for i, a := range res.Actions {
		fmt.Fprintf(stdout, "  step %d: %s\n", i+1, describeWalkAction(a))
	}
	fmt.Fprintln(stdout, "then:")
	for _, d := range res.Differences {
		fmt.Fprintf(stdout, "  %s\n", d)
	}
	fmt.Fprintf(stdout, "witness written to %s (replay: explore -replay %s)\n", file, file)
	return exitOK
}

// describeWalkAction says a walk action as a witness's steps do.
func describeWalkAction(a witnessfile.Action) string {
	s := a.Action
	if a.Ctx != "" {
		s += " " + a.Ctx
	}
	if a.Value == 1 {
		s += " (a wrap arrives during the round)"
	}
	return s
}
