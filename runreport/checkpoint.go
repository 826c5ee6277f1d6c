package runreport

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/history"
)

// CheckpointError says why a's -checkpoint or -resume cannot be honoured,
// nil when it can or neither is given: only the exhaustive exploration of
// the explorer's universes checkpoints. other names the mode the command
// line asks for instead of an exploration ("-simulate or -merge",
// "-replay", "-compare"; "" for none), which is refused first.
func (a ExploreArgs) CheckpointError(other string) error {
	if a.Checkpoint == "" && a.Resume == "" {
		return nil
	}
	flag := a.CheckpointFlag()
	_, amended := amendments.Lookup(a.Rules)
	switch {
	case a.Checkpoint != "" && a.Resume != "" && filepath.Clean(a.Checkpoint) != filepath.Clean(a.Resume):
		return errors.New("-checkpoint and -resume name different directories (-resume keeps checkpointing in its own)")
	case other != "":
		return fmt.Errorf("%s applies to the exhaustive search, not to %s", flag, other)
	case a.StoreKind == exhaustive.StoreRuns:
		return fmt.Errorf("%s: not with -store runs (its levels live in files of its own)", flag)
	case a.Universe == history.UniverseName:
		return fmt.Errorf("%s applies to the explorer's universes, not to the %s universe (a run of seconds)", flag, history.UniverseName)
	case amended:
		// An amendment's run also records which rule inputs it decided
		// otherwise than spec, which a checkpoint does not carry.
		return fmt.Errorf("%s: not with an amendment as the rule set (-rules %s)", flag, a.Rules)
	}
	return nil
}
