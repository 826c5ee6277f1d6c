package mbt

import (
	"fmt"
	"io"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
)

// TraceWalks is the part of a simulation written as traces: walks From up
// to From+Walks of the run under one tie policy, masked by Profile ("" for
// everything a client observes).
type TraceWalks struct {
	Universe    exhaustive.Universe
	Rules       *model.Rules
	Tie         model.TiePolicy
	Walks, From int
	Steps       int
	Seed        uint64
	Profile     string
}

// WriteWalks writes the walks as traces under dir (Traces, WriteTraces)
// and says on w how many it wrote, with the tie and the profile.
func WriteWalks(dir string, s TraceWalks, w io.Writer) error {
	trs, err := Traces(exhaustive.SimConfig{Universe: s.Universe, Rules: s.Rules.WithTie(s.Tie), Walks: s.Walks, From: s.From, Steps: s.Steps, Seed: s.Seed},
		Run{Universe: s.Universe.Name, Rules: s.Rules.Name, Tie: s.Tie.String(), Seed: s.Seed, Steps: s.Steps, Profile: s.Profile})
	if err != nil {
		return fmt.Errorf("-itf: %w", err)
	}
	if err := WriteTraces(dir, s.From, s.Tie, trs); err != nil {
		return err
	}
	profile := ""
	if s.Profile != "" {
		profile = ", profile " + s.Profile
	}
	fmt.Fprintf(w, "itf: %d traces (tie %s%s) in %s\n", len(trs), s.Tie, profile, dir)
	return nil
}

// ReplayTrace checks the trace at path against the model (CheckFile) and
// says on w how it went: every state agrees (exit 0), or the first
// divergence, named by its step, action and variable (exit 1). An error is
// a file that is not a trace of a known universe (exit 2).
func ReplayTrace(cat *exhaustive.Catalog, path string, w io.Writer) (int, error) {
	n, err := CheckFile(cat, path)
	if d, ok := IsDivergence(err); ok {
		fmt.Fprintf(w, "%s: diverges at step %d (%s): %s: trace has %s, the model has %s\n", path, d.Step, d.Action, d.Var, d.Want, d.Got)
		return cli.ExitFailed, nil
	}
	if err != nil {
		return cli.ExitUsage, err
	}
	fmt.Fprintf(w, "%s: %d states agree with the model\n", path, n)
	return cli.ExitOK, nil
}

// ProfileFlagError is what is wrong with a -profile flag, nil for none or
// a list of client profiles, so a bad name is refused before any walk
// runs.
func ProfileFlagError(p string) error {
	if p == "" {
		return nil
	}
	if _, err := ParseProfile(p); err != nil {
		return fmt.Errorf("-profile: %w", err)
	}
	return nil
}
