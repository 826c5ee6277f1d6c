package main

import (
	"errors"
	"flag"
	"fmt"
	"path/filepath"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/history"
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

func (c *checkpointOptions) on() bool { return c.dir != "" || c.resume != "" }

// usable says why the flags cannot be honoured by the run o asks for: only
// the exhaustive exploration of the explorer's universes checkpoints.
func (c *checkpointOptions) usable(o *options) error {
	if !c.on() {
		return nil
	}
	flagName := c.flagName()
	_, amended := amendments.Lookup(o.rules)
	switch {
	case c.dir != "" && c.resume != "" && filepath.Clean(c.dir) != filepath.Clean(c.resume):
		return errors.New("-checkpoint and -resume name different directories (-resume keeps checkpointing in its own)")
	case o.sim.merge, o.sim.walks != 0:
		return fmt.Errorf("%s applies to the exhaustive search, not to -simulate or -merge", flagName)
	case o.replay != "":
		return fmt.Errorf("%s applies to the exhaustive search, not to -replay", flagName)
	case o.compare != "":
		return fmt.Errorf("%s applies to the exhaustive search, not to -compare", flagName)
	case o.store.kind == exhaustive.StoreRuns:
		return fmt.Errorf("%s: not with -store runs (its levels live in files of its own)", flagName)
	case o.universe == history.UniverseName:
		return fmt.Errorf("%s applies to the explorer's universes, not to the %s universe (a run of seconds)", flagName, history.UniverseName)
	case amended:
		// An amendment's run also records which rule inputs it decided
		// otherwise than spec, which a checkpoint does not carry.
		return fmt.Errorf("%s: not with an amendment as the rule set (-rules %s)", flagName, o.rules)
	}
	return nil
}

func (c *checkpointOptions) flagName() string {
	if c.resume != "" {
		return "-resume"
	}
	return "-checkpoint"
}
