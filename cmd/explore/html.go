package main

import (
	"fmt"

	"github.com/nip-rs/harness/witnessfile"
	"github.com/nip-rs/harness/witnesshtml"
)

// writeHTML writes witnesses as one page; rs holds what replaying each
// found (nil for one this run found itself, rendered as it was then).
func writeHTML(path string, ws []*witnessfile.Witness, rs []*witnessfile.Replayed) error {
	p := witnesshtml.Page{Title: "explore witnesses"}
	for i, w := range ws {
		var text string
		var found []string
		if i < len(rs) && rs[i] != nil {
			text, found = rs[i].Text, rs[i].Found
		} else {
			t, err := witnessText(w)
			if err != nil {
				return fmt.Errorf("-html: %v", err)
			}
			text = t
		}
		p.Witnesses = append(p.Witnesses, witnesshtml.FromWitness(w, text, found))
	}
	if err := witnesshtml.WriteFile(path, p); err != nil {
		return fmt.Errorf("-html: %w", err)
	}
	return nil
}
