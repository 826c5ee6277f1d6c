package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/witnessfile"
)

// What a simulation part must be, beyond its header (cli.ReadShards
// checks that): its block of walks is the one its run line's walk count
// and its index give; its tie policies, seeds and invariants are those of
// its run line's universe, rules and ties; its counts agree with its
// block (every walk counted when none violated, the walks up to the
// violating one when one did; no more steps than walks times -steps);
// and what it claims is recomputed where that is cheap, walk i being
// seeded by the seed and i alone: the violating walk is run again and
// must give the same witness, depth and text; with no violation, the
// block's first walk is run again and must not violate. Counts altered
// consistently with each other are not caught: only rerunning the part
// would, which is what a merge exists to avoid; README says so.

// Header is the part's header, for cli.ReadShards.
func (d *simDoc) Header() cli.PartHeader {
	return cli.PartHeader{Run: d.Run, Build: d.Build, Shard: d.Shard}
}

// simRun is a simulation's configuration read back from its run line.
type simRun struct {
	universe, tie, rules string
	walks, steps         int
	seed                 uint64
}

// parseSimRun reads "explore -universe=U -simulate=N -steps=K -seed=S
// -tie=T -rules=R (version V)", every member required once.
func parseSimRun(run string) (simRun, error) {
	var r simRun
	body, _, ok := strings.Cut(run, " (version ")
	words := strings.Fields(body)
	if !ok || len(words) != 7 || words[0] != "explore" {
		return r, fmt.Errorf("not a simulation's run line: %q", run)
	}
	seen := map[string]bool{}
	for _, w := range words[1:] {
		k, v, _ := strings.Cut(strings.TrimPrefix(w, "-"), "=")
		if seen[k] {
			return r, fmt.Errorf("run line: -%s twice", k)
		}
		seen[k] = true
		var err error
		switch k {
		case "universe":
			r.universe = v
		case "tie":
			r.tie = v
		case "rules":
			r.rules = v
		case "simulate":
			r.walks, err = strconv.Atoi(v)
		case "steps":
			r.steps, err = strconv.Atoi(v)
		case "seed":
			r.seed, err = strconv.ParseUint(v, 10, 64)
		default:
			return r, fmt.Errorf("run line: unknown member -%s", k)
		}
		if err != nil {
			return r, fmt.Errorf("run line: -%s: %v", k, err)
		}
	}
	if r.walks < 1 || r.steps < 1 || r.steps > witnessfile.MaxDepth {
		return r, fmt.Errorf("run line: %d walks of %d steps, want walks >= 1 and steps 1..%d", r.walks, r.steps, witnessfile.MaxDepth)
	}
	return r, nil
}

// CheckPart is cli.Part's check of one simulation part.
func (d *simDoc) CheckPart() error {
	r, err := parseSimRun(d.Run)
	if err != nil {
		return err
	}
	if d.Shard.Count > r.walks {
		return fmt.Errorf("part of %d, but the run has only %d walks", d.Shard.Count, r.walks)
	}
	from, to := d.Shard.Range(r.walks)
	if len(d.Block) != 2 || d.Block[0] != from || d.Block[1] != to {
		return fmt.Errorf("walks %v, but part %s of %d walks is [%d %d]", d.Block, d.Shard, r.walks, from, to)
	}
	u, tl, rules, err := runInputs(&options{universe: r.universe, tie: r.tie, rules: r.rules})
	if err != nil {
		return fmt.Errorf("run line: %v", err)
	}
	wantStatus := "ok"
	if len(d.Ties) != len(tl) {
		return fmt.Errorf("%d tie policies, its run line's -tie=%s has %d", len(d.Ties), r.tie, len(tl))
	}
	for i, t := range d.Ties {
		if t.Tie != tl[i].String() || t.Seed != r.seed {
			return fmt.Errorf("tie %s seed %d, its run line says tie %s seed %d", t.Tie, t.Seed, tl[i], r.seed)
		}
		// Walk `at` again: the violating walk, or the block's first.
		at := from
		if v := t.Violation; v != nil {
			wantStatus = "violation"
			if v.Walk < from || v.Walk >= to {
				return fmt.Errorf("tie %s: violating walk %d outside its block [%d %d)", t.Tie, v.Walk, from, to)
			}
			at = v.Walk
		}
		want := to - from
		if t.Violation != nil {
			want = at - from + 1
		}
		if t.Walks != want || t.Steps < 0 || t.Steps > int64(t.Walks)*int64(r.steps) || t.Stuck < 0 || t.Stuck > t.Walks || t.Checked < int64(t.Walks) {
			return fmt.Errorf("tie %s: %d walks, %d steps, %d states checked, %d stuck: not the counts of %d walks of at most %d steps",
				t.Tie, t.Walks, t.Steps, t.Checked, t.Stuck, want, r.steps)
		}
		res, err := exhaustive.Simulate(exhaustive.SimConfig{Universe: u, Rules: rules.WithTie(tl[i]), Walks: 1, From: at, Steps: r.steps, Seed: r.seed, Workers: 1})
		if err != nil {
			return err
		}
		if err := t.SameInvariants(res); err != nil {
			return fmt.Errorf("tie %s: %v", t.Tie, err)
		}
		if err := exhaustive.SameViolation(cat, t.Violation, res); err != nil {
			return fmt.Errorf("tie %s, walk %d run again: %v", t.Tie, at, err)
		}
	}
	if d.Status != wantStatus {
		return fmt.Errorf("status %q, its ties say %q", d.Status, wantStatus)
	}
	return nil
}
