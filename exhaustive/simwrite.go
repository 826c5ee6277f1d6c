package exhaustive

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// SimTie is one tie policy's part of a simulation's document from its
// walks' result: the coverage, and when a walk failed its shrunk witness
// with the text cat renders of it.
func SimTie(cat *Catalog, res *SimResult) (SimTieDoc, error) {
	td := SimTieDoc{Tie: res.Tie.String(), Seed: res.Seed, Walks: res.Walks, Steps: res.Steps, Checked: res.Checked, Stuck: res.Stuck}
	for _, inv := range res.Invariants {
		td.Invariants = append(td.Invariants, SimInvariant{Label: inv.Label, Name: inv.Name, Doc: inv.Doc, Unit: inv.Unit, Checked: inv.Checked, Violations: inv.Violations})
	}
	if res.Witness != nil {
		text, err := Text(cat, res.Witness)
		if err != nil {
			return SimTieDoc{}, err
		}
		td.Violation = &SimViolation{Invariant: res.Witness.Invariant, Walk: res.Walk, RawDepth: res.RawDepth,
			Depth: len(res.Witness.Actions), Witness: res.Witness.JSON(), Text: text}
	}
	return td, nil
}

// WriteWitnesses writes each tie's witness under dir as
// simulate-UNIVERSE-seedSEED-TIE.json (indented as the explorer writes a
// witness, from the document's copy, which a shard's document
// re-indents) and its text beside it as .txt. It returns the base paths
// written (without the extension), those before an error included.
func (d *SimDoc) WriteWitnesses(dir, universe string, seed uint64) ([]string, error) {
	var bases []string
	for _, t := range d.Ties {
		v := t.Violation
		if v == nil {
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return bases, err
		}
		base := filepath.Join(dir, fmt.Sprintf("simulate-%s-seed%d-%s", universe, seed, t.Tie))
		var buf bytes.Buffer
		if err := json.Indent(&buf, bytes.TrimSpace(v.Witness), "", "  "); err != nil {
			return bases, err
		}
		buf.WriteByte('\n')
		if err := os.WriteFile(base+".json", buf.Bytes(), 0o644); err != nil {
			return bases, err
		}
		if err := os.WriteFile(base+".txt", []byte(v.Text), 0o644); err != nil {
			return bases, err
		}
		bases = append(bases, base)
	}
	return bases, nil
}
