package exhaustive

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A tie's document carries the walks' counts and, for a failing walk, its
// shrunk witness and text; WriteWitnesses writes that witness indented
// with its text beside it, and nothing for a tie without one.
func TestSimTieAndWitnessFiles(t *testing.T) {
	cat := simCatalog()
	res := simulateNamed(t, cat, "hierarchy", "own-base", 50, 30, 1)
	if res.Witness == nil {
		t.Fatal("own-base survived the simulation")
	}
	td, err := SimTie(cat, res)
	if err != nil {
		t.Fatal(err)
	}
	v := td.Violation
	if td.Tie != res.Tie.String() || td.Walks != res.Walks || td.Checked != res.Checked || len(td.Invariants) != len(res.Invariants) ||
		v == nil || v.Invariant != res.Witness.Invariant || v.Depth != len(res.Witness.Actions) || v.Walk != res.Walk || v.Text == "" {
		t.Fatalf("tie document %+v", td)
	}
	clean := simulateNamed(t, cat, "hierarchy", "spec", 5, 10, 1)
	ctd, err := SimTie(cat, clean)
	if err != nil || ctd.Violation != nil {
		t.Fatalf("clean tie: %+v %v", ctd.Violation, err)
	}
	d := &SimDoc{Ties: []SimTieDoc{ctd, td}}
	dir := filepath.Join(t.TempDir(), "w")
	bases, err := d.WriteWitnesses(dir, "hierarchy", 11)
	want := filepath.Join(dir, "simulate-hierarchy-seed11-"+td.Tie)
	if err != nil || !slices.Equal(bases, []string{want}) {
		t.Fatalf("bases %v, err %v, want %s", bases, err, want)
	}
	data, _ := os.ReadFile(want + ".json")
	var indented bytes.Buffer
	json.Indent(&indented, bytes.TrimSpace(res.Witness.JSON()), "", "  ")
	if string(data) != indented.String()+"\n" || !strings.HasPrefix(string(data), "{\n  \"") {
		t.Errorf("witness file %q", data)
	}
	if text, _ := os.ReadFile(want + ".txt"); string(text) != v.Text {
		t.Errorf("text file %q", text)
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	if bases, err := d.WriteWitnesses(file, "hierarchy", 11); err == nil || len(bases) != 0 {
		t.Errorf("a file as the directory: %v %v", bases, err)
	}
}
