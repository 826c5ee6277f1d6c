package exhaustive

import (
	"fmt"
	"io"
	"math"

	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
)

// LivenessRun is one command-line run of a liveness check: the check
// under each tie policy, its lines, and the witness of each violation
// written and printed. The explorer's flags fill it; the run's output and
// exit code are the library's, so they are tested here.
type LivenessRun struct {
	// Check is the check's name, liveness or agreement (LivenessProperty).
	Check    string
	Universe Universe
	// Tie is the tie flag as given, for the header; Ties the policies it
	// names, each run in turn.
	Tie  string
	Ties []model.TiePolicy
	// Rules decide every step; RulesName is the rule set as the flag
	// names it, for the header.
	Rules     *model.Rules
	RulesName string
	// Depth bounds the run (0: the universe's default).
	Depth   int
	Workers int
	// MaxStates bounds the graph (LivenessMaxStates resolves the flag).
	MaxStates int
	// WitnessDir is where each violation's witness is written.
	WitnessDir string
}

// LivenessProperty is the property a liveness check's name runs, false
// for a name that is no liveness check.
func LivenessProperty(check string) (string, bool) {
	for p, c := range livenessChecks {
		if c == check {
			return p, true
		}
	}
	return "", false
}

// LivenessMaxStates is the graph bound a -max-states flag gives a
// liveness run: the explorer's default guard counts safety states, so an
// unset flag takes the liveness graphs' own default, and 0 lifts the bound
// as it does for a safety run.
func LivenessMaxStates(set bool, n int) int {
	switch {
	case set && n == 0:
		return math.MaxInt32
	case set:
		return n
	}
	return DefaultLivenessStates
}

func (r LivenessRun) depth() int {
	if r.Depth == 0 {
		return r.Universe.Depth
	}
	return r.Depth
}

// Head is the run's first line: everything needed to reproduce it. The
// agreement graph is walked by one worker, so its header names none.
func (r LivenessRun) Head() string {
	workers := fmt.Sprintf(" -workers=%d", r.Workers)
	if r.Check == livenessChecks[InvOverrideReaches] {
		workers = ""
	}
	return fmt.Sprintf("explore -check=%s -universe=%s -depth=%d -tie=%s -rules=%s%s -max-states=%d (version %s)",
		r.Check, r.Universe.Name, r.depth(), r.Tie, r.RulesName, workers, r.MaxStates, cli.Version())
}

// Run runs the check under each tie policy and writes each one's line to
// w; a violation's witness is written to WitnessDir (warn hears a write
// that failed) and printed. It returns the exit code (internal/cli's): 0
// when the property holds under every policy, 1 on a witness, 3 when a
// bound was reached or the premise never met (unknown, which outranks a
// violation only when the premise failed, as nothing was tested). An
// error is a run that could not start, reported after the lines before it.
func (r LivenessRun) Run(w io.Writer, warn func(error)) (int, error) {
	property, ok := LivenessProperty(r.Check)
	if !ok {
		return cli.ExitUsage, fmt.Errorf("no liveness check %q", r.Check)
	}
	code := cli.ExitOK
	for _, t := range r.Ties {
		res, err := Liveness(LivenessConfig{Universe: r.Universe, Property: property, Depth: r.depth(),
			Rules: r.Rules.WithTie(t), Workers: r.Workers, MaxStates: r.MaxStates})
		if err != nil && res != nil {
			// A result with an error: the premise was never met.
			fmt.Fprintf(w, "%s %s tie %s: unknown: %v\n", r.Check, r.Universe.Name, t, err)
			code = max(code, cli.ExitUnknown)
			continue
		}
		if err != nil {
			return cli.ExitUsage, err
		}
		fmt.Fprintln(w, res.Line(t))
		switch res.Status {
		case StatusViolation:
			code = cli.ExitFailed
			if p, err := res.WriteWitness(r.WitnessDir, t); err != nil {
				warn(err)
			} else {
				fmt.Fprintf(w, "witness written to %s\n", p)
			}
			fmt.Fprint(w, res.Witness)
		case StatusUnknown:
			if code == cli.ExitOK {
				code = cli.ExitUnknown
			}
		}
	}
	return code, nil
}
