package witnessfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// WriteDiff writes a difference witness (data nil: none was found) to dir
// as diff-<parts joined by ->.json and returns its path ("" for none).
// Every difference search names its file so, by the rule sets, the
// universe and what else bounds it, so two searches write two files.
func WriteDiff(dir string, data []byte, parts ...string) (string, error) {
	if data == nil {
		return "", nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("witness directory: %w", err)
	}
	file := filepath.Join(dir, "diff-"+strings.Join(parts, "-")+".json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		return "", fmt.Errorf("write witness: %w", err)
	}
	return file, nil
}

// WriteNamed writes data to dir (created if need be) as name and returns
// the path.
func WriteNamed(dir, name string, data []byte) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("witness directory: %w", err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return "", fmt.Errorf("write witness: %w", err)
	}
	return p, nil
}

// WriteWithText writes w (nil: nothing) to dir as base.json and its
// rendering beside it as base.txt, for reading the trace without a
// replay; it returns the paths written, the JSON's alone when the text
// could not be.
func WriteWithText(dir, base string, w *Witness, text string) ([]string, error) {
	if w == nil {
		return nil, nil
	}
	p, err := WriteNamed(dir, base+".json", w.JSON())
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, base+".txt"), []byte(text), 0o644); err != nil {
		return []string{p}, fmt.Errorf("write witness: %w", err)
	}
	return []string{p, filepath.Join(dir, base+".txt")}, nil
}
