package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nip-rs/harness/mutants"
)

// writeControlWitnesses writes, for every check the baseline itself
// failed, the check's shortest witness as found (JSON, replayable with
// explore -replay) and its text beside it, named by baseline, check and
// tie. A shard writes none: its control is the whole run's, and the
// merged run's parts would write the same files.
func writeControlWitnesses(dir string, rep *mutants.Report) ([]string, error) {
	var files []string
	for _, tie := range rep.Options.Ties {
		for _, f := range rep.Control[tie] {
			if f.Witness == nil {
				continue
			}
			if len(files) == 0 {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return nil, fmt.Errorf("witness directory: %w", err)
				}
			}
			name := fmt.Sprintf("control-%s-%s-%s", rep.Options.BaselineName, strings.ReplaceAll(f.Check, ":", "-"), tie)
			p := filepath.Join(dir, name+".json")
			if err := os.WriteFile(p, f.Witness.JSON, 0o644); err != nil {
				return files, fmt.Errorf("write witness: %w", err)
			}
			files = append(files, p)
			if f.Witness.Text != "" {
				if err := os.WriteFile(filepath.Join(dir, name+".txt"), []byte(f.Witness.Text), 0o644); err != nil {
					return files, fmt.Errorf("write witness: %w", err)
				}
			}
		}
	}
	return files, nil
}
