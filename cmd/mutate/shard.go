package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
)

// A gate run splits across machines by its mutant list: the -only list,
// or the whole catalogue in its order, dealt round-robin (item k to part
// k mod n + 1), so a part is fixed by the list and n alone. Every part
// runs the control as the whole run would (it decides which checks a
// mutant may use), so the control's time is paid once per part; the
// mutant runs are split. -merge checks the parts are of one run and
// rebuilds the whole run's document.

// shardPart is the ids of the mutants shard s runs, in run order.
func shardPart(only []string, s cli.Shard) []string {
	list := only
	if list == nil {
		for _, m := range mutants.All() {
			list = append(list, m.ID)
		}
	}
	var out []string
	for k, id := range list {
		if s.Owns(k) {
			out = append(out, id)
		}
	}
	return out
}

// merge is -merge: the shard documents of one run, combined into the
// document the unsharded run prints, and the exit code it would have.
func merge(names []string, stdout, stderr io.Writer) int {
	files, err := cli.ReadShards(names, func() *gateDoc { return new(gateDoc) })
	if err != nil {
		return usageError(stderr, err)
	}
	d, err := mergeDocs(files)
	if err != nil {
		return usageError(stderr, err)
	}
	d.writeJSON(stdout)
	if len(d.Problems) > 0 {
		return exitFailed
	}
	return exitOK
}

// runConfig reads back what finish needs from a run line: the tie
// policies, the baseline, the -only list and -update's absence (a shard
// document records whether it rewrote witnesses).
func runConfig(run string) (ties []model.TiePolicy, baseline string, only []string, err error) {
	if !strings.HasPrefix(run, "mutate -tie=") {
		return nil, "", nil, fmt.Errorf("not a mutate run line: %q", run)
	}
	tie, _, _ := strings.Cut(strings.TrimPrefix(run, "mutate -tie="), " ")
	if ties, err = model.ParseTies(tie); err != nil {
		return nil, "", nil, err
	}
	baseline = "proposed"
	if _, rest, ok := strings.Cut(run, " -control="); ok {
		baseline, _, _ = strings.Cut(rest, " ")
	}
	if _, rest, ok := strings.Cut(run, " -only="); ok {
		var q string
		if _, err := fmt.Sscanf(rest, "%q", &q); err != nil {
			return nil, "", nil, fmt.Errorf("run line's -only: %v", err)
		}
		if only, err = onlyList(q); err != nil {
			return nil, "", nil, err
		}
	}
	return ties, baseline, only, nil
}

// mergeDocs combines the parts (in part order, each checked by
// cli.ReadShards and its CheckPart).
func mergeDocs(files []cli.ShardFile[*gateDoc]) (*gateDoc, error) {
	ties, baseline, only, err := runConfig(files[0].Doc.Run)
	if err != nil {
		return nil, fmt.Errorf("-merge: %s: %v", files[0].Name, err)
	}
	out := &gateDoc{Run: files[0].Doc.Run, Build: files[0].Doc.Build, ties: ties, baseline: baseline}
	out.Control.Baseline = baseline
	byID := map[string][]jsonResult{}
	seen := map[string]bool{}
	for _, f := range files {
		d := f.Doc
		if want := shardPart(only, *d.Shard); !slices.Equal(d.Mutants, want) {
			return nil, fmt.Errorf("-merge: %s: part %s lists mutants %v, the run's part %s is %v", f.Name, d.Shard, d.Mutants, d.Shard, want)
		}
		if d.Control.Baseline != baseline {
			return nil, fmt.Errorf("-merge: %s: control %q, its run line says %q", f.Name, d.Control.Baseline, baseline)
		}
		// The suite: every part's is a prefix of the full order (the
		// whole suite, or with -only the cheapest checks some mutant of
		// the part reached); the run's is the longest.
		short, long := d.Suite, out.Suite
		if len(short) > len(long) {
			short, long = long, short
		}
		if !slices.Equal(short, long[:len(short)]) {
			return nil, fmt.Errorf("-merge: %s: its suite order differs from the other parts' (not one run)", f.Name)
		}
		out.Suite = long
		for _, c := range d.Control.Findings {
			key := c.Tie + "|" + c.Check
			if !seen[key] {
				seen[key] = true
				out.Control.Findings = append(out.Control.Findings, c)
			}
		}
		for _, r := range d.Results {
			if !slices.Contains(d.Mutants, r.ID) {
				return nil, fmt.Errorf("-merge: %s: result for %s, not of its part", f.Name, r.ID)
			}
			byID[r.ID] = append(byID[r.ID], r)
		}
		out.Changed = append(out.Changed, d.Changed...)
		out.update = strings.Contains(files[0].Doc.Run, " -update ")
	}
	whole := shardPart(only, cli.Shard{})
	for _, id := range whole {
		rs := byID[id]
		if len(rs) != len(ties) {
			return nil, fmt.Errorf("-merge: %d results for %s, want one per tie policy (%d)", len(rs), id, len(ties))
		}
		out.Results = append(out.Results, rs...)
	}
	slices.Sort(out.Changed)
	out.Lazy = only != nil && len(out.Suite) < len(mutants.SuiteChecks(cat))
	out.finish()
	return out, nil
}
