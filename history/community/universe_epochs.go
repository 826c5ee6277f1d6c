package community

import (
	"fmt"
	"slices"
	"strings"
)

// The epochs universe: one channel whose community rotates its key while a
// member reads history. The community publishes wraps under its current
// epoch, an outsider seals wraps under a retired key after its rotation,
// and rotations arrive as deliveries, removals and forks. The member runs
// rounds (whole, or split so that a rekey lands inside one) and rekey
// passes (the watch delivers what it addresses, then the adoption pass).
const (
	epochMaxWraps = 2
	epochMaxRots  = 3
	// epochJoinAt is when the member joined: a rotation published at t=1
	// predates it, so a blob-less one strands rather than removes.
	epochJoinAt = 2
)

// Invariants of the epochs universe.
const (
	InvCutoff    = "E1-cutoff"
	InvNoGap     = "E2-no-gap"
	InvNoFork    = "E3-no-fork"
	InvRemoval   = "E4-removal-strand"
	InvCaughtUp  = "E5-caught-up"
	InvNewPlane  = "E6-new-plane"
	InvKept      = "E7-retired-kept"
	epochsName   = "epochs"
	actPublish   = "publish"
	actForge     = "forge"
	actRotate    = "rotate"
	actRekey     = "rekey"
	actRound     = "round"
	actStart     = "start"
	actEnd       = "end"
	noCursorMark = -1
)

type ewrap struct {
	Epoch, At int
	Forged    bool
}

// flight is a round that has started: its windows and its keys are the
// ones it started with.
type flight struct {
	Start, Held, Gen int
	Keys             []HeldKey
	From             Cursor
}

type epochState struct {
	now, cur int
	rots     []Rotation
	wraps    []ewrap
	m        Member
	db       []Rotation
	store    uint8 // wraps read, by index
	blind    uint8 // wraps a round claimed without addressing their epoch
	badRead  uint8 // wraps a round read under a key it knew was retired past them
	c        Cursor
	gen      int
	forked   bool
	fl       *flight
}

func (s *epochState) clone() *epochState {
	t := *s
	t.rots, t.wraps, t.db = slices.Clone(s.rots), slices.Clone(s.wraps), slices.Clone(s.db)
	t.m.Keys = slices.Clone(s.m.Keys)
	if s.fl != nil {
		f := *s.fl
		f.Keys = slices.Clone(f.Keys)
		t.fl = &f
	}
	return &t
}

func (s *epochState) Key() string {
	b := make([]byte, 0, 64)
	b = append(b, byte(s.now), byte(s.cur), byte(len(s.rots)))
	for _, r := range s.rots {
		b = append(b, byte(r.Epoch), byte(r.At), byte(r.Kind))
	}
	b = append(b, byte(len(s.wraps)))
	for _, w := range s.wraps {
		b = append(b, byte(w.Epoch), byte(w.At), flag(w.Forged))
	}
	b = appendMember(b, s.m)
	b = append(b, byte(len(s.db)))
	for _, r := range s.db {
		b = append(b, byte(r.Epoch), byte(r.At), byte(r.Kind))
	}
	b = append(b, s.store, s.blind, s.badRead, byte(s.gen), flag(s.forked))
	b = appendCursor(b, s.c)
	if s.fl != nil {
		b = append(b, 1, byte(s.fl.Start), byte(s.fl.Held), byte(s.fl.Gen))
		b = appendKeys(b, s.fl.Keys)
		b = appendCursor(b, s.fl.From)
	}
	return string(b)
}

func flag(v bool) byte {
	if v {
		return 1
	}
	return 0
}

func appendCursor(b []byte, c Cursor) []byte {
	return append(b, flag(c.Has), byte(c.Newest), byte(c.Oldest), flag(c.Exhausted))
}

func appendKeys(b []byte, ks []HeldKey) []byte {
	b = append(b, byte(len(ks)))
	for _, k := range ks {
		b = append(b, byte(k.Epoch), flag(k.Retired), byte(k.RetiredAt))
	}
	return b
}

func appendMember(b []byte, m Member) []byte {
	return appendKeys(append(b, byte(m.Held), flag(m.Removed), flag(m.Stranded), byte(m.Dropped)), m.Keys)
}

func (s *epochState) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "t=%d community@%d rotations=[", s.now, s.cur)
	for i, r := range s.rots {
		if i > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%s->%d@%d", r.Kind, r.Epoch, r.At)
	}
	b.WriteString("] wraps=[")
	for i, w := range s.wraps {
		if i > 0 {
			b.WriteString(" ")
		}
		f := ""
		if w.Forged {
			f = "!"
		}
		fmt.Fprintf(&b, "e%d@%d%s", w.Epoch, w.At, f)
		if s.store&(1<<i) != 0 {
			b.WriteString("*")
		}
	}
	fmt.Fprintf(&b, "] member@%d keys=%v", s.m.Held, s.m.Keys)
	if s.m.Removed {
		b.WriteString(" removed")
	}
	if s.m.Stranded {
		b.WriteString(" stranded")
	}
	if s.c.Has {
		fmt.Fprintf(&b, " cursor=[%d,%d]", s.c.Oldest, s.c.Newest)
		if s.c.Exhausted {
			b.WriteString(" exhausted")
		}
	}
	if s.fl != nil {
		fmt.Fprintf(&b, " round-in-flight(from t=%d, epoch %d)", s.fl.Start, s.fl.Held)
	}
	return b.String()
}

// EpochsUniverse is the epochs universe at depth.
func EpochsUniverse(depth int) *Universe {
	return &Universe{
		Name:       epochsName,
		Doc:        "held epochs, the read cutoff, rekey adoption (chained, forks, removal) and a rekey during a round",
		Depth:      depth,
		Invariants: []string{InvCutoff, InvNoFork, InvRemoval, InvCaughtUp, InvNoGap, InvNewPlane, InvKept},
		Initial: func() State {
			return &epochState{m: NewMember(epochJoinAt)}
		},
		Actions: []Action{
			{actPublish, 0}, {actForge, 0},
			{actRotate, int(Deliver)}, {actRotate, int(Remove)}, {actRotate, int(ForkIn)}, {actRotate, int(ForkOut)},
			{actRekey, 0}, {actRound, 0}, {actStart, 0}, {actEnd, 0},
		},
		Step: func(r *Rules, st State, a Action) (State, bool, []Violation) {
			s, ok := st.(*epochState)
			if !ok {
				return nil, false, nil
			}
			return epochStep(r, s, a)
		},
	}
}

func epochStep(r *Rules, s0 *epochState, a Action) (State, bool, []Violation) {
	s := s0.clone()
	switch a.Name {
	case actPublish, actForge:
		if len(s.wraps) >= epochMaxWraps || (a.Name == actForge && s.cur == 0) {
			return nil, false, nil
		}
		s.now++
		w := ewrap{Epoch: s.cur, At: s.now}
		if a.Name == actForge {
			w.Epoch, w.Forged = s.cur-1, true
		}
		s.wraps = append(s.wraps, w)
	case actRotate:
		if len(s.rots) >= epochMaxRots || a.Arg < 0 || a.Arg > int(ForkOut) {
			return nil, false, nil
		}
		s.now++
		rot := Rotation{Epoch: s.cur + 1, At: s.now, Kind: RotationKind(a.Arg)}
		s.rots = append(s.rots, rot)
		if rot.Extends() {
			s.cur++
		}
	case actRekey:
		// After an adoption the pass runs only if the watch was installed
		// again for the new epochs: nothing else delivers a rotation.
		if s.m.Removed || s.m.Stranded || (s.gen > 0 && !r.Rewatch()) {
			return nil, false, nil
		}
		for _, e := range r.Watch(s.m.Held) {
			for _, rot := range s.rots {
				if rot.Epoch == e && !slices.Contains(s.db, rot) {
					s.db = append(s.db, rot)
				}
			}
		}
		m, adopted := Pass(r, s.m, s.db, s.now)
		s.m = m
		for _, ad := range adopted {
			if !ad.Rotation.Extends() {
				s.forked = true
			}
			s.purge(r, ad.Rotation.Epoch-1)
			s.c = r.OnAdopt(s.c, ad.Rotation.At)
			s.gen++
		}
	case actRound:
		if s.fl != nil {
			return nil, false, nil
		}
		s.commit(r, s.begin())
	case actStart:
		if s.fl != nil {
			return nil, false, nil
		}
		s.fl = s.begin()
	case actEnd:
		if s.fl == nil {
			return nil, false, nil
		}
		f := s.fl
		s.fl = nil
		s.commit(r, f)
	default:
		return nil, false, nil
	}
	return s, true, s.check(r, a)
}

func (s *epochState) begin() *flight {
	return &flight{Start: s.now, Held: s.m.Held, Gen: s.gen, Keys: slices.Clone(s.m.Keys), From: s.c}
}

// commit reads what the round's windows and keys address (the relays hold
// every wrap published before the round started) and proposes the cursor.
func (s *epochState) commit(r *Rules, f *flight) {
	seenOldest, read := 0, false
	for i, w := range s.wraps {
		if w.At > f.Start {
			continue
		}
		inWindow := !f.From.Has || w.At >= f.From.Newest || (!f.From.Exhausted && w.At < f.From.Oldest)
		if !inWindow {
			continue
		}
		k, held := keyOf(f.Keys, w.Epoch)
		if !held || !r.Readable(k, w.At) {
			continue
		}
		s.store |= 1 << i
		if w.Forged && w.Epoch < f.Held {
			s.badRead |= 1 << i
		}
		if !read || w.At < seenOldest {
			seenOldest = w.At
		}
		read = true
	}
	// The fold applies the cutoff of every key the member now knows is
	// retired to what the round brought in (a round may have started
	// before the adoption that retired one).
	for _, k := range s.m.Keys {
		if k.Retired {
			s.purge(r, k.Epoch)
		}
	}
	if !r.Commit(f.Gen, s.gen) {
		return
	}
	c := s.c
	switch {
	case !c.Has && !read:
		return // an all-empty cold round is failed: the cursor does not move
	case !c.Has:
		c = Cursor{Has: true, Newest: f.Start, Oldest: seenOldest, Exhausted: true}
	default:
		c.Newest = max(c.Newest, f.Start)
		if read && seenOldest < c.Oldest {
			c.Oldest = seenOldest
		}
		c.Exhausted = c.Exhausted || s.store != 0
	}
	s.c = c
	for i, w := range s.wraps {
		if s.store&(1<<i) == 0 && !w.Forged && w.Epoch > f.Held && c.claims(w.At) {
			s.blind |= 1 << i
		}
	}
}

// claims reports whether the cursor says a wrap at at is stored: inside
// the complete region, or below it once exhausted.
func (c Cursor) claims(at int) bool {
	return c.Has && at <= c.Newest && (at >= c.Oldest || c.Exhausted)
}

// purge applies the rules' purge to the wraps stored under epoch e, whose
// key an adoption has just retired.
func (s *epochState) purge(r *Rules, e int) {
	k, ok := keyOf(s.m.Keys, e)
	if !ok {
		return
	}
	for i, w := range s.wraps {
		if s.store&(1<<i) != 0 && w.Epoch == e && r.Purge(k, w.At) {
			s.store &^= 1 << i
		}
	}
}

func keyOf(keys []HeldKey, e int) (HeldKey, bool) {
	for _, k := range keys {
		if k.Epoch == e {
			return k, true
		}
	}
	return HeldKey{}, false
}

func (s *epochState) check(_ *Rules, a Action) []Violation {
	var out []Violation
	for i, w := range s.wraps {
		in := s.store&(1<<i) != 0
		switch {
		case in && s.badRead&(1<<i) != 0:
			out = append(out, Violation{InvCutoff, fmt.Sprintf("a round that knew epoch %d retired read a wrap sealed under it at t=%d, after its rotation", w.Epoch, w.At)})
		case in && w.Forged && w.Epoch < s.m.Held:
			out = append(out, Violation{InvKept, fmt.Sprintf("the store still holds a wrap sealed under epoch %d at t=%d, after that key's rotation, read before the member adopted it", w.Epoch, w.At)})
		}
		if in || w.Forged || !s.c.claims(w.At) || w.Epoch > s.m.Held {
			continue
		}
		if s.blind&(1<<i) != 0 {
			out = append(out, Violation{InvNewPlane, fmt.Sprintf("the wrap at t=%d under epoch %d is claimed by the cursor %s, which a round set before the member held that epoch", w.At, w.Epoch, s.c)})
		} else {
			out = append(out, Violation{InvNoGap, fmt.Sprintf("the wrap at t=%d under held epoch %d is claimed by the cursor %s but is not stored", w.At, w.Epoch, s.c)})
		}
	}
	if s.forked {
		out = append(out, Violation{InvNoFork, fmt.Sprintf("the member adopted a rotation that does not extend its key (now at epoch %d)", s.m.Held)})
	}
	canonical := func(e int) (Rotation, bool) {
		for _, rot := range s.rots {
			if rot.Epoch == e && rot.Extends() {
				return rot, true
			}
		}
		return Rotation{}, false
	}
	next, hasNext := canonical(s.m.Held + 1)
	blobless := hasNext && next.Kind == Remove
	removes := blobless && next.At >= s.m.JoinedAt
	strands := blobless && next.At < s.m.JoinedAt
	if s.m.Removed && !removes {
		out = append(out, Violation{InvRemoval, fmt.Sprintf("the member is marked removed at epoch %d, but no authorised rotation published after it joined removed it", s.m.Held+1)})
	}
	if s.m.Stranded && !strands {
		out = append(out, Violation{InvRemoval, fmt.Sprintf("the member is marked stranded at epoch %d, but no blob-less rotation predates its join", s.m.Held+1)})
	}
	if a.Name == actRekey && hasNext && !s.m.Removed && !s.m.Stranded {
		switch {
		case removes:
			out = append(out, Violation{InvRemoval, fmt.Sprintf("a rekey pass left the member at epoch %d past a rotation that removed it", s.m.Held)})
		case strands:
			out = append(out, Violation{InvRemoval, fmt.Sprintf("a rekey pass left the member at epoch %d past a rotation that predates its join, unflagged", s.m.Held)})
		default:
			out = append(out, Violation{InvCaughtUp, fmt.Sprintf("a rekey pass stopped at epoch %d with the rotation to %d published within the lookahead", s.m.Held, next.Epoch)})
		}
	}
	return out
}
