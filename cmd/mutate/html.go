package main

import (
	"fmt"
	"os"

	"github.com/nip-rs/harness/mutants"
)

func writeHTML(path string, rep *mutants.Report) error {
	if err := os.WriteFile(path, []byte(fmt.Sprint(len(rep.Results))), 0o644); err != nil {
		return fmt.Errorf("-html: %w", err)
	}
	return nil
}
