package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/nip-rs/harness/catalog"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/ruleset"
	"github.com/nip-rs/harness/witnessfile"
)

// The paged history walk (community-history-sync.md) is a universe of its
// own: its states are relays, a store and a cursor, not read-state
// registers, so it has its own rule sets (history.RuleSets and the history
// mutants) and no tie policy. A violation of the invariant the rule set is
// documented to break (history.Known) is reported as that documented
// limitation: it is printed and written, and does not fail the run.

// walkFlags are the flags with a meaning for the walk universe.
var walkFlags = map[string]bool{"universe": true, "variant": true, "depth": true, "rules": true, "workers": true, "json": true, "witness": true,
	"html": true, "progress": true, "simulate": true, "steps": true, "seed": true, "cpuprofile": true, "memprofile": true}

// walkInputs resolves the rule set and the catalogue's entry of the
// variant, and refuses a flag the walk has no use for (a tie policy,
// directed checks, a state guard, -all).
func walkInputs(o *options) (ruleset.Set, catalog.Entry, error) {
	for _, f := range o.set {
		if !walkFlags[f] {
			return ruleset.Set{}, catalog.Entry{}, fmt.Errorf("-%s has no meaning with -universe %s (the walk has no tie policy, no directed checks, one witness per run; its universe is small enough for no state guard)", f, history.UniverseName)
		}
	}
	rules, ok := catalog.WalkRules(o.rules)
	if !ok {
		return ruleset.Set{}, catalog.Entry{}, fmt.Errorf("-rules %s: not a rule set of the %s universe (want one of %s)", o.rules, history.UniverseName, strings.Join(catalog.WalkRuleNames(), ", "))
	}
	e, err := universes.LookupVariant(history.UniverseName, o.variant)
	if err != nil {
		var names []string
		for _, v := range history.Variants() {
			names = append(names, v.Name)
		}
		return ruleset.Set{}, catalog.Entry{}, fmt.Errorf("-variant %s: want one of %s", o.variant, strings.Join(names, ", "))
	}
	return ruleset.Set{Name: o.rules, History: rules}, e, nil
}

// walkResult is the last lines of a walk run and its exit code.
func walkResult(w io.Writer, documented, broken []string) int {
	switch {
	case len(broken) > 0:
		fmt.Fprintf(w, "\nresult: violation: %s\n", strings.Join(broken, ", "))
		return exitViolation
	case len(documented) > 0:
		fmt.Fprintf(w, "\nresult: ok, only the rule set's documented limitation: %s\n", strings.Join(documented, ", "))
		return exitOK
	}
	fmt.Fprintln(w, "\nresult: ok, no violation")
	return exitOK
}

// exploreWalk searches the walk universe (its catalogue entry) breadth
// first to the depth bound.
func exploreWalk(o *options, stdout, stderr io.Writer) int {
	rules, e, err := walkInputs(o)
	if err != nil {
		return usageError(stderr, err)
	}
	depth := e.Depth
	if o.depth > 0 {
		depth = o.depth
	}
	variant := ""
	if o.variant != "default" {
		variant = " -variant=" + o.variant
	}
	run := fmt.Sprintf("explore -universe=%s%s -depth=%d -rules=%s -workers=%d (version %s)", history.UniverseName, variant, depth, o.rules, o.workers, cli.Version())
	current.Named(run)
	if o.progress > 0 {
		fmt.Fprintf(stderr, "explore %s: searching to depth %d under rules %s\n", history.UniverseName, depth, o.rules)
	}
	out, err := e.Explore(rules, catalog.Bound{Depth: depth, Workers: o.workers})
	if err != nil {
		return usageError(stderr, err)
	}
	documented, broken := out.Findings()
	files, err := witnessfile.WriteWithText(o.witness, fmt.Sprintf("explore-%s%s-depth%d-%s", history.UniverseName, strings.ReplaceAll(variant, " -variant=", "-"), depth, o.rules), out.Witness, out.Text)
	if err != nil {
		fmt.Fprintln(stderr, "explore:", err)
	}
	if o.html != "" && out.Witness != nil {
		if err := writeHTML(o.html, []*witnessfile.Witness{out.Witness}, nil, nil); err != nil {
			return usageError(stderr, err)
		}
	}
	if o.json {
		code := walkResult(io.Discard, documented, broken)
		status := map[int]string{exitOK: "ok", exitViolation: "violation"}[code]
		writeWalkJSON(stdout, map[string]any{"run": run, "status": status, "universe": history.UniverseName, "rules": o.rules,
			"depth": depth, "distinct": out.Distinct, "per_depth": out.PerDepth, "rounds": out.Counters["rounds"],
			"documented_limitation": out.Documented, "violations": out.Violations, "witness": out.Witness, "witness_files": files})
		return code
	}
	fmt.Fprintln(stdout, run)
	fmt.Fprintf(stdout, "\nuniverse %s: %s\n", history.UniverseName, catalog.WalkDoc())
	fmt.Fprintf(stdout, "new states per depth %s, %s distinct, %s rounds run\n", perDepth(out.PerDepth), num.Commas(out.Distinct), num.Commas(out.Counters["rounds"]))
	writeWalkTable(stdout, out)
	if out.Witness != nil {
		fmt.Fprintf(stdout, "\n%s", out.Text)
	}
	for _, f := range files {
		fmt.Fprintf(stdout, "witness written to %s\n", f)
	}
	return walkResult(stdout, documented, broken)
}

// simulateWalk runs seeded random walks through the walk universe.
func simulateWalk(o *options, stdout, stderr io.Writer) int {
	rules, e, err := walkInputs(o)
	if err != nil {
		return usageError(stderr, err)
	}
	if o.json {
		return usageError(stderr, errors.New("-json with -simulate is for the explorer's universes; the walk's simulation prints text"))
	}
	s := o.sim
	out, err := e.Simulate(rules, catalog.SimBound{Walks: s.walks, Steps: s.steps, Seed: s.seed})
	if err != nil {
		return usageError(stderr, err)
	}
	c := out.Counters
	fmt.Fprintf(stdout, "explore -universe=%s -simulate=%d -steps=%d -seed=%d -rules=%s (version %s)\n",
		history.UniverseName, s.walks, s.steps, s.seed, o.rules, cli.Version())
	fmt.Fprintf(stdout, "seed %d: %d walks, %d steps, %d states checked, %d rounds, %d walks stuck\n",
		s.seed, c["walks"], c["steps"], out.Distinct, c["rounds"], c["stuck"])
	writeWalkTable(stdout, out)
	documented, broken := out.Findings()
	if out.Witness != nil {
		kind := "violation"
		if _, known := out.Documented[out.Witness.Invariant]; known {
			kind = "documented limitation"
		}
		fmt.Fprintf(stdout, "%s %s in walk %d after %d steps, shrunk to %d\n%s", kind, out.Witness.Invariant, c["walk"], c["raw_depth"], len(out.Witness.Actions), out.Text)
		files, err := witnessfile.WriteWithText(o.witness, fmt.Sprintf("simulate-%s-seed%d-%s", history.UniverseName, s.seed, o.rules), out.Witness, out.Text)
		if err != nil {
			return usageError(stderr, err)
		}
		for _, f := range files {
			fmt.Fprintf(stdout, "witness written to %s\n", f)
		}
		if o.html != "" {
			if err := writeHTML(o.html, []*witnessfile.Witness{out.Witness}, nil, nil); err != nil {
				return usageError(stderr, err)
			}
		}
	}
	return walkResult(stdout, documented, broken)
}

// writeWalkTable writes one row per invariant of the walk: what it says
// and whether it held, failed, or failed as documented.
func writeWalkTable(w io.Writer, s *catalog.Summary) {
	fmt.Fprintln(w)
	for _, inv := range history.Invariants {
		res := "holds"
		if n := s.Violations[inv.ID]; n > 0 {
			res = "FAIL " + num.Commas(n)
		}
		if n := s.Documented[inv.ID]; n > 0 {
			res = "documented limitation, " + num.Commas(n)
		}
		fmt.Fprintf(w, "  %-4s %-22s %s: %s\n", inv.Label, inv.ID, inv.Doc, res)
	}
}

func perDepth(ns []int) string {
	var ss []string
	for _, n := range ns {
		ss = append(ss, num.Commas(n))
	}
	return strings.Join(ss, "/")
}

func writeWalkJSON(w io.Writer, v map[string]any) {
	b, _ := json.MarshalIndent(v, "", "  ")
	fmt.Fprintln(w, string(b))
}

// listWalk writes the walk universe's part of -list: its rule sets and
// its invariants.
func listWalk(w io.Writer) {
	fmt.Fprintf(w, "rule sets of the %s universe:\n", history.UniverseName)
	fmt.Fprintf(w, "  %-20s the walk as community-history-sync.md states it (documented limitation: %s)\n", "spec", history.Limitation)
	fmt.Fprintf(w, "  %-20s spec with the fix the document names: a bridge out of budget records the region it left\n", "healing")
	fmt.Fprintf(w, "  %-20s healing with pinned seconds, cap detection, a clock ceiling, stray wraps as evidence and a bridge down to the overlap\n", "proposed")
	for _, m := range mutants.All() {
		if m.Change.History != nil {
			fmt.Fprintf(w, "  %-20s history mutant: %s (%s)\n", m.ID, m.Rule, m.Section)
		}
	}
	fmt.Fprintf(w, "variants of the %s universe (-variant):\n", history.UniverseName)
	for _, v := range history.Variants() {
		fmt.Fprintf(w, "  %-20s %s\n", v.Name, catalog.WalkVariantDoc(v.U))
	}
	fmt.Fprintf(w, "invariants of the %s universe:\n", history.UniverseName)
	for _, inv := range history.Invariants {
		fmt.Fprintf(w, "  %-4s %-34s %s (%s)\n", inv.Label, inv.ID, inv.Doc, inv.Section)
	}
}
