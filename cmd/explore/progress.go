package main

import (
	"fmt"

	"github.com/nip-rs/harness/exhaustive"
)

// progressLine is one progress snapshot (exhaustive.ProgressLine) headed
// by the run it belongs to. It goes to stderr only.
func progressLine(universe, tie string, bound int, p exhaustive.Progress) string {
	return fmt.Sprintf("explore %s tie=%s: %s", universe, tie, exhaustive.ProgressLine(p, bound))
}
