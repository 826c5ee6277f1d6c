package main

import "flag"

// porOptions is the partial-order reduction flag (NOTE.md, "Partial-order
// reduction"): off by default, so every pinned count of a run is that of
// the unreduced search.
type porOptions struct{ on bool }

func (p *porOptions) register(fs *flag.FlagSet) {
	fs.BoolVar(&p.on, "por", false, "skip transitions whose other order with a commuting transition is explored anyway (network universes): the same states and verdicts, fewer transitions executed and counted")
}
