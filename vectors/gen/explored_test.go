package gen

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var explore = flag.Bool("explore", false, "re-explore the universes and compare with testdata/explored.json (seconds per universe)")

// TestExploredCurrent: the committed explorer paths are what exploring
// gives now. Exploring takes too long for `make test`, so it runs with
// -explore (`make vectors` rewrites the file first).
func TestExploredCurrent(t *testing.T) {
	if !*explore {
		t.Skip("run with -explore to re-explore the universes (make vectors rewrites the paths)")
	}
	paths, err := Explored(0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := EncodeExplored(paths)
	if err != nil {
		t.Fatal(err)
	}
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile(filepath.Join(root, exploredFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, b) {
		t.Fatalf("%s differs from a fresh exploration (go run ./cmd/vectors -explored)", exploredFile)
	}
}

// TestExploredPathsAreTraces: every committed path becomes a trace vector,
// and there are paths of every universe explored.
func TestExploredPathsAreTraces(t *testing.T) {
	paths, err := readExplored()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, p := range paths {
		if _, ok := traceOf(p.Universe, p.Actions); !ok {
			t.Errorf("%s %s %s: not a trace", p.Mutant, p.Universe, p.Invariant)
		}
		seen[p.Universe]++
	}
	if seen["reference"] == 0 || seen["network-whole"] < 5 || seen["hierarchy"] < 5 {
		t.Errorf("explored paths by universe: %v", seen)
	}
}
