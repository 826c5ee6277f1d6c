package main

import (
	"fmt"

	"github.com/nip-rs/harness/runreport"
	"github.com/nip-rs/harness/witnessfile"
	"github.com/nip-rs/harness/witnesshtml"
)

// writeHTML writes witnesses as one page (runreport.Page); rs holds what
// replaying each found (nil for one this run found itself), and verdicts
// what this run said of each ("" for the witness's own verdict).
func writeHTML(path string, ws []*witnessfile.Witness, rs []*witnessfile.Replayed, verdicts []string) error {
	p, err := runreport.Page(ws, rs, verdicts, witnessText)
	if err != nil {
		return fmt.Errorf("-html: %v", err)
	}
	if err := witnesshtml.WriteFile(path, p); err != nil {
		return fmt.Errorf("-html: %w", err)
	}
	return nil
}
