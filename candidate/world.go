package candidate

import (
	"fmt"
	"slices"
	"sync"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
)

// The world's transitions are the reference universe's, numbered in the
// same generation order: for each device, for each context, mark-unread,
// mark-read, compact and advance; then the device's reinstall; after every
// device, one synchronous delivery per ordered pair (by source, then
// destination). The same order gives the same smallest witness.

const kindsPerCtx = 4

// Kinds of a local slot, in generation order (exhaustive.Kind's names).
const (
	slotMarkUnread = iota
	slotMarkRead
	slotCompact
	slotAdvance
)

var slotNames = [...]string{"mark_unread", "mark_read", "compact", "advance"}

// world is a universe under an encoding, as package search explores it: a
// state is one interned device state per device.
type world struct {
	u     exhaustive.Universe
	enc   Encoding
	rules *model.Rules
	depth int

	mu   sync.Mutex
	devs []*devTable
	pubs [][]byte
	pubK map[string]int32
}

type devTable struct {
	ids   map[string]int32
	state []Device
	local [][]step // per state, per slot; nil until computed
	pub   []int32  // per state: its publication, or -1
	recv  map[[2]int32]step
	legC  []int8 // per state: I7 verdict memo (0 unknown, 1 holds, 2 violated)
	legD  []string
}

type step struct {
	next    int32 // -1: not enabled
	regress bool
}

func newWorld(u exhaustive.Universe, enc Encoding, rules *model.Rules, depth int) (*world, error) {
	switch {
	case u.Network != nil:
		return nil, fmt.Errorf("universe %q has a network: the encoding world runs universes without one (synchronous delivery)", u.Name)
	case len(u.Devices) == 0 || len(u.Devices) > 16:
		return nil, fmt.Errorf("universe %q has %d devices (want 1..16)", u.Name, len(u.Devices))
	case len(u.Contexts) == 0:
		return nil, fmt.Errorf("universe %q has no contexts", u.Name)
	case !slices.IsSorted(u.Values) || len(slices.Compact(slices.Clone(u.Values))) != len(u.Values):
		return nil, fmt.Errorf("universe %q: frontier values must be strictly ascending", u.Name)
	}
	for i, d := range u.Devices {
		if d.Rules != nil || d.Parent != nil || d.Start != nil {
			return nil, fmt.Errorf("universe %q: device %d carries its own rules, parent or start, which the encoding world does not run", u.Name, i)
		}
	}
	w := &world{u: u, enc: enc, rules: rules, depth: depth, pubK: map[string]int32{}}
	for range u.Devices {
		w.devs = append(w.devs, &devTable{ids: map[string]int32{}, recv: map[[2]int32]step{}})
	}
	return w, nil
}

// device builds device i in its initial state.
func (w *world) device(i int) Device {
	spec := w.u.Devices[i]
	if spec.Legacy {
		return NewLegacy(spec.ClientID, spec.LegacyMode)
	}
	return w.enc.Upgraded(spec.ClientID, w.rules)
}

func (w *world) slots() int { return kindsPerCtx*len(w.u.Contexts) + 1 }

func (w *world) Transitions() int {
	n := len(w.u.Devices)
	return n*w.slots() + n*(n-1)
}

// transition decodes t: a local slot of dev (from < 0) or a delivery
// from -> dev (slot < 0).
func (w *world) transition(t int) (dev, slot, from int) {
	per, n := w.slots(), len(w.u.Devices)
	if t < n*per {
		return t / per, t % per, -1
	}
	p := t - n*per
	from, dev = p/(n-1), p%(n-1)
	if dev >= from {
		dev++
	}
	return dev, -1, from
}

func (w *world) deliverIndex(from, to int) int {
	n := len(w.u.Devices)
	d := to
	if to > from {
		d--
	}
	return n*w.slots() + from*(n-1) + d
}

func (w *world) nextValue(f uint32) (uint32, bool) {
	for _, v := range w.u.Values {
		if v > f {
			return v, true
		}
	}
	return 0, false
}

// action describes one transition.
type action struct {
	kind  string
	dev   int
	from  int
	ctx   string
	value uint32
}

func (a action) String() string {
	switch a.kind {
	case "mark_read", "advance":
		return fmt.Sprintf("%s d%d %s %d", a.kind, a.dev, a.ctx, a.value)
	case "reinstall":
		return fmt.Sprintf("reinstall d%d", a.dev)
	case "deliver":
		return fmt.Sprintf("deliver d%d->d%d", a.from, a.dev)
	}
	return fmt.Sprintf("%s d%d %s", a.kind, a.dev, a.ctx)
}

// applyLocal runs local slot of dev on d, which it modifies; false when the
// slot is not enabled (d is then unchanged). Enabledness is the reference
// universe's: a legacy device only advances, mark-read and advance move to
// the next value and are disabled at the largest, compact needs a held
// register (and an encoding with a compaction), reinstall an upgraded
// device.
func (w *world) applyLocal(d Device, dev, slot int) (action, bool) {
	if slot == kindsPerCtx*len(w.u.Contexts) {
		a := action{kind: "reinstall", dev: dev}
		if d.Legacy() || w.u.NoReinstall {
			return a, false
		}
		d.Reinstall(d.ClientID() + "_r") // the reference universe's new id
		return a, true
	}
	kind, ctx := slot%kindsPerCtx, w.u.Contexts[slot/kindsPerCtx]
	a := action{kind: slotNames[kind], dev: dev, ctx: ctx}
	if d.Legacy() && kind != slotAdvance {
		return a, false
	}
	switch kind {
	case slotMarkUnread:
		_ = d.MarkUnread(ctx) // a refusal leaves the device as it was
	case slotMarkRead:
		v, ok := w.nextValue(d.Frontier(ctx))
		if !ok {
			return a, false
		}
		a.value = v
		_ = d.MarkRead(ctx, v)
	case slotCompact:
		if !w.enc.Compacts() || !d.HasReg(ctx) {
			return a, false
		}
		d.Compact(ctx)
	case slotAdvance:
		v, ok := w.nextValue(d.Frontier(ctx))
		if !ok {
			return a, false
		}
		a.value = v
		d.Advance(ctx, v)
	}
	return a, true
}

// regressed reports whether any frontier before holds is lower in after.
func regressed(before, after Device) bool {
	bad := false
	before.EachFrontier(func(ctx string, f uint32) {
		if after.Frontier(ctx) < f {
			bad = true
		}
	})
	return bad
}

// intern returns the id of d's state; callers hold w.mu.
func (w *world) intern(dev int, d Device) int32 {
	t := w.devs[dev]
	k := string(d.AppendKey(nil))
	if id, ok := t.ids[k]; ok {
		return id
	}
	id := int32(len(t.state))
	t.ids[k] = id
	t.state = append(t.state, d)
	t.local = append(t.local, nil)
	t.pub = append(t.pub, -1)
	t.legC = append(t.legC, 0)
	t.legD = append(t.legD, "")
	return id
}

// pubOf is the interned publication of a device state; callers hold w.mu.
func (w *world) pubOf(dev int, id int32) int32 {
	t := w.devs[dev]
	if p := t.pub[id]; p >= 0 {
		return p
	}
	b := t.state[id].Publish()
	p, ok := w.pubK[string(b)]
	if !ok {
		p = int32(len(w.pubs))
		w.pubK[string(b)] = p
		w.pubs = append(w.pubs, b)
	}
	t.pub[id] = p
	return p
}

// receive is dev's state id after receiving publication p; callers hold
// w.mu. A publication the device cannot read leaves it unchanged.
func (w *world) receive(dev int, p, id int32) step {
	t := w.devs[dev]
	if s, ok := t.recv[[2]int32{p, id}]; ok {
		return s
	}
	base := t.state[id]
	d := base.Clone()
	_ = d.Receive(w.pubs[p])
	s := step{next: w.intern(dev, d), regress: regressed(base, d)}
	t.recv[[2]int32{p, id}] = s
	return s
}

// next is the outcome of transition t in state ids; callers hold w.mu.
func (w *world) next(ids []int32, t int) (int, step) {
	dev, slot, from := w.transition(t)
	if slot < 0 {
		return dev, w.receive(dev, w.pubOf(from, ids[from]), ids[dev])
	}
	tb := w.devs[dev]
	if tb.local[ids[dev]] == nil {
		base := tb.state[ids[dev]]
		out := make([]step, w.slots())
		for s := range out {
			d := base.Clone()
			a, ok := w.applyLocal(d, dev, s)
			out[s] = step{next: -1}
			if ok {
				out[s] = step{next: w.intern(dev, d), regress: a.kind != "reinstall" && regressed(base, d)}
			}
		}
		tb.local[ids[dev]] = out
	}
	return dev, tb.local[ids[dev]][slot]
}

// The search.World methods. A worker holds no private state: every table
// is behind w.mu (the universes this world runs are small).

func (w *world) Width() int                     { return len(w.u.Devices) }
func (w *world) Invariants() []search.Invariant { return Table }
func (w *world) Units() []string                { return unitNames }
func (w *world) NewWorker() struct{}            { return struct{}{} }

func (w *world) Initial(struct{}) []int32 {
	w.mu.Lock()
	defer w.mu.Unlock()
	ids := make([]int32, len(w.u.Devices))
	for i := range ids {
		ids[i] = w.intern(i, w.device(i))
	}
	return ids
}

func (w *world) Successor(_ struct{}, cur []int32, t int, next []int32, tl *search.Tally) (bool, []search.Finding) {
	w.mu.Lock()
	dev, s := w.next(cur, t)
	w.mu.Unlock()
	if s.next < 0 {
		return false, nil
	}
	tl.Add(unitSteps, 1)
	copy(next, cur)
	next[dev] = s.next
	if s.regress {
		return true, indexed([]finding{{InvRegression, fmt.Sprintf("a transition lowered a frontier of d%d", dev)}})
	}
	return true, nil
}

func (w *world) Check(_ struct{}, row []int32, tl *search.Tally) []search.Finding {
	w.mu.Lock()
	defer w.mu.Unlock()
	return indexed(w.stateChecks(row, tl))
}
