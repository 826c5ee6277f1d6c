package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/witnessfile"
)

// simOptions are the simulation flags: -simulate N walks of -steps K
// transitions from -seed S, over -universe under -rules and -tie; -shard
// runs one block of the walks, -merge combines the blocks' documents.
type simOptions struct {
	walks int
	steps int
	seed  uint64
	shard string
	merge bool
}

func (s *simOptions) register(fs *flag.FlagSet) {
	fs.IntVar(&s.walks, "simulate", 0, "run this many seeded random walks instead of the exhaustive search (0: off)")
	fs.IntVar(&s.steps, "steps", 40, fmt.Sprintf("transitions per simulated walk, at most %d", witnessfile.MaxDepth))
	fs.Uint64Var(&s.seed, "seed", 1, "seed of the simulated walks; with -diff A,B -universe load, of the load scenarios (20240601 when not given, the load searches' seed)")
	fs.StringVar(&s.shard, "shard", "", "with -simulate -json: run part i of n of the walks (i/n, counted from 1: 1/3, 2/3, 3/3; part i is the i-th contiguous block)")
	fs.BoolVar(&s.merge, "merge", false, "combine the -simulate -shard -json documents named as arguments into the whole run's -json document (-witness is the only other flag)")
}

// simDoc is a simulation as data: what -json prints, what a shard writes
// and what -merge combines. It holds nothing that depends on the machine
// (no times, no worker count), so the merge of a run's shards is the run's
// document byte for byte.
type simDoc struct {
	Run string `json:"run"`
	// Build is the executable that ran it (cli.BuildID): -merge takes
	// only parts its own executable wrote.
	Build string     `json:"build"`
	Shard *cli.Shard `json:"shard,omitempty"`
	// Block is a shard's walks, [from, to).
	Block  []int       `json:"shard_walks,omitempty"`
	Status string      `json:"status"`
	Ties   []simTieDoc `json:"ties"`
}

// simTieDoc is one tie policy's walks: coverage up to the first violating
// walk (in walk order, so independent of the worker count) and its
// shrunk witness.
type simTieDoc struct {
	Tie        string         `json:"tie"`
	Seed       uint64         `json:"seed"`
	Walks      int            `json:"walks"`
	Steps      int64          `json:"steps"`
	Checked    int64          `json:"states_checked"`
	Stuck      int            `json:"walks_stuck"`
	Invariants []simInvariant `json:"invariants"`
	Violation  *simViolation  `json:"violation,omitempty"`
}

type simInvariant struct {
	Label      string `json:"label"`
	Name       string `json:"name"`
	Doc        string `json:"doc"`
	Unit       string `json:"unit"`
	Checked    int64  `json:"checked"`
	Violations int64  `json:"violations"`
}

type simViolation struct {
	Invariant string          `json:"invariant"`
	Walk      int             `json:"walk"`
	RawDepth  int             `json:"raw_depth"`
	Depth     int             `json:"shrunk_depth"`
	Witness   json.RawMessage `json:"witness"`
	Text      string          `json:"text"`
}

func (d *simDoc) setStatus() {
	d.Status = "ok"
	for _, t := range d.Ties {
		if t.Violation != nil {
			d.Status = "violation"
		}
	}
}

func (d *simDoc) write(w io.Writer) {
	b, _ := json.MarshalIndent(d, "", "  ") // plain data always marshals
	fmt.Fprintln(w, string(b))
}

// simulate runs the walks under each tie policy asked for, prints the seed
// and the coverage (or with -json the document), and writes each shrunk
// witness as text and JSON (a shard carries it in its document instead).
func simulate(o *options, stdout, stderr io.Writer) int {
	s := o.sim
	if s.walks < 0 || s.steps < 1 || s.steps > witnessfile.MaxDepth {
		// A longer walk's witness is one no file can carry (and a network
		// world's causal past cannot record).
		return usageError(stderr, fmt.Errorf("-simulate %d -steps %d: need walks >= 0 and steps 1..%d", s.walks, s.steps, witnessfile.MaxDepth))
	}
	shard, err := cli.ParseShard(s.shard)
	switch {
	case err != nil:
		return usageError(stderr, err)
	case !shard.Whole() && !o.json:
		return usageError(stderr, fmt.Errorf("-shard %s: a shard's result is its -json document (add -json)", s.shard))
	case !shard.Whole() && o.html != "":
		return usageError(stderr, fmt.Errorf("-shard with -html: a page of one part is not the run's"))
	case shard.Count > s.walks:
		return usageError(stderr, fmt.Errorf("-shard %s: %d walks cannot be split into %d parts", s.shard, s.walks, shard.Count))
	}
	u, tl, rules, err := runInputs(o)
	if err != nil {
		return usageError(stderr, err)
	}
	d := &simDoc{Build: cli.BuildID(), Run: fmt.Sprintf("explore -universe=%s -simulate=%d -steps=%d -seed=%d -tie=%s -rules=%s (version %s)",
		u.Name, s.walks, s.steps, s.seed, o.tie, o.rules, cli.Version())}
	from, to := shard.Range(s.walks)
	if !shard.Whole() {
		d.Shard, d.Block = &shard, []int{from, to}
	}
	head := fmt.Sprintf("explore -universe=%s -simulate=%d -steps=%d -seed=%d -tie=%s -rules=%s -workers=%d (version %s)",
		u.Name, s.walks, s.steps, s.seed, o.tie, o.rules, o.workers, cli.Version())
	if o.json {
		fmt.Fprintln(stderr, head)
	} else {
		fmt.Fprintln(stdout, head)
	}
	for _, t := range tl {
		res, err := exhaustive.Simulate(exhaustive.SimConfig{Universe: u, Rules: rules.WithTie(t), Walks: to - from, From: from,
			Steps: s.steps, Seed: s.seed, Workers: o.workers})
		if err != nil {
			return usageError(stderr, err)
		}
		td := simTieDoc{Tie: t.String(), Seed: res.Seed, Walks: res.Walks, Steps: res.Steps, Checked: res.Checked, Stuck: res.Stuck}
		for _, inv := range res.Invariants {
			td.Invariants = append(td.Invariants, simInvariant{inv.Label, inv.Name, inv.Doc, inv.Unit, inv.Checked, inv.Violations})
		}
		if res.Witness != nil {
			text, err := exhaustive.Text(cat, res.Witness)
			if err != nil {
				return usageError(stderr, err)
			}
			td.Violation = &simViolation{Invariant: res.Witness.Invariant, Walk: res.Walk, RawDepth: res.RawDepth,
				Depth: len(res.Witness.Actions), Witness: res.Witness.JSON(), Text: text}
		}
		d.Ties = append(d.Ties, td)
	}
	d.setStatus()
	if o.json {
		d.write(stdout)
	} else {
		writeSimText(stdout, d)
	}
	if shard.Whole() {
		if err := writeSimWitnesses(o.witness, u.Name, s.seed, d, stdout, stderr, o.json); err != nil {
			return usageError(stderr, err)
		}
	}
	return simExit(d)
}

func simExit(d *simDoc) int {
	if d.Status == "violation" {
		return exitViolation
	}
	return exitOK
}

func writeSimText(w io.Writer, d *simDoc) {
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

// writeSimWitnesses writes each tie's witness as JSON and text under dir;
// the names go to stdout after the text report, to stderr after -json.
func writeSimWitnesses(dir, universe string, seed uint64, d *simDoc, stdout, stderr io.Writer, toStderr bool) error {
	for _, t := range d.Ties {
		v := t.Violation
		if v == nil {
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		base := filepath.Join(dir, fmt.Sprintf("simulate-%s-seed%d-%s", universe, seed, t.Tie))
		// The witness as explore writes it (indented by two spaces), from
		// the document's copy, which a shard's document re-indents.
		var buf bytes.Buffer
		if err := json.Indent(&buf, bytes.TrimSpace(v.Witness), "", "  "); err != nil {
			return err
		}
		buf.WriteByte('\n')
		if err := os.WriteFile(base+".json", buf.Bytes(), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(base+".txt", []byte(v.Text), 0o644); err != nil {
			return err
		}
		w := stdout
		if toStderr {
			w = stderr
		}
		fmt.Fprintf(w, "witness: %s.json, %s.txt\n", base, base)
	}
	return nil
}

// mergeSim is -merge for simulations: the blocks of one run (checked by
// cli.ReadShards), combined in walk order. Per tie policy the coverage
// adds up block after block until the first block with a violation, whose
// first violating walk is the run's (every earlier walk is in an earlier
// block or earlier in its own); later blocks are not counted, as the
// whole run counts no walk past its first violation.
func mergeSim(o *options, stdout, stderr io.Writer) int {
	var errs []string
	for _, f := range o.set {
		if f != "merge" && f != "witness" {
			errs = append(errs, "-"+f)
		}
	}
	if len(errs) > 0 {
		return usageError(stderr, fmt.Errorf("-merge takes only shard files (and -witness): the run's flags are in them, not %v", errs))
	}
	files, err := cli.ReadShards(o.args, func() *simDoc { return new(simDoc) })
	if err != nil {
		return usageError(stderr, err)
	}
	var out *simDoc
	next := 0
	for _, f := range files {
		d := f.Doc
		if len(d.Block) != 2 || d.Block[0] != next || d.Block[1] < d.Block[0] {
			return usageError(stderr, fmt.Errorf("-merge: %s: walks %v, want a block starting at walk %d (not a simulation shard of this run)", f.Name, d.Block, next))
		}
		next = d.Block[1]
		if out == nil {
			out = &simDoc{Run: d.Run, Build: d.Build}
			for _, t := range d.Ties {
				out.Ties = append(out.Ties, simTieDoc{Tie: t.Tie, Seed: t.Seed, Invariants: zeroCounts(t.Invariants)})
			}
		}
		if len(d.Ties) != len(out.Ties) {
			return usageError(stderr, fmt.Errorf("-merge: %s: %d tie policies, the first part %d", f.Name, len(d.Ties), len(out.Ties)))
		}
		for i, t := range d.Ties {
			m := &out.Ties[i]
			if t.Tie != m.Tie || len(t.Invariants) != len(m.Invariants) {
				return usageError(stderr, fmt.Errorf("-merge: %s: tie %s or its invariants differ from the first part's", f.Name, t.Tie))
			}
			if m.Violation != nil {
				continue // the run stopped counting at an earlier block's violation
			}
			m.Walks += t.Walks
			m.Steps += t.Steps
			m.Checked += t.Checked
			m.Stuck += t.Stuck
			for k, inv := range t.Invariants {
				m.Invariants[k].Checked += inv.Checked
				m.Invariants[k].Violations += inv.Violations
			}
			m.Violation = t.Violation
		}
	}
	if want, ok := walksOf(out.Run); !ok || want != next {
		return usageError(stderr, fmt.Errorf("-merge: the parts cover walks 0..%d, the run has %d", next, want))
	}
	out.setStatus()
	out.write(stdout)
	universe, seed := simNames(out.Run)
	if err := writeSimWitnesses(o.witness, universe, seed, out, stdout, stderr, true); err != nil {
		return usageError(stderr, err)
	}
	return simExit(out)
}

func zeroCounts(in []simInvariant) []simInvariant {
	out := make([]simInvariant, len(in))
	for i, inv := range in {
		out[i] = simInvariant{Label: inv.Label, Name: inv.Name, Doc: inv.Doc, Unit: inv.Unit}
	}
	return out
}

// walksOf reads -simulate=N back from a run line.
func walksOf(run string) (int, bool) {
	var n int
	_, rest, ok := strings.Cut(run, " -simulate=")
	if !ok {
		return 0, false
	}
	_, err := fmt.Sscanf(rest, "%d", &n)
	return n, err == nil
}

// simNames reads the universe and the seed back from a run line, for the
// witness files' names.
func simNames(run string) (universe string, seed uint64) {
	if _, rest, ok := strings.Cut(run, "-universe="); ok {
		universe, _, _ = strings.Cut(rest, " ")
	}
	if _, rest, ok := strings.Cut(run, " -seed="); ok {
		fmt.Sscanf(rest, "%d", &seed)
	}
	return universe, seed
}
