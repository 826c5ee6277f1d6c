package props

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
	"pgregory.net/rapid"
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
	}
	return &Violation{"config", "unknown check " + wit.Check}, nil
}

func runScenario(cfg Config, rules *model.Rules, steps []Step) (*Violation, []string) {
	w, err := NewWorld(cfg, rules)
	if err != nil {
		return &Violation{"config", err.Error()}, nil
	}
	for _, s := range steps {
		if v := w.Apply(s); v != nil {
			return v, w.Log()
		}
	}
	return w.Finish(), w.Log()
}

// Recorder keeps the last witness a property reported. Rapid replays the
// shrunk failing case last, so after a failed search it holds the
// minimal witness.
type Recorder struct {
	Last *Witness
	Log  []string
}

func (r *Recorder) fail(t *rapid.T, wit Witness, v *Violation, log []string) {
	if r != nil {
		wit.Violation = v.Error()
		r.Last, r.Log = &wit, log
	}
	t.Fatalf("%s\nscenario %s\n%s", v, wit.Config, strings.Join(log, "\n"))
}

// DrawConfig draws a cap in [2,5] and a limit n in [2,6] for a profile.
func DrawConfig(t *rapid.T, profile string) Config {
	return Config{Profile: profile, Cap: rapid.IntRange(2, 5).Draw(t, "cap"), N: rapid.IntRange(2, 6).Draw(t, "n")}
}

// DrawSetup draws a starting history: one to four read-state coordinates,
// up to three groups of foreign application data (in one second, or
// spread over consecutive seconds), and up to two deletions among the
// newest stored events. Seconds come from the 30 seconds before the clock,
// half the time from a few shared ones, so that ties, plateaus, and
// read-state coordinates inside a plateau of foreign data are common.
func DrawSetup(t *rapid.T) []Step {
	hot := rapid.SliceOfN(rapid.IntRange(StartClock-30, StartClock), 1, 3).Draw(t, "shared seconds")
	second := func(label string) int64 {
		if i := rapid.IntRange(0, 2*len(hot)-1).Draw(t, label+" shared"); i < len(hot) {
			return int64(hot[i])
		}
		return int64(rapid.IntRange(StartClock-30, StartClock).Draw(t, label))
	}
	var steps []Step
	for i := range rapid.IntRange(1, 4).Draw(t, "coordinates") {
		steps = append(steps, Step{Op: OpPublish, I: i, When: WhenAt, At: second("at")})
	}
	for range rapid.IntRange(0, 3).Draw(t, "foreign groups") {
		steps = append(steps, Step{Op: OpForeign, Count: rapid.IntRange(1, 5).Draw(t, "count"),
			At: second("foreign at"), Spread: rapid.IntRange(0, 2).Draw(t, "spread") > 0})
	}
	for range rapid.IntRange(0, 2).Draw(t, "deletions") {
		steps = append(steps, Step{Op: OpDelete, I: rapid.IntRange(0, 3).Draw(t, "victim")})
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

// DrawStep draws one interleaving step.
func DrawStep(t *rapid.T) Step {
	s := Step{Op: rapid.SampledFrom(interleavingOps).Draw(t, "op")}
	switch s.Op {
	case OpDeliver, OpFlush:
		s.I = rapid.IntRange(0, 3).Draw(t, "k")
	case OpProcess:
		s.I = rapid.IntRange(0, 2).Draw(t, "pending")
	case OpDelete:
		s.I = rapid.IntRange(0, 20).Draw(t, "victim")
	case OpTick:
		s.I = rapid.IntRange(1, 3).Draw(t, "seconds")
	case OpForeign:
		s.Count = rapid.IntRange(1, 4).Draw(t, "count")
		s.At = int64(rapid.IntRange(StartClock-30, StartClock+5).Draw(t, "foreign at"))
		s.Spread = rapid.Bool().Draw(t, "spread")
	case OpPublish:
		s.I = rapid.IntRange(0, 4).Draw(t, "slot")
		s.When = rapid.SampledFrom([]string{WhenNow, WhenNow, WhenSame, WhenSame, WhenSame, WhenAbove, WhenAbove, WhenBelow, WhenAt, WhenAt}).Draw(t, "when")
		switch s.When {
		case WhenAt:
			s.At = int64(rapid.IntRange(StartClock-30, StartClock+5).Draw(t, "publish at"))
		case WhenSame:
			s.Lower = rapid.Bool().Draw(t, "lower")
		}
	}
	return s
}

// SoundnessProperty is the soundness state machine: a starting history,
// a load, up to 40 interleaved steps (the load's messages, other
// installations' writes, foreign writes, deletions, lapses, further
// loads), then the load runs to its verdict. Every complete verdict must
// be sound; a load must never be left running with nothing to exchange.
func SoundnessProperty(rules *model.Rules, profile string, rec *Recorder) func(*rapid.T) {
	return func(t *rapid.T) {
		cfg := DrawConfig(t, profile)
		w, err := NewWorld(cfg, rules)
		if err != nil {
			t.Fatal(err)
		}
		var steps []Step
		fail := func(v *Violation) {
			rec.fail(t, Witness{Check: CheckSoundness, Rules: rules.Name, Config: cfg, Steps: steps}, v, w.Log())
		}
		apply := func(s Step) {
			steps = append(steps, s)
			if v := w.Apply(s); v != nil {
				fail(v) // does not return
			}
		}
		for _, s := range DrawSetup(t) {
			apply(s)
		}
		apply(Step{Op: OpStart})
		for range rapid.IntRange(0, 40).Draw(t, "steps") {
			apply(DrawStep(t))
		}
		if v := w.Finish(); v != nil {
			fail(v)
		}
	}
}

// QuiescentProperty is the quiescent check: a drawn history, one load
// with nothing written during it, its verdict compared with Predict.
func QuiescentProperty(rules *model.Rules, profile string, rec *Recorder) func(*rapid.T) {
	return func(t *rapid.T) {
		cfg := DrawConfig(t, profile)
		setup := DrawSetup(t)
		w, v := Quiescent(cfg, rules, setup)
		if v != nil {
			var log []string
			if w != nil {
				log = w.Log()
			}
			rec.fail(t, Witness{Check: CheckQuiescent, Rules: rules.Name, Config: cfg, Steps: setup}, v, log)
		}
	}
}

// Property returns the named generic check.
func Property(check string, rules *model.Rules, profile string, rec *Recorder) func(*rapid.T) {
	if check == CheckQuiescent {
		return QuiescentProperty(rules, profile, rec)
	}
	return SoundnessProperty(rules, profile, rec)
}

// Search runs rapid on a generic check for up to checks cases (0 keeps
// rapid's -rapid.checks) and returns the minimised witness of the first
// violation found, or nil when the search found none. It stops at the
// first violation, so a large count costs time only when nothing is
// found. It never writes rapid fail files (witnesses are the caller's to
// record) and may run outside a test binary.
func Search(check string, rules *model.Rules, profile string, checks int) (*Witness, error) {
	testing.Init()
	if err := flag.Set("rapid.nofailfile", "true"); err != nil {
		return nil, err
	}
	if checks > 0 {
		restore := flag.Lookup("rapid.checks").Value.String()
		if err := flag.Set("rapid.checks", fmt.Sprint(checks)); err != nil {
			return nil, err
		}
		defer flag.Set("rapid.checks", restore)
	}
	rec := &Recorder{}
	tb := &captureTB{name: fmt.Sprintf("%s-%s-%s", check, rules.Name, profile)}
	rapid.Check(tb, Property(check, rules, profile, rec))
	if !tb.failed {
		return nil, nil
	}
	if rec.Last == nil {
		return nil, fmt.Errorf("props: search failed without a witness:\n%s", strings.Join(tb.msgs, "\n"))
	}
	min := Minimize(*rec.Last, rules)
	return &min, nil
}

// captureTB is a rapid.TB that records failure instead of failing a test.
type captureTB struct {
	name   string
	failed bool
	msgs   []string
}

func (c *captureTB) Helper()                 {}
func (c *captureTB) Name() string            { return c.name }
func (c *captureTB) Logf(f string, a ...any) { c.msgs = append(c.msgs, fmt.Sprintf(f, a...)) }
func (c *captureTB) Log(a ...any)            { c.msgs = append(c.msgs, fmt.Sprint(a...)) }
func (c *captureTB) Skipf(f string, a ...any) {
	c.Logf(f, a...)
}
func (c *captureTB) Skip(a ...any)             { c.Log(a...) }
func (c *captureTB) SkipNow()                  {}
func (c *captureTB) Errorf(f string, a ...any) { c.failed = true; c.Logf(f, a...) }
func (c *captureTB) Error(a ...any)            { c.failed = true; c.Log(a...) }
func (c *captureTB) Fatalf(f string, a ...any) { c.failed = true; c.Logf(f, a...) }
func (c *captureTB) Fatal(a ...any)            { c.failed = true; c.Log(a...) }
func (c *captureTB) FailNow()                  { c.failed = true }
func (c *captureTB) Fail()                     { c.failed = true }
func (c *captureTB) Failed() bool              { return c.failed }
