package runreport

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/nip-rs/harness/catalog"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/ruleset"
	"github.com/nip-rs/harness/search"
)

// A universe the explorer has no path of its own for (the paged history
// walk and its variants, a community universe, candidate A's encoding)
// runs through its catalogue entry, one run path for all of them, and is
// reported in the entry's terms: the figures, each invariant's
// violations, the smallest witness. The walk has its own rule sets and no
// tie policy; a violation of the invariant its rule set is documented to
// break (history.Known) is reported as that documented limitation, and
// does not fail the run.

// EntryArgs are what a command line asks of an entry: its universe (an
// entry name, or the walk with Variant), rule set, tie policies and
// bounds; Walks > 0 asks for a seeded simulation instead of the search.
// Flags names the flags given, each of which must have a meaning for the
// entry.
type EntryArgs struct {
	Universe, Variant, Rules, Tie string
	Depth, Workers, MaxStates     int
	Walks, Steps                  int
	Seed                          uint64
	// JSON asks for the run as one JSON document (the walk's search).
	JSON  bool
	Flags []string
}

// walkFlags are the flags with a meaning for the walk universe.
var walkFlags = []string{"universe", "variant", "depth", "rules", "workers", "max-states", "json", "witness",
	"html", "progress", "simulate", "steps", "seed", "cpuprofile", "memprofile"}

// entryFlags are the flags with a meaning for any other entry.
var entryFlags = []string{"universe", "depth", "rules", "tie", "workers", "max-states",
	"witness", "progress", "cpuprofile", "memprofile"}

// EntryRun is one run of an entry: one per tie policy asked for on an
// override-layer entry, one otherwise.
type EntryRun struct {
	Entry   catalog.Entry
	Rules   ruleset.Set
	Tie     model.TiePolicy
	Variant string
	Depth   int
	// Header is the run's first line: everything needed to reproduce it.
	Header string
	// Summary is what the run found, once Run has returned.
	Summary *catalog.Summary
	// Files are the witness files Report wrote.
	Files []string

	args EntryArgs
	// maxStates is the walk's state limit: 0 (whole) unless -max-states was given.
	maxStates int
}

// EntryRuns resolves the runs a command line asks of the entry it names
// (c.EntryOnly, or the walk and its variants), or says which flag, rule
// set, variant or tie is bad. It runs nothing.
func EntryRuns(c *catalog.Catalog, a EntryArgs) ([]*EntryRun, error) {
	if a.Universe == history.UniverseName {
		r, err := walkRun(c, a)
		if err != nil {
			return nil, err
		}
		return []*EntryRun{r}, nil
	}
	e, ok := c.EntryOnly(a.Universe)
	if !ok {
		return nil, fmt.Errorf("universe %s: not one the catalogue alone runs", a.Universe)
	}
	if a.Walks != 0 {
		return nil, entrySimulation(e, a)
	}
	for _, f := range a.Flags {
		if !slices.Contains(entryFlags, f) {
			return nil, fmt.Errorf("-%s has no meaning with -universe %s", f, e.Name)
		}
	}
	ties, err := model.ParseTies(a.Tie)
	if err != nil {
		return nil, err
	}
	if e.Layer == ruleset.LayerCommunity {
		ties = ties[:1] // no tie policy: one run
	}
	depth := e.Depth
	if a.Depth > 0 {
		depth = a.Depth
	}
	var runs []*EntryRun
	for _, tie := range ties {
		rules, err := e.RuleSet(a.Rules, tie)
		if err != nil {
			return nil, err
		}
		r := &EntryRun{Entry: e, Rules: rules, Tie: tie, Depth: depth, args: a}
		r.Header = fmt.Sprintf("explore -universe=%s -depth=%d -rules=%s -workers=%d -max-states=%d (version %s)", e.Name, depth, a.Rules, a.Workers, a.MaxStates, cli.Version())
		if e.Layer == ruleset.LayerModel {
			r.Header = fmt.Sprintf("explore -universe=%s -depth=%d -tie=%s -rules=%s -workers=%d -max-states=%d (version %s)", e.Name, depth, tie, a.Rules, a.Workers, a.MaxStates, cli.Version())
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// entrySimulation is why a simulation of an entry other than the walk is
// refused: none of them has a seeded simulation (the community
// universes' random walks are their package's rapid tests), and the
// entry says so.
func entrySimulation(e catalog.Entry, a EntryArgs) error {
	rules, err := e.RuleSet(a.Rules, model.ClearWins)
	if err != nil {
		return err
	}
	if _, err := e.Simulate(rules, catalog.SimBound{Walks: a.Walks, Steps: a.Steps, Seed: a.Seed, Workers: a.Workers}); err != nil {
		return fmt.Errorf("-simulate: %w", err)
	}
	return fmt.Errorf("-simulate: universe %s has no report of its simulation here", e.Name)
}

// walkRun resolves the walk's run: a flag the walk has no use for (a tie
// policy, directed checks, -all) is refused, then a rule set it does not
// know, then a variant. Its universes are small, so they run whole unless
// -max-states is given: the command's default guard does not reach them.
func walkRun(c *catalog.Catalog, a EntryArgs) (*EntryRun, error) {
	for _, f := range a.Flags {
		if !slices.Contains(walkFlags, f) {
			return nil, fmt.Errorf("-%s has no meaning with -universe %s (the walk has no tie policy, no directed checks, one witness per run)", f, history.UniverseName)
		}
	}
	rules, ok := catalog.WalkRules(a.Rules)
	if !ok {
		return nil, fmt.Errorf("-rules %s: not a rule set of the %s universe (want one of %s)", a.Rules, history.UniverseName, strings.Join(catalog.WalkRuleNames(), ", "))
	}
	e, err := c.LookupVariant(history.UniverseName, a.Variant)
	if err != nil {
		var names []string
		for _, v := range history.Variants() {
			names = append(names, v.Name)
		}
		return nil, fmt.Errorf("-variant %s: want one of %s", a.Variant, strings.Join(names, ", "))
	}
	r := &EntryRun{Entry: e, Rules: ruleset.Set{Name: a.Rules, History: rules}, Variant: a.Variant, Depth: e.Depth, args: a}
	if a.Depth > 0 {
		r.Depth = a.Depth
	}
	if a.Walks != 0 {
		r.Header = fmt.Sprintf("explore -universe=%s -simulate=%d -steps=%d -seed=%d -rules=%s (version %s)",
			history.UniverseName, a.Walks, a.Steps, a.Seed, a.Rules, cli.Version())
		return r, nil
	}
	guard := ""
	if slices.Contains(a.Flags, "max-states") {
		r.maxStates = a.MaxStates
		guard = fmt.Sprintf(" -max-states=%d", a.MaxStates)
	}
	r.Header = fmt.Sprintf("explore -universe=%s%s -depth=%d -rules=%s -workers=%d%s (version %s)", history.UniverseName, r.variantFlag(), r.Depth, a.Rules, a.Workers, guard, cli.Version())
	return r, nil
}

// variantFlag is the walk's -variant as its header shows it: nothing for
// the default universe.
func (r *EntryRun) variantFlag() string {
	if r.Variant == "" || r.Variant == "default" {
		return ""
	}
	return " -variant=" + r.Variant
}

func (r *EntryRun) walk() bool { return r.Entry.Layer == ruleset.LayerHistory }

func (r *EntryRun) simulation() bool { return r.args.Walks != 0 }

// Run explores the entry to the run's depth, or simulates it. progress,
// when not nil, receives what the run is doing: the walk's one line, or
// each snapshot of another entry's search.
func (r *EntryRun) Run(progress io.Writer) error {
	a := r.args
	var err error
	if r.simulation() {
		if a.JSON {
			return errors.New("-json with -simulate is for the explorer's universes; the walk's simulation prints text")
		}
		r.Summary, err = r.Entry.Simulate(r.Rules, catalog.SimBound{Walks: a.Walks, Steps: a.Steps, Seed: a.Seed})
		return err
	}
	b := catalog.Bound{Depth: r.Depth, Workers: a.Workers, MaxStates: a.MaxStates}
	if r.walk() {
		b.MaxStates = r.maxStates // run whole unless -max-states was given
		if progress != nil {
			fmt.Fprintf(progress, "explore %s: searching to depth %d under rules %s\n", history.UniverseName, r.Depth, a.Rules)
		}
	}
	if progress != nil {
		b.Progress = func(p search.Progress) {
			if r.Entry.Layer != ruleset.LayerModel { // no tie policy to name
				fmt.Fprintf(progress, "explore %s: %s\n", r.Entry.Name, exhaustive.ProgressLine(p, r.Depth))
				return
			}
			fmt.Fprintln(progress, exhaustive.RunProgressLine(r.Entry.Name, r.Tie.String(), r.Depth, p))
		}
	}
	r.Summary, err = r.Entry.Explore(r.Rules, b)
	return err
}
