package model

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// LegacyMode is how a legacy (pre-override) replica treats keys it does not
// understand.
type LegacyMode uint8

const (
	// LegacyCarry is what production legacy clients do: every entry that
	// passes per-entry sanitising, ov_* keys included, is kept as an opaque
	// context, max-merged per wire key, and republished unchanged.
	LegacyCarry LegacyMode = iota
	// LegacyDropOverrides discards ov_s:/ov_c:/ov_b: keys on receive. It is
	// less faithful than production and exists only to reproduce the
	// reference model's universe.
	LegacyDropOverrides
)

// Errors of the replica's actions.
var (
	ErrLegacy         = errors.New("legacy replica has no override layer")
	ErrLoadIncomplete = errors.New("no complete full-state load")
)

// ctxState is one context of a replica. For a legacy replica ID is the wire
// key verbatim and R is unused.
type ctxState struct {
	ID   string
	F    uint32
	HasF bool
	R    Reg
}

// Replica is one client installation as the checks see it: its identity,
// frontier and registers, its actions, publication and receipt. Every rule
// decision goes through Rules.
type Replica struct {
	ClientID   string
	Legacy     bool
	LegacyMode LegacyMode
	Rules      *Rules
	// Parent resolves thread:/msg: parents; nil resolves nothing.
	Parent ParentResolver
	// RequireLoad gates override actions on LoadComplete (Actions: every
	// action requires a complete full-state load). Off by default.
	RequireLoad  bool
	LoadComplete bool

	ents      []ctxState
	last      []Entry
	published bool
}

// NewReplica returns an upgraded replica with the production rules.
func NewReplica(clientID string) *Replica {
	return &Replica{ClientID: clientID, Rules: Proposed()}
}

// NewLegacyReplica returns a legacy replica (no override layer).
func NewLegacyReplica(clientID string, mode LegacyMode) *Replica {
	return &Replica{ClientID: clientID, Legacy: true, LegacyMode: mode, Rules: Proposed()}
}

// Clone returns an independent copy sharing Rules and Parent.
func (r *Replica) Clone() *Replica {
	c := *r
	c.ents = slices.Clone(r.ents)
	c.last = slices.Clone(r.last)
	return &c
}

// CloneInto makes dst an independent copy of r, as Clone does, reusing
// dst's storage: for a caller that copies many replicas only to look at
// the result and keeps few of them.
func (r *Replica) CloneInto(dst *Replica) {
	ents, last := dst.ents, dst.last
	*dst = *r
	dst.ents = cloneInto(ents, r.ents)
	dst.last = cloneInto(last, r.last)
}

// cloneInto copies src into dst's storage; a nil src stays nil, as
// slices.Clone keeps it.
func cloneInto[T any](dst, src []T) []T {
	if src == nil {
		return nil
	}
	return append(dst[:0], src...)
}

func (r *Replica) find(id string) (int, bool) {
	return slices.BinarySearchFunc(r.ents, id, func(e ctxState, t string) int { return strings.Compare(e.ID, t) })
}

func (r *Replica) at(id string) *ctxState {
	i, ok := r.find(id)
	if !ok {
		r.ents = slices.Insert(r.ents, i, ctxState{ID: id})
	}
	return &r.ents[i]
}

func (r *Replica) get(id string) ctxState {
	if i, ok := r.find(id); ok {
		return r.ents[i]
	}
	return ctxState{}
}

// Frontier is the replica's own merged frontier value for ctx (0 if absent).
func (r *Replica) Frontier(ctx string) uint32 { return r.get(ctx).F }

// HasFrontier reports whether ctx has a frontier entry.
func (r *Replica) HasFrontier(ctx string) bool { return r.get(ctx).HasF }

// EverRead reports whether ctx was ever read: the replica holds a frontier
// entry for it, or for the parent its effective frontier takes under the
// hierarchy rule. A frontier of 0 is read; no entry is not.
func (r *Replica) EverRead(ctx string) bool {
	if r.HasFrontier(ctx) {
		return true
	}
	if r.Parent == nil || ContextScheme(ctx) == SchemeOpaque {
		return false
	}
	p, ok := r.Parent(ctx)
	return ok && r.HasFrontier(p)
}

// Reg is the replica's register for ctx (virgin if none).
func (r *Replica) Reg(ctx string) Reg { return r.get(ctx).R }

// HasReg reports whether the replica holds a non-virgin-zero register.
func (r *Replica) HasReg(ctx string) bool { return r.get(ctx).R != (Reg{}) }

// Effective is the effective frontier of ctx under the hierarchy rule.
func (r *Replica) Effective(ctx string) uint32 {
	if r.Parent == nil {
		return r.Frontier(ctx)
	}
	return Effective(r.Frontier, r.Parent, ctx)
}

// Live reports whether ctx has an active override, through Rules.
func (r *Replica) Live(ctx string) bool {
	if r.Legacy {
		return false
	}
	return r.Rules.IsLive(r.Reg(ctx), r.Effective(ctx))
}

// Unread is the unread verdict for ctx given its newest message.
func (r *Replica) Unread(ctx string, latest uint32) bool {
	return Unread(latest, r.Effective(ctx), r.Live(ctx))
}

// Contexts lists every context (or, for a legacy replica, wire key) held.
func (r *Replica) Contexts() []string {
	out := make([]string, len(r.ents))
	for i, e := range r.ents {
		out[i] = e.ID
	}
	return out
}

// Each visits every held context in order.
func (r *Replica) Each(fn func(ctx string, f uint32, hasF bool, reg Reg)) {
	for _, e := range r.ents {
		fn(e.ID, e.F, e.HasF, e.R)
	}
}

func (r *Replica) gate() error {
	if r.Legacy {
		return ErrLegacy
	}
	if r.RequireLoad && !r.LoadComplete {
		return ErrLoadIncomplete
	}
	return nil
}

// Advance is a natural read: a monotone frontier advance (Natural read).
func (r *Replica) Advance(ctx string, ts uint32) {
	e := r.at(ctx)
	e.F = max(e.F, ts)
	e.HasF = true
}

// MarkUnread sets an override: S := max(S,C)+1, B := effective frontier.
// It is refused with the replica unchanged at the counter ceiling and for a
// context whose override keys would exceed 256 bytes (Rules.OverrideKeysFit).
func (r *Replica) MarkUnread(ctx string) error {
	if err := r.gate(); err != nil {
		return fmt.Errorf("mark-unread %q: %w", ctx, err)
	}
	if err := r.Rules.OverrideKeysFit(ctx); err != nil {
		return fmt.Errorf("mark-unread %q: %w", ctx, err)
	}
	f := r.Rules.UnreadBase(r.Frontier(ctx), r.Effective(ctx))
	read := r.EverRead(ctx)
	e := r.at(ctx)
	nr, err := r.Rules.MarkUnread(e.R, f, read)
	if err != nil {
		return fmt.Errorf("mark-unread %q: %w", ctx, err)
	}
	e.R = nr
	return nil
}

// MarkRead is an explicit mark-read: the frontier advances to ts (this
// stands even if the action fails), then C := max(S,C)+1. A legacy replica
// only advances the frontier, and so does an upgraded one on a context with
// no register whose override keys would exceed 256 bytes.
func (r *Replica) MarkRead(ctx string, ts uint32) error {
	if r.Legacy {
		r.Advance(ctx, ts)
		return nil
	}
	if err := r.gate(); err != nil {
		return fmt.Errorf("mark-read %q: %w", ctx, err)
	}
	r.Advance(ctx, ts)
	if !r.HasReg(ctx) && r.Rules.OverrideKeysFit(ctx) != nil {
		// No override exists and none can (mark-unread is refused), and a
		// floor no receiver accepts would block nothing: the frontier
		// advance is the whole action.
		return nil
	}
	f := r.Effective(ctx)
	e := r.at(ctx)
	nr, err := r.Rules.MarkRead(e.R, f, r.Rules.IsLive(e.R, f))
	e.R = nr
	if err != nil {
		return fmt.Errorf("mark-read %q: %w", ctx, err)
	}
	return nil
}

// Compact replaces the stored register of ctx by its canonical form (local
// storage GC); a virgin form deletes it. It reports whether a register was
// held.
func (r *Replica) Compact(ctx string) bool {
	i, ok := r.find(ctx)
	if !ok || r.ents[i].R == (Reg{}) {
		return false
	}
	f := r.Rules.CanonicalFrontier(r.ents[i].F, r.Effective(ctx))
	reg := r.ents[i].R
	canon, shape := r.Rules.Canonical(reg, f, r.Rules.IsLive(reg, f))
	if shape == ShapeOmit {
		canon = Reg{}
	}
	r.ents[i].R = canon
	if canon == (Reg{}) && !r.ents[i].HasF {
		r.ents = slices.Delete(r.ents, i, i+1)
	}
	return true
}

// Reinstall loses the installation: a new client id, empty state.
func (r *Replica) Reinstall(clientID string) {
	r.ClientID = clientID
	r.ents = nil
	r.last = nil
	r.published = false
}

// Candidate is the blob the replica would publish now, canonicalised at
// serialisation against its own effective frontier (always), frontier keys
// escaped, keys sorted. A legacy replica republishes its opaque entries.
//
// No entry whose key exceeds 256 bytes is written: every receiver must
// discard it (Content Validation), so it would only spend budget. Such a
// context's frontier stays on this device. Over-long ov_* keys arise only
// from a register restored from elsewhere: mark-unread refuses to create
// one (Rules.OverrideKeysFit), mark-read creates no floor there, and
// receipt rejects such groups.
func (r *Replica) Candidate() Blob {
	es := make([]Entry, 0, len(r.ents)*2)
	for _, e := range r.ents {
		if r.Legacy {
			if e.HasF && len(e.ID) <= MaxKeyBytes {
				es = append(es, Entry{e.ID, e.F})
			}
			continue
		}
		if k := r.Rules.Escape(e.ID); e.HasF && len(k) <= MaxKeyBytes {
			es = append(es, Entry{k, e.F})
		}
		es = r.appendOverride(es, e)
	}
	return Blob{V: 1, ClientID: r.ClientID, Contexts: SortEntries(es)}
}

func (r *Replica) appendOverride(es []Entry, e ctxState) []Entry {
	if e.R == (Reg{}) {
		return es
	}
	f := r.Rules.CanonicalFrontier(e.F, r.Effective(e.ID))
	canon, shape := r.Rules.Canonical(e.R, f, r.Rules.IsLive(e.R, f))
	if len(PrefixS)+len(e.ID) > MaxKeyBytes {
		return es
	}
	switch shape {
	case ShapeLive:
		es = append(es, Entry{PrefixS + e.ID, canon.S}, Entry{PrefixC + e.ID, canon.C}, Entry{PrefixB + e.ID, canon.B})
	case ShapeFloor:
		es = append(es, Entry{PrefixC + e.ID, canon.C})
	}
	return es
}

// Publish returns Candidate and records it as the last-published blob.
func (r *Replica) Publish() Blob {
	b := r.Candidate()
	r.last = slices.Clone(b.Contexts)
	r.published = true
	return b
}

// LastPublished is the canonical contexts of the last publication (empty if
// the replica never published).
func (r *Replica) LastPublished() []Entry { return r.last }

// NeedsRepublish is the convergence re-publish decision: the canonical
// candidate against the canonical last-published blob, through
// Rules.Slots.Republish with nothing evicted (what would be published is
// the candidate itself).
func (r *Replica) NeedsRepublish() bool {
	cand := r.Candidate().Contexts
	return r.Rules.Slots.Republish(cand, cand, r.last)
}

// Receive merges a blob from any installation (merge is always safe). It
// returns what validation dropped.
func (r *Replica) Receive(b Blob) []Drop {
	if r.Legacy {
		return r.receiveLegacy(b)
	}
	d := Decode(r.Rules, Raw(b.Contexts))
	r.ReceiveDecoded(&d)
	return d.Drops
}

// ReceiveDecoded is Receive of a blob already decoded through the
// replica's rules (Decode(r.Rules, Raw(b.Contexts))), for a caller that
// delivers one blob to many replicas and decodes it once. A legacy replica
// does not decode what it receives: it panics.
func (r *Replica) ReceiveDecoded(d *Decoded) {
	if r.Legacy {
		panic("model: ReceiveDecoded on a legacy replica")
	}
	for _, f := range d.Frontiers {
		e := r.at(f.Ctx)
		e.F = max(e.F, f.Value)
		e.HasF = true
	}
	for _, o := range d.Overrides {
		e := r.at(o.Ctx)
		e.R = r.Rules.Join(e.R, o.Reg)
	}
}

func (r *Replica) receiveLegacy(b Blob) []Drop {
	var drops []Drop
	in := b.Contexts
	if r.LegacyMode == LegacyDropOverrides {
		in = make([]Entry, 0, len(b.Contexts))
		for _, e := range b.Contexts {
			if k, _ := r.Rules.GroupKey(e.Key); k != KeyFrontier {
				drops = append(drops, Drop{e.Key, "legacy replica discards override keys"})
				continue
			}
			in = append(in, e)
		}
	}
	kept, sd := LegacySanitize(in)
	for _, e := range kept {
		st := r.at(e.Key)
		st.F = max(st.F, e.Value)
		st.HasF = true
	}
	return append(drops, sd...)
}
