package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/mbt"
	"github.com/nip-rs/harness/model"
)

// itfOptions are the model-based trace flags: -simulate N -itf DIR writes
// each walk as an ITF trace under DIR; -replay -itf FILE checks one trace
// state by state against the model (package mbt).
type itfOptions struct {
	dir     string
	replay  string // the trace -replay -itf names
	profile string // the client profile the traces are masked by
}

func (t *itfOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&t.dir, "itf", "", "with -simulate N on a network universe: write each walk as an ITF trace (what a client observes) under this directory; -replay -itf FILE checks such a trace against the model")
	fs.StringVar(&t.profile, "profile", "", fmt.Sprintf("with -simulate N -itf DIR: write only what a client of this profile of the vectors observes (%s, or several joined by commas; legacy-decoder hosts the legacy devices and sees frontiers only); default full", strings.Join(mbt.ProfileNames(), ", ")))
}

// splitITFReplay takes `-replay -itf FILE` out of the arguments (the flag
// package would read -itf as -replay's file), returning FILE.
func splitITFReplay(args []string) ([]string, string, error) {
	for i, a := range args {
		if (a == "-replay" || a == "--replay") && i+1 < len(args) && (args[i+1] == "-itf" || args[i+1] == "--itf") {
			if i+2 >= len(args) {
				return args, "", errors.New("-replay -itf needs a trace file")
			}
			return slices.Concat(args[:i], args[i+3:]), args[i+2], nil
		}
	}
	return args, "", nil
}

// writeITF writes walks from..to-1 of the run under the tie policy as
// traces (mbt.Traces, mbt.WriteTraces) and says how many it wrote.
func writeITF(dir, profile string, u exhaustive.Universe, rules *model.Rules, tie model.TiePolicy, walks, from, steps int, seed uint64, stdout io.Writer) error {
	trs, err := mbt.Traces(exhaustive.SimConfig{Universe: u, Rules: rules.WithTie(tie), Walks: walks, From: from, Steps: steps, Seed: seed},
		mbt.Run{Universe: u.Name, Rules: rules.Name, Tie: tie.String(), Seed: seed, Steps: steps, Profile: profile})
	if err != nil {
		return fmt.Errorf("-itf: %w", err)
	}
	if err := mbt.WriteTraces(dir, from, tie, trs); err != nil {
		return err
	}
	if profile != "" {
		profile = ", profile " + profile
	}
	fmt.Fprintf(stdout, "itf: %d traces (tie %s%s) in %s\n", len(trs), tie, profile, dir)
	return nil
}

// replayITF checks one trace against the model (mbt.CheckFile): exit 0
// when every state agrees, 1 at the first divergence (named by its step),
// 2 for a file that is not a trace of a known universe.
func replayITF(file string, stdout, stderr io.Writer) int {
	n, err := mbt.CheckFile(cat, file)
	if d, ok := mbt.IsDivergence(err); ok {
		fmt.Fprintf(stdout, "%s: diverges at step %d (%s): %s: trace has %s, the model has %s\n", file, d.Step, d.Action, d.Var, d.Want, d.Got)
		return exitViolation
	}
	if err != nil {
		return usageError(stderr, err)
	}
	fmt.Fprintf(stdout, "%s: %d states agree with the model\n", file, n)
	return exitOK
}

// profileError is what is wrong with -profile, nil for none or a list of
// client profiles: a bad name is refused before any walk runs.
func profileError(p string) error {
	if p == "" {
		return nil
	}
	if _, err := mbt.ParseProfile(p); err != nil {
		return fmt.Errorf("-profile: %w", err)
	}
	return nil
}
