package exhaustive

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// Stepper exposes the network world of a universe one concrete transition
// at a time, for a search that is not the explorer's: validating a
// client's log against the model picks, at every state, the transitions
// the log's next record can stand for and the silent ones it may leave
// out. Symmetry is off (the log names devices and contexts as they are),
// and a row is a concrete state; invariant findings are ignored, since the
// question is only which states the model reaches. A Stepper is not safe
// for concurrent use.
type Stepper struct {
	w *netWorld
	c *cache
}

// Transition is one decoded transition: its kind, the acting device (the
// destination of a channel action), and for a channel action its source
// and the 0-based position of the message it takes.
type Transition struct {
	Kind   Kind
	Device int
	From   int
	Pos    int
}

// NewStepper is a stepper over universe u under rules (nil: proposed).
func NewStepper(u Universe, rules *model.Rules) (*Stepper, error) {
	w, err := observedWorld(u, rules)
	if err != nil {
		return nil, err
	}
	return &Stepper{w: w, c: w.NewWorker()}, nil
}

// Devices is the number of devices of the universe.
func (s *Stepper) Devices() int { return s.w.n }

// Legacy reports whether device d runs the legacy client.
func (s *Stepper) Legacy(d int) bool { return s.w.u.Devices[d].Legacy }

// Initial is the concrete initial row.
func (s *Stepper) Initial() []int32 { return s.w.initialRaw(s.c) }

// Transitions is the number of transition indices (not all are enabled
// everywhere).
func (s *Stepper) Transitions() int { return s.w.Transitions() }

// Decode names transition t.
func (s *Stepper) Decode(t int) Transition {
	x := s.w.decode(t)
	return Transition{Kind: x.kind, Device: x.dev, From: x.from, Pos: x.pos}
}

// Step is the successor of row under transition t, or false when t is not
// enabled there. A publication the device cannot make is enabled and
// changes nothing, as in the explorer.
func (s *Stepper) Step(row []int32, t int) ([]int32, bool) {
	next := make([]int32, len(row))
	ok, _ := s.w.apply(s.c, row, t, next, s.w.scratch())
	return next, ok
}

// Resolve is the transition a local action of a witness (mark_read,
// advance, compact, mark_unread, reinstall, rotate, publish) names in
// row, or an error saying why the universe has none there.
func (s *Stepper) Resolve(row []int32, a witnessfile.Action) (int, error) {
	x, err := fromFile(a)
	if err != nil {
		return 0, err
	}
	return s.w.resolve(row, x)
}

// Observe is what the devices of row show and the blobs in flight.
func (s *Stepper) Observe(row []int32) Observed { return s.w.observe(row) }

// Device is what device d shows in row: its contexts that are read or
// live, in universe order.
func (s *Stepper) Device(row []int32, d int) []CtxObserved {
	r := s.w.replica(d, row[d])
	var out []CtxObserved
	for _, ctx := range s.w.u.Contexts {
		f, live := r.Effective(ctx), r.Live(ctx)
		if f > 0 || live {
			out = append(out, CtxObserved{Ctx: ctx, Effective: f, Live: live})
		}
	}
	return out
}

// InFlight is the blobs in flight from device from to device to, in
// position order (copies).
func (s *Stepper) InFlight(row []int32, from, to int) []model.Blob {
	var out []model.Blob
	for _, m := range s.w.t.chans.get(row[s.w.chWord(from, to)]) {
		b := s.w.t.msgs.get(m).b
		b.Contexts = slices.Clone(b.Contexts)
		out = append(out, b)
	}
	return out
}

// Publication is what device d would publish in row: one blob per
// coordinate part (none when it has nothing to publish), or the reason it
// cannot publish.
func (s *Stepper) Publication(row []int32, d int) ([]model.Blob, error) {
	if d < 0 || d >= s.w.n {
		return nil, fmt.Errorf("device %d out of range", d)
	}
	p := s.w.publish(s.c, d, node{row[d], row[s.w.knWord(d)]})
	if p.err != "" {
		return nil, fmt.Errorf("%s", p.err)
	}
	var out []model.Blob
	for _, m := range p.msgs {
		b := s.w.t.msgs.get(m).b
		b.Contexts = slices.Clone(b.Contexts)
		out = append(out, b)
	}
	return out, nil
}

// Key is row as a map key: equal rows, equal keys (every word is an
// interned id, so the row is the state).
func Key(row []int32) string {
	b := make([]byte, 4*len(row))
	for i, v := range row {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
	}
	return string(b)
}
