package exhaustive

import (
	"fmt"
	"strconv"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
)

// Checkpoint is where an exploration writes a checkpoint at every depth
// boundary, or resumes from one (search.Checkpoint). A resumed run reports
// exactly what an uninterrupted one does: the engine reloads the stored
// states, the tally and the sleep sets, and the world reloads its interned
// values (device states, publications, and a network's antichains,
// knowledge, messages and channels) under the very ids the stored rows use;
// everything else the world keeps is a cache of pure functions of those
// values, rebuilt as the run goes on.
type Checkpoint struct {
	// Dir is the checkpoint's directory; it must exist.
	Dir string
	// Resume continues the run checkpointed in Dir, and keeps
	// checkpointing there.
	Resume bool
	// Build names the program that writes the checkpoint; a checkpoint of
	// another build is refused, since its universes or rules may differ.
	Build string
	// Stop, when set, is called after each checkpoint is written with its
	// depth; true ends the run there, unknown.
	Stop func(depth int) bool
}

// checkpointIdentity names the run for its checkpoint: everything besides
// the depth bound and the state limit that decides the results.
func checkpointIdentity(cfg *Config, w world) []search.Field {
	sym := false
	if nw, ok := w.(*netWorld); ok {
		sym = nw.sym != nil
	}
	return []search.Field{
		{Key: "build", Value: cfg.Checkpoint.Build},
		{Key: "universe", Value: cfg.Universe.Name},
		{Key: "universe.doc", Value: cfg.Universe.Doc},
		{Key: "rules", Value: cfg.Rules.Name},
		{Key: "tie", Value: cfg.Rules.Tie.String()},
		{Key: "symmetry", Value: strconv.FormatBool(sym)},
	}
}

// searchCheckpoint is the engine's checkpoint configuration for world w.
func searchCheckpoint(cfg *Config, w world) (*search.Checkpoint, error) {
	var tables search.Tables
	switch w := w.(type) {
	case *refWorld:
		tables = &refTables{w: w}
	case *netWorld:
		tables = &netCheckpoint{w: w}
	default:
		return nil, fmt.Errorf("universe %q cannot be checkpointed", cfg.Universe.Name)
	}
	cp := cfg.Checkpoint
	return &search.Checkpoint{Dir: cp.Dir, Resume: cp.Resume, Stop: cp.Stop, Identity: checkpointIdentity(cfg, w), Tables: tables}, nil
}

// CheckResume checks, without changing anything, that cfg can resume from
// its Checkpoint: the checkpoint is whole (every file's checksum), is of
// this run, and within its depth bound and state limit. A command that
// resumes several runs checks them all before it resumes any.
func CheckResume(cfg Config) error {
	if cfg.Checkpoint == nil {
		return fmt.Errorf("no checkpoint to resume")
	}
	u := cfg.Universe
	if cfg.Depth == 0 {
		cfg.Depth = u.Depth
	}
	if cfg.Rules == nil {
		cfg.Rules = model.Proposed()
	}
	w, _, err := newWorld(&u, cfg.Rules, cfg.Depth, !cfg.NoSymmetry)
	if err != nil {
		return err
	}
	cp, err := searchCheckpoint(&cfg, w)
	if err != nil {
		return err
	}
	// What decides whether a checkpoint fits (Explore passes the rest).
	return search.CheckResume[*cache](w, search.Config{Depth: cfg.Depth, TerminalOnly: u.TerminalOnly,
		MaxStates: cfg.MaxStates, POR: cfg.POR, StopAtFirst: cfg.StopAtFirst, Checkpoint: cp})
}

// refTables is the reference world's interned values: the device engine's.
type refTables struct {
	w    *refWorld
	mark engineMark
}

func (t *refTables) AppendTables(e *search.Enc) error { return t.mark.append(t.w.e, e) }
func (t *refTables) LoadTables(d *search.Dec) error   { return t.mark.load(t.w.e, d) }

func (t *refTables) ValidRow(row []int32) error { return t.mark.valid(row) }
