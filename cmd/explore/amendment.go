package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/runreport"
)

// exploreAmendment runs every check of the gate's suite with the
// amendment as the rule set (runreport.RunSuite) and prints its report;
// it exits by the verdict, which rests on all of them.
func exploreAmendment(o *options, am amendments.Amendment, stdout, stderr io.Writer) int {
	// Every other run flag bounds one universe, and the suite's checks
	// have their own bounds.
	if f := cli.Unmeant(o.set, "rules", "tie", "workers", "witness", "progress", "json", "cpuprofile", "memprofile"); f != "" {
		return usageError(stderr, fmt.Errorf("-%s bounds one universe: with -rules %s alone every check of the suite runs at its own bounds (add -universe U to explore one universe)", f, am.Name))
	}
	tl, err := cliTies(o, am)
	if err != nil {
		return usageError(stderr, err)
	}
	s := runreport.Suite{Amendment: am, Ties: tl, Workers: o.workers, Catalog: cat, WitnessDir: o.witness,
		Head: fmt.Sprintf("explore -rules=%s -tie=%s -workers=%d: the whole suite (version %s)", am.Name, tieNames(tl), o.workers, cli.Version()),
		Warn: func(err error) { fmt.Fprintln(stderr, "explore:", err) }}
	if o.progress > 0 {
		s.Progress = func(line string) { fmt.Fprintln(stderr, "explore:", line) }
	}
	if !o.json {
		fmt.Fprintln(stdout, s.Head)
	}
	out, err := runreport.RunSuite(s)
	if err != nil {
		return usageError(stderr, err)
	}
	if o.json {
		b, _ := json.MarshalIndent(out, "", "  ") // plain data always marshals
		fmt.Fprintln(stdout, string(b))
	} else {
		out.WriteText(stdout)
	}
	return out.Exit()
}

// tieNames is the -tie that reproduces a run of the policies tl.
func tieNames(tl []model.TiePolicy) string {
	if len(tl) == 2 {
		return "both"
	}
	return tl[0].String()
}

// cliTies is the tie policies an amendment's run covers
// (runreport.AmendmentTies): -tie, or the amendment's own.
func cliTies(o *options, am amendments.Amendment) ([]model.TiePolicy, error) {
	return runreport.AmendmentTies(am, o.tie, o.isSet("tie"))
}

// readingAmendment is a reading of the text judged as an amendment
// (runreport.ReadingAmendment).
var readingAmendment = runreport.ReadingAmendment
