package comparison

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nip-rs/harness/witnessfile"
)

func TestParseCandidates(t *testing.T) {
	if got, err := ParseCandidates(" A, spec ,B"); err != nil || !slices.Equal(got, []string{"A", "spec", "B"}) {
		t.Errorf("%q %v", got, err)
	}
	for _, bad := range []string{"", "A,", "A,,B", " "} {
		if _, err := ParseCandidates(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// Only violated cells with a witness are written, under their names; a
// table without one writes nothing, not even the directory.
func TestWriteWitnesses(t *testing.T) {
	w := &witnessfile.Witness{Kind: witnessfile.KindDirected, Invariant: "I1 x", Rules: "spec"}
	tb := &Table{Columns: []Column{{Candidate: "A"}, {Candidate: "B"}}, Rows: []Row{
		{Cells: []Cell{{Verdict: Holds}, {Verdict: Violated, Witness: w}}},
		{Cells: []Cell{{Verdict: Violated}, {Verdict: Unknown, Witness: w}}},
	}}
	dir := filepath.Join(t.TempDir(), "w")
	files, err := tb.WriteWitnesses(dir)
	names, _ := tb.Witnesses()
	if err != nil || len(files) != 1 || files[0] != filepath.Join(dir, names[0]) {
		t.Fatalf("files %q (names %q), %v", files, names, err)
	}
	if b, _ := os.ReadFile(files[0]); string(b) != string(w.JSON()) {
		t.Errorf("written %q", b)
	}
	tb.Rows = tb.Rows[1:]
	dir = filepath.Join(t.TempDir(), "none")
	if files, err := tb.WriteWitnesses(dir); files != nil || err != nil {
		t.Errorf("no violated cell: %q %v", files, err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("directory made for no witness: %v", err)
	}
}
