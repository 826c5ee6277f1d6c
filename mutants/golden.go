package mutants

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
)

// Golden witness files: per mutant and tie policy, the first witness as
// <ID>.<tie>.json and <ID>.<tie>.txt; under clear-wins, when the first is
// not an explorer witness but an expected universe caught the mutant, that
// universe's first witness too, as <ID>.clear.explore.json and .txt.

// GoldenFiles are the files a set of results should have, by name.
func GoldenFiles(results []*Result) map[string][]byte {
	out := map[string][]byte{}
	for _, r := range results {
		base := goldenBase(r.Mutant.ID, r.Tie)
		if r.First == nil {
			continue
		}
		out[base+".json"] = r.First.Witness.JSON
		out[base+".txt"] = []byte(r.First.Witness.Text)
		if fe := r.FirstExplore(); r.Tie == model.ClearWins && fe != nil && fe != r.First {
			out[base+".explore.json"] = fe.Witness.JSON
			out[base+".explore.txt"] = []byte(fe.Witness.Text)
		}
	}
	return out
}

func goldenBase(id string, tie model.TiePolicy) string { return id + "." + tie.String() }

// CompareGolden compares the results' witnesses with the golden files in
// dir, byte for byte, and returns the names that differ, are missing or
// should not exist. With update it rewrites them instead (and returns the
// names it changed). Only the files of the results' mutants and tie
// policies are considered.
func CompareGolden(dir string, results []*Result, update bool) ([]string, error) {
	want := GoldenFiles(results)
	have := map[string]bool{}
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	for _, e := range entries {
		for _, r := range results {
			if strings.HasPrefix(e.Name(), goldenBase(r.Mutant.ID, r.Tie)+".") {
				have[e.Name()] = true
			}
		}
	}
	var changed []string
	for name, data := range want {
		old, err := os.ReadFile(filepath.Join(dir, name))
		if err == nil && bytes.Equal(old, data) {
			continue
		}
		changed = append(changed, name)
		if update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return changed, err
			}
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				return changed, err
			}
		}
	}
	for name := range have {
		if _, ok := want[name]; ok {
			continue
		}
		changed = append(changed, name)
		if update {
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				return changed, fmt.Errorf("remove stale witness: %w", err)
			}
		}
	}
	slices.Sort(changed)
	return changed, nil
}
