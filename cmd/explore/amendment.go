package main

import (
	"fmt"
	"io"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/internal/cli"
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
	tl, err := runreport.AmendmentTies(am, o.tie, o.isSet("tie"))
	if err != nil {
		return usageError(stderr, err)
	}
	s := runreport.Suite{Amendment: am, Ties: tl, Workers: o.workers, Catalog: cat, WitnessDir: o.witness,
		Head: runreport.SuiteHead(am.Name, tl, o.workers),
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
	out.Write(stdout, o.json)
	return out.Exit()
}
