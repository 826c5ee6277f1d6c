package runreport

import (
	"fmt"
	"io"
	"time"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/catalog"
	"github.com/nip-rs/harness/directed"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// ExploreArgs is a command line's exhaustive exploration of one of the
// explorer's universes, as plain values: the flags as given (the header
// repeats them), where its states and checkpoints go, and how it reports.
type ExploreArgs struct {
	Universe, Tie, Rules, Only string
	// TieSet says the tie was given, which an amendment's own policy
	// yields to (AmendmentTies).
	TieSet bool
	// Depth bounds the search (0: the universe's default).
	Depth, Workers, MaxStates int
	// GuardNote says MaxStates is the command's default guard, not one
	// asked for: a run it stops is told how to raise or remove it.
	GuardNote                          bool
	Directed, JSON, All, Symmetry, POR bool
	// Progress is the interval of the progress lines (0: none).
	Progress time.Duration
	// StoreKind, StoreDir and StoreMiB are where the states live
	// (exhaustive.Config.WithStore).
	StoreKind, StoreDir string
	StoreMiB            int
	// Checkpoint and Resume name the checkpoint directory to write, or to
	// continue from ("" for none; CheckpointFlag names the one given).
	Checkpoint, Resume string
	WitnessDir, HTML   string
	// Tracker, when set, follows the searches for a partial summary; Stop,
	// when set, ends the run after a checkpoint (Search).
	Tracker *exhaustive.Tracker
	Stop    func(t model.TiePolicy, depth int) bool
}

// CheckpointFlag is the flag a run's checkpoint directory came from:
// -resume when it continues one, else -checkpoint.
func (a ExploreArgs) CheckpointFlag() string {
	if a.Resume != "" {
		return "-resume"
	}
	return "-checkpoint"
}

// Header is the run's first line: everything needed to reproduce it; the
// symmetry flag is named for a network universe, and -por only when on, so
// a default run's line is unchanged by it.
func (a ExploreArgs) Header(depth int, network bool) string {
	sym, por := "", ""
	if network {
		sym = fmt.Sprintf(" -symmetry=%t", a.Symmetry)
	}
	if a.POR {
		por = " -por=true"
	}
	return fmt.Sprintf("explore -universe=%s -depth=%d -tie=%s -rules=%s -workers=%d -directed=%t -only=%q -max-states=%d%s%s (version %s)",
		a.Universe, depth, a.Tie, a.Rules, a.Workers, a.Directed, a.Only, a.MaxStates, sym, por, cli.Version())
}

// ExploreLog is where a run's side lines go, both to stderr in the
// command: Note for what the user should know (a stop by the default
// guard, where a resumed run starts, a file not written), Progress for
// each progress line.
type ExploreLog struct {
	Note     func(string)
	Progress func(string)
}

// Explore runs the exhaustive search of a's universe under each tie
// policy (Search) and, with Directed, the directed checks, then writes
// the report to w (Report): the header first unless JSON. Every check of
// the input comes before any search. It returns the exit code
// (internal/cli's): 3 when Stop ended the run after a checkpoint; an
// error is input that cannot run (the code is then 2).
func Explore(c *catalog.Catalog, ex *exhaustive.Catalog, a ExploreArgs, w io.Writer, log ExploreLog) (int, error) {
	u, tl, rules, err := c.OverrideInputs(a.Universe, a.Tie, a.Rules)
	if err != nil {
		return cli.ExitUsage, err
	}
	only, err := directed.OnlySet(a.Only)
	if err != nil {
		return cli.ExitUsage, fmt.Errorf("-only: %v", err)
	}
	if am, ok := amendments.Lookup(a.Rules); ok {
		if tl, err = AmendmentTies(am, a.Tie, a.TieSet); err != nil {
			return cli.ExitUsage, err
		}
		if am.Pinned {
			a.Tie = am.Tie.String() // the header says the policy the run covers
		}
	}
	depth := a.Depth
	if depth == 0 {
		depth = u.Depth
	}
	out := NewRun(a.Header(depth, u.Network != nil), u.Name, a.Rules, a.All)
	if !a.JSON {
		fmt.Fprintln(w, out.Run)
	}
	cfg := exhaustive.Config{Universe: u, Depth: depth, Rules: rules, Workers: a.Workers, MaxStates: a.MaxStates, NoSymmetry: !a.Symmetry,
		AllWitnesses: a.All, POR: a.POR, ProgressEvery: a.Progress}
	if a.Progress <= 0 {
		cfg.ProgressEvery = time.Second // the partial summary's snapshots
	}
	s := Search{Ties: tl, Amendment: out.Amendment, Tracker: a.Tracker, Stop: a.Stop, Finished: func(r *exhaustive.Result) {
		if r.Status == exhaustive.StatusUnknown && a.GuardNote {
			log.Note(fmt.Sprintf("stopped by the default state guard: more than %s distinct states (about 2 GB in a network universe); -max-states N raises it, -max-states 0 removes it", num.Commas(a.MaxStates)))
		}
	}}
	if a.Checkpoint != "" || a.Resume != "" {
		cps := &exhaustive.Checkpoints{Dir: a.Checkpoint, Resume: a.Resume != "", Build: cli.BuildID()}
		if a.Resume != "" {
			cps.Dir = a.Resume
		}
		notes, err := cps.Prepare(cfg, tl)
		if err != nil {
			return cli.ExitUsage, fmt.Errorf("%s %w", a.CheckpointFlag(), err)
		}
		for _, n := range notes {
			log.Note(n)
		}
		s.Checkpoints = cps
	}
	if s.Config, err = cfg.WithStore(a.StoreKind, a.StoreDir, a.StoreMiB); err != nil {
		return cli.ExitUsage, err
	}
	if a.Progress > 0 {
		s.Progress = func(t model.TiePolicy, p exhaustive.Progress) {
			log.Progress(exhaustive.RunProgressLine(u.Name, t.String(), depth, p))
		}
	}
	if stopped, err := out.Search(s); err != nil {
		return cli.ExitUsage, err
	} else if stopped {
		return cli.ExitUnknown, nil // as if killed right after the checkpoint
	}
	if a.Directed {
		out.Directed = directed.Summarize(directed.RunSuite(rules, tl, a.Workers, only))
	}
	rep := Output{Dir: a.WitnessDir, JSON: a.JSON, Render: c.WitnessText, Warn: func(err error) { log.Note(err.Error()) }}
	if a.HTML != "" {
		rep.Page = func(ws []*witnessfile.Witness) error { return WritePage(a.HTML, ws, nil, nil, c.WitnessText) }
	}
	return out.Report(w, ex, rep)
}
