package exhaustive

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/nip-rs/harness/internal/cli"
)

// This file holds the simulation's document and what is computed from it
// alone: its status, its text report, the merge of its shards and their
// checks against a rerun (simpart.go).

// SimDoc is a simulation as data: what -json prints, what a shard writes
// and what -merge combines. It holds nothing that depends on the machine
// (no times, no worker count), so the merge of a run's shards is the run's
// document byte for byte.
type SimDoc struct {
	Run string `json:"run"`
	// Build is the executable that ran it (cli.BuildID): -merge takes
	// only parts its own executable wrote.
	Build string     `json:"build"`
	Shard *cli.Shard `json:"shard,omitempty"`
	// Block is a shard's walks, [from, to).
	Block  []int       `json:"shard_walks,omitempty"`
	Status string      `json:"status"`
	Ties   []SimTieDoc `json:"ties"`
}

// SimTieDoc is one tie policy's walks: coverage up to the first violating
// walk (in walk order, so independent of the worker count) and its
// shrunk witness.
type SimTieDoc struct {
	Tie        string         `json:"tie"`
	Seed       uint64         `json:"seed"`
	Walks      int            `json:"walks"`
	Steps      int64          `json:"steps"`
	Checked    int64          `json:"states_checked"`
	Stuck      int            `json:"walks_stuck"`
	Invariants []SimInvariant `json:"invariants"`
	Violation  *SimViolation  `json:"violation,omitempty"`
}

// SimInvariant is one invariant's counts over a tie's walks.
type SimInvariant struct {
	Label      string `json:"label"`
	Name       string `json:"name"`
	Doc        string `json:"doc"`
	Unit       string `json:"unit"`
	Checked    int64  `json:"checked"`
	Violations int64  `json:"violations"`
}

// SimViolation is a tie's first violating walk and its shrunk witness.
type SimViolation struct {
	Invariant string          `json:"invariant"`
	Walk      int             `json:"walk"`
	RawDepth  int             `json:"raw_depth"`
	Depth     int             `json:"shrunk_depth"`
	Witness   json.RawMessage `json:"witness"`
	Text      string          `json:"text"`
}

// SetStatus sets Status from the ties: a violation in any makes it
// "violation".
func (d *SimDoc) SetStatus() {
	d.Status = "ok"
	for _, t := range d.Ties {
		if t.Violation != nil {
			d.Status = "violation"
		}
	}
}

// Write prints the document as indented JSON.
func (d *SimDoc) Write(w io.Writer) {
	b, _ := json.MarshalIndent(d, "", "  ") // plain data always marshals
	fmt.Fprintln(w, string(b))
}

// WriteText prints the document as the text report.
func (d *SimDoc) WriteText(w io.Writer) {
	for _, t := range d.Ties {
		fmt.Fprintf(w, "tie %s: seed %d, %d walks, %d steps, %d states checked, %d walks stuck\n",
			t.Tie, t.Seed, t.Walks, t.Steps, t.Checked, t.Stuck)
		for _, inv := range t.Invariants {
			fmt.Fprintf(w, "  %-4s %-64s %d %s, %d violations\n", inv.Label, inv.Doc, inv.Checked, inv.Unit, inv.Violations)
		}
		if v := t.Violation; v == nil {
			fmt.Fprintf(w, "tie %s: ok, no violation\n", t.Tie)
		} else {
			fmt.Fprintf(w, "tie %s: violation %s in walk %d after %d steps, shrunk to %d\n%s", t.Tie, v.Invariant, v.Walk, v.RawDepth, v.Depth, v.Text)
		}
	}
}

func zeroCounts(in []SimInvariant) []SimInvariant {
	out := make([]SimInvariant, len(in))
	for i, inv := range in {
		out[i] = SimInvariant{Label: inv.Label, Name: inv.Name, Doc: inv.Doc, Unit: inv.Unit}
	}
	return out
}

// SameInvariants checks a part's invariant list against the universe's
// (res, a run of the same universe and rules) and its violation counts
// against its own verdict.
func (t SimTieDoc) SameInvariants(res *SimResult) error {
	if len(t.Invariants) != len(res.Invariants) {
		return fmt.Errorf("%d invariants, the universe has %d", len(t.Invariants), len(res.Invariants))
	}
	for k, inv := range t.Invariants {
		w := res.Invariants[k]
		switch {
		case inv.Label != w.Label || inv.Name != w.Name || inv.Doc != w.Doc || inv.Unit != w.Unit:
			return fmt.Errorf("invariant %d is %s %s, the universe's is %s %s", k+1, inv.Label, inv.Name, w.Label, w.Name)
		case inv.Checked < 0 || inv.Violations < 0:
			return fmt.Errorf("invariant %s: negative counts", inv.Label)
		case t.Violation == nil && inv.Violations != 0:
			return fmt.Errorf("invariant %s: %d violations in a tie with no violation", inv.Label, inv.Violations)
		case t.Violation != nil && inv.Name == t.Violation.Invariant && inv.Violations < 1:
			return fmt.Errorf("invariant %s: no violation counted, yet the tie's violation is of it", inv.Label)
		}
	}
	return nil
}

// SameViolation compares a part's violation (nil: none) with what
// running its walk again found.
func SameViolation(cat *Catalog, v *SimViolation, res *SimResult) error {
	switch {
	case v == nil && res.Witness != nil:
		return fmt.Errorf("it violates %s, the part says no walk did", res.Witness.Invariant)
	case v == nil:
		return nil
	case res.Witness == nil:
		return fmt.Errorf("no violation, the part says %s", v.Invariant)
	}
	text, err := Text(cat, res.Witness)
	if err != nil {
		return err
	}
	var stored, again bytes.Buffer
	if err := json.Compact(&stored, v.Witness); err != nil {
		return fmt.Errorf("witness: %v", err)
	}
	if err := json.Compact(&again, res.Witness.JSON()); err != nil {
		return err
	}
	if v.Invariant != res.Witness.Invariant || v.RawDepth != res.RawDepth || v.Depth != len(res.Witness.Actions) ||
		stored.String() != again.String() || v.Text != text {
		return fmt.Errorf("the part's violation (%s after %d steps, shrunk to %d) is not what the walk gives (%s after %d, shrunk to %d)",
			v.Invariant, v.RawDepth, v.Depth, res.Witness.Invariant, res.RawDepth, len(res.Witness.Actions))
	}
	return nil
}

// MergeSim combines the blocks of one run (names are their files, for the
// errors), in walk order: each block must start where the last ended. Per
// tie policy the coverage adds up block after block until the first block
// with a violation, whose first violating walk is the run's (every earlier
// walk is in an earlier block or earlier in its own); later blocks are not
// counted, as the whole run counts no walk past its first violation. It
// returns the merged document and the walks the blocks cover; the caller
// checks that count against the run's.
func MergeSim(names []string, docs []*SimDoc) (out *SimDoc, walks int, err error) {
	if len(docs) == 0 || len(names) != len(docs) {
		return nil, 0, fmt.Errorf("no parts to merge")
	}
	next := 0
	for i, d := range docs {
		if len(d.Block) != 2 || d.Block[0] != next || d.Block[1] < d.Block[0] {
			return nil, 0, fmt.Errorf("%s: walks %v, want a block starting at walk %d (not a simulation shard of this run)", names[i], d.Block, next)
		}
		next = d.Block[1]
		if out == nil {
			out = &SimDoc{Run: d.Run, Build: d.Build}
			for _, t := range d.Ties {
				out.Ties = append(out.Ties, SimTieDoc{Tie: t.Tie, Seed: t.Seed, Invariants: zeroCounts(t.Invariants)})
			}
		}
		if len(d.Ties) != len(out.Ties) {
			return nil, 0, fmt.Errorf("%s: %d tie policies, the first part %d", names[i], len(d.Ties), len(out.Ties))
		}
		for k, t := range d.Ties {
			m := &out.Ties[k]
			if t.Tie != m.Tie || len(t.Invariants) != len(m.Invariants) {
				return nil, 0, fmt.Errorf("%s: tie %s or its invariants differ from the first part's", names[i], t.Tie)
			}
			if m.Violation != nil {
				continue // the run stopped counting at an earlier block's violation
			}
			m.Walks += t.Walks
			m.Steps += t.Steps
			m.Checked += t.Checked
			m.Stuck += t.Stuck
			for j, inv := range t.Invariants {
				m.Invariants[j].Checked += inv.Checked
				m.Invariants[j].Violations += inv.Violations
			}
			m.Violation = t.Violation
		}
	}
	return out, next, nil
}
