package exhaustive

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
)

// Checkpoints is where an exploration over several tie policies keeps its
// checkpoints: one subdirectory of Dir per policy (Dir/clear, Dir/set),
// each that policy's run's Checkpoint. A killed run continues from the
// last one with exactly the output an uninterrupted run gives.
type Checkpoints struct {
	Dir string
	// Resume continues the runs checkpointed in Dir; a tie without a
	// checkpoint there (the run was stopped before it began) starts
	// afresh.
	Resume bool
	// Build names the program (Checkpoint.Build).
	Build string
}

// TieDir is the checkpoint directory of tie t's run.
func (c Checkpoints) TieDir(t model.TiePolicy) string {
	return filepath.Join(c.Dir, t.String())
}

// Prepare checks, before any run starts, that every tie's run of base can
// write or resume its checkpoint, and creates the directories a fresh run
// needs. A resume needs at least one tie's checkpoint, and each one there
// must be whole and of this run (CheckResume); a fresh run refuses a
// directory that already holds one. Nothing is created or changed when a
// check fails. notes say where each resumed run starts from. Errors begin
// with the directory they are about.
func (c Checkpoints) Prepare(base Config, ties []model.TiePolicy) (notes []string, err error) {
	if len(ties) == 0 {
		return nil, fmt.Errorf("%s: no tie policy to checkpoint", c.Dir)
	}
	if c.Resume {
		if fi, err := os.Stat(c.Dir); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("%s: no such directory", c.Dir)
		}
		for _, t := range ties {
			if !search.HasCheckpoint(c.TieDir(t)) {
				continue
			}
			cfg := base
			cfg.Rules = base.Rules.WithTie(t)
			cfg.Checkpoint = &Checkpoint{Dir: c.TieDir(t), Resume: true, Build: c.Build}
			if err := CheckResume(cfg); err != nil {
				return nil, fmt.Errorf("%s: %w", c.TieDir(t), err)
			}
			notes = append(notes, resumeNote(c.TieDir(t)))
		}
		if len(notes) == 0 {
			return nil, fmt.Errorf("%s: no checkpoint of this run there (looked for %s)", c.Dir, c.TieDir(ties[0]))
		}
	} else {
		for _, t := range ties {
			if search.HasCheckpoint(c.TieDir(t)) {
				return nil, fmt.Errorf("%s: it already holds a checkpoint (%s); resume it or remove it", c.Dir, c.TieDir(t))
			}
		}
	}
	for _, t := range ties {
		if err := os.MkdirAll(c.TieDir(t), 0o755); err != nil {
			return nil, fmt.Errorf("%s: %w", c.Dir, err)
		}
	}
	return notes, nil
}

// resumeNote says where a resumed run starts from.
func resumeNote(dir string) string {
	s, err := search.OpenCheckpoint(dir)
	if err != nil {
		return "resuming " + dir
	}
	return fmt.Sprintf("resuming %s from depth %d (%d states stored)", dir, s.Depth(), s.States())
}

// For is tie t's Checkpoint: resumed when Resume is set and t's run has
// one, written afresh otherwise.
func (c Checkpoints) For(t model.TiePolicy) *Checkpoint {
	return &Checkpoint{Dir: c.TieDir(t), Build: c.Build, Resume: c.Resume && search.HasCheckpoint(c.TieDir(t))}
}
