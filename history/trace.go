package history

import (
	"fmt"

	"github.com/nip-rs/harness/search"
	"github.com/nip-rs/harness/witnessfile"
)

// TraceStep is one state of a witness's trace as data, for drawing it: the
// relays' holdings, the store and the cursor after the step, the pages the
// step's round asked (none for a step that is not a round), and what the
// checks found there. Step 0 is the initial state.
type TraceStep struct {
	N      int    `json:"n"`
	Action string `json:"action"`
	// Relays holds, per relay, the created_at of every wrap it stores;
	// Modes how each relay behaved in the round ("" outside a round).
	Relays [][]int  `json:"relays"`
	Modes  []string `json:"modes,omitempty"`
	Store  []int    `json:"store"`
	// The cursor as drawn: -1 for an unset bound.
	Newest    int64     `json:"newest"`
	Oldest    int64     `json:"oldest"`
	Exhausted bool      `json:"exhausted"`
	Pending   *[2]int64 `json:"pending,omitempty"`
	// Sealed is the prior epoch's wrap (t=1) not addressable yet.
	Sealed bool        `json:"sealed"`
	Pages  []TracePage `json:"pages,omitempty"`
	// Findings are the checks' findings at this step.
	Findings []TraceFinding `json:"findings,omitempty"`
}

// TracePage is one page REQ of a round: its pass, its window (-1 for an
// open bound), its limit and the relays asked.
type TracePage struct {
	Pass   string `json:"pass"`
	Since  int64  `json:"since"`
	Until  int64  `json:"until"`
	Limit  int    `json:"limit"`
	Relays []int  `json:"relays"`
}

// TraceFinding is one violation at a step; Documented marks the rule set's
// documented limitation (Known).
type TraceFinding struct {
	Invariant  string `json:"invariant"`
	Detail     string `json:"detail"`
	Documented bool   `json:"documented,omitempty"`
}

// TraceView is a witness's trace as data.
type TraceView struct {
	MaxT int `json:"max_t"`
	// Dates is the created_at second of every slot, Dates[t] for slot t
	// (Dates[0] unused): with ticks several wraps share one second, which
	// a picture by slot alone would hide, and the cursor and the pages'
	// windows are seconds, not slots.
	Dates []int64     `json:"dates"`
	Steps []TraceStep `json:"steps"`
}

// Trace re-runs a history witness under rules and returns every state it
// passes through as data. It validates the witness as ReplayWith does.
func Trace(w *witnessfile.Witness, rules *Rules) (*TraceView, error) {
	if _, err := ReplayWith(w, rules); err != nil {
		return nil, err
	}
	u, err := universeOf(w)
	if err != nil {
		return nil, err
	}
	world, err := NewWorld(u, rules, ReportAll)
	if err != nil {
		return nil, err
	}
	view := &TraceView{MaxT: u.MaxT, Dates: make([]int64, u.MaxT+1)}
	for t := 1; t <= u.MaxT; t++ {
		view.Dates[t] = u.dateOf(t)
	}
	s := initial()
	view.Steps = append(view.Steps, world.traceStep(0, "initial state", s, nil, nil))
	for i, a := range w.Actions {
		t, err := transOf(a)
		if err != nil {
			return nil, err
		}
		var run *roundRun
		if isRound(t) {
			rr, err := world.runRound(s, decodeRound(t))
			if err != nil {
				return nil, err
			}
			run = &rr
		}
		n, fs, ok := world.step(s, t)
		if !ok {
			return nil, witnessfile.Bad("step %d: %s is not enabled", i+1, describe(a))
		}
		step := world.traceStep(i+1, describe(a), n, run, append(fs, world.checkState(n)...))
		if run != nil {
			rt := decodeRound(t)
			for _, b := range rt.b {
				step.Modes = append(step.Modes, b.String())
			}
		}
		view.Steps = append(view.Steps, step)
		s = n
	}
	return view, nil
}

func (w *World) traceStep(n int, action string, s state, run *roundRun, fs []search.Finding) TraceStep {
	st := TraceStep{N: n, Action: action, Store: bits(s.store), Newest: -1, Oldest: -1,
		Exhausted: s.cursor.Exhausted, Sealed: !s.rekeyed}
	for r := range relays {
		st.Relays = append(st.Relays, bits(s.held[r]))
	}
	if s.cursor.HasNewest {
		st.Newest = s.cursor.NewestMs
	}
	if s.cursor.HasOldest {
		st.Oldest = s.cursor.OldestMs
	}
	if p := s.cursor.Pending; p != nil {
		st.Pending = &[2]int64{bound(p.HasSince, p.SinceMs), bound(p.HasUntil, p.UntilMs)}
	}
	if run != nil {
		for _, p := range run.progress.Pages {
			st.Pages = append(st.Pages, TracePage{Pass: p.Pass.String(), Since: bound(p.Window.HasSince, p.Window.SinceMs),
				Until: bound(p.Window.HasUntil, p.Window.UntilMs), Limit: p.Limit, Relays: append([]int(nil), p.Relays...)})
		}
	}
	for _, f := range fs {
		id := Invariants[f.Inv].ID
		st.Findings = append(st.Findings, TraceFinding{Invariant: id, Detail: f.Detail, Documented: Known(w.Rules, id)})
	}
	return st
}

func bound(ok bool, v int64) int64 {
	if !ok {
		return -1
	}
	return v
}

// bits lists the created_at of every wrap in a mask, ascending.
func bits(m int32) []int {
	out := []int{}
	for t := 1; t < 31; t++ {
		if m&bit(t) != 0 {
			out = append(out, t)
		}
	}
	return out
}

// String names a page for a reader: its pass and window.
func (p TracePage) String() string {
	return fmt.Sprintf("%s page [%s, %s] limit %d", p.Pass, optMs(p.Since >= 0, p.Since), optMs(p.Until >= 0, p.Until), p.Limit)
}
