package exhaustive

import (
	"fmt"
	"slices"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// Observed walks: a simulated walk of a network universe as a client could
// see it, for model-based traces that drive a real client. Each state
// keeps only what an installation shows or receives: per device, the
// effective frontier and override liveness of every context that is read
// or kept unread (as the register scripts of the vectors report them), and
// per channel the blobs in flight. Intent knowledge, message tags and
// interned ids stay inside the world.

// CtxObserved is one context as a device shows it.
type CtxObserved struct {
	Ctx       string
	Effective uint32
	Live      bool
}

// DeviceObserved is one device: its contexts that are read (effective
// frontier above 0) or live, in universe order.
type DeviceObserved struct {
	Legacy   bool
	Contexts []CtxObserved
}

// ChannelObserved is one ordered channel's blobs in flight, in position
// order (a delivery's msg is 1 + the index here).
type ChannelObserved struct {
	From, To int
	Msgs     []model.Blob
}

// Observed is one state of a walk.
type Observed struct {
	Devices  []DeviceObserved
	InFlight []ChannelObserved // non-empty channels only, sender then receiver order
}

// ObservedWalk is one simulated walk: its actions and the state before the
// first and after each (len(States) == len(Actions)+1).
type ObservedWalk struct {
	Walk    int
	Actions []witnessfile.Action
	States  []Observed
}

// SimulateObserved runs walks From..From+Walks-1 of cfg, each exactly as
// Simulate runs it (a walk ends early at a violation or where nothing is
// enabled), and returns them as observed walks. It needs a network
// universe: the reference universe has no messages in flight.
func SimulateObserved(cfg SimConfig) ([]ObservedWalk, error) {
	w, err := observedWorld(cfg.Universe, cfg.Rules)
	if err != nil {
		return nil, err
	}
	if cfg.Walks < 1 || cfg.Steps < 1 {
		return nil, fmt.Errorf("simulation needs at least one walk of at least one step (got %d walks of %d)", cfg.Walks, cfg.Steps)
	}
	c := w.NewWorker()
	var out []ObservedWalk
	for i := cfg.From; i < cfg.From+cfg.Walks; i++ {
		o := walk(w, c, cfg.Seed, i, cfg.Steps)
		cur := w.initialRaw(c)
		next := make([]int32, len(cur))
		ow := ObservedWalk{Walk: i, States: []Observed{w.observe(cur)}}
		for _, t := range o.trace {
			ow.Actions = append(ow.Actions, w.action(cur, t).toFile())
			w.apply(c, cur, t, next, w.scratch())
			copy(cur, next)
			ow.States = append(ow.States, w.observe(cur))
		}
		out = append(out, ow)
	}
	return out, nil
}

// ObserveActions runs actions from the initial state of universe u under
// rules and returns the observed states (the initial one first). An
// action that names no transition, or one not enabled where it falls, is
// an error naming its step (counted from 1).
func ObserveActions(u Universe, rules *model.Rules, actions []witnessfile.Action) ([]Observed, error) {
	w, err := observedWorld(u, rules)
	if err != nil {
		return nil, err
	}
	c := w.NewWorker()
	cur := w.initialRaw(c)
	next := make([]int32, len(cur))
	states := []Observed{w.observe(cur)}
	for k, j := range actions {
		a, err := fromFile(j)
		if err != nil {
			return states, fmt.Errorf("step %d: %v", k+1, err)
		}
		t, err := w.resolve(cur, a)
		if err != nil {
			return states, fmt.Errorf("step %d: %v", k+1, err)
		}
		if ok, _ := w.apply(c, cur, t, next, w.scratch()); !ok {
			return states, fmt.Errorf("step %d: %s is not enabled", k+1, a)
		}
		copy(cur, next)
		states = append(states, w.observe(cur))
	}
	return states, nil
}

// observedWorld is a network world with symmetry off: its rows are the
// concrete states the walk went through, devices and contexts unpermuted.
func observedWorld(u Universe, rules *model.Rules) (*netWorld, error) {
	if u.Network == nil {
		return nil, fmt.Errorf("universe %q has no network: observed walks need messages in flight (use a network universe)", u.Name)
	}
	if rules == nil {
		rules = model.Proposed()
	}
	wo, _, err := newWorld(&u, rules, witnessfile.MaxDepth, false)
	if err != nil {
		return nil, err
	}
	return wo.(*netWorld), nil
}

// observe is the observed form of a concrete row.
func (w *netWorld) observe(row []int32) Observed {
	var o Observed
	for d := range w.n {
		r := w.replica(d, row[d])
		dv := DeviceObserved{Legacy: r.Legacy}
		for _, ctx := range w.u.Contexts {
			f, live := r.Effective(ctx), r.Live(ctx)
			if f > 0 || live {
				dv.Contexts = append(dv.Contexts, CtxObserved{Ctx: ctx, Effective: f, Live: live})
			}
		}
		o.Devices = append(o.Devices, dv)
	}
	for s := range w.n {
		for d := range w.n {
			if s == d {
				continue
			}
			msgs := w.t.chans.get(row[w.chWord(s, d)])
			if len(msgs) == 0 {
				continue
			}
			ch := ChannelObserved{From: s, To: d}
			for _, m := range msgs {
				b := w.t.msgs.get(m).b
				b.Contexts = slices.Clone(b.Contexts)
				ch.Msgs = append(ch.Msgs, b)
			}
			o.InFlight = append(o.InFlight, ch)
		}
	}
	return o
}
