package community

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The pump universe: communities 0 and 1 with their standing ids, a rekey
// watch of community 1, a page whose round waits on it and one whose round
// was cancelled, and another subscription nobody here owns. Events,
// end-of-stored-events and CLOSED messages (auth-required or not) arrive
// on them; the clock moves by 100 or 150 ms; the waiting page's round may
// unregister.
const (
	InvOneSignal = "P1-one-signal"
	InvDelay     = "P2-bounded-delay"
	InvReports   = "P3-page-reports"
	InvRouting   = "P4-routing"
	pumpName     = "pump"
	pageA        = "concord-history-a"
	pageB        = "concord-history-b"
	rekeyA       = "rekey-a"
	otherSub     = "other/sub"
)

type pumpState struct {
	now     int
	p       Pump
	pending map[Signal]int // first unsignalled event per signal, by time
}

func (s *pumpState) clone() *pumpState {
	t := *s
	t.p.Pages, t.p.Watches = maps.Clone(s.p.Pages), maps.Clone(s.p.Watches)
	t.p.events, t.p.rekeys = slices.Clone(s.p.events), slices.Clone(s.p.rekeys)
	t.pending = maps.Clone(s.pending)
	return &t
}

func (s *pumpState) Key() string {
	// Times relative to now: the rules only compare differences.
	first, open := s.p.Pending()
	return fmt.Sprintf("%v|%v|%v|%d|%d|%v|%v|%s", s.p.Pages, s.p.Watches, open, s.now-first, s.now-s.p.last, s.p.events, s.p.rekeys, s.pendingString(true))
}

func (s *pumpState) pendingString(relative bool) string {
	var keys []Signal
	for k := range s.pending {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b Signal) int {
		if a.Community != b.Community {
			return a.Community - b.Community
		}
		return int(flag(a.Rekey)) - int(flag(b.Rekey))
	})
	var b strings.Builder
	for _, k := range keys {
		t := s.pending[k]
		if relative {
			t = s.now - t
		}
		fmt.Fprintf(&b, "c%d/%v@%d ", k.Community, k.Rekey, t)
	}
	return b.String()
}

func (s *pumpState) String() string {
	first, open := s.p.Pending()
	out := fmt.Sprintf("t=%d pages=%v", s.now, s.p.Pages)
	if open {
		out += fmt.Sprintf(" batch since %d", first)
	}
	if len(s.pending) > 0 {
		out += " waiting: " + strings.TrimSpace(s.pendingString(false))
	}
	return out
}

// PumpUniverse is the pump's universe at depth.
func PumpUniverse(depth int) *Universe {
	var acts []Action
	for i := range pumpSubs {
		acts = append(acts, Action{"event", i})
	}
	acts = append(acts, Action{"eose", 0}, Action{"eose", 1}, Action{"closed", 0}, Action{"auth-required", 0},
		Action{"unregister", 0}, Action{"tick", 100}, Action{"tick", 150})
	return &Universe{
		Name:       pumpName,
		Doc:        "the pump: routing by subscription id, the page registry dropping late reports, a burst collapsing to one signal",
		Depth:      depth,
		Invariants: []string{InvReports, InvRouting, InvOneSignal, InvDelay},
		Initial: func() State {
			p := NewPump()
			p.Pages[pageA] = 0
			p.Watches[rekeyA] = 1
			return &pumpState{p: *p, pending: map[Signal]int{}}
		},
		Actions: acts,
		Step: func(r *Rules, st State, a Action) (State, bool, []Violation) {
			s0, ok := st.(*pumpState)
			if !ok {
				return nil, false, nil
			}
			return pumpStep(r, s0.clone(), a)
		},
	}
}

var pumpSubs = []string{LiveID(0), LiveID(1), rekeyA, pageA, otherSub}

// wakes is what an event on each of pumpSubs must wake, if anything.
var wakes = []*Signal{{Community: 0}, {Community: 1}, {Community: 1, Rekey: true}, nil, nil}

func pumpStep(r *Rules, s *pumpState, a Action) (State, bool, []Violation) {
	var out []Violation
	var reps []Report
	var sigs []Signal
	pages := []string{pageA, pageB}
	switch a.Name {
	case "event":
		if a.Arg < 0 || a.Arg >= len(pumpSubs) {
			return nil, false, nil
		}
		reps, sigs = s.p.Handle(r, Notification{Type: Event, Sub: pumpSubs[a.Arg], At: s.now})
		out = append(out, s.signalled(sigs)...)
		if w := wakes[a.Arg]; w != nil {
			if _, ok := s.pending[*w]; !ok {
				s.pending[*w] = s.now
			}
		}
		if len(reps) > 0 {
			out = append(out, Violation{InvReports, "an event produced a page report"})
		}
	case "eose", "closed", "auth-required":
		if a.Arg < 0 || a.Arg >= len(pages) {
			return nil, false, nil
		}
		n := Notification{Type: EOSE, Sub: pages[a.Arg], At: s.now}
		want := []Report{{Page: 0, Outcome: Replayed}}
		switch a.Name {
		case "closed":
			n.Type, n.Reason = Closed, "error: shutting down"
			want[0].Outcome = Refused
		case "auth-required":
			n.Type, n.Reason, want = Closed, "auth-required: sign in", nil
		}
		if _, waiting := s.p.Pages[n.Sub]; !waiting {
			want = nil
		}
		reps, sigs = s.p.Handle(r, n)
		out = append(out, s.signalled(sigs)...)
		if !slices.Equal(reps, want) {
			out = append(out, Violation{InvReports, fmt.Sprintf("%s on %s reported %v, want %v", a.Name, n.Sub, reps, want)})
		}
	case "unregister":
		if _, ok := s.p.Pages[pageA]; !ok {
			return nil, false, nil
		}
		delete(s.p.Pages, pageA)
	case "tick":
		if a.Arg <= 0 || s.now > 1000 {
			return nil, false, nil
		}
		s.now += a.Arg
		out = append(out, s.signalled(s.p.Tick(r, s.now))...)
		for sig, t := range s.pending {
			if s.now-t > PumpWindow+150 {
				out = append(out, Violation{InvDelay, fmt.Sprintf("an event of t=%d for community %d (rekey %v) is still unsignalled at t=%d", t, sig.Community, sig.Rekey, s.now)})
			}
		}
	default:
		return nil, false, nil
	}
	return s, true, out
}

// signalled checks a closed batch's signals against what was waiting: each
// waiting signal once, nothing that was not waiting.
func (s *pumpState) signalled(sigs []Signal) []Violation {
	var out []Violation
	seen := map[Signal]bool{}
	for _, sig := range sigs {
		if seen[sig] {
			out = append(out, Violation{InvOneSignal, fmt.Sprintf("one batch woke community %d (rekey %v) twice", sig.Community, sig.Rekey)})
		}
		seen[sig] = true
		if _, ok := s.pending[sig]; !ok {
			out = append(out, Violation{InvRouting, fmt.Sprintf("community %d (rekey %v) was woken with no event of its own", sig.Community, sig.Rekey)})
		}
		delete(s.pending, sig)
	}
	if len(sigs) > 0 {
		for sig := range s.pending {
			out = append(out, Violation{InvRouting, fmt.Sprintf("a batch closed without waking community %d (rekey %v), which had an event in it", sig.Community, sig.Rekey)})
			break
		}
	}
	return out
}
