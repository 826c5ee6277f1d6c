package exhaustive

import (
	"fmt"
	"time"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
	"github.com/nip-rs/harness/witnessfile"
)

// Status is the three-valued outcome of a run (search.Status).
type Status = search.Status

const (
	StatusOK        = search.StatusOK        // every check passed within the bound
	StatusViolation = search.StatusViolation // an invariant failed; see the witness
	StatusUnknown   = search.StatusUnknown   // a resource bound was hit before the depth bound
)

// Progress is a snapshot of a running exploration (search.Progress).
type Progress = search.Progress

// Config is one exploration run.
type Config struct {
	Universe Universe
	// Depth bounds the trace length; 0 takes the universe's default.
	Depth int
	// Rules decide every transition, under their own tie policy, and are
	// what the invariants check against; nil means model.Proposed().
	Rules *model.Rules
	// Workers expand each level in parallel; 0 means GOMAXPROCS.
	Workers int
	// MaxStates stops the run with StatusUnknown once more distinct
	// states are stored; 0 means no limit.
	MaxStates int
	// StopAtFirst ends the run once the smallest violation is known,
	// instead of counting every violation up to the bound.
	StopAtFirst bool
	// NoSymmetry turns off the reduction by the universe's symmetries
	// (Network.SymDevices, Network.SymContexts), which is on by default.
	NoSymmetry bool
	// StoreDir, when set, keeps the stored states' records in files in
	// this directory instead of memory (search.Config.StoreDir); results
	// are the same.
	StoreDir string
	// StoreRuns keeps the visited states as sorted files in StoreDir
	// (search.Config.Runs), buffering successors in StoreMemory bytes
	// (0: search.DefaultRunsMemory); results are unchanged.
	StoreRuns   bool
	StoreMemory int64
	// POR executes fewer transitions by partial-order reduction (sleep
	// sets over commuting transitions; network universes): every state is
	// still stored and checked, so the states per depth and every state
	// check's counts are those of the unreduced search, while the
	// transition counts (actions, I3, N5, N6, N7, sometimes-conditions)
	// shrink; which invariants fail, and at what depth, does not change.
	POR bool
	// AllWitnesses also builds the witness of the smallest violation of
	// every invariant violated on a trace (Result.Witnesses).
	AllWitnesses bool
	// Progress, if set, is called every ProgressEvery (default 1s).
	Progress      func(Progress)
	ProgressEvery time.Duration
	// Checkpoint, when set, writes a checkpoint at every depth boundary
	// or resumes from one (checkpoint.go).
	Checkpoint *Checkpoint
}

// InvariantCount is one row of the world's invariant table with how often
// it was checked (in its unit) and failed.
type InvariantCount struct {
	Name       string // the invariant's ID
	Label      string
	Doc        string
	Unit       string
	Section    string
	Checked    int64
	Violations int64
}

// Result is the outcome of Explore.
type Result struct {
	Universe string
	Depth    int
	Tie      model.TiePolicy
	Rules    string
	Workers  int
	Status   Status
	// Distinct is the number of distinct states whose minimal depth is at
	// most Depth; PerDepth splits it by minimal depth.
	Distinct int
	PerDepth []int
	// Transitions is the number of enabled transitions executed from
	// expanded states (each is checked for frontier regression).
	Transitions int64
	// Checked is the number of states the state invariants ran on, and
	// Registers the stored registers the compaction check examined there.
	Checked      int
	Registers    int64
	DeviceStates int
	// Invariants follows the world's table, in its order.
	Invariants []InvariantCount
	// Witness is the smallest violation by (depth, action sequence).
	Witness *witnessfile.Witness
	// Witnesses, with Config.AllWitnesses, holds one witness per invariant
	// violated on a trace, the smallest of each, in table order.
	Witnesses []*witnessfile.Witness
	BoundHit  string
	Elapsed   time.Duration

	// POR reports whether the transitions were reduced (Config.POR, on a
	// world that supports it).
	POR bool
	// Symmetry reports whether states were reduced by the universe's
	// symmetries (a state then stands for its whole orbit).
	Symmetry bool
	// Actions counts the executed transitions per action kind, Sometimes
	// how often each named sometimes-condition the universe can reach was
	// reached, Deliveries what deliveries met, and Oracle the contexts the
	// intent oracle judged and did not judge (network universes; see
	// coverage.go).
	Actions    []CoverageCount
	Sometimes  []CoverageCount
	Deliveries []CoverageCount
	Oracle     []CoverageCount
}

// Explore enumerates every state of the universe reachable within the depth
// bound (search.Explore), checks every executed transition for frontier
// regression and runs the state invariants (at the bound only, for a
// TerminalOnly universe), then builds the witness of the smallest
// violation.
func Explore(cfg Config) (*Result, error) {
	u := cfg.Universe
	if cfg.Depth == 0 {
		cfg.Depth = u.Depth
	}
	if cfg.Depth < 0 {
		return nil, fmt.Errorf("depth %d is negative", cfg.Depth)
	}
	if cfg.Rules == nil {
		cfg.Rules = model.Proposed()
	}
	w, e, err := newWorld(&u, cfg.Rules, cfg.Depth, !cfg.NoSymmetry)
	if err != nil {
		return nil, err
	}
	scfg := search.Config{Depth: cfg.Depth, TerminalOnly: u.TerminalOnly, Workers: cfg.Workers,
		MaxStates: cfg.MaxStates, POR: cfg.POR, StoreDir: cfg.StoreDir, Runs: cfg.StoreRuns, RunsMemory: cfg.StoreMemory, StopAtFirst: cfg.StopAtFirst, Progress: cfg.Progress, ProgressEvery: cfg.ProgressEvery}
	if cfg.Checkpoint != nil {
		if scfg.Checkpoint, err = searchCheckpoint(&cfg, w); err != nil {
			return nil, err
		}
	}
	run, err := search.Explore[*cache](w, scfg)
	if err != nil {
		return nil, fmt.Errorf("universe %q: %w", u.Name, err)
	}
	// Everything the result needs from the store (witness paths) is read
	// before Explore returns.
	defer run.Store.Free()
	res := &Result{Universe: u.Name, Depth: cfg.Depth, Tie: cfg.Rules.Tie, Rules: cfg.Rules.Name, Workers: run.Workers, Status: run.Status,
		Distinct: run.Distinct, PerDepth: run.PerDepth, Checked: run.Checked, BoundHit: run.BoundHit,
		Transitions: run.Tally.Units(unitSteps), Registers: run.Tally.Units(unitRegisters), DeviceStates: e.deviceStates()}
	if _, ok := w.(search.Reducer[*cache]); ok && cfg.POR {
		res.POR = true
	}
	if h := run.Tally.Best(); h != nil {
		res.Witness = w.witness(run, *h)
	}
	if cfg.AllWitnesses {
		for i := range w.Invariants() {
			h := run.Tally.BestOf(i)
			switch {
			case h == nil:
			case *h == *run.Tally.Best():
				res.Witnesses = append(res.Witnesses, res.Witness)
			default:
				res.Witnesses = append(res.Witnesses, w.witness(run, *h))
			}
		}
	}
	w.finish(run, res)
	for i, inv := range w.Invariants() {
		n := run.Tally.Violations(i)
		res.Invariants = append(res.Invariants, InvariantCount{Name: inv.ID, Label: inv.Label, Doc: inv.Doc, Unit: unitNames[inv.Unit],
			Section: inv.Section, Checked: run.Tally.Units(inv.Unit), Violations: n})
		if n > 0 && res.Status == StatusOK {
			res.Status = StatusViolation // a run-wide finding (non-vacuity) has no trace
		}
	}
	res.Elapsed = run.Elapsed
	return res, nil
}

// Invariant returns the row of the result's table with the given ID.
func (r *Result) Invariant(id string) (InvariantCount, bool) {
	for _, c := range r.Invariants {
		if c.Name == id {
			return c, true
		}
	}
	return InvariantCount{}, false
}
