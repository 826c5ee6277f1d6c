package witnessfile

import (
	"os"
	"path/filepath"
	"testing"
)

// A difference witness is written under its parts' name; none found
// writes nothing (not even the directory); a directory that cannot be
// made is reported.
func TestWriteDiff(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "w")
	if p, err := WriteDiff(dir, nil, "a", "b"); p != "" || err != nil {
		t.Errorf("nothing found: %q %v", p, err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("nothing found, but the directory was made: %v", err)
	}
	p, err := WriteDiff(dir, []byte("{}\n"), "spec", "proposed", "reference", "clear")
	if err != nil || p != filepath.Join(dir, "diff-spec-proposed-reference-clear.json") {
		t.Fatalf("%q %v", p, err)
	}
	if b, _ := os.ReadFile(p); string(b) != "{}\n" {
		t.Errorf("written %q", b)
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	if _, err := WriteDiff(file, []byte("{}"), "x"); err == nil {
		t.Error("a file as the directory: no error")
	}
}

// A witness with its text is written as two files side by side; no
// witness writes nothing; a directory that cannot be made is reported.
func TestWriteWithText(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "w")
	if ps, err := WriteWithText(dir, "x", nil, "text"); ps != nil || err != nil {
		t.Errorf("no witness: %v %v", ps, err)
	}
	w := &Witness{Kind: KindExplore, Invariant: "inv"}
	ps, err := WriteWithText(dir, "base", w, "the trace\n")
	if err != nil || len(ps) != 2 || ps[0] != filepath.Join(dir, "base.json") || ps[1] != filepath.Join(dir, "base.txt") {
		t.Fatalf("%v %v", ps, err)
	}
	if b, _ := os.ReadFile(ps[0]); string(b) != string(w.JSON()) {
		t.Errorf("json %q", b)
	}
	if b, _ := os.ReadFile(ps[1]); string(b) != "the trace\n" {
		t.Errorf("text %q", b)
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	if ps, err := WriteWithText(file, "x", w, ""); err == nil || ps != nil {
		t.Errorf("a file as the directory: %v %v", ps, err)
	}
	if _, err := WriteNamed(file, "x.json", []byte("{}")); err == nil {
		t.Error("WriteNamed, a file as the directory: no error")
	}
}
