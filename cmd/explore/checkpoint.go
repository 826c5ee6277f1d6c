package main

import (
	"flag"

	"github.com/nip-rs/harness/model"
)

// checkpointOptions are -checkpoint and -resume: a long exploration writes
// a checkpoint at every depth boundary, one subdirectory per tie policy
// (DIR/clear, DIR/set), and a killed run continues from the last one with
// exactly the output an uninterrupted run gives (exhaustive.Checkpoint).
type checkpointOptions struct{ dir, resume string }

// stopAfter, when set, ends a run right after its checkpoint of a depth,
// as a kill at that moment would: the command then exits 3 at once.
var stopAfter func(tie model.TiePolicy, depth int) bool

func (c *checkpointOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&c.dir, "checkpoint", "", "write a checkpoint to this directory at every depth boundary (a subdirectory per tie policy; never over an existing checkpoint), so that a killed exploration can be resumed")
	fs.StringVar(&c.resume, "resume", "", "continue the exploration checkpointed in this directory: the same flags, or a larger -depth (a smaller one is refused); it keeps checkpointing there")
}

// usable says why the flags cannot be honoured by the run o asks for
// (runreport.ExploreArgs.CheckpointError).
func (c *checkpointOptions) usable(o *options) error {
	other := ""
	switch {
	case o.sim.merge, o.sim.walks != 0:
		other = "-simulate or -merge"
	case o.replay != "":
		other = "-replay"
	case o.compare != "":
		other = "-compare"
	}
	return exploreArgs(o).CheckpointError(other)
}
