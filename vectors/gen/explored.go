package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/witnessfile"
)

// exploredDepth bounds the explorations of Explored.
const exploredDepth = 4

// ExploredPath is one path the explorer found: the smallest trace (by
// depth, then action sequence) on which a core mutant violates an
// invariant of a universe.
type ExploredPath struct {
	Mutant    string               `json:"mutant"`
	Universe  string               `json:"universe"`
	Invariant string               `json:"invariant"`
	Detail    string               `json:"detail"`
	Actions   []witnessfile.Action `json:"actions"`
}

// exploredFile is where the paths are kept: exploring takes seconds per
// universe, too long for every generation, so `cmd/vectors -explored`
// writes them and the generator reads them (TestExploredCurrent, with
// -explore, re-explores and compares).
const exploredFile = "vectors/gen/testdata/explored.json"

// Explored explores the reference, network-whole and hierarchy universes to
// exploredDepth under every core mutant and returns the smallest path to
// each invariant the mutant violates (exhaustive.Config.AllWitnesses), in
// catalogue order. Each path becomes a trace the production rules decide.
func Explored(workers int) ([]ExploredPath, error) {
	var out []ExploredPath
	for _, u := range []exhaustive.Universe{exhaustive.Reference(), exhaustive.NetworkWholeUniverse(), exhaustive.HierarchyUniverse()} {
		for _, m := range mutants.Core() {
			res, err := exhaustive.Explore(exhaustive.Config{Universe: u, Depth: exploredDepth, Rules: m.RulesUnder(model.ClearWins),
				Workers: workers, AllWitnesses: true})
			if err != nil {
				return nil, fmt.Errorf("%s over %s: %w", m.ID, u.Name, err)
			}
			for _, w := range res.Witnesses {
				out = append(out, ExploredPath{Mutant: m.ID, Universe: u.Name, Invariant: w.Invariant, Detail: w.Detail, Actions: w.Actions})
			}
		}
	}
	return out, nil
}

// EncodeExplored is the committed bytes of the paths.
func EncodeExplored(paths []ExploredPath) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(paths); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteExplored explores and writes the paths under the module root.
func WriteExplored(workers int) error {
	root, err := repoRoot()
	if err != nil {
		return err
	}
	paths, err := Explored(workers)
	if err != nil {
		return err
	}
	b, err := EncodeExplored(paths)
	if err != nil {
		return err
	}
	p := filepath.Join(root, exploredFile)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}

// readExplored reads the committed paths; none are committed yet is no
// paths.
func readExplored() ([]ExploredPath, error) {
	root, err := repoRoot()
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(root, exploredFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var paths []ExploredPath
	if err := json.Unmarshal(b, &paths); err != nil {
		return nil, fmt.Errorf("%s: %w", exploredFile, err)
	}
	return paths, nil
}
