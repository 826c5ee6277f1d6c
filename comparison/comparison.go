package comparison

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/candidate"
	"github.com/nip-rs/harness/directed"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
	"github.com/nip-rs/harness/witnessfile"
)

// Candidate is one compared candidate: an encoding and a rule set.
type Candidate struct {
	Name     string
	Encoding candidate.Encoding
	Rules    string
}

// Resolve reads a candidate name: an encoding (A, B: the production rules)
// or a rule set of the catalogue (run under encoding B).
func Resolve(cat *exhaustive.Catalog, name string) (Candidate, error) {
	if enc, err := candidate.Lookup(name); err == nil {
		return Candidate{Name: name, Encoding: enc, Rules: model.ProposedName}, nil
	}
	if _, err := cat.Rules(name); err != nil {
		var encs []string
		for _, e := range candidate.Encodings() {
			encs = append(encs, e.Name())
		}
		return Candidate{}, fmt.Errorf("unknown candidate %q (an encoding: %s; or a rule set: %s)", name,
			strings.Join(encs, ", "), strings.Join(cat.RulesNames(), ", "))
	}
	return Candidate{Name: name, Encoding: candidate.EncodingB{}, Rules: name}, nil
}

// Options says what to compare and how far.
type Options struct {
	Catalog    *exhaustive.Catalog
	Candidates []string
	// Ties are the tie policies, a column each; nil means both.
	Ties []model.TiePolicy
	// Universes are those explored; nil means DefaultUniverses.
	Universes []string
	// Depth bounds every universe; 0 takes each universe's default.
	Depth     int
	Workers   int
	MaxStates int
}

// DefaultUniverses are the universes a comparison explores by default:
// every universe of the project (the catalogue's variants with a mutant on
// one device are a mutant's checks, not a candidate's).
var DefaultUniverses = []string{"reference", "network", "network-whole", "hierarchy", "ceiling"}

// Verdicts of a cell.
const (
	Holds      = "holds"
	Violated   = "violated"
	NotChecked = "not checked"
	Unknown    = "unknown"
	NA         = "n/a"
)

// Source is one check that contributed to a cell.
type Source struct {
	Check      string `json:"check"`
	Unit       string `json:"unit"`
	Checked    int64  `json:"checked"`
	Violations int64  `json:"violations"`
	// Complete is false when the run stopped at a bound first.
	Complete bool `json:"complete"`
	// Witness is the smallest violation the check found (an explorer
	// trace, or a directed check's first failing point).
	Witness *witnessfile.Witness `json:"witness,omitempty"`
	// First describes a cube's first failing point (no witness file).
	First string `json:"first,omitempty"`
}

// Cell is one row under one column.
type Cell struct {
	Verdict string `json:"verdict"`
	// Steps is the length of the smallest explorer witness of a violated
	// cell, 0 when only a cube or directed check failed.
	Steps   int                  `json:"steps,omitempty"`
	Witness *witnessfile.Witness `json:"-"`
	Reason  string               `json:"reason,omitempty"`
	Sources []Source             `json:"sources"`
}

// Column is one candidate under one tie policy.
type Column struct {
	Candidate string `json:"candidate"`
	Encoding  string `json:"encoding"`
	Rules     string `json:"rules"`
	Tie       string `json:"tie"`
}

// Header is the column's heading.
func (c Column) Header() string { return c.Candidate + " " + c.Tie }

// Row is one invariant across the columns.
type Row struct {
	Label string `json:"label"`
	Doc   string `json:"doc"`
	Cells []Cell `json:"cells"`
}

// Table is a computed comparison.
type Table struct {
	Universes []string `json:"universes"`
	Depth     int      `json:"depth"`
	Columns   []Column `json:"columns"`
	Rows      []Row    `json:"rows"`
}

// rowDef is a row of the table: its label and what it asserts.
type rowDef struct{ label, doc string }

// noteRows are the formal note's rows (I9, A's counter absorption, is a
// property of A's device only and is not a comparison), then the
// identity-free row; the network universes' rows follow from their table.
var noteRows = []rowDef{
	{"I1", "join associative, commutative, idempotent"},
	{"I2", "convergence: verdicts independent of delivery order"},
	{"I3", "no frontier regression"},
	{"I4", "concurrent set/clear winner independent of order"},
	{"I5", "compaction: no lost set, no resurrection, merge-back dead"},
	{"I5c", "deep history: compact, act again, stale ancestor arrives"},
	{"I5d", "cross-device compaction: suppress only, recoverable"},
	{"I5e", "published dead+dead stays dead"},
	{"I6", "own publication replayed changes nothing"},
	{"I7", "legacy rewrite keeps every override"},
	{"I8", "bounded key growth"},
	{"ID", "no verdict depends on how client ids compare"},
}

func rowDefs() []rowDef {
	out := slices.Clone(noteRows)
	seen := map[string]bool{}
	for _, inv := range exhaustive.InvariantTable(exhaustive.NetworkUniverse()) {
		if strings.HasPrefix(inv.Label, "N") && !seen[inv.Label] {
			seen[inv.Label] = true
			out = append(out, rowDef{inv.Label, inv.Doc})
		}
	}
	return out
}

// notApplicable says why an encoding cannot run a row at all.
func notApplicable(enc candidate.Encoding, label string) string {
	if enc.Compacts() {
		return ""
	}
	switch {
	case strings.HasPrefix(label, "I5"):
		return "the encoding has no compaction: its register is never folded to a floor"
	case label == "I8":
		return "the bound is on the sibling keys' count per context; the encoding keeps one object per context outside contexts"
	case strings.HasPrefix(label, "N"):
		return "the network world runs model.Replica, the spec's wire (split, rotation, canonical groups), only"
	}
	return ""
}

// directedRow maps a directed check to its row: by its label, and the
// identity-free reinstall check to ID. Checks outside the note's table
// (slots, conformance) are not rows.
func directedRow(d *directed.Check) string {
	if d.Key == "identity-free-reinstall" {
		return "ID"
	}
	if slices.ContainsFunc(noteRows, func(r rowDef) bool { return r.label == d.Label }) {
		return d.Label
	}
	return ""
}

// Compare runs every candidate through everything it can run and folds the
// results into the table.
func Compare(o Options) (*Table, error) {
	if o.Catalog == nil {
		return nil, fmt.Errorf("no catalogue")
	}
	if len(o.Candidates) == 0 {
		return nil, fmt.Errorf("no candidates")
	}
	if o.Ties == nil {
		o.Ties = []model.TiePolicy{model.ClearWins, model.SetWins}
	}
	if o.Universes == nil {
		o.Universes = DefaultUniverses
	}
	var cands []Candidate
	for _, n := range o.Candidates {
		if slices.ContainsFunc(cands, func(c Candidate) bool { return c.Name == n }) {
			return nil, fmt.Errorf("candidate %q named twice", n)
		}
		c, err := Resolve(o.Catalog, n)
		if err != nil {
			return nil, err
		}
		cands = append(cands, c)
	}
	var us []exhaustive.Universe
	for _, n := range o.Universes {
		u, err := o.Catalog.Universe(n)
		if err != nil {
			return nil, err
		}
		us = append(us, u)
	}
	defs := rowDefs()
	t := &Table{Universes: o.Universes, Depth: o.Depth}
	for _, d := range defs {
		t.Rows = append(t.Rows, Row{Label: d.label, Doc: d.doc})
	}
	for _, c := range cands {
		for _, tie := range o.Ties {
			rules, err := o.Catalog.Rules(c.Rules)
			if err != nil {
				return nil, err
			}
			rules = rules.WithTie(tie)
			srcs, err := runColumn(o, c, us, rules)
			if err != nil {
				return nil, fmt.Errorf("candidate %s, tie %v: %w", c.Name, tie, err)
			}
			t.Columns = append(t.Columns, Column{Candidate: c.Name, Encoding: c.Encoding.Name(), Rules: c.Rules, Tie: tie.String()})
			for i, d := range defs {
				t.Rows[i].Cells = append(t.Rows[i].Cells, fold(srcs[d.label], notApplicable(c.Encoding, d.label)))
			}
		}
	}
	return t, nil
}

// runColumn runs one candidate under one tie policy and returns its
// sources by row label.
func runColumn(o Options, c Candidate, us []exhaustive.Universe, rules *model.Rules) (map[string][]Source, error) {
	srcs := map[string][]Source{}
	add := func(label string, s Source) { srcs[label] = append(srcs[label], s) }
	_, isB := c.Encoding.(candidate.EncodingB)
	for _, u := range us {
		depth := o.Depth
		if depth == 0 {
			depth = u.Depth
		}
		if isB {
			res, err := exhaustive.Explore(exhaustive.Config{Universe: u, Depth: depth, Rules: rules, Workers: o.Workers,
				MaxStates: o.MaxStates, AllWitnesses: true})
			if err != nil {
				return nil, err
			}
			for _, inv := range res.Invariants {
				add(inv.Label, Source{Check: fmt.Sprintf("explore %s depth %d: %s", u.Name, depth, inv.Name), Unit: inv.Unit,
					Checked: inv.Checked, Violations: inv.Violations, Complete: res.Status != search.StatusUnknown,
					Witness: witnessOf(res.Witnesses, inv.Name)})
			}
		}
		if u.Network != nil {
			continue
		}
		res, err := candidate.Explore(candidate.Config{Universe: u, Encoding: c.Encoding, Rules: rules, Depth: depth,
			Workers: o.Workers, MaxStates: o.MaxStates})
		if err != nil {
			return nil, err
		}
		for _, inv := range res.Invariants {
			add(inv.Label, Source{Check: fmt.Sprintf("encoding world %s depth %d: %s", u.Name, depth, inv.Name), Unit: inv.Unit,
				Checked: inv.Checked, Violations: inv.Violations, Complete: res.Status != search.StatusUnknown,
				Witness: witnessOf(res.Witnesses, inv.Name)})
		}
	}
	if isB {
		for _, r := range directed.RunSuite(rules, []model.TiePolicy{rules.Tie}, o.Workers, nil) {
			if label := directedRow(r.Check); label != "" {
				add(label, Source{Check: "directed " + r.Check.Key, Unit: "points", Checked: int64(r.Points),
					Violations: int64(r.Violations), Complete: true, Witness: r.Witness})
			}
		}
	}
	for _, cr := range candidate.Cubes(c.Encoding, rules) {
		add(cr.Label, Source{Check: "cube " + cr.Key, Unit: "points", Checked: int64(cr.Points),
			Violations: int64(cr.Violations), Complete: true, First: cr.First})
	}
	return srcs, nil
}

func witnessOf(ws []*witnessfile.Witness, inv string) *witnessfile.Witness {
	for _, w := range ws {
		if w.Invariant == inv {
			return w
		}
	}
	return nil
}

// fold is a cell's verdict from its sources: violated when any source
// failed (the smallest explorer witness kept), unknown when a run stopped at
// a bound with nothing failed, holds when something was checked, not
// checked when the sources checked nothing, n/a (with why) when nothing
// could run it.
func fold(srcs []Source, na string) Cell {
	c := Cell{Sources: srcs}
	if c.Sources == nil {
		c.Sources = []Source{}
	}
	checked, complete := int64(0), true
	for _, s := range srcs {
		checked += s.Checked
		complete = complete && s.Complete
		if s.Violations == 0 {
			continue
		}
		c.Verdict = Violated
		w := s.Witness
		if w == nil {
			continue
		}
		explorer, haveExplorer := w.Kind == witnessfile.KindExplore, c.Witness != nil && c.Witness.Kind == witnessfile.KindExplore
		switch {
		case explorer && (!haveExplorer || len(w.Actions) < c.Steps):
			c.Witness, c.Steps = w, len(w.Actions)
		case !explorer && c.Witness == nil:
			c.Witness = w
		}
	}
	switch {
	case c.Verdict == Violated:
	case len(srcs) == 0 && na != "":
		c.Verdict, c.Reason = NA, na
	case len(srcs) == 0:
		c.Verdict, c.Reason = NA, "no check of this row ran (no universe or check selected covers it)"
	case !complete:
		c.Verdict = Unknown
	case checked == 0:
		c.Verdict = NotChecked
	default:
		c.Verdict = Holds
	}
	return c
}

// Text is the cell as the table prints it.
func (c Cell) Text() string {
	switch {
	case c.Verdict == Violated && c.Steps > 0:
		return fmt.Sprintf("violated (%d steps)", c.Steps)
	case c.Verdict == Violated && c.Witness != nil && c.Witness.Kind == witnessfile.KindExplore:
		return "violated (0 steps)"
	case c.Verdict == Violated:
		var bad, all int64
		for _, s := range c.Sources {
			if s.Violations > 0 {
				bad += s.Violations
				all += s.Checked
			}
		}
		return fmt.Sprintf("violated (%s of %s points)", num.Commas(bad), num.Commas(all))
	}
	return c.Verdict
}
