package community

import (
	"fmt"
	"strings"
)

// The sched universe: two channels, a clock that moves by 10 s, 30 s or
// 5 min with a poll after each move, requests from the panel, and rounds
// that end complete or failed. Times are kept relative to now and capped
// past every threshold, so the state space is finite.
const (
	InvOneRound   = "S1-one-round"
	InvInterval   = "S2-min-interval"
	InvStarve     = "S3-no-starvation"
	InvLost       = "S4-no-lost-request"
	schedName     = "sched"
	schedChannels = 2
	schedHorizon  = StaleAfter + 100
)

type schedState struct {
	s        Scheduler
	inflight [schedChannels]int
	pending  [schedChannels]bool
}

func (st *schedState) clone() *schedState {
	t := *st
	t.s.Chans = make([]ChannelClock, len(st.s.Chans))
	for i, c := range st.s.Chans {
		t.s.Chans[i] = ChannelClock{Running: c.Running, Dirty: c.Dirty, LastStart: copyInt(c.LastStart), LastOK: copyInt(c.LastOK)}
	}
	return &t
}

func copyInt(p *int) *int {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func optInt(p *int) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}

func (st *schedState) Key() string { return st.String() }

func (st *schedState) String() string {
	var b strings.Builder
	for i, c := range st.s.Chans {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "c%d running=%v dirty=%v start=%s ok=%s rounds=%d", i, c.Running, c.Dirty, optInt(c.LastStart), optInt(c.LastOK), st.inflight[i])
		if st.pending[i] {
			b.WriteString(" requested")
		}
	}
	return b.String()
}

// SchedUniverse is the scheduler's universe at depth.
func SchedUniverse(depth int) *Universe {
	acts := []Action{{"tick", 10}, {"tick", 30}, {"tick", StaleAfter}}
	for ch := 0; ch < schedChannels; ch++ {
		acts = append(acts, Action{"request", ch}, Action{"ok", ch}, Action{"fail", ch})
	}
	return &Universe{
		Name:       schedName,
		Doc:        "the round scheduler on an injected clock: stale re-runs, the 30 s interval, coalesced follow-ups",
		Depth:      depth,
		Invariants: []string{InvOneRound, InvLost, InvInterval, InvStarve},
		Initial: func() State {
			return &schedState{s: Scheduler{Chans: make([]ChannelClock, schedChannels)}}
		},
		Actions: acts,
		Step: func(r *Rules, s State, a Action) (State, bool, []Violation) {
			st, ok := s.(*schedState)
			if !ok {
				return nil, false, nil
			}
			return schedStep(r, st, a)
		},
	}
}

func shift(p *int, d int) *int {
	if p == nil {
		return nil
	}
	v := max(*p-d, -schedHorizon)
	return &v
}

func schedStep(r *Rules, st0 *schedState, a Action) (State, bool, []Violation) {
	st := st0.clone()
	var out []Violation
	started := func(ch int, why string) {
		st.inflight[ch]++
		if st.inflight[ch] > 1 {
			out = append(out, Violation{InvOneRound, fmt.Sprintf("%s started a second round of c%d while one runs", why, ch)})
		}
	}
	switch a.Name {
	case "tick":
		if a.Arg <= 0 {
			return nil, false, nil
		}
		for i := range st.s.Chans {
			c := &st.s.Chans[i]
			c.LastStart, c.LastOK = shift(c.LastStart, a.Arg), shift(c.LastOK, a.Arg)
		}
		prev := st.clone()
		for _, ch := range st.s.Poll(r, 0) {
			if p := prev.s.Chans[ch].LastStart; p != nil && -*p < MinRoundInterval {
				out = append(out, Violation{InvInterval, fmt.Sprintf("the poll restarted c%d %d s after its last start", ch, -*p)})
			}
			started(ch, "the poll")
		}
		for ch, c := range st.s.Chans {
			stale := c.LastOK == nil || -*c.LastOK > StaleAfter
			open := c.LastStart == nil || -*c.LastStart >= MinRoundInterval
			if st.inflight[ch] == 0 && stale && open {
				out = append(out, Violation{InvStarve, fmt.Sprintf("c%d is stale (last complete round %s s ago) and idle after the poll", ch, optInt(negate(c.LastOK)))})
			}
		}
	case "request":
		if a.Arg < 0 || a.Arg >= schedChannels {
			return nil, false, nil
		}
		busy := st.inflight[a.Arg] > 0
		if st.s.Request(r, a.Arg, 0) {
			started(a.Arg, "a request")
		} else if busy {
			st.pending[a.Arg] = true
		} else {
			out = append(out, Violation{InvLost, fmt.Sprintf("a request for idle c%d started nothing", a.Arg)})
		}
	case "ok", "fail":
		ch := a.Arg
		if ch < 0 || ch >= schedChannels || st.inflight[ch] == 0 {
			return nil, false, nil
		}
		st.inflight[ch]--
		pending := st.pending[ch]
		st.pending[ch] = false
		if st.s.Done(r, ch, 0, a.Name == "ok") {
			started(ch, "the follow-up")
		} else if pending {
			out = append(out, Violation{InvLost, fmt.Sprintf("a request that arrived during c%d's round was dropped when it ended", ch)})
		}
	default:
		return nil, false, nil
	}
	return st, true, out
}

func negate(p *int) *int {
	if p == nil {
		return nil
	}
	v := -*p
	return &v
}
