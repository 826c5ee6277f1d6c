package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/mutants"
)

// amendedCatalog is the catalogue as the commands build it: the
// project's universes, the mutants and the amendments, so a difference
// can name an amendment as its rule set.
func amendedCatalog(t *testing.T) *Catalog {
	t.Helper()
	ex := exhaustive.NewCatalog()
	mutants.Register(ex)
	if err := amendments.Register(ex); err != nil {
		t.Fatal(err)
	}
	return New(ex)
}

// TestDiffEachUniverse runs a difference in each kind of universe Diff
// takes: where the two rule sets differ, the lines name the shortest
// history, the bounds name the universe, and the witness file written
// replays as reproduced; where they do not, the lines say so with the
// bounds and no file is written.
func TestDiffEachUniverse(t *testing.T) {
	c := amendedCatalog(t)
	for _, tc := range []struct {
		req          DiffRequest
		bounds, line string
		file         string // "" when no difference is found
	}{
		{DiffRequest{A: "proposed", B: "mark-read-own-counter", Universe: "reference"},
			"-universe=reference -depth=", "the shortest history that tells proposed and mark-read-own-counter apart", "diff-proposed-mark-read-own-counter-reference-clear.json"},
		{DiffRequest{A: "proposed", B: "b-max-frontier", Universe: "reference", Depth: 3, Tie: "set"},
			"-universe=reference -depth=3 -tie=set", "no difference within the bounds: universe reference, depth 3,", ""},
		{DiffRequest{A: "proposed", B: "fence-lapse-fails", Universe: LoadDiffUniverse, Cases: 1000, Seed: mutants.DefaultSeed},
			"-universe=load -cases=1000 -seed=", "the first load scenario that tells proposed and fence-lapse-fails apart", "diff-proposed-fence-lapse-fails-load.json"},
		{DiffRequest{A: "spec", B: "proposed", Universe: "walk", Variant: "ties"},
			"-universe=walk -variant=ties -depth=", "the shortest history that tells spec and proposed apart", "diff-spec-proposed-walk-ties.json"},
		{DiffRequest{A: "proposed", B: "H5", Universe: "walk", Variant: "default", Depth: 1},
			"-universe=walk -variant=default -depth=1", "no difference within the bounds: walk variant default, depth 1", ""},
	} {
		dir := t.TempDir()
		tc.req.WitnessDir = dir
		res, err := c.Diff(tc.req)
		if err != nil {
			t.Fatalf("%+v: %v", tc.req, err)
		}
		if !strings.HasPrefix(res.Bounds, tc.bounds) || len(res.Lines) == 0 || !strings.HasPrefix(res.Lines[0], tc.line) || res.Doc == nil {
			t.Errorf("%+v: bounds %q, lines %q", tc.req, res.Bounds, res.Lines)
		}
		if tc.file == "" {
			if res.Witness != "" {
				t.Errorf("%+v: no difference, yet witness %s", tc.req, res.Witness)
			}
			continue
		}
		if want := filepath.Join(dir, tc.file); res.Witness != want {
			t.Errorf("%+v: witness %q, want %q", tc.req, res.Witness, want)
		}
		if _, r, err := c.ReplayFile(res.Witness); err != nil || !r.Reproduced {
			t.Errorf("%+v: replay of %s: %+v, %v", tc.req, res.Witness, r, err)
		}
	}
}

// TestDiffRefusesBadRequests: a bad name, tie policy, variant or bound is
// an error that says what is wrong, and nothing is written.
func TestDiffRefusesBadRequests(t *testing.T) {
	c := amendedCatalog(t)
	for _, tc := range []struct {
		req  DiffRequest
		says string
	}{
		{DiffRequest{A: "spec", B: "proposed", Universe: "nonesuch"}, "-universe load, the full-state load's scenarios"},
		{DiffRequest{A: "spec", B: "proposed", Universe: "network"}, ""},
		{DiffRequest{A: "spec", B: "proposed", Universe: "reference", Tie: "both"}, "one tie policy"},
		{DiffRequest{A: "spec", B: "proposed", Universe: "reference", Tie: "bogus"}, "-tie"},
		{DiffRequest{A: "spec", B: "nonesuch", Universe: "reference"}, "-diff: "},
		{DiffRequest{A: "spec", B: "proposed", Universe: LoadDiffUniverse}, "-cases 0"},
		{DiffRequest{A: "nonesuch", B: "proposed", Universe: LoadDiffUniverse, Cases: 1}, "-diff: "},
		{DiffRequest{A: "spec", B: "proposed", Universe: "walk", Variant: "nonesuch"}, "not a variant of the walk"},
		{DiffRequest{A: "spec", B: "nonesuch", Universe: "walk", Variant: "default"}, "not a rule set of the walk"},
	} {
		dir := filepath.Join(t.TempDir(), "w")
		tc.req.WitnessDir = dir
		res, err := c.Diff(tc.req)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%+v: %+v, %v; want an error saying %q", tc.req, res, err, tc.says)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%+v: the witness directory was made", tc.req)
		}
	}
}
