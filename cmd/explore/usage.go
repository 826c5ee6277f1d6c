package main

import "github.com/nip-rs/harness/internal/cli"

// doc is -h: what the command does, how to call it and its exit codes.
var doc = cli.Doc{
	Name: "explore",
	About: `the bounded explorer of NIP-RS. It visits every state a universe
(devices, contexts, values, a network) can reach within a depth bound under a
rule set, checks every invariant at every state, then runs the directed and
conformance cubes. A violation is printed as a witness and written as JSON;
-replay re-runs one, after checking every field of the file against what its
universe or check can produce. Progress goes to standard error; Ctrl-C prints
what was done so far and exits 3. -simulate N -json -shard i/n runs the i-th
of n contiguous blocks of the N walks (counted from 1); -merge combines the
blocks' documents into the whole run's document, byte for byte.`,
	Args: "[shard.json ... with -merge]",
	Examples: []string{
		"explore                                   # reference universe, both ties, every cube",
		"explore -universe network -depth 6        # the in-flight network universe",
		"explore -rules b-max-frontier             # an amendment as the rule set (see -list)",
		"explore -rules M6 -universe network -depth 4 -all  # a witness per violated invariant",
		"explore -replay mutants/testdata/M3.clear.json -rules spec",
		"explore -list                             # universes, rule sets, invariants, cubes",
		"explore -diff proposed,fence-lapse-fails -universe load  # the first load scenario two rule sets end differently",
		"explore -universe network -simulate 3000 -json -shard 1/3 > part1.json  # one CI job's block of walks",
		"explore -merge part1.json part2.json part3.json  # the whole simulation's -json document and exit code",
	},
	Exit: []cli.Exit{
		{Code: cli.ExitOK, Meaning: "every check passed (with -replay: nothing fails along the witness); -h, -version, -list"},
		{Code: cli.ExitFailed, Meaning: "a violation (with -replay: the witness, or another check, fails)"},
		{Code: cli.ExitUsage, Meaning: `usage or input error: unknown flag, universe, rule set, invariant;
a witness file that does not parse or fit; a flag -replay cannot honour; a bad
-shard; -merge files that are not the parts of one run, a part twice or missing`},
		{Code: cli.ExitUnknown, Meaning: `unknown: a state bound (-max-states, on by default) was hit, or the run
was interrupted, before the depth bound`},
	},
}
