package community

import (
	"fmt"
	"slices"
)

// HeldKey is one epoch's key a member holds: the current one, or a prior
// kept after a rotation with the time its rotation retired it. Times are
// the universe's clock (created_at order).
type HeldKey struct {
	Epoch     int
	Retired   bool
	RetiredAt int
}

func (k HeldKey) String() string {
	if k.Retired {
		return fmt.Sprintf("e%d(retired@%d)", k.Epoch, k.RetiredAt)
	}
	return fmt.Sprintf("e%d", k.Epoch)
}

// RotationKind is what a rotation at some epoch means for one member.
type RotationKind int

const (
	// Deliver extends the held key and carries a blob for the member.
	Deliver RotationKind = iota
	// Remove extends the held key, is authorised, and carries no blob for
	// the member: the member is removed at that epoch.
	Remove
	// ForkIn carries a blob for the member, but its prevcommit does not
	// extend the key the member holds: acting on it puts the member on a
	// fork.
	ForkIn
	// ForkOut is a forking rotation without a blob for the member: neither
	// an adoption nor a removal.
	ForkOut
)

var rotationNames = [...]string{"deliver", "remove", "fork-in", "fork-out"}

func (k RotationKind) String() string { return rotationNames[k] }

// Rotation is a complete rotation to Epoch published at At.
type Rotation struct {
	Epoch int
	At    int
	Kind  RotationKind
}

// Extends reports whether the rotation's prevcommit extends the chain the
// member holds (a fork's does not).
func (r Rotation) Extends() bool { return r.Kind == Deliver || r.Kind == Remove }

// Verdict is what an adoption pass decides for the next epoch.
type Verdict int

const (
	// NotYet: nothing adoptable at the next epoch (wait for the watch).
	NotYet Verdict = iota
	// Adopt the rotation: a key delivery off the held key.
	Adopt
	// Removed: a complete, authorised rotation past the member's epoch,
	// published after the member joined, carries no blob for them.
	Removed
	// Stranded: such a rotation predates the member's join: the invite it
	// joined with was out of date, which is not a removal.
	Stranded
)

// Member is one member's key state for a channel: when it joined, the
// held epoch, every key it holds (current last), and the two terminal
// states.
type Member struct {
	JoinedAt int
	Held     int
	Keys     []HeldKey
	Removed  bool
	Stranded bool
	// Dropped counts the retired epochs whose keys the rules let go
	// (Rules.Keep): history sealed under them can no longer be read, and
	// is reported so, not shown as an empty past.
	Dropped int
}

// NewMember holds epoch 0, joined at joinedAt.
func NewMember(joinedAt int) Member { return Member{JoinedAt: joinedAt, Keys: []HeldKey{{Epoch: 0}}} }

// Key is the held key for epoch e, if any.
func (m Member) Key(e int) (HeldKey, bool) {
	for _, k := range m.Keys {
		if k.Epoch == e {
			return k, true
		}
	}
	return HeldKey{}, false
}

// Adoption is one step an adoption pass took.
type Adoption struct {
	Rotation Rotation
}

// Pass is one adoption pass over the rekey wraps the database holds (db),
// at time now: it judges the next epoch, adopts it when the rules say so,
// and goes on while they allow chaining. It returns the member after the
// pass and the adoptions it made, in order. The rotations are grouped by
// epoch once, in db's order, so a chain of n adoptions costs O(n + |db|)
// rather than a scan of db per step.
func Pass(r *Rules, m Member, db []Rotation, now int) (Member, []Adoption) {
	m.Keys = slices.Clone(m.Keys)
	byEpoch := make(map[int][]Rotation)
	for _, rot := range db {
		if rot.Epoch > m.Held {
			byEpoch[rot.Epoch] = append(byEpoch[rot.Epoch], rot)
		}
	}
	var out []Adoption
	for !m.Removed && !m.Stranded {
		at := byEpoch[m.Held+1]
		v, i := r.Judge(at, m.JoinedAt)
		switch v {
		case Removed:
			m.Removed = true
		case Stranded:
			m.Stranded = true
		}
		if m.Removed || m.Stranded {
			break
		}
		if v != Adopt || i < 0 || i >= len(at) {
			break
		}
		rot := at[i]
		old := m.Keys[len(m.Keys)-1]
		old.Retired, old.RetiredAt = true, r.RetireAt(rot.At, now)
		priors := m.Keys[:len(m.Keys)-1]
		kept := r.Keep(priors)
		m.Dropped += len(priors) - len(kept)
		m.Keys = append(kept, old, HeldKey{Epoch: rot.Epoch})
		m.Held = rot.Epoch
		out = append(out, Adoption{Rotation: rot})
		if !r.Chain(len(out)) {
			break
		}
	}
	return m, out
}

// judge is the document's adoption decision for the rotations published at
// the next epoch: a rotation that extends the held key and carries a blob
// is adopted; one that extends it without a blob removes the member when
// it was published after the member joined, and strands it when it
// predates the join; a forking rotation is neither, whichever comes first.
func judge(at []Rotation, joinedAt int) (Verdict, int) {
	v := NotYet
	for i, rot := range at {
		switch {
		case rot.Kind == Deliver:
			return Adopt, i
		case rot.Kind == Remove && rot.At >= joinedAt:
			v = Removed
		case rot.Kind == Remove && v == NotYet:
			v = Stranded
		}
	}
	return v, -1
}

// watch is the document's rekey watch for a member at held: the next
// epoch and the lookahead window past it.
func watch(held int) []int {
	out := make([]int, 0, RekeyLookahead)
	for e := held + 1; e <= held+RekeyLookahead; e++ {
		out = append(out, e)
	}
	return out
}

// readable is the document's cutoff: a key retired by a rotation reads no
// wrap sealed after the rotation's publish time.
func readable(k HeldKey, at int) bool { return !k.Retired || at <= k.RetiredAt }
