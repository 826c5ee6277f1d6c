package exhaustive

import (
	"fmt"
	"io"
	"strings"

	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// ObserveRun is one command-line search for an observation: the search
// under each tie policy, its lines, and each trace found written as a
// witness file and replayed. The explorer's flags fill it; the run's
// output and exit code are the library's, so they are tested here.
type ObserveRun struct {
	Observation Observation
	Universe    Universe
	// Tie is the tie flag as given, for the header; Ties the policies it
	// names, each searched in turn.
	Tie  string
	Ties []model.TiePolicy
	// Rules decide every step; RulesName is the rule set as the flag
	// names it, for the header.
	Rules     *model.Rules
	RulesName string
	// Depth bounds the search (0: the universe's default).
	Depth     int
	Workers   int
	MaxStates int
	Symmetry  bool
	// WitnessDir is where each trace found is written.
	WitnessDir string
}

func (r ObserveRun) depth() int {
	if r.Depth == 0 {
		return r.Universe.Depth
	}
	return r.Depth
}

// Head is the run's two first lines: everything needed to reproduce it,
// and what the observation looks for.
func (r ObserveRun) Head() string {
	return fmt.Sprintf("explore -observe=%s -universe=%s -depth=%d -tie=%s -rules=%s -workers=%d -max-states=%d -symmetry=%t (version %s)\nobservation %s: %s",
		r.Observation.Name, r.Universe.Name, r.depth(), r.Tie, r.RulesName, r.Workers, r.MaxStates, r.Symmetry, cli.Version(), r.Observation.Name, r.Observation.Doc)
}

// ObservedTrace is a trace a run found, written and replayed.
type ObservedTrace struct {
	Witness  *witnessfile.Witness
	Replayed *witnessfile.Replayed
}

// Run searches under each tie policy and writes each one's line to w; a
// trace found is written to WitnessDir (warn hears a write that failed),
// then read back through replay (a catalogue's ReplayFile) and printed as
// replayed, so what is printed is what -replay of the file shows. It
// returns the traces found and the exit code (internal/cli's): reached
// and not reached are both answers (0); a state bound that stopped a
// search first is unknown (3). An error is a search that could not run
// or a written file that does not replay.
func (r ObserveRun) Run(w io.Writer, warn func(error), replay func(path string) (*witnessfile.Witness, *witnessfile.Replayed, error)) ([]ObservedTrace, int, error) {
	code := cli.ExitOK
	var found []ObservedTrace
	for _, t := range r.Ties {
		res, err := Observe(ObserveConfig{Universe: r.Universe, Observation: r.Observation, Depth: r.depth(), Rules: r.Rules.WithTie(t),
			Workers: r.Workers, MaxStates: r.MaxStates, NoSymmetry: !r.Symmetry})
		if err != nil {
			return nil, cli.ExitUsage, err
		}
		fmt.Fprintln(w, res.Line())
		switch {
		case res.Witness != nil:
			p, err := res.WriteWitness(r.WitnessDir)
			if err != nil {
				warn(err)
				continue
			}
			fmt.Fprintf(w, "witness written to %s (replay: explore -replay %s)\n", p, p)
			wf, rep, err := replay(p)
			if err != nil {
				return nil, cli.ExitUsage, err
			}
			fmt.Fprint(w, rep.Text)
			found = append(found, ObservedTrace{wf, rep})
		case res.BoundHit != "":
			code = cli.ExitUnknown
		}
	}
	return found, code, nil
}

// WriteObservations lists the observations a search can name, with the
// universes each is meant for.
func WriteObservations(w io.Writer) {
	fmt.Fprintln(w, "observations (-observe NAME -universe U):")
	for _, o := range Observations() {
		fmt.Fprintf(w, "  %-26s %s (universes %s)\n", o.Name, o.Doc, strings.Join(o.Universes, ", "))
	}
}
