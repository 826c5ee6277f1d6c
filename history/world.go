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
	// Tick is how many consecutive wraps share one created_at second (0 or
	// 1: each its own), so that a page boundary can fall inside a second.
	Tick int
	// Cap is relay 1's cap on any REQ (0: none). A capped relay has no
	// capability record; relay 0 always has one (it honours any limit).
	Cap int
	// Future adds a member who dates a wrap far in the future; Strays adds
	// relays that ignore a page's window; Backdate a member who dates a
	// wrap the overlap back (as a relay receiving a wrap late delivers it
	// below what was asked before).
	Future, Strays, Backdate bool
	// Absurd adds a member who dates a wrap before 0, which no honest
	// writer does and an honest relay returns to a page with no since.
	Absurd bool
	// Unrecorded: no relay has a capability record, so a short answer
	// proves a relay bottomed only by what the round saw it send.
	Unrecorded bool
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
	if u.Tick < 0 || u.Tick > maxSlots || u.Cap < 0 || u.Cap > maxSlots {
		return errorf("tick %d, cap %d: want 0..%d each", u.Tick, u.Cap, maxSlots)
	}
	return nil
}

// TiesUniverse is the default universe with two consecutive wraps per
// created_at second: a full page's oldest second can hold a wrap the page
// did not return.
func TiesUniverse() UniverseConfig {
	u := DefaultUniverse()
	u.Tick = 2
	return u
}

// CappedUniverse has relay 1 capped at two wraps below pages of three, and
// six wraps, so that relay 1 alone can hold more than two pages of what
// it returns.
func CappedUniverse() UniverseConfig {
	u := DefaultUniverse()
	u.Round.PageWraps, u.Cap, u.MaxT, u.Depth = 3, 2, 6, 6
	return u
}

// FutureUniverse is the default universe with a member who dates a wrap
// far ahead of every clock.
func FutureUniverse() UniverseConfig {
	u := DefaultUniverse()
	u.Future = true
	return u
}

// StraysUniverse is the default universe with relays that ignore a page's
// window.
func StraysUniverse() UniverseConfig {
	u := DefaultUniverse()
	u.Strays = true
	return u
}

// OverlapUniverse is the default universe with a warm open re-asking one
// second below the saved newest, as production re-asks CURSOR_OVERLAP.
func OverlapUniverse() UniverseConfig {
	u := DefaultUniverse()
	u.Round.OverlapMs = 1
	return u
}

// BackdateUniverse has two seconds of overlap and a member who dates a
// wrap the overlap back, below a newest the cursor may already hold: what
// a relay receiving a wrap late looks like to the walk.
func BackdateUniverse() UniverseConfig {
	u := DefaultUniverse()
	u.Round.OverlapMs, u.Backdate = 2, true
	return u
}

// AbsurdUniverse is the default universe with a member who dates a wrap
// before 0.
func AbsurdUniverse() UniverseConfig {
	u := DefaultUniverse()
	u.Absurd = true
	return u
}

// PlateauUniverse has three wraps to a second, pages of two and relays
// with no capability record: a second holds more wraps than a page, and
// only what a relay sends in the round shows its cap.
func PlateauUniverse() UniverseConfig {
	u := DefaultUniverse()
	u.Tick, u.Round.PageWraps, u.Unrecorded = 3, 2, true
	return u
}

// Variants are the universes every rule set meant to close the holes is
// explored in, by name.
func Variants() []NamedUniverse {
	return []NamedUniverse{{"default", DefaultUniverse()}, {"ties", TiesUniverse()}, {"capped", CappedUniverse()},
		{"future", FutureUniverse()}, {"strays", StraysUniverse()}, {"overlap", OverlapUniverse()}, {"backdate", BackdateUniverse()},
		{"absurd", AbsurdUniverse()}, {"plateau", PlateauUniverse()}}
}

// GateVariants are the variants at the depths the mutant gate and `make
// test` explore them: each deep enough for the document's rules to show
// the hole it was built for (the smallest witnesses are 2 to 5 steps), the
// default universe last and whole.
func GateVariants() []NamedUniverse {
	vs := Variants()
	depth := map[string]int{"ties": 4, "capped": 5, "future": 4, "strays": 3, "overlap": 4, "backdate": 5, "absurd": 3, "plateau": 4}
	out := make([]NamedUniverse, 0, len(vs))
	for _, v := range vs[1:] {
		v.U.Depth = depth[v.Name]
		out = append(out, v)
	}
	return append(out, vs[0])
}

// NamedUniverse is a universe with the name tests and reports use.
type NamedUniverse struct {
	Name string
	U    UniverseConfig
}

// dateOf is the created_at of the wrap in slot t: Tick consecutive slots
// from 2 on share a second. The prior epoch's wrap (slot 1) keeps a second
// of its own, older than every other: the rekey adds only older history.
func (u UniverseConfig) dateOf(t int) int64 {
	if u.Tick <= 1 || t <= 1 {
		return int64(t)
	}
	return int64(2 + (t-2)/u.Tick)
}

// farAhead is how far a future-dated wrap is dated past its slot: beyond
// every date the universe reaches.
const farAhead = 1000

// The relays' behaviours a round transition draws from, per relay.
type behaviour struct {
	mode Mode
	from int
}

var behaviours = []behaviour{{Answers, 0}, {AuthThenAnswers, 0}, {Refuses, 0}, {Silent, 0}, {AuthFails, 0}, {Silent, 1}}

// hostileCombos are the rounds of a hostile universe: one relay ignores
// the page's window while the other answers.
var hostileCombos = [][relays]behaviour{{{IgnoresWindow, 0}, behaviours[0]}, {behaviours[0], {IgnoresWindow, 0}}}

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

// The transitions after the rounds of combos, in every universe's
// numbering (disabled outside a hostile one): the future-dated
// publication, then the rounds of hostileCombos.
var (
	tFuture        = tRounds + 2*len(combos)*2
	tHostileRounds = tFuture + 1
	tBackdate      = tHostileRounds + 2*len(hostileCombos)*2
	tAbsurd        = tBackdate + 1
	nTransitions   = tAbsurd + 1
)

func isRound(t int) bool {
	return (t >= tRounds && t < tFuture) || (t >= tHostileRounds && t < tAbsurd)
}

func decodeRound(t int) roundTrans {
	base, cs := tRounds, combos
	if t >= tHostileRounds {
		base, cs = tHostileRounds, hostileCombos
	}
	t -= base
	rt := roundTrans{mid: t%2 == 1}
	t /= 2
	rt.b = cs[t%len(cs)]
	rt.intent = Intent(t / len(cs))
	return rt
}

// roundTransition is the transition index of rt, -1 if the universe has
// no such round.
func roundTransition(rt roundTrans) int {
	for _, seg := range []struct {
		base int
		cs   [][relays]behaviour
	}{{tRounds, combos}, {tHostileRounds, hostileCombos}} {
		for i, c := range seg.cs {
			if c == rt.b {
				t := (int(rt.intent)*len(seg.cs)+i)*2 + seg.base
				if rt.mid {
					t++
				}
				return t
			}
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
// without a wrap arriving during the round; then the hostile universe's
// future-dated publication and rounds.
func (w *World) Transitions() int { return nTransitions }

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
	return w.filter(w.checkState(decode(row)))
}

// Successor applies transition t.
func (w *World) Successor(_ *worker, cur []int32, t int, next []int32, tl *search.Tally) (bool, []search.Finding) {
	s := decode(cur)
	n, fs, ok := w.step(s, t)
	if !ok {
		return false, nil
	}
	copy(next, n.encode())
	if isRound(t) {
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
	case t <= tPublishBoth || t == tFuture || t == tBackdate || t == tAbsurd:
		if s.next > w.U.MaxT || (t == tFuture && !w.U.Future) || (t == tBackdate && (!w.U.Backdate || w.U.Round.OverlapMs == 0)) || (t == tAbsurd && !w.U.Absurd) {
			return s, nil, false
		}
		targets := []int{0, 1}
		switch t {
		case tFuture:
			n.future |= bit(s.next)
		case tAbsurd:
			n.absurd |= bit(s.next)
		default:
			if t == tBackdate {
				n.back |= bit(s.next)
			} else {
				targets = publishTargets[t]
			}
			// A wrap dated inside the second the cursor already claims
			// complete arrived after the claim: a catch-up must fetch it
			// (the late-wrap check), the state check cannot require it.
			if c := s.cursor; c.HasNewest && n.date(w.U, s.next) <= c.NewestMs && c.NewestMs <= s.now(w.U) {
				n.late |= bit(s.next)
			}
		}
		for _, r := range targets {
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
	case isRound(t):
		rt := decodeRound(t)
		if (rt.mid && s.next > w.U.MaxT) || (t >= tHostileRounds && !w.U.Strays) {
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
