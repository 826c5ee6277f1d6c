// Package cli holds what the commands (cmd/explore, cmd/mutate) share:
// the build version of the first output line, the build's digest
// (build.go), the -tie and -shard flags and the one validation of the
// shard documents -merge reads (merge.go), the -cpuprofile and
// -memprofile files (profile.go), the interrupt hook with the frame of its
// partial summary (interrupt.go) and the wording of time left (progress.go).
package cli

import (
	"runtime"
	"runtime/debug"
)

// Version identifies the running build for the first line of a run's
// output: the module version, the VCS revision when stamped (with +dirty for
// a modified tree), and the Go version.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown " + runtime.Version()
	}
	v := bi.Main.Version
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		v += " " + rev + dirty
	}
	return v + " " + runtime.Version()
}
