package community

import (
	"fmt"
	"slices"
	"strings"
)

// The nip77 universe: two relays, each holding no wrap, wrap 0, or wraps
// 0 and 1 (relay 1 holds wrap 2 instead of 0 so that the relays differ);
// each answers NIP-77 synced, unsupported or failed, and answers the paged
// walk or not. Each relay is set once, then the catch-up runs.
const (
	InvNegEarned  = "N1-exhausted-earned"
	InvNegFetched = "N2-fallback-fetches"
	negName       = "nip77"
)

type negState struct {
	set    [2]bool
	relays [2]NegRelay
	ran    bool
	stored []int
	exh    bool
}

func (s *negState) Key() string { return s.String() }

func (s *negState) String() string {
	var b strings.Builder
	for i, r := range s.relays {
		if !s.set[i] {
			fmt.Fprintf(&b, "r%d unset; ", i)
			continue
		}
		fmt.Fprintf(&b, "r%d holds %v nip77=%s walk=%v; ", i, r.Holds, r.Answer, r.Walkable)
	}
	if s.ran {
		fmt.Fprintf(&b, "stored %v exhausted=%v", s.stored, s.exh)
	}
	return b.String()
}

var negHoldings = [2][3][]int{{nil, {0}, {0, 1}}, {nil, {2}, {1, 2}}}

// NegUniverse is the NIP-77 catch-up's universe.
func NegUniverse() *Universe {
	var acts []Action
	for r := 0; r < 2; r++ {
		for code := 0; code < 18; code++ {
			acts = append(acts, Action{fmt.Sprintf("relay%d", r), code})
		}
	}
	acts = append(acts, Action{"catchup", 0})
	return &Universe{
		Name:       negName,
		Doc:        "NIP-77 catch-up: an unsupported relay falls back to the paged walk and never yields exhausted",
		Depth:      3,
		Invariants: []string{InvNegEarned, InvNegFetched},
		Initial:    func() State { return &negState{} },
		Actions:    acts,
		Step: func(r *Rules, st State, a Action) (State, bool, []Violation) {
			s0, ok := st.(*negState)
			if !ok || s0.ran {
				return nil, false, nil
			}
			s := *s0
			if a.Name == "catchup" {
				if !s.set[0] || !s.set[1] {
					return nil, false, nil
				}
				return negRun(r, &s)
			}
			i := int(a.Name[len(a.Name)-1] - '0')
			if i < 0 || i > 1 || s.set[i] || a.Arg < 0 || a.Arg >= 18 {
				return nil, false, nil
			}
			s.set[i] = true
			s.relays[i] = NegRelay{Holds: negHoldings[i][a.Arg%3], Answer: NegOutcome(a.Arg / 3 % 3), Walkable: a.Arg/9 == 1}
			return &s, true, nil
		},
	}
}

func negRun(r *Rules, s *negState) (State, bool, []Violation) {
	stored, exh := CatchUp(r, s.relays[:])
	s.ran, s.exh = true, exh
	for id := range stored {
		s.stored = append(s.stored, id)
	}
	slices.Sort(s.stored)
	var out []Violation
	for i, rl := range s.relays {
		missing := slices.ContainsFunc(rl.Holds, func(id int) bool { return !stored[id] })
		read := rl.Answer == NegSynced || (rl.Answer == NegUnsupported && rl.Walkable)
		if exh && (!read || missing) {
			out = append(out, Violation{InvNegEarned, fmt.Sprintf("exhausted, though relay %d (nip77 %s, walk answers %v) was not read to the bottom", i, rl.Answer, rl.Walkable)})
		}
		if rl.Answer == NegUnsupported && rl.Walkable && missing {
			out = append(out, Violation{InvNegFetched, fmt.Sprintf("relay %d does not speak NIP-77 and answers the walk, yet its wraps were not fetched", i)})
		}
	}
	return s, true, out
}
