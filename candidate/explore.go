package candidate

import (
	"fmt"
	"time"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
	"github.com/nip-rs/harness/witnessfile"
)

// Config is one exploration of a universe under an encoding.
type Config struct {
	Universe exhaustive.Universe
	Encoding Encoding
	// Rules decide every transition of an encoding that uses them (B), and
	// give the tie policy to one that does not (A); nil means model.Proposed().
	Rules *model.Rules
	// Depth bounds the trace length; 0 takes the universe's default.
	Depth   int
	Workers int
	// MaxStates stops the run with search.StatusUnknown past this many
	// distinct states; 0 means no limit.
	MaxStates int
}

// Result is the outcome of Explore.
type Result struct {
	Universe    string
	Encoding    string
	Rules       string
	Tie         model.TiePolicy
	Depth       int
	Status      search.Status
	Distinct    int
	PerDepth    []int
	Transitions int64
	Checked     int
	BoundHit    string
	Invariants  []exhaustive.InvariantCount
	// Witness is the smallest violation by (depth, action sequence);
	// Witnesses the smallest of each invariant violated, in table order.
	Witness   *witnessfile.Witness
	Witnesses []*witnessfile.Witness
	Elapsed   time.Duration
}

// Explore enumerates every state of the universe reachable within the
// depth bound under the encoding, with package search, and checks Table's
// invariants (the state ones at the bound only, for a TerminalOnly
// universe, as the reference does).
func Explore(cfg Config) (*Result, error) {
	if cfg.Encoding == nil {
		return nil, fmt.Errorf("no encoding")
	}
	if cfg.Depth == 0 {
		cfg.Depth = cfg.Universe.Depth
	}
	if cfg.Depth < 0 || cfg.Depth > witnessfile.MaxDepth {
		return nil, fmt.Errorf("depth %d out of range 0..%d", cfg.Depth, witnessfile.MaxDepth)
	}
	if cfg.Rules == nil {
		cfg.Rules = model.Proposed()
	}
	w, err := newWorld(cfg.Universe, cfg.Encoding, cfg.Rules, cfg.Depth)
	if err != nil {
		return nil, err
	}
	run, err := search.Explore[struct{}](w, search.Config{Depth: cfg.Depth, TerminalOnly: cfg.Universe.TerminalOnly,
		Workers: cfg.Workers, MaxStates: cfg.MaxStates})
	if err != nil {
		return nil, err
	}
	res := &Result{Universe: cfg.Universe.Name, Encoding: cfg.Encoding.Name(), Rules: cfg.Rules.Name, Tie: cfg.Rules.Tie,
		Depth: cfg.Depth, Status: run.Status, Distinct: run.Distinct, PerDepth: run.PerDepth, Checked: run.Checked,
		BoundHit: run.BoundHit, Transitions: run.Tally.Units(unitSteps), Elapsed: run.Elapsed}
	if h := run.Tally.Best(); h != nil {
		res.Witness = w.witness(run, *h)
	}
	for i, inv := range Table {
		res.Invariants = append(res.Invariants, exhaustive.InvariantCount{Name: inv.ID, Label: inv.Label, Doc: inv.Doc,
			Unit: unitNames[inv.Unit], Section: inv.Section, Checked: run.Tally.Units(inv.Unit), Violations: run.Tally.Violations(i)})
		if h := run.Tally.BestOf(i); h != nil {
			res.Witnesses = append(res.Witnesses, w.witness(run, *h))
		}
	}
	return res, nil
}
