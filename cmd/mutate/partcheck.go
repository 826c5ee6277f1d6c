package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
)

// What a mutate part must be, beyond its header (cli.ReadShards checks
// that): its mutant list is the one its run line and index deal it; it
// holds exactly one result per (mutant, tie policy) of that list, in the
// run's order; each result agrees with the catalogue entry it names and
// with itself (a caught result names its first catching check and a
// depth, an uncaught one neither); the problems a result's own fields
// imply are among those it lists; and the lines derived from the data
// (status, summary, problems, the control's verdict) are those the data
// derives. A part can still lie consistently (drop a finding it had and
// every line that followed from it): only rerunning it would tell, which
// is what a merge exists to avoid; README says so.

// Header is the part's header, for cli.ReadShards.
func (d *gateDoc) Header() cli.PartHeader {
	return cli.PartHeader{Run: d.Run, Build: d.Build, Shard: d.Shard}
}

// CheckPart is cli.Part's check of one mutate part.
func (d *gateDoc) CheckPart() error {
	ties, baseline, only, err := runConfig(d.Run)
	if err != nil {
		return err
	}
	if want := shardPart(only, *d.Shard); !slices.Equal(d.Mutants, want) {
		return fmt.Errorf("part %s lists mutants %v, the run's part %s is %v", d.Shard, d.Mutants, d.Shard, want)
	}
	if n := len(d.Mutants) * len(ties); len(d.Results) != n {
		return fmt.Errorf("%d results, want %d (one per mutant of the part and tie policy)", len(d.Results), n)
	}
	known := map[string]bool{}
	for _, c := range mutants.SuiteChecks(cat) {
		known[c.Name] = true
	}
	suite := map[string]bool{}
	for _, c := range d.Suite {
		if !known[c.Name] {
			return fmt.Errorf("suite check %q: no such check", c.Name)
		}
		suite[c.Name] = true
	}
	all := strings.Contains(d.Run, " -all=true")
	for k := range d.Results {
		r := &d.Results[k]
		id, tie := d.Mutants[k/len(ties)], ties[k%len(ties)]
		if r.ID != id || r.Tie != tie.String() {
			return fmt.Errorf("result %d is %s under %s, the run's is %s under %s (each mutant once per tie policy, in run order)", k+1, r.ID, r.Tie, id, tie)
		}
		if err := checkResult(r, tie, all, suite); err != nil {
			return fmt.Errorf("result %s (tie %s): %v", r.ID, r.Tie, err)
		}
	}
	// The derived lines: a copy of the data, finished again, must print
	// what the part printed.
	stored, _ := json.Marshal(d) // plain data always marshals
	var again gateDoc
	if err := json.Unmarshal(stored, &again); err != nil {
		return err
	}
	again.ties, again.baseline, again.update = ties, baseline, strings.Contains(d.Run, " -update ")
	again.finish()
	if b, _ := json.Marshal(&again); string(b) != string(stored) {
		return fmt.Errorf("its status, summary, problems or verdict lines are not those its results and control imply (status %q, recomputed %q)", d.Status, again.Status)
	}
	return nil
}

// checkResult checks one result against its catalogue entry and itself,
// and that the problems its fields imply (mutants.Result.Problems, the
// gate's own rule) are among those it lists.
func checkResult(r *jsonResult, tie model.TiePolicy, all bool, suite map[string]bool) error {
	m, ok := mutants.Lookup(r.ID)
	switch {
	case !ok:
		return fmt.Errorf("no such mutant")
	case r.Rule != m.Rule || r.Section != m.Section:
		return fmt.Errorf("rule %q section %q, the catalogue's %q %q", r.Rule, r.Section, m.Rule, m.Section)
	}
	caught := r.Status == mutants.StatusCaught
	switch r.Status {
	case mutants.StatusCaught, mutants.StatusSurvived, mutants.StatusEquivalent, mutants.StatusSpecText, StatusNotJudged:
	default:
		return fmt.Errorf("status %q: not a status the gate gives", r.Status)
	}
	switch {
	case caught != (r.CaughtBy != "") || caught != (r.Depth != nil) || caught != (len(r.Findings) > 0):
		return fmt.Errorf("status %q with caught_by %q: a caught result names its first check and depth, another names none", r.Status, r.CaughtBy)
	case caught && r.Findings[0] != r.CaughtBy:
		return fmt.Errorf("caught_by %q is not the first of caught_by_all %v", r.CaughtBy, r.Findings)
	case (r.Status == mutants.StatusEquivalent) != (!caught && m.EquivalentUnder(tie) != "" && r.Status != StatusNotJudged):
		return fmt.Errorf("status %q: the catalogue says %q of it under %s", r.Status, m.EquivalentUnder(tie), tie)
	}
	for _, c := range append(slices.Clone(r.Findings), r.Skipped...) {
		if !suite[c] {
			return fmt.Errorf("check %q is not in the part's suite", c)
		}
	}
	res := mutants.Result{Mutant: m, Tie: tie, Status: r.Status, Missed: r.Missed, Skipped: r.Skipped}
	if r.Status == mutants.StatusSpecText || r.Status == StatusNotJudged {
		res.Status = mutants.StatusSurvived
	}
	for _, c := range r.Findings {
		res.Findings = append(res.Findings, &mutants.Finding{Check: c})
	}
	if caught {
		res.First = res.Findings[0]
	}
	if r.Status == StatusNotJudged {
		// finish turned a survivor or a spec-text difference into this
		// (the baseline fails a safety check) and cleared its problems.
		return nil
	}
	if (res.ShownStatus() == mutants.StatusSpecText) != (r.Status == mutants.StatusSpecText) {
		return fmt.Errorf("status %q: its skipped checks %v say otherwise", r.Status, r.Skipped)
	}
	for _, p := range res.Problems(all) {
		if !slices.Contains(r.Problems, p) {
			return fmt.Errorf("status %q without the problem it implies (%q)", r.Status, p)
		}
	}
	return nil
}
