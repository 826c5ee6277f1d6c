package runreport

import (
	"strings"
	"testing"
)

// Only the exhaustive exploration of the explorer's universes checkpoints:
// each other run a command line can ask for is refused with the flag it
// gave, and two different directories are refused before anything else.
func TestCheckpointError(t *testing.T) {
	for _, c := range []struct {
		a     ExploreArgs
		other string
		want  string
	}{
		{ExploreArgs{Universe: "reference", Rules: "proposed"}, "-replay", ""},
		{ExploreArgs{Universe: "reference", Rules: "proposed", Checkpoint: "d"}, "", ""},
		{ExploreArgs{Universe: "reference", Rules: "proposed", Checkpoint: "d/", Resume: "d"}, "", ""},
		{ExploreArgs{Universe: "reference", Rules: "proposed", Checkpoint: "d", Resume: "e"}, "-replay", "-checkpoint and -resume name different directories"},
		{ExploreArgs{Universe: "reference", Rules: "proposed", Checkpoint: "d"}, "-simulate or -merge", "-checkpoint applies to the exhaustive search, not to -simulate or -merge"},
		{ExploreArgs{Universe: "reference", Rules: "proposed", Resume: "d"}, "-compare", "-resume applies to the exhaustive search, not to -compare"},
		{ExploreArgs{Universe: "reference", Rules: "proposed", Resume: "d", StoreKind: "runs"}, "", "-resume: not with -store runs"},
		{ExploreArgs{Universe: "walk", Rules: "spec", Checkpoint: "d"}, "", "-checkpoint applies to the explorer's universes, not to the walk universe"},
		{ExploreArgs{Universe: "reference", Rules: "b-max-frontier", Checkpoint: "d"}, "", "-checkpoint: not with an amendment as the rule set (-rules b-max-frontier)"},
	} {
		err := c.a.CheckpointError(c.other)
		if (err == nil) != (c.want == "") || (err != nil && !strings.HasPrefix(err.Error(), c.want)) {
			t.Errorf("%+v with %q: %v, want %q", c.a, c.other, err, c.want)
		}
	}
}
