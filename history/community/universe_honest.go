package community

import (
	"fmt"
	"strings"
)

// The honest universe: two relays, each answering or unreachable, each
// holding nothing, a readable wrap, a wrap under an epoch the member does
// not hold, or both. A round fetches from the relays that answer and the
// panel tells what it shows. Every "no messages" state must be the true
// one.
const (
	InvEmpty      = "O1-empty-is-empty"
	InvUnreached  = "O2-failure-is-failure"
	InvToldFailed = "O3-failure-told"
	InvToldUnread = "O4-unreadable-told"
	honestName    = "honest"
)

type honestRelay struct {
	Set, Answers, Readable, Unreadable bool
}

type honestState struct {
	relays [2]honestRelay
	panel  *Panel
}

func (s *honestState) Key() string { return s.String() }

func (s *honestState) String() string {
	var b strings.Builder
	for i, r := range s.relays {
		if !r.Set {
			fmt.Fprintf(&b, "r%d unset; ", i)
			continue
		}
		fmt.Fprintf(&b, "r%d answers=%v readable=%v unreadable=%v; ", i, r.Answers, r.Readable, r.Unreadable)
	}
	if s.panel != nil {
		fmt.Fprintf(&b, "panel %s %+v", s.panel.State(), *s.panel)
	}
	return b.String()
}

// HonestUniverse is the honest states' universe.
func HonestUniverse() *Universe {
	var acts []Action
	for r := 0; r < 2; r++ {
		for code := 0; code < 8; code++ {
			acts = append(acts, Action{fmt.Sprintf("relay%d", r), code})
		}
	}
	acts = append(acts, Action{"round", 0})
	return &Universe{
		Name:       honestName,
		Doc:        "honest states: unreadable history, a failed round and an empty room told apart",
		Depth:      3,
		Invariants: []string{InvEmpty, InvUnreached, InvToldFailed, InvToldUnread},
		Initial:    func() State { return &honestState{} },
		Actions:    acts,
		Step: func(r *Rules, st State, a Action) (State, bool, []Violation) {
			s0, ok := st.(*honestState)
			if !ok || s0.panel != nil {
				return nil, false, nil
			}
			s := *s0
			if a.Name == "round" {
				if !s.relays[0].Set || !s.relays[1].Set {
					return nil, false, nil
				}
				return honestRound(r, &s)
			}
			i := int(a.Name[len(a.Name)-1] - '0')
			if i < 0 || i > 1 || s.relays[i].Set || a.Arg < 0 || a.Arg >= 8 {
				return nil, false, nil
			}
			s.relays[i] = honestRelay{Set: true, Answers: a.Arg&1 != 0, Readable: a.Arg&2 != 0, Unreadable: a.Arg&4 != 0}
			return &s, true, nil
		},
	}
}

// honestRound fetches from the answering relays (both hold the same
// readable wrap and the same unreadable one when they hold one), counts
// what it fetched and opened as the round's Progress does, and asks the
// rules what the panel says.
func honestRound(r *Rules, s *honestState) (State, bool, []Violation) {
	var readable, unreadable, exists bool
	errors := 0
	for _, rl := range s.relays {
		exists = exists || rl.Readable || rl.Unreadable
		if !rl.Answers {
			errors++
			continue
		}
		readable = readable || rl.Readable
		unreadable = unreadable || rl.Unreadable
	}
	p := Progress{Errors: errors}
	if readable {
		p.Fetched++
		p.Opened++
	}
	if unreadable {
		p.Fetched++
	}
	p.Failed = p.Fetched == 0 || errors > 0
	panel := r.Honest(p)
	s.panel = &panel
	var out []Violation
	state := panel.State()
	if state == "empty" && (exists || errors > 0) {
		out = append(out, Violation{InvEmpty, fmt.Sprintf("the panel shows an empty room, yet %d relays failed and history exists: %v", errors, exists)})
	}
	if panel.Unreached && errors == 0 {
		out = append(out, Violation{InvUnreached, "the panel says the relays could not be reached, yet every relay answered"})
	}
	if !readable && errors > 0 && !panel.Unreached {
		out = append(out, Violation{InvToldFailed, fmt.Sprintf("%d relays failed and nothing shows, yet the panel does not say so", errors)})
	}
	if !readable && unreadable && panel.Unreadable == 0 {
		out = append(out, Violation{InvToldUnread, "a wrap under a missing key was fetched and nothing shows, yet the panel does not count it"})
	}
	return s, true, out
}
