package props

import (
	"errors"
	"fmt"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/relaysim"
)

// Check names.
const (
	CheckSoundness = "soundness"
	CheckQuiescent = "quiescent"
)

// Witness is a replayable violation: the check, the rule set and relay
// profile it ran under, and the scenario.
type Witness struct {
	Check     string `json:"check"`
	Rules     string `json:"rules"`
	Config    Config `json:"config"`
	Steps     []Step `json:"steps"`
	Violation string `json:"violation"`
}

// Replay re-runs a witness's scenario under rules and returns the
// violation it exposes (nil if none) and the log.
func Replay(wit Witness, rules *model.Rules) (*Violation, []string) {
	switch wit.Check {
	case CheckQuiescent:
		w, v := Quiescent(wit.Config, rules, wit.Steps)
		if w == nil {
			return v, nil
		}
		return v, w.Log()
	case CheckSoundness:
		return runScenario(wit.Config, rules, wit.Steps)
	case CheckTermination:
		return replayTermination(wit.Config, rules, wit.Steps)
	}
	return &Violation{"config", "unknown check " + wit.Check}, nil
}

func runScenario(cfg Config, rules *model.Rules, steps []Step) (*Violation, []string) {
	w, err := NewWorld(cfg, rules)
	if err != nil {
		return &Violation{"config", err.Error()}, nil
	}
	defer w.close()
	for _, s := range steps {
		if v := w.Apply(s); v != nil {
			return v, w.Log()
		}
	}
	return safety(w.Finish()), w.Log()
}

// DrawConfig draws a cap in [2,5] and a limit n in [2,6] for a profile,
// and over a relay that bounds its subscriptions how many others the
// installation opens, in [0,2].
func DrawConfig(src Source, profile string) Config {
	cfg := Config{Profile: profile, Cap: src.IntRange(2, 5, "cap"), N: src.IntRange(2, 6, "n")}
	if p, err := relaysim.ByName(profile, 2); err == nil && p.MaxSubs > 0 {
		cfg.Others = src.IntRange(0, 2, "others")
	}
	if p, err := relaysim.ByName(profile, 2); err == nil && (p.SettleBeforePass || p.FlushBeforePass || p.RegisterBeforePass) {
		cfg.Passes = 2 // the client's defence against the relay's races
	}
	return cfg
}

// DrawSetup draws a starting history: one to four read-state coordinates,
// up to three groups of foreign application data (in one second, or
// spread over consecutive seconds), and up to two deletions among the
// newest stored events. Seconds come from the 30 seconds before the clock,
// half the time from a few shared ones, so that ties, plateaus, and
// read-state coordinates inside a plateau of foreign data are common.
func DrawSetup(src Source) []Step {
	hot := make([]int64, src.IntRange(1, 3, "shared seconds"))
	for i := range hot {
		hot[i] = int64(src.IntRange(StartClock-30, StartClock, "shared second"))
	}
	second := func(label string) int64 {
		if i := src.IntRange(0, 2*len(hot)-1, label+" shared"); i < len(hot) {
			return hot[i]
		}
		return int64(src.IntRange(StartClock-30, StartClock, label))
	}
	var steps []Step
	for i := range src.IntRange(1, 4, "coordinates") {
		steps = append(steps, Step{Op: OpPublish, I: i, When: WhenAt, At: second("at")})
	}
	for range src.IntRange(0, 3, "foreign groups") {
		steps = append(steps, Step{Op: OpForeign, Count: src.IntRange(1, 5, "count"),
			At: second("foreign at"), Spread: src.IntRange(0, 2, "spread") > 0})
	}
	for range src.IntRange(0, 2, "deletions") {
		steps = append(steps, Step{Op: OpDelete, I: src.IntRange(0, 3, "victim")})
	}
	return steps
}

// interleavingOps weights the operations of the interleaving phase.
var interleavingOps = weighted(map[string]int{
	OpRound: 8, OpDeliver: 10, OpProcess: 10, OpFlush: 6, OpPublish: 20, OpForeign: 5, OpDelete: 3,
	OpTick: 3, OpSettle: 3, OpLapse: 1, OpCloseFence: 1, OpStart: 3,
})

func weighted(w map[string]int) []string {
	var out []string
	for _, op := range []string{OpRound, OpDeliver, OpProcess, OpFlush, OpPublish, OpForeign, OpDelete, OpTick, OpSettle, OpLapse, OpCloseFence, OpStart} {
		for range w[op] {
			out = append(out, op)
		}
	}
	return out
}

// publishTimings weights the timings of an interleaved publication.
var publishTimings = []string{WhenNow, WhenNow, WhenSame, WhenSame, WhenSame, WhenAbove, WhenAbove, WhenBelow, WhenAt, WhenAt}

// openOps is interleavingOps with other subscriptions opened now and
// then, for a scenario whose installation opens some (Config.Others).
var openOps = append(append([]string{}, interleavingOps...), OpOpen, OpOpen, OpOpen, OpOpen, OpOpen)

// DrawStep draws one interleaving step.
func DrawStep(src Source) Step { return drawStep(src, interleavingOps) }

// drawStepFor draws one interleaving step of a scenario under cfg.
func drawStepFor(src Source, cfg Config) Step {
	if cfg.Others > 0 {
		return drawStep(src, openOps)
	}
	return drawStep(src, interleavingOps)
}

func drawStep(src Source, ops []string) Step {
	s := Step{Op: Pick(src, "op", ops)}
	switch s.Op {
	case OpDeliver, OpFlush:
		s.I = src.IntRange(0, 3, "k")
	case OpProcess:
		s.I = src.IntRange(0, 2, "pending")
	case OpDelete:
		s.I = src.IntRange(0, 20, "victim")
	case OpTick:
		s.I = src.IntRange(1, 3, "seconds")
	case OpForeign:
		s.Count = src.IntRange(1, 4, "count")
		s.At = int64(src.IntRange(StartClock-30, StartClock+5, "foreign at"))
		s.Spread = src.Bool("spread")
	case OpPublish:
		s.I = src.IntRange(0, 4, "slot")
		s.When = Pick(src, "when", publishTimings)
		switch s.When {
		case WhenAt:
			s.At = int64(src.IntRange(StartClock-30, StartClock+5, "publish at"))
		case WhenSame:
			s.Lower = src.Bool("lower")
		}
	}
	return s
}

// maxInterleaved bounds the interleaving phase of a soundness scenario.
const maxInterleaved = 40

// DrawInterleaving draws the interleaving phase: up to 40 steps.
func DrawInterleaving(src Source) []Step {
	steps := make([]Step, src.IntRange(0, maxInterleaved, "steps"))
	for i := range steps {
		steps[i] = DrawStep(src)
	}
	return steps
}

// Property is a generic check as a generator: it draws one scenario from
// src and runs it. It returns the witness of the violation the scenario
// exposes, with the run's log, or nil when it exposes none. An error means
// the scenario could not be built (an unknown relay profile).
type Property func(src Source) (*Witness, []string, error)

// SoundnessProperty is the soundness state machine: a starting history,
// a load, up to 40 interleaved steps (the load's messages, other
// installations' writes, foreign writes, deletions, lapses, further
// loads), then the load runs to its verdict. Every complete verdict must
// be sound; a load must never be left running with nothing to exchange.
// A load still running when Finish's bound runs out gave no verdict, so
// none of its verdicts is false: that is the termination check's.
func SoundnessProperty(rules *model.Rules, profile string) Property {
	return func(src Source) (*Witness, []string, error) {
		cfg := DrawConfig(src, profile)
		w, err := NewWorld(cfg, rules)
		if err != nil {
			return nil, nil, err
		}
		defer w.close()
		wit := Witness{Check: CheckSoundness, Rules: rules.Name, Config: cfg}
		apply := func(s Step) *Violation {
			wit.Steps = append(wit.Steps, s)
			return w.Apply(s)
		}
		for _, s := range DrawSetup(src) {
			if v := apply(s); v != nil {
				return found(wit, v, w)
			}
		}
		if v := apply(Step{Op: OpStart}); v != nil {
			return found(wit, v, w)
		}
		for range src.IntRange(0, maxInterleaved, "steps") {
			if v := apply(drawStepFor(src, cfg)); v != nil {
				return found(wit, v, w)
			}
		}
		if v := safety(w.Finish()); v != nil {
			return found(wit, v, w)
		}
		return nil, nil, nil
	}
}

// QuiescentProperty is the quiescent check: a drawn history, one load
// with nothing written during it, its verdict compared with Predict.
func QuiescentProperty(rules *model.Rules, profile string) Property {
	return func(src Source) (*Witness, []string, error) {
		cfg := DrawConfig(src, profile)
		setup := DrawSetup(src)
		w, v := Quiescent(cfg, rules, setup)
		switch {
		case v == nil:
			return nil, nil, nil
		case v.Check == "config":
			return nil, nil, errors.New("props: " + v.Detail)
		}
		return found(Witness{Check: CheckQuiescent, Rules: rules.Name, Config: cfg, Steps: setup}, v, w)
	}
}

func found(wit Witness, v *Violation, w *World) (*Witness, []string, error) {
	wit.Violation = v.Error()
	var log []string
	if w != nil {
		log = w.Log()
	}
	return &wit, log, nil
}

// PropertyFor returns the named generic check under rules and a relay
// profile, or an error naming what does not exist.
func PropertyFor(check string, rules *model.Rules, profile string) (Property, error) {
	if rules == nil {
		return nil, errors.New("props: no rules")
	}
	if _, err := relaysim.ByName(profile, 2); err != nil {
		return nil, err
	}
	switch check {
	case CheckSoundness:
		return SoundnessProperty(rules, profile), nil
	case CheckQuiescent:
		return QuiescentProperty(rules, profile), nil
	case CheckTermination:
		return TerminationProperty(rules, profile), nil
	}
	return nil, fmt.Errorf("props: unknown check %q (want %q, %q or %q)", check, CheckSoundness, CheckQuiescent, CheckTermination)
}

// GateProfiles names the relay profiles a generic check searches when it
// judges a rule set: the conformant profile first, then for soundness
// every other profile that meets the five requirements
// (relaysim.Quirks). A complete verdict must be sound over any relay the
// requirements admit, so soundness covers them all, and so does
// termination (a verdict is owed over any of them); the quiescent check
// writes nothing while a load runs, where those profiles behave as the
// conformant one does, so it runs over the conformant profile alone.
func GateProfiles(check string) []string {
	names := []string{"conformant"}
	if check != CheckSoundness && check != CheckTermination {
		return names
	}
	for _, p := range relaysim.Quirks(2) {
		names = append(names, p.Name)
	}
	// A relay breaking R6 the way khatru does, one breaking R5 and R6 as
	// khatru over lmdb and the newest khatru do, one registering its
	// subscriptions late as rely does, and one with all three races,
	// against a client using its defence (two passes and a gap) under
	// that defence's timing assumption.
	return append(names, relaysim.DeleteThenSaveSettling(2).Name, relaysim.SplitLatePushSettling(2).Name,
		relaysim.LateRegistrationSettling(2).Name, relaysim.RacySettling(2).Name)
}

// SearchProfiles runs Search over each named profile in order and returns
// the first profile's witness, or nil when no profile exposes one.
func SearchProfiles(cfg SearchConfig, profiles []string) (*Witness, error) {
	if len(profiles) == 0 {
		return nil, errors.New("props: no relay profile to search")
	}
	for _, p := range profiles {
		cfg.Profile = p
		w, err := Search(cfg)
		if err != nil || w != nil {
			return w, err
		}
	}
	return nil, nil
}

// SearchConfig is what a search runs: a generic check under rules and a
// relay profile, for up to Cases cases drawn from the Seeded source of
// Seed.
type SearchConfig struct {
	Check   string
	Rules   *model.Rules
	Profile string
	Cases   int
	Seed    uint64
}

// Search runs the check's scenarios, case 0 first, each drawn from
// NewSeeded(Seed, case), and returns the minimised witness (Minimize) of
// the first violation, or nil when none of the cases exposes one. It stops
// at the first violation, so a large count costs time only when nothing
// is found. The same configuration always gives the same witness.
func Search(cfg SearchConfig) (*Witness, error) {
	if cfg.Cases < 1 {
		return nil, fmt.Errorf("props: %d cases: need at least 1", cfg.Cases)
	}
	prop, err := PropertyFor(cfg.Check, cfg.Rules, cfg.Profile)
	if err != nil {
		return nil, err
	}
	running := 0
	if cfg.Check == CheckTermination {
		prop = terminationProperty(cfg.Rules, cfg.Profile, &running)
	}
	for c := range cfg.Cases {
		wit, _, err := prop(NewSeeded(cfg.Seed, c))
		if err != nil {
			return nil, err
		}
		if wit != nil {
			min := Minimize(*wit, cfg.Rules)
			return &min, nil
		}
	}
	if cfg.Check == CheckTermination && running == 0 {
		// Every load had its verdict before Finish: the search said
		// nothing about termination, and must not pass as if it had.
		return nil, fmt.Errorf("props: termination over %s: no load was running when Finish began in any of %d cases; the check is vacuous",
			cfg.Profile, cfg.Cases)
	}
	return nil, nil
}
