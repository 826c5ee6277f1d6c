package main

import "github.com/nip-rs/harness/internal/cli"

// doc is -h: what the command does, how to call it and its exit codes.
var doc = cli.Doc{
	Name: "mutate",
	About: `the mutant gate. The control (the production rules, or an
amendment with -control) runs every generic check: every explorer universe,
every directed and conformance cube, the full-state load's property checks.
Then every mutant of the catalogue runs against the same checks, cheapest
first, until one catches it; first witnesses are compared with their golden
files (-golden, mutants/testdata). Progress goes to standard error; Ctrl-C
prints what was done so far and exits 3. A survivor that only a spec-text
conformance check could catch, under an amendment that fails that check
itself, is reported as a spec-text difference, not a failure. -shard i/n
runs part i of n of the mutant list (counted from 1) and prints its -json
document; -merge combines the parts' documents into the whole run's.`,
	Args: "[shard.json ... with -merge]",
	Examples: []string{
		"mutate                          # the gate, both tie policies (about a minute)",
		"mutate -only M17 -tie clear     # one mutant; the control runs only where needed",
		"mutate -control b-max-frontier  # the whole gate with an amendment as the baseline",
		"mutate -list                    # mutants, amendments and checks, one line each",
		"mutate -update                  # rewrite the golden witnesses",
		"mutate -json -shard 2/3 > part2.json   # part 2 of 3 of the mutant list (one CI job)",
		"mutate -merge part1.json part2.json part3.json   # the whole run's -json document and exit code",
	},
	Exit: []cli.Exit{
		{Code: cli.ExitOK, Meaning: `every mutant caught (or equivalent, as declared, or a spec-text difference
under an amendment), every witness unchanged; -h, -version, -list`},
		{Code: cli.ExitFailed, Meaning: `a mutant survived, an expected check missed, the control tripped a check,
or a witness changed`},
		{Code: cli.ExitUsage, Meaning: `usage or input error (unknown flag, mutant or amendment; bad value; a -golden
directory that does not exist, without -update; a bad -shard; -merge files
that are not the parts of one run, a part twice or a part missing): nothing ran`},
		{Code: cli.ExitUnknown, Meaning: "interrupted: the mutants finished so far are listed, no verdict"},
	},
}
