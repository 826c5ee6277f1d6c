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
prints what was done so far and exits 3.`,
	Examples: []string{
		"mutate                          # the gate, both tie policies (about a minute)",
		"mutate -only M17 -tie clear     # one mutant; the control runs only where needed",
		"mutate -control b-max-frontier  # the whole gate with an amendment as the baseline",
		"mutate -list                    # mutants, amendments and checks, one line each",
		"mutate -update                  # rewrite the golden witnesses",
	},
	Exit: []cli.Exit{
		{Code: cli.ExitOK, Meaning: "every mutant caught (or equivalent, as declared), every witness unchanged; -h, -version, -list"},
		{Code: cli.ExitFailed, Meaning: `a mutant survived, an expected check missed, the control tripped a check,
or a witness changed`},
		{Code: cli.ExitUsage, Meaning: `usage or input error (unknown flag, mutant or amendment; bad value; a -golden
directory that does not exist, without -update): nothing ran`},
		{Code: cli.ExitUnknown, Meaning: "interrupted: the mutants finished so far are listed, no verdict"},
	},
}
