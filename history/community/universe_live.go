package community

import (
	"fmt"
	"slices"
	"strings"
)

// The live universe: a community of a public channel c0 and a private
// channel c1 whose key rotates. Wraps of either kind are published to the
// relay; a wrap sealed under c1's previous key before its rotation may
// reach the relay late. Rounds advance a channel's cursor; the live REQ is
// installed on open and re-installed when a rotation changes the planes,
// replays what it matches and then receives what it matches live. Time is
// in seconds, 100 per step, so the overlap is a fraction of a step.
const (
	InvLiveCovers = "W1-live-covers"
	InvLiveFrozen = "W2-retired-frozen"
	liveName      = "live"
	liveQuietName = "live-quiet"
	liveStep      = 100
)

type lwrap struct {
	Ch, Epoch, Kind, At int
}

type liveState struct {
	now       int
	relay     []lwrap
	store     []bool
	chans     [2]LiveChannel
	installed *LiveFilter
	frozen    [][]bool // per channel, the asked flags before the last install
	rotations int
}

func (s *liveState) clone() *liveState {
	t := *s
	t.relay, t.store = slices.Clone(s.relay), slices.Clone(s.store)
	for i, c := range s.chans {
		t.chans[i] = LiveChannel{Private: c.Private, Held: c.Held, Keys: slices.Clone(c.Keys), Asked: slices.Clone(c.Asked), Newest: copyInt(c.Newest)}
	}
	t.frozen = make([][]bool, len(s.frozen))
	for i, f := range s.frozen {
		t.frozen[i] = slices.Clone(f)
	}
	if s.installed != nil {
		f := *s.installed
		t.installed = &f
	}
	return &t
}

func (s *liveState) Key() string { return s.String() }

func (s *liveState) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "t=%d relay=[", s.now)
	for i, w := range s.relay {
		if i > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "c%d/e%d/%d@%d", w.Ch, w.Epoch, w.Kind, w.At)
		if s.store[i] {
			b.WriteString("*")
		}
	}
	b.WriteString("]")
	for i, c := range s.chans {
		fmt.Fprintf(&b, " c%d keys=%v asked=%v newest=%s", i, c.Keys, c.Asked, optInt(c.Newest))
	}
	if s.installed != nil {
		fmt.Fprintf(&b, " live=%v kinds=%v", s.installed.Planes, s.installed.Kinds)
		if s.installed.HasSince {
			fmt.Fprintf(&b, " since=%d", s.installed.Since)
		}
	}
	return b.String()
}

// LiveUniverse is the live subscription's universe at depth.
func LiveUniverse(depth int) *Universe {
	return liveUniverse(liveName, "the live REQ: both wrap kinds, private planes, the community window, retired epochs asked once more then frozen", depth, false)
}

// LiveQuietUniverse is the live universe where the community goes quiet
// once a key rotates: no wrap is sealed after the first rotation (one
// sealed under the first key just before it may still arrive late). A channel whose rotation
// removed a member and then falls silent is ordinary; there no wrap on the
// new plane ever tests the live REQ, so a REQ left on the old planes is
// seen only by the liveness property, never by W1.
func LiveQuietUniverse(depth int) *Universe {
	return liveUniverse(liveQuietName, "the live universe with no wrap published after a rotation", depth, true)
}

func liveUniverse(name, doc string, depth int, quiet bool) *Universe {
	acts := []Action{
		{"pub0", KindWrap}, {"pub0", KindWrapEphemeral}, {"pub1", KindWrap}, {"pub1", KindWrapEphemeral},
		{"late", 0}, {"rotate", 0}, {"install", 0}, {"round", 0}, {"round", 1},
	}
	return &Universe{
		Name:       name,
		Doc:        doc,
		Depth:      depth,
		Invariants: []string{InvLiveCovers, InvLiveFrozen},
		Initial: func() State {
			s := &liveState{}
			s.chans[0] = LiveChannel{Held: true, Keys: []HeldKey{{Epoch: 0}}, Asked: []bool{false}}
			s.chans[1] = LiveChannel{Private: true, Held: true, Keys: []HeldKey{{Epoch: 0}}, Asked: []bool{false}}
			return s
		},
		Actions: acts,
		Step: func(r *Rules, st State, a Action) (State, bool, []Violation) {
			s0, ok := st.(*liveState)
			if !ok {
				return nil, false, nil
			}
			if quiet && s0.sealedAfterRotation(a) {
				return nil, false, nil
			}
			return liveStepOf(r, s0.clone(), a)
		},
	}
}

// sealedAfterRotation: does a bring a wrap sealed after the first
// rotation: a publication once a key has rotated, or a late wrap sealed
// under a key that became current by a rotation.
func (s *liveState) sealedAfterRotation(a Action) bool {
	switch a.Name {
	case "pub0", "pub1":
		return s.rotations > 0
	case "late":
		k := s.chans[1].Keys
		return len(k) > 2
	}
	return false
}

func (s *liveState) current(ch int) HeldKey {
	k := s.chans[ch].Keys
	return k[len(k)-1]
}

// addressed: does the member's rule-independent contract say a wrap's
// plane must be in the live REQ: the key is held and reads it, and the
// epoch is current or retired but not asked before the last install.
func (s *liveState) addressed(w lwrap) bool {
	c := s.chans[w.Ch]
	for i, k := range c.Keys {
		if k.Epoch != w.Epoch {
			continue
		}
		if !readable(k, w.At) {
			return false
		}
		return !k.Retired || i >= len(s.frozen[w.Ch]) || !s.frozen[w.Ch][i]
	}
	return false
}

func liveStepOf(r *Rules, s *liveState, a Action) (State, bool, []Violation) {
	var out []Violation
	arrive := func(w lwrap) {
		s.relay = append(s.relay, w)
		in := s.installed != nil && s.installed.Matches(Plane{w.Ch, w.Epoch}, w.Kind, w.At)
		s.store = append(s.store, in)
		if s.installed != nil && !in && s.addressed(w) {
			out = append(out, Violation{InvLiveCovers, fmt.Sprintf("a live wrap on c%d/e%d of kind %d at %d does not match the live REQ", w.Ch, w.Epoch, w.Kind, w.At)})
		}
	}
	switch a.Name {
	case "pub0", "pub1":
		if len(s.relay) >= 4 {
			return nil, false, nil
		}
		ch := int(a.Name[3] - '0')
		s.now += liveStep
		arrive(lwrap{Ch: ch, Epoch: s.current(ch).Epoch, Kind: a.Arg, At: s.now})
	case "late":
		c := &s.chans[1]
		if len(c.Keys) < 2 || len(s.relay) >= 4 {
			return nil, false, nil
		}
		prev := c.Keys[len(c.Keys)-2]
		if slices.ContainsFunc(s.relay, func(w lwrap) bool { return w.Ch == 1 && w.Epoch == prev.Epoch && w.At == prev.RetiredAt }) {
			return nil, false, nil
		}
		arrive(lwrap{Ch: 1, Epoch: prev.Epoch, Kind: KindWrap, At: prev.RetiredAt})
	case "rotate":
		if s.rotations >= 2 {
			return nil, false, nil
		}
		s.rotations++
		s.now += liveStep
		c := &s.chans[1]
		cur := c.Keys[len(c.Keys)-1]
		c.Keys[len(c.Keys)-1] = HeldKey{Epoch: cur.Epoch, Retired: true, RetiredAt: s.now}
		c.Keys = append(c.Keys, HeldKey{Epoch: cur.Epoch + 1})
		c.Asked = append(c.Asked, false)
		if r.Reinstall() {
			out = append(out, s.install(r)...)
		}
	case "install":
		out = append(out, s.install(r)...)
	case "round":
		ch := a.Arg
		for i, w := range s.relay {
			if w.Ch != ch {
				continue
			}
			if k, ok := keyOf(s.chans[ch].Keys, w.Epoch); ok && readable(k, w.At) {
				s.store[i] = true
			}
		}
		n := s.now
		s.chans[ch].Newest = &n
	default:
		return nil, false, nil
	}
	return s, true, out
}

// install builds the live REQ, replays what it matches, and checks it:
// every wrap the contract addresses at or past its channel's floor is in
// the store, and no retired epoch asked by an earlier install is asked
// again.
func (s *liveState) install(r *Rules) []Violation {
	var out []Violation
	s.frozen = make([][]bool, len(s.chans))
	for i, c := range s.chans {
		s.frozen[i] = slices.Clone(c.Asked)
	}
	f := LiveREQ(r, s.chans[:])
	s.installed = &f
	for i, w := range s.relay {
		if f.Matches(Plane{w.Ch, w.Epoch}, w.Kind, w.At) {
			s.store[i] = true
		}
	}
	for _, p := range f.Planes {
		c := s.chans[p.Channel]
		for i, k := range c.Keys {
			if k.Epoch == p.Epoch && k.Retired && s.frozen[p.Channel][i] {
				out = append(out, Violation{InvLiveFrozen, fmt.Sprintf("the live REQ asks again for c%d's epoch %d, retired at %d and asked once already", p.Channel, k.Epoch, k.RetiredAt)})
			}
		}
	}
	for i, w := range s.relay {
		if s.store[i] || !s.addressed(w) {
			continue
		}
		if n := s.chans[w.Ch].Newest; n != nil && w.At < *n-CursorOverlap {
			continue // the channel's round holds the region below its cursor
		}
		out = append(out, Violation{InvLiveCovers, fmt.Sprintf("the live REQ misses c%d/e%d's wrap of kind %d at %d, past its channel's cursor %s", w.Ch, w.Epoch, w.Kind, w.At, optInt(s.chans[w.Ch].Newest))})
	}
	return out
}
