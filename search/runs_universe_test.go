package search_test

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
)

// caughtBy is the first core mutant the exploration of universe catches.
func caughtBy(t *testing.T, universe string) mutants.Mutant {
	t.Helper()
	for _, m := range mutants.Core() {
		if m.Change.Model != nil && !m.OneDevice && slices.Contains(m.ExpectedBy, "explore:"+universe) {
			return m
		}
	}
	t.Fatalf("no mutant is caught by explore:%s", universe)
	return mutants.Mutant{}
}

// TestRunsStoreMatchesMemoryOnUniverses runs the project's universes with
// the runs store on a small buffer (every level spills several runs of
// candidates and of new states) and requires the very result of the
// in-memory store: states per depth, every count and coverage figure, and
// every witness of a mutant's violations.
func TestRunsStoreMatchesMemoryOnUniverses(t *testing.T) {
	cat := exhaustive.NewCatalog()
	dir := t.TempDir()
	ref, net := caughtBy(t, "reference"), caughtBy(t, "network")
	workerCounts := []int{1, 2}
	if shortrun.On(t, "two workers only") {
		workerCounts = []int{2}
	}
	for _, c := range []struct {
		universe string
		depth    int
		rules    *model.Rules
	}{
		{"reference", 4, nil},
		{"network", 3, nil},
		{"reference", 4, ref.Rules()},
		{"network", 3, net.Rules()},
	} {
		u, err := cat.Universe(c.universe)
		if err != nil {
			t.Fatal(err)
		}
		for _, noSym := range []bool{false, true} {
			for _, workers := range workerCounts {
				cfg := exhaustive.Config{Universe: u, Depth: c.depth, Rules: c.rules, Workers: workers, NoSymmetry: noSym, AllWitnesses: true}
				want, err := exhaustive.Explore(cfg)
				if err != nil {
					t.Fatal(err)
				}
				cfg.StoreDir, cfg.StoreRuns, cfg.StoreMemory = dir, true, 8<<10
				got, err := exhaustive.Explore(cfg)
				if err != nil {
					t.Fatal(err)
				}
				label := fmt.Sprintf("%s depth %d rules %v symmetry %v workers %d", c.universe, c.depth, c.rules != nil, !noSym, workers)
				if c.rules != nil && (want.Witness == nil || want.Status != exhaustive.StatusViolation) {
					t.Fatalf("%s: the mutant is not caught (%v)", label, want.Status)
				}
				want.Elapsed, got.Elapsed = 0, 0
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: the runs store gives\n%+v\nthe in-memory store\n%+v", label, got, want)
				}
			}
		}
	}
}
