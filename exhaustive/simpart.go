package exhaustive

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// What a simulation part must be, beyond its header (cli.ReadShards
// checks that): its block of walks is the one its run line's walk count
// and its index give; its tie policies, seeds and invariants are those of
// its run line's universe, rules and ties; its counts agree with its
// block (every walk counted when none violated, the walks up to the
// violating one when one did; no more steps than walks times the steps
// bound); and what it claims is recomputed where that is cheap, walk i
// being seeded by the seed and i alone: the violating walk is run again
// and must give the same witness, depth and text; with no violation, the
// block's first walk is run again and must not violate. Counts altered
// consistently with each other are not caught: only rerunning the part
// would, which is what a merge exists to avoid.

// Header is the part's header, for cli.ReadShards.
func (d *SimDoc) Header() cli.PartHeader {
	return cli.PartHeader{Run: d.Run, Build: d.Build, Shard: d.Shard}
}

// SimRun is a simulation's configuration read back from its run line.
type SimRun struct {
	Universe, Tie, Rules string
	Walks, Steps         int
	Seed                 uint64
}

// ParseSimRun reads the run line the explorer writes for a simulation,
// "explore -universe=U -simulate=N -steps=K -seed=S -tie=T -rules=R
// (version V)", every member required once.
func ParseSimRun(run string) (SimRun, error) {
	var r SimRun
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
			r.Universe = v
		case "tie":
			r.Tie = v
		case "rules":
			r.Rules = v
		case "simulate":
			r.Walks, err = strconv.Atoi(v)
		case "steps":
			r.Steps, err = strconv.Atoi(v)
		case "seed":
			r.Seed, err = strconv.ParseUint(v, 10, 64)
		default:
			return r, fmt.Errorf("run line: unknown member -%s", k)
		}
		if err != nil {
			return r, fmt.Errorf("run line: -%s: %v", k, err)
		}
	}
	if r.Walks < 1 || r.Steps < 1 || r.Steps > witnessfile.MaxDepth {
		return r, fmt.Errorf("run line: %d walks of %d steps, want walks >= 1 and steps 1..%d", r.Walks, r.Steps, witnessfile.MaxDepth)
	}
	return r, nil
}

// Resolver gives the universe, tie policies and rule set a run line
// names, as the command that wrote it resolves them.
type Resolver func(universe, tie, rules string) (Universe, []model.TiePolicy, *model.Rules, error)

// CheckPart checks one simulation part against its run line (see above);
// resolve reads the line's names, cat names the universes of a witness.
func (d *SimDoc) CheckPart(cat *Catalog, resolve Resolver) error {
	r, err := ParseSimRun(d.Run)
	if err != nil {
		return err
	}
	if d.Shard == nil {
		return fmt.Errorf("not a part: no shard")
	}
	if d.Shard.Count > r.Walks {
		return fmt.Errorf("part of %d, but the run has only %d walks", d.Shard.Count, r.Walks)
	}
	from, to := d.Shard.Range(r.Walks)
	if len(d.Block) != 2 || d.Block[0] != from || d.Block[1] != to {
		return fmt.Errorf("walks %v, but part %s of %d walks is [%d %d]", d.Block, d.Shard, r.Walks, from, to)
	}
	u, tl, rules, err := resolve(r.Universe, r.Tie, r.Rules)
	if err != nil {
		return fmt.Errorf("run line: %v", err)
	}
	wantStatus := "ok"
	if len(d.Ties) != len(tl) {
		return fmt.Errorf("%d tie policies, its run line's -tie=%s has %d", len(d.Ties), r.Tie, len(tl))
	}
	for i, t := range d.Ties {
		if t.Tie != tl[i].String() || t.Seed != r.Seed {
			return fmt.Errorf("tie %s seed %d, its run line says tie %s seed %d", t.Tie, t.Seed, tl[i], r.Seed)
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
		if t.Walks != want || t.Steps < 0 || t.Steps > int64(t.Walks)*int64(r.Steps) || t.Stuck < 0 || t.Stuck > t.Walks || t.Checked < int64(t.Walks) {
			return fmt.Errorf("tie %s: %d walks, %d steps, %d states checked, %d stuck: not the counts of %d walks of at most %d steps",
				t.Tie, t.Walks, t.Steps, t.Checked, t.Stuck, want, r.Steps)
		}
		res, err := Simulate(SimConfig{Universe: u, Rules: rules.WithTie(tl[i]), Walks: 1, From: at, Steps: r.Steps, Seed: r.Seed, Workers: 1})
		if err != nil {
			return err
		}
		if err := t.SameInvariants(res); err != nil {
			return fmt.Errorf("tie %s: %v", t.Tie, err)
		}
		if err := SameViolation(cat, t.Violation, res); err != nil {
			return fmt.Errorf("tie %s, walk %d run again: %v", t.Tie, at, err)
		}
	}
	if d.Status != wantStatus {
		return fmt.Errorf("status %q, its ties say %q", d.Status, wantStatus)
	}
	return nil
}
