package comparison

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
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

// Parse sets the candidates and one column per tie policy asked for
// ("both": nil, every policy); a bad name is refused naming its flag, and
// the options are left as they were.
func TestOptionsParse(t *testing.T) {
	var o Options
	if err := o.Parse("A, B", "set"); err != nil || !slices.Equal(o.Candidates, []string{"A", "B"}) || !slices.Equal(o.Ties, []model.TiePolicy{model.SetWins}) {
		t.Fatalf("A, B under set: %+v, %v", o, err)
	}
	if err := o.Parse("spec", "both"); err != nil || !slices.Equal(o.Candidates, []string{"spec"}) || o.Ties != nil {
		t.Fatalf("spec under both: %+v, %v", o, err)
	}
	for _, bad := range []struct{ cands, tie, says string }{{"A,", "both", "-compare "}, {"A", "sometimes", "-tie: "}} {
		err := o.Parse(bad.cands, bad.tie)
		if err == nil || !strings.HasPrefix(err.Error(), bad.says) || !slices.Equal(o.Candidates, []string{"spec"}) || o.Ties != nil {
			t.Errorf("%q under %q: %+v, %v", bad.cands, bad.tie, o, err)
		}
	}
}

// The page is written whole to its file, and a path that cannot be
// written is an error.
func TestWriteHTMLFile(t *testing.T) {
	tb := &Table{Columns: []Column{{Candidate: "A", Tie: "clear"}}, Rows: []Row{{Cells: []Cell{{Verdict: Holds}}}}}
	p := filepath.Join(t.TempDir(), "page.html")
	if err := tb.WriteHTMLFile(p, "title <x>"); err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	if err := tb.WriteHTML(&want, "title <x>"); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != want.String() || !strings.Contains(string(b), "title &lt;x&gt;") {
		t.Errorf("written %q, %v", b, err)
	}
	if err := tb.WriteHTMLFile(filepath.Join(t.TempDir(), "no", "page.html"), "t"); err == nil {
		t.Error("a page written into no directory")
	}
}
