package exhaustive

import (
	"fmt"
	"io"

	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
)

// Line is the simulation's run line, the one ParseSimRun reads back: it
// names the universe, walks, steps, seed, tie and rule set as a command
// line does, and nothing that depends on the machine.
func (r SimRun) Line() string {
	return fmt.Sprintf("explore -universe=%s -simulate=%d -steps=%d -seed=%d -tie=%s -rules=%s (version %s)",
		r.Universe, r.Walks, r.Steps, r.Seed, r.Tie, r.Rules, cli.Version())
}

// Head is the line that opens the simulation's output: the run line with
// the worker count, which the document leaves out (no count in it depends
// on the workers).
func (r SimRun) Head(workers int) string {
	return fmt.Sprintf("explore -universe=%s -simulate=%d -steps=%d -seed=%d -tie=%s -rules=%s -workers=%d (version %s)",
		r.Universe, r.Walks, r.Steps, r.Seed, r.Tie, r.Rules, workers, cli.Version())
}

// Block runs shard's block of the simulation's walks over u under rules,
// once per tie policy, and returns the document of the block (the whole
// run's for the whole shard), its status set; cat renders each shrunk
// witness. each, when set, is called after each tie's walks with the
// block's first walk and walk count (a command writes their traces then);
// its error ends the run.
func (r SimRun) Block(cat *Catalog, u Universe, ties []model.TiePolicy, rules *model.Rules, shard cli.Shard, workers int,
	each func(t model.TiePolicy, from, n int) error) (*SimDoc, error) {
	d := &SimDoc{Build: cli.BuildID(), Run: r.Line()}
	from, to := shard.Range(r.Walks)
	if !shard.Whole() {
		d.Shard, d.Block = &shard, []int{from, to}
	}
	for _, t := range ties {
		res, err := Simulate(SimConfig{Universe: u, Rules: rules.WithTie(t), Walks: to - from, From: from, Steps: r.Steps, Seed: r.Seed, Workers: workers})
		if err != nil {
			return nil, err
		}
		td, err := SimTie(cat, res)
		if err != nil {
			return nil, err
		}
		d.Ties = append(d.Ties, td)
		if each != nil {
			if err := each(t, from, to-from); err != nil {
				return nil, err
			}
		}
	}
	d.SetStatus()
	return d, nil
}

// MergeRun is the whole run's document from its parts' (MergeSim), its
// status set: the parts must cover every walk its run line names.
func MergeRun(names []string, docs []*SimDoc) (*SimDoc, error) {
	out, next, err := MergeSim(names, docs)
	if err != nil {
		return nil, err
	}
	r, err := ParseSimRun(out.Run)
	if err != nil || r.Walks != next {
		return nil, fmt.Errorf("the parts cover walks 0..%d, the run has %d", next, r.Walks)
	}
	out.SetStatus()
	return out, nil
}

// SaveWitnesses writes each tie's witness under dir (WriteWitnesses, named
// by the universe and seed of the document's run line) and lists the
// files written to w, those before an error included.
func (d *SimDoc) SaveWitnesses(dir string, w io.Writer) error {
	r, err := ParseSimRun(d.Run)
	if err != nil {
		return err
	}
	bases, err := d.WriteWitnesses(dir, r.Universe, r.Seed)
	for _, base := range bases {
		fmt.Fprintf(w, "witness: %s.json, %s.txt\n", base, base)
	}
	return err
}

// Exit is the simulation's exit code (internal/cli's): a violation fails
// it; walks that met none leave it ok, a sample proving nothing more.
func (d *SimDoc) Exit() int {
	if d.Status == "violation" {
		return cli.ExitFailed
	}
	return cli.ExitOK
}
