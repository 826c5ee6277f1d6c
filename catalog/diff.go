package catalog

import (
	"fmt"
	"strings"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/props"
	"github.com/nip-rs/harness/witnessfile"
)

// LoadDiffUniverse names the full-state load's scenarios as the universe
// of a difference: not an entry of the catalogue (nothing explores the
// load), the seeded scenario search of package props.
const LoadDiffUniverse = "load"

// DiffRequest is a lockstep difference of two rule sets, A and B, in one
// universe: an override universe (to Depth, under one tie policy), the
// load's scenarios (LoadDiffUniverse: Cases per relay profile from Seed)
// or the walk (history.UniverseName: Variant, to Depth).
type DiffRequest struct {
	A, B     string
	Universe string
	Variant  string
	Depth    int
	// Tie is the one tie policy of an override universe; "" is clear.
	Tie   string
	Cases int
	Seed  uint64
	// WitnessDir is where the difference found, if any, is written.
	WitnessDir string
}

// DiffOutcome is what a difference search found, in the three forms a
// caller prints: the bounds it ran at (as the flags that set them), its
// lines, its JSON document; and the witness file written ("" for none).
type DiffOutcome struct {
	Bounds  string
	Lines   []string
	Doc     any
	Witness string
}

// Diff runs the difference the request names through the package that
// owns its universe (exhaustive.Diff, props.DiffSearch, history.Diff) and
// writes the shortest history found as a difference witness, named by
// the rule sets and whatever bounds the search. A bad name or bound is
// an error and nothing runs.
func (c *Catalog) Diff(r DiffRequest) (*DiffOutcome, error) {
	switch r.Universe {
	case LoadDiffUniverse:
		return c.diffLoad(r)
	case history.UniverseName:
		return diffWalk(r)
	}
	u, err := c.ex.Universe(r.Universe)
	if err != nil {
		return nil, fmt.Errorf("%v; -diff also takes -universe %s, the full-state load's scenarios, and -universe %s, the paged walk", err, LoadDiffUniverse, history.UniverseName)
	}
	tie := model.ClearWins
	if r.Tie != "" {
		tl, err := model.ParseTies(r.Tie)
		if err != nil {
			return nil, err
		}
		if len(tl) != 1 {
			return nil, fmt.Errorf("-diff takes one tie policy (clear or set)")
		}
		tie = tl[0]
	}
	var rules [2]*model.Rules
	for i, n := range []string{r.A, r.B} {
		if rules[i], err = amendments.RulesUnder(c.ex, n, tie); err != nil {
			return nil, fmt.Errorf("-diff: %v", err)
		}
	}
	res, err := exhaustive.Diff(u, rules[0], rules[1], r.Depth)
	if err != nil {
		return nil, err
	}
	file, err := witnessfile.WriteDiff(r.WitnessDir, res.WitnessJSON(tie), res.A, res.B, u.Name, tie.String())
	if err != nil {
		return nil, err
	}
	return &DiffOutcome{Bounds: fmt.Sprintf("-universe=%s -depth=%d -tie=%s", u.Name, res.Depth, tie),
		Lines: res.Lines(), Doc: res.Document(), Witness: file}, nil
}

// diffLoad runs the load's seeded soundness scenarios under both rule
// sets over the relay profiles the gate searches.
func (c *Catalog) diffLoad(r DiffRequest) (*DiffOutcome, error) {
	if r.Cases < 1 {
		return nil, fmt.Errorf("-cases %d: need at least 1", r.Cases)
	}
	var rules [2]*model.Rules
	for i, n := range []string{r.A, r.B} {
		var err error
		if rules[i], err = c.ex.RuleSet(n); err != nil {
			return nil, fmt.Errorf("-diff: %v", err)
		}
	}
	res, err := props.DiffSearch(props.DiffConfig{A: rules[0], B: rules[1], Profiles: props.GateProfiles(props.CheckSoundness), Cases: r.Cases, Seed: r.Seed})
	if err != nil {
		return nil, err
	}
	file, err := witnessfile.WriteDiff(r.WitnessDir, res.WitnessJSON(), res.A, res.B, LoadDiffUniverse)
	if err != nil {
		return nil, err
	}
	return &DiffOutcome{Bounds: fmt.Sprintf("-universe=%s -cases=%d -seed=%d", LoadDiffUniverse, res.Cases, res.Seed),
		Lines: res.Lines(), Doc: res.Document(LoadDiffUniverse), Witness: file}, nil
}

// diffWalk runs the walk's lockstep search in one variant, each side the
// walk's rule set of its name (WalkRules) named as given.
func diffWalk(r DiffRequest) (*DiffOutcome, error) {
	u, ok := WalkVariant(r.Variant)
	if !ok {
		return nil, fmt.Errorf("-variant %s: not a variant of the walk (see -universe walk -list)", r.Variant)
	}
	var rules [2]*history.Rules
	for i, n := range []string{r.A, r.B} {
		wr, ok := WalkRules(n)
		if !ok {
			return nil, fmt.Errorf("-diff: %q is not a rule set of the walk (want one of %s)", n, strings.Join(WalkRuleNames(), ", "))
		}
		rules[i] = wr.Clone()
		rules[i].Name = n
	}
	res, err := history.Diff(u, r.Variant, rules[0], rules[1], r.Depth)
	if err != nil {
		return nil, err
	}
	file, err := witnessfile.WriteDiff(r.WitnessDir, res.WitnessJSON(), res.A, res.B, history.UniverseName, r.Variant)
	if err != nil {
		return nil, err
	}
	return &DiffOutcome{Bounds: fmt.Sprintf("-universe=%s -variant=%s -depth=%d", history.UniverseName, r.Variant, res.Depth),
		Lines: res.Lines(), Doc: res, Witness: file}, nil
}
