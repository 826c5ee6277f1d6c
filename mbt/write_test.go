package mbt

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/itf"
	"github.com/nip-rs/harness/model"
)

// Traces written to a directory are named by walk index and tie, read
// back byte for byte as encoded, and still agree with the model; a file
// where the directory should be is an error.
func TestWriteTraces(t *testing.T) {
	trs := simTraces(t, 3, 10, 5)
	dir := filepath.Join(t.TempDir(), "itf")
	if err := WriteTraces(dir, 7, model.SetWins, trs); err != nil {
		t.Fatal(err)
	}
	for i, tr := range trs {
		data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("walk-%04d-set.itf.json", 7+i)))
		if err != nil {
			t.Fatal(err)
		}
		want, _ := itf.Encode(tr)
		if string(data) != string(want) {
			t.Errorf("walk %d: file differs from its encoding", 7+i)
		}
		back, err := itf.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(exhaustive.NewCatalog(), back); err != nil {
			t.Errorf("walk %d: %v", 7+i, err)
		}
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	if err := WriteTraces(file, 0, model.ClearWins, trs); err == nil {
		t.Error("a file as the directory: no error")
	}
}
