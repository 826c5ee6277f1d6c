package exhaustive

import (
	"github.com/nip-rs/harness/model"
)

// The transitions of a universe, numbered in generation order: for each
// device, for each context, mark-unread, mark-read, compact and advance;
// then the device's reinstall; after every device, one delivery per ordered
// pair of distinct devices. A device's local transitions are its "slots"
// (4 per context, then reinstall).

const kindsPerCtx = 4

func (u *Universe) slotsPerDevice() int { return kindsPerCtx*len(u.Contexts) + 1 }

func (u *Universe) numTransitions() int {
	n := len(u.Devices)
	return n*u.slotsPerDevice() + n*(n-1)
}

// slot decodes a local slot into its kind and context.
func (u *Universe) slot(s int) (Kind, string) {
	if s == kindsPerCtx*len(u.Contexts) {
		return KindReinstall, ""
	}
	return Kind(s % kindsPerCtx), u.Contexts[s/kindsPerCtx]
}

// transition decodes a transition index: a local slot of a device, or a
// delivery from one device to another (slot is then -1).
func (u *Universe) transition(t int) (dev, slot, from int) {
	per := u.slotsPerDevice()
	n := len(u.Devices)
	if t < n*per {
		return t / per, t % per, -1
	}
	p := t - n*per
	from = p / (n - 1)
	dev = p % (n - 1)
	if dev >= from {
		dev++
	}
	return dev, -1, from
}

// deliverIndex is the transition index of a delivery from -> to.
func (u *Universe) deliverIndex(from, to int) int {
	n := len(u.Devices)
	d := to
	if to > from {
		d--
	}
	return n*u.slotsPerDevice() + from*(n-1) + d
}

// applyLocal runs one local transition on rep, which it modifies. It
// reports false, leaving rep unchanged, when the transition is not enabled
// in rep's state. This is the only place transitions are executed, by the
// search, by replay and by witness rendering alike.
func (u *Universe) applyLocal(rep *model.Replica, dev, slot int) (Action, bool) {
	kind, ctx := u.slot(slot)
	a := Action{Kind: kind, Device: dev, Ctx: ctx}
	if (rep.Legacy || u.frontierOnly(ctx)) && kind != KindAdvance {
		return a, false
	}
	if kind == KindReinstall && u.NoReinstall {
		return a, false
	}
	switch kind {
	case KindMarkUnread:
		a.failed = rep.MarkUnread(ctx) != nil // a refusal leaves the replica as it was
	case KindMarkRead:
		v, ok := u.nextValue(rep.Frontier(ctx))
		if !ok {
			return a, false
		}
		a.Value = v
		a.failed = rep.MarkRead(ctx, v) != nil // the replica reports a failure at the ceiling
	case KindCompact:
		if !rep.HasReg(ctx) {
			return a, false
		}
		rep.Compact(ctx)
	case KindAdvance:
		v, ok := u.nextValue(rep.Frontier(ctx))
		if !ok {
			return a, false
		}
		a.Value = v
		rep.Advance(ctx, v)
	case KindReinstall:
		rep.Reinstall(u.reinstallID(rep.ClientID))
	}
	return a, true
}

// publish is what a device puts on the wire: its canonical candidate (a
// legacy replica's candidate is its legacy rewrite).
func publish(rep *model.Replica) model.Blob { return rep.Candidate() }

// frontierRegressed reports whether any frontier held by before is lower
// in after.
func frontierRegressed(before, after *model.Replica) bool {
	bad := false
	before.Each(func(ctx string, f uint32, hasF bool, _ model.Reg) {
		if hasF && after.Frontier(ctx) < f {
			bad = true
		}
	})
	return bad
}

// newReplica builds device i of u in its initial state.
func newReplica(spec DeviceSpec, rules *model.Rules) *model.Replica {
	var r *model.Replica
	if spec.Legacy {
		r = model.NewLegacyReplica(spec.ClientID, spec.LegacyMode)
	} else {
		r = model.NewReplica(spec.ClientID)
	}
	r.Rules = rules
	r.Parent = spec.Parent
	if spec.Rules != nil {
		r.Rules = spec.Rules(rules)
	}
	if spec.Start != nil {
		spec.Start(r)
	}
	return r
}
