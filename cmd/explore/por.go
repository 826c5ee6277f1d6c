package main

import "flag"

// porOptions is the partial-order reduction flag (NOTE.md, "Partial-order
// reduction"): off by default, so every pinned count of a run is that of
// the unreduced search.
type porOptions struct{ on bool }

func (p *porOptions) register(fs *flag.FlagSet) {
	fs.BoolVar(&p.on, "por", false, "skip transitions whose other order with a commuting transition is explored anyway (network universes): the same states and verdicts, fewer transitions executed and counted")
}

// header is what the first output line adds for the flag: nothing when it
// is off, so that line is unchanged for a default run.
func (p porOptions) header() string {
	if p.on {
		return " -por=true"
	}
	return ""
}
