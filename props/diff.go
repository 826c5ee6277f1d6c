package props

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
)

// DrawScenario draws a whole soundness scenario as data: the
// configuration, the starting history, the load's start and the
// interleaving phase, taking the choices from src in the order
// SoundnessProperty takes them. None of the draws depends on the rules or
// on what a step did, so one source gives the same scenario under any
// rule set, and SoundnessProperty's scenario for that source is a prefix
// of this one (it stops drawing at its first violation).
func DrawScenario(src Source, profile string) (Config, []Step) {
	cfg := DrawConfig(src, profile)
	steps := append(DrawSetup(src), Step{Op: OpStart})
	for range src.IntRange(0, maxInterleaved, "steps") {
		steps = append(steps, drawStepFor(src, cfg))
	}
	return cfg, steps
}

// LoadOutcome is what a user of the loading installation sees of one load
// a scenario started: that it was refused before it ran, that it never
// ended, or its verdict, its reason and the coordinates it retained.
type LoadOutcome struct {
	// Refused is why the load was refused at its start (empty if not).
	Refused string
	// Stuck: the load was left running with nothing to exchange.
	Stuck   bool
	Verdict model.Verdict
	Reason  model.Reason
	// Coords is the retained event of each read-state coordinate, by d
	// tag in order.
	Coords []Coord
}

// Coord is one retained coordinate: its d tag, the event's id, and the
// event as the scenario's log names it (d tag, second, short id).
type Coord struct {
	D, ID, Label string
}

// Shown is the outcome as a user reads it: "refused (...)", "no verdict
// (...)", or the verdict with its reason.
func (o LoadOutcome) Shown() string {
	switch {
	case o.Refused != "":
		return "refused (" + o.Refused + ")"
	case o.Stuck:
		return "no verdict (running with nothing left to exchange)"
	case o.Reason == model.ReasonNone:
		return "verdict " + o.Verdict.String()
	}
	return fmt.Sprintf("verdict %s (%s)", o.Verdict, o.Reason)
}

// refusedPrefix is the line World logs when NewLoad refuses a load.
const refusedPrefix = "  load refused: "

// RunOutcomes runs every step of a scenario under rules, then lets the
// last load run to its verdict (World.Finish), and returns what the user
// saw of each load in start order, with the log. Unlike the soundness
// check it does not stop at a violation: a false complete is an outcome
// like any other here, what the user sees of it is its verdict and
// coordinates. The error is a configuration World cannot build.
func RunOutcomes(cfg Config, rules *model.Rules, steps []Step) ([]LoadOutcome, []string, error) {
	w, err := NewWorld(cfg, rules)
	if err != nil {
		return nil, nil, err
	}
	defer w.close()
	// loads holds, per load started, its index in w.results, or -1 for
	// one refused (with refusals kept beside it).
	var loads []int
	refusals := map[int]string{}
	for _, s := range steps {
		ran, done, logged := w.Running(), len(w.results), len(w.log)
		w.Apply(s)
		if s.Op != OpStart || ran {
			continue
		}
		switch {
		case len(w.results) > done || w.Running():
			loads = append(loads, done)
		default:
			why := "no load"
			for _, l := range w.log[logged:] {
				if r, ok := strings.CutPrefix(l, refusedPrefix); ok {
					why = r
				}
			}
			refusals[len(loads)] = why
			loads = append(loads, -1)
		}
	}
	stuck := false
	// A soundness violation returns from Finish at the verdict; the next
	// call carries on with what is left to exchange.
	for range 2 + len(loads) {
		v := w.Finish()
		if v == nil {
			break
		}
		if v.Check == "stuck" {
			stuck = true
			break
		}
	}
	out := make([]LoadOutcome, len(loads))
	for i, k := range loads {
		switch {
		case k < 0:
			out[i].Refused = refusals[i]
		case k >= len(w.results):
			out[i].Stuck = stuck || w.Running()
		default:
			res := w.results[k]
			out[i].Verdict, out[i].Reason = res.Verdict, res.Reason
			for _, ev := range res.Events {
				out[i].Coords = append(out[i].Coords, Coord{D: ev.Tags.GetD(), ID: ev.ID, Label: label(ev)})
			}
			slices.SortFunc(out[i].Coords, func(x, y Coord) int { return strings.Compare(x.D, y.D) })
		}
	}
	return out, w.Log(), nil
}

// CompareOutcomes lists, in the spec's terms, everything a user could
// tell apart between the loads of one scenario run under rule sets named
// a and b: a load that started under one only, a verdict or reason, a
// coordinate retained at another version or under one only. Nil when
// they agree.
func CompareOutcomes(x, y []LoadOutcome, a, b string) []string {
	var out []string
	for i := range max(len(x), len(y)) {
		n := i + 1
		switch {
		case i >= len(y):
			out = append(out, fmt.Sprintf("load %d: %s under %s; under %s it never started (the load before it still ran)", n, x[i].Shown(), a, b))
			continue
		case i >= len(x):
			out = append(out, fmt.Sprintf("load %d: %s under %s; under %s it never started (the load before it still ran)", n, y[i].Shown(), b, a))
			continue
		}
		sx, sy := x[i].Shown(), y[i].Shown()
		coords := compareCoords(n, x[i].Coords, y[i].Coords, a, b)
		if sx != sy {
			out = append(out, fmt.Sprintf("load %d: %s under %s, %s under %s", n, sx, a, strings.TrimPrefix(sy, "verdict "), b))
		}
		out = append(out, coords...)
		if sx == sy && len(coords) > 0 {
			// The same verdict over other coordinates: say which verdict
			// the user acts on them by.
			out = append(out, fmt.Sprintf("load %d: %s under both", n, sx))
		}
	}
	return out
}

// compareCoords lists the coordinates retained at different versions, or
// under one rule set only, by d tag.
func compareCoords(n int, x, y []Coord, a, b string) []string {
	at := func(cs []Coord, d string) (Coord, bool) {
		i, ok := slices.BinarySearchFunc(cs, d, func(c Coord, d string) int { return strings.Compare(c.D, d) })
		if !ok {
			return Coord{}, false
		}
		return cs[i], true
	}
	var ds []string
	for _, c := range append(slices.Clone(x), y...) {
		ds = append(ds, c.D)
	}
	slices.Sort(ds)
	var out []string
	for _, d := range slices.Compact(ds) {
		cx, okx := at(x, d)
		cy, oky := at(y, d)
		switch {
		case okx && oky && cx.ID != cy.ID:
			out = append(out, fmt.Sprintf("load %d retains %s under %s, %s under %s", n, cx.Label, a, cy.Label, b))
		case okx && !oky:
			out = append(out, fmt.Sprintf("load %d retains %s under %s, nothing of that coordinate under %s", n, cx.Label, a, b))
		case oky && !okx:
			out = append(out, fmt.Sprintf("load %d retains nothing of that coordinate under %s, %s under %s", n, a, cy.Label, b))
		}
	}
	return out
}

// Differ runs one scenario under both rule sets and compares what a user
// sees; the logs are each side's.
func Differ(cfg Config, a, b *model.Rules, steps []Step) (diffs []string, logA, logB []string, err error) {
	x, logA, err := RunOutcomes(cfg, a, steps)
	if err != nil {
		return nil, nil, nil, err
	}
	y, logB, err := RunOutcomes(cfg, b, steps)
	if err != nil {
		return nil, nil, nil, err
	}
	return CompareOutcomes(x, y, a.Name, b.Name), logA, logB, nil
}

// DiffConfig bounds a search for a difference between two rule sets:
// Cases soundness scenarios per relay profile, drawn from Seed, over each
// of Profiles in order.
type DiffConfig struct {
	A, B     *model.Rules
	Profiles []string
	Cases    int
	Seed     uint64
}

// DiffResult is what DiffSearch found: the first scenario after which a
// user can tell the rule sets apart, shrunk, or none within the bounds.
type DiffResult struct {
	A, B     string
	Profiles []string
	Cases    int
	Seed     uint64
	// Scenarios counts the scenarios run under both rule sets before the
	// one found (that one included), shrinking not counted.
	Scenarios int
	// Found is nil when no scenario within the bounds tells them apart.
	Found *LoadDiff
}

// LoadDiff is one scenario that tells two rule sets apart: where the
// search drew it (its profile and case), the shrunk scenario, and what a
// user sees otherwise after it.
type LoadDiff struct {
	Case        int
	Config      Config
	Steps       []Step
	Differences []string
}

// DiffSearch runs the soundness scenarios of the search (DrawScenario from
// NewSeeded(Seed, case), case 0 first, profile by profile in order) under
// A and under B, and stops at the first whose outcomes differ (verdict,
// reason, retained coordinates, a load started or refused under one
// only). It shrinks that scenario as Minimize does, keeping each change
// after which the two still differ (any difference, not necessarily the
// first one found). It is deterministic.
func DiffSearch(cfg DiffConfig) (*DiffResult, error) {
	switch {
	case cfg.A == nil || cfg.B == nil:
		return nil, errors.New("props: diff: two rule sets needed")
	case cfg.Cases < 1:
		return nil, fmt.Errorf("props: diff: %d cases: need at least 1", cfg.Cases)
	case len(cfg.Profiles) == 0:
		return nil, errors.New("props: diff: no relay profile to search")
	}
	res := &DiffResult{A: cfg.A.Name, B: cfg.B.Name, Profiles: slices.Clone(cfg.Profiles), Cases: cfg.Cases, Seed: cfg.Seed}
	for _, p := range cfg.Profiles {
		if err := ValidateConfig(Config{Profile: p, Cap: MinCap, N: MinN}); err != nil {
			return nil, fmt.Errorf("props: diff: %v", err)
		}
	}
	for _, p := range cfg.Profiles {
		for c := range cfg.Cases {
			res.Scenarios++
			conf, steps := DrawScenario(NewSeeded(cfg.Seed, c), p)
			d, _, _, err := Differ(conf, cfg.A, cfg.B, steps)
			if err != nil {
				return nil, err
			}
			if len(d) == 0 {
				continue
			}
			w := shrinkDiff(Witness{Check: CheckSoundness, Rules: cfg.A.Name, Config: conf, Steps: steps}, cfg.A, cfg.B)
			d, _, _, _ = Differ(w.Config, cfg.A, cfg.B, w.Steps) // it ran under this configuration while shrinking
			res.Found = &LoadDiff{Case: c, Config: w.Config, Steps: w.Steps, Differences: d}
			return res, nil
		}
	}
	return res, nil
}

// shrinkDiff is Minimize's reduction with "the two rule sets still
// differ" as what must survive each change.
func shrinkDiff(wit Witness, a, b *model.Rules) Witness {
	wit.Steps = slices.Clone(wit.Steps)
	still := func(try *Witness) bool {
		d, _, _, err := Differ(try.Config, a, b, try.Steps)
		return err == nil && len(d) > 0
	}
	for changed := true; changed; {
		changed = dropSteps(&wit, still)
		if lowerValues(&wit, still) {
			changed = true
		}
	}
	return wit
}
