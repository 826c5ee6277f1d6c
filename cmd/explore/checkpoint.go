package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
)

// checkpointOptions are -checkpoint and -resume: a long exploration writes
// a checkpoint at every depth boundary, one subdirectory per tie policy
// (DIR/clear, DIR/set), and a killed run continues from the last one with
// exactly the output an uninterrupted run gives (exhaustive.Checkpoint).
type checkpointOptions struct {
	dir, resume string
	// stopped is set when stopAfter ended a run.
	stopped bool
}

// stopAfter, when set, ends a run right after its checkpoint of a depth,
// as a kill at that moment would: the command then exits 3 at once.
var stopAfter func(tie model.TiePolicy, depth int) bool

func (c *checkpointOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&c.dir, "checkpoint", "", "write a checkpoint to this directory at every depth boundary (a subdirectory per tie policy; never over an existing checkpoint), so that a killed exploration can be resumed")
	fs.StringVar(&c.resume, "resume", "", "continue the exploration checkpointed in this directory: the same flags, or a larger -depth (a smaller one is refused); it keeps checkpointing there")
}

func (c *checkpointOptions) on() bool { return c.dir != "" || c.resume != "" }

// where is the checkpoint directory of the run.
func (c *checkpointOptions) where() string {
	if c.resume != "" {
		return c.resume
	}
	return c.dir
}

// usable says why the flags cannot be honoured by the run o asks for: only
// the exhaustive exploration of the explorer's universes checkpoints.
func (c *checkpointOptions) usable(o *options) error {
	if !c.on() {
		return nil
	}
	flagName := "-checkpoint"
	if c.resume != "" {
		flagName = "-resume"
	}
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
	case o.store.kind == "runs":
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

// tieDir is the checkpoint directory of one tie policy's run.
func (c *checkpointOptions) tieDir(t model.TiePolicy) string {
	return filepath.Join(c.where(), t.String())
}

// prepare checks, before any run starts, that every tie's run can write or
// resume its checkpoint, and creates the directories a fresh run needs.
// A resume needs at least one tie's checkpoint; a tie without one (the
// run was stopped before it began) starts afresh. Nothing is created or
// changed when a check fails.
func (c *checkpointOptions) prepare(base exhaustive.Config, ties []model.TiePolicy, stderr io.Writer) error {
	if !c.on() {
		return nil
	}
	dir := c.where()
	if c.resume != "" {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return fmt.Errorf("-resume %s: no such directory", dir)
		}
		found := false
		var notes []string
		for _, t := range ties {
			if !search.HasCheckpoint(c.tieDir(t)) {
				continue
			}
			found = true
			cfg := base
			cfg.Rules = base.Rules.WithTie(t)
			cfg.Checkpoint = &exhaustive.Checkpoint{Dir: c.tieDir(t), Resume: true, Build: buildID()}
			if err := exhaustive.CheckResume(cfg); err != nil {
				return fmt.Errorf("-resume: %w", err)
			}
			notes = append(notes, resumeNote(c.tieDir(t)))
		}
		if !found {
			return fmt.Errorf("-resume %s: no checkpoint of this run there (looked for %s)", dir, c.tieDir(ties[0]))
		}
		for _, n := range notes {
			fmt.Fprintln(stderr, n)
		}
	} else {
		for _, t := range ties {
			if search.HasCheckpoint(c.tieDir(t)) {
				return fmt.Errorf("-checkpoint %s: it already holds a checkpoint (%s); continue it with -resume %s, or remove it", dir, c.tieDir(t), dir)
			}
		}
	}
	for _, t := range ties {
		if err := os.MkdirAll(c.tieDir(t), 0o755); err != nil {
			return fmt.Errorf("checkpoint directory: %w", err)
		}
	}
	return nil
}

// buildID names this program for a checkpoint (cli.BuildID: the version
// and the executable's digest), so that a checkpoint is resumed only by
// the very build that wrote it.
func buildID() string { return cli.BuildID() }

// resumeNote says where a resumed run starts from.
func resumeNote(dir string) string {
	s, err := search.OpenCheckpoint(dir)
	if err != nil {
		return "explore: resuming " + dir
	}
	return fmt.Sprintf("explore: resuming %s from depth %d (%d states stored)", dir, s.Depth(), s.States())
}

// apply sets the checkpoint of tie t's run.
func (c *checkpointOptions) apply(cfg *exhaustive.Config, t model.TiePolicy) {
	if !c.on() {
		return
	}
	cp := &exhaustive.Checkpoint{Dir: c.tieDir(t), Build: buildID(), Resume: c.resume != "" && search.HasCheckpoint(c.tieDir(t))}
	if stopAfter != nil {
		cp.Stop = func(d int) bool {
			c.stopped = stopAfter(t, d)
			return c.stopped
		}
	}
	cfg.Checkpoint = cp
}
