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
