package history

import (
	"fmt"

	"github.com/nip-rs/harness/search"
)

// UniverseConfig bounds the exhaustive universe: two relays, one channel,
// wraps at created_at 1..MaxT, the round sized by Round. The wrap at t=1 is
// the prior epoch's history on relay 0, addressable only after the rekey.
type UniverseConfig struct {
	Round Config
	MaxT  int
	Depth int
}

// DefaultUniverse is the universe the tests and the mutant gate explore:
// pages of one wrap and catch-up budgets of one page make every pass and
// its budget reachable within four publications; a scroll-up may walk two
// pages, so a page boundary is crossed within one pass.
func DefaultUniverse() UniverseConfig {
	return UniverseConfig{Round: Config{PageWraps: 1, CatchUpPages: 1, LoadOlderPages: 2, OverlapMs: 0}, MaxT: 5, Depth: 7}
}

// Validate reports a universe the world cannot encode.
func (u UniverseConfig) Validate() error {
	if err := u.Round.Validate(); err != nil {
		return err
	}
	if u.MaxT < 2 || u.MaxT > maxSlots {
		return errorf("max created_at %d: want 2..%d", u.MaxT, maxSlots)
	}
	if u.Depth < 0 {
		return errorf("depth %d is negative", u.Depth)
	}
	return nil
}

// The relays' behaviours a round transition draws from, per relay.
type behaviour struct {
	mode Mode
	from int
}

var behaviours = []behaviour{{Answers, 0}, {AuthThenAnswers, 0}, {Refuses, 0}, {Silent, 0}, {AuthFails, 0}, {Silent, 1}}

func (b behaviour) String() string {
	if b.from > 0 {
		return fmt.Sprintf("%s@%d", b.mode, b.from)
	}
	return b.mode.String()
}

const relays = 2

// Transitions: publish to relay 0, relay 1, or both; a live-only
// notification; the rekey; then the rounds (intent x the relays' behaviours
// x a wrap arriving during the round or not). Relay 0 also holds the prior
// epoch's wrap.
const (
	tPublish0 = iota
	tPublish1
	tPublishBoth
	tLive
	tRekey
	tRounds
)

var publishTargets = [...][]int{{0}, {1}, {0, 1}}

type roundTrans struct {
	intent Intent
	b      [relays]behaviour
	mid    bool
}

// combos are the relays' behaviours in one round: both answer, or one of
// them behaves in any other way a relay can while the other answers.
var combos = func() [][relays]behaviour {
	out := [][relays]behaviour{{behaviours[0], behaviours[0]}}
	for r := range relays {
		for _, b := range behaviours[1:] {
			c := [relays]behaviour{behaviours[0], behaviours[0]}
			c[r] = b
			out = append(out, c)
		}
	}
	return out
}()

func decodeRound(t int) roundTrans {
	t -= tRounds
	rt := roundTrans{mid: t%2 == 1}
	t /= 2
	rt.b = combos[t%len(combos)]
	rt.intent = Intent(t / len(combos))
	return rt
}

// roundTransition is the transition index of rt, -1 if the universe has
// no such round.
func roundTransition(rt roundTrans) int {
	for i, c := range combos {
		if c == rt.b {
			t := (int(rt.intent)*len(combos)+i)*2 + tRounds
			if rt.mid {
				t++
			}
			return t
		}
	}
	return -1
}

// Report selects the invariants a world reports.
type Report int

const (
	// ReportGate reports every invariant except those the rules are known
	// to violate: what the mutant gate runs.
	ReportGate Report = iota
	// ReportKnown reports only those: the documented limitation's search.
	ReportKnown
	// ReportAll reports every invariant.
	ReportAll
)

// World is the universe as a search.World.
type World struct {
	U      UniverseConfig
	Rules  *Rules
	Report Report
}

type worker struct{}

// NewWorld checks the configuration.
func NewWorld(u UniverseConfig, rules *Rules, report Report) (*World, error) {
	if err := u.Validate(); err != nil {
		return nil, err
	}
	if rules == nil {
		return nil, errorf("no rules")
	}
	return &World{U: u, Rules: rules, Report: report}, nil
}

func (w *World) Width() int                     { return width }
func (w *World) Invariants() []search.Invariant { return Invariants }
func (w *World) Units() []string                { return []string{"rounds", "states"} }
func (w *World) NewWorker() *worker             { return &worker{} }
func (w *World) Initial(*worker) []int32        { return initial().encode() }

// Transitions is the publications, the live notification, the rekey, and
// the rounds: two intents times the behaviour combinations, with and
// without a wrap arriving during the round.
func (w *World) Transitions() int { return tRounds + 2*len(combos)*2 }

// reports says whether the world reports a violation of invariant i.
func (w *World) reports(i int) bool {
	return w.Report == ReportAll || Known(w.Rules, Invariants[i].ID) == (w.Report == ReportKnown)
}

func (w *World) filter(fs []search.Finding) []search.Finding {
	var out []search.Finding
	for _, f := range fs {
		if w.reports(f.Inv) {
			out = append(out, f)
		}
	}
	return out
}

// Check runs the state invariants.
func (w *World) Check(_ *worker, row []int32, tl *search.Tally) []search.Finding {
	tl.Add(UnitStates, 1)
	return w.filter(checkState(decode(row)))
}

// Successor applies transition t.
func (w *World) Successor(_ *worker, cur []int32, t int, next []int32, tl *search.Tally) (bool, []search.Finding) {
	s := decode(cur)
	n, fs, ok := w.step(s, t)
	if !ok {
		return false, nil
	}
	copy(next, n.encode())
	if t >= tRounds {
		tl.Add(UnitRounds, 1)
	}
	return true, w.filter(fs)
}

// step is one transition from s: the successor, the transition checks'
// findings, and whether t is enabled.
func (w *World) step(s state, t int) (state, []search.Finding, bool) {
	n := s
	n.quiet = 0
	switch {
	case t <= tPublishBoth:
		if s.next > w.U.MaxT {
			return s, nil, false
		}
		for _, r := range publishTargets[t] {
			n.held[r] |= bit(s.next)
		}
		n.next++
	case t == tLive:
		if s.next > w.U.MaxT {
			return s, nil, false
		}
		n.store |= bit(s.next)
		n.next++
	case t == tRekey:
		if s.rekeyed {
			return s, nil, false
		}
		n.rekeyed = true
		n.cursor = w.Rules.Rekey(s.cursor)
	case t < w.Transitions():
		rt := decodeRound(t)
		if rt.mid && s.next > w.U.MaxT {
			return s, nil, false
		}
		var fs []search.Finding
		n, fs = w.round(s, rt)
		return n, fs, true
	default:
		return s, nil, false
	}
	return n, nil, true
}

func bit(t int) int32 { return 1 << t }
