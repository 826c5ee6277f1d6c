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
