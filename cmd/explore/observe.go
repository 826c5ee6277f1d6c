package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// observeFlags are the flags that mean something with -observe.
var observeFlags = []string{"observe", "universe", "depth", "rules", "tie", "workers", "max-states", "witness", "symmetry", "html"}

// exploreObserve searches a universe for a state an observation holds on
// (exhaustive.Observe), under each tie policy. It prints "reached" with
// the depth and the shortest trace, written as a witness file (kind
// observation) that -replay reproduces, or "not reached within the
// bounds". Finding or not finding the situation is an answer, not a
// failure: exit 0 for both, 2 for bad flags or an unknown observation, 3
// when the state bound stopped the search first (unknown).
func exploreObserve(o *options, stdout, stderr io.Writer) int {
	if f := cli.Unmeant(o.set, observeFlags...); f != "" {
		return usageError(stderr, fmt.Errorf("-%s has no meaning with -observe", f))
	}
	obs, err := exhaustive.LookupObservation(o.observe)
	if err != nil {
		return usageError(stderr, err)
	}
	name := o.universe
	if !o.isSet("universe") {
		name = obs.Universes[0]
	}
	u, err := exhaustive.ObservationUniverse(cat, name)
	if err != nil {
		return usageError(stderr, err)
	}
	tl, err := model.ParseTies(o.tie)
	if err != nil {
		return usageError(stderr, err)
	}
	rules, err := universes.CoreRules(o.rules)
	if err != nil {
		return usageError(stderr, err)
	}
	depth := o.depth
	if depth == 0 {
		depth = u.Depth
	}
	fmt.Fprintf(stdout, "explore -observe=%s -universe=%s -depth=%d -tie=%s -rules=%s -workers=%d -max-states=%d -symmetry=%t (version %s)\n",
		obs.Name, u.Name, depth, o.tie, o.rules, o.workers, o.maxStates, o.symmetry, cli.Version())
	fmt.Fprintf(stdout, "observation %s: %s\n", obs.Name, obs.Doc)
	code := exitOK
	var pages []string
	for _, t := range tl {
		res, err := exhaustive.Observe(exhaustive.ObserveConfig{Universe: u, Observation: obs, Depth: depth, Rules: rules.WithTie(t),
			Workers: o.workers, MaxStates: o.maxStates, NoSymmetry: !o.symmetry})
		if err != nil {
			return usageError(stderr, err)
		}
		fmt.Fprintln(stdout, res.Line())
		switch {
		case res.Witness != nil:
			p, err := res.WriteWitness(o.witness)
			if err != nil {
				fmt.Fprintln(stderr, "explore:", err)
				continue
			}
			fmt.Fprintf(stdout, "witness written to %s (replay: explore -replay %s)\n", p, p)
			_, r, err := universes.ReplayFile(p)
			if err != nil {
				return usageError(stderr, err)
			}
			fmt.Fprint(stdout, r.Text)
			pages = append(pages, p)
		case res.BoundHit != "":
			code = exitUnknown
		}
	}
	if o.html != "" && len(pages) > 0 {
		if c := observeHTML(o.html, pages, stdout, stderr); c != exitOK {
			return c
		}
	}
	return code
}

// observeHTML draws the written witnesses as one page, each replayed.
func observeHTML(path string, files []string, stdout, stderr io.Writer) int {
	var ws []*witnessfile.Witness
	var rs []*witnessfile.Replayed
	for _, f := range files {
		w, r, err := universes.ReplayFile(f)
		if err != nil {
			return usageError(stderr, err)
		}
		ws, rs = append(ws, w), append(rs, r)
	}
	if err := writeHTML(path, ws, rs, nil); err != nil {
		return usageError(stderr, err)
	}
	fmt.Fprintf(stdout, "page written to %s\n", path)
	return exitOK
}

// listObservations is -list's part for -observe.
func listObservations(w io.Writer) {
	fmt.Fprintln(w, "observations (-observe NAME -universe U):")
	for _, o := range exhaustive.Observations() {
		fmt.Fprintf(w, "  %-26s %s (universes %s)\n", o.Name, o.Doc, strings.Join(o.Universes, ", "))
	}
}
