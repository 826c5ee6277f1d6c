package main

import (
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/mbt"
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
