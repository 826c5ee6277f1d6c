package candidate

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
)

// EncodingA is candidate A: one lexicographic operation register per
// context in a top-level "overrides" field, merged by (counter, client-id
// tiebreak), with a device-wide counter that absorbs every counter it
// receives so its next operation outranks everything it has seen.
type EncodingA struct{}

func (EncodingA) Name() string { return "A" }
func (EncodingA) Doc() string {
	return "lexicographic operation register {counter, client_tiebreak, op, baseline} in a top-level overrides field"
}
func (EncodingA) Compacts() bool { return false }

func (EncodingA) Upgraded(clientID string, rules *model.Rules) Device {
	return &deviceA{id: clientID, tie: rules.Tie}
}

// ErrCounterCeiling refuses an operation whose counter would wrap.
var ErrCounterCeiling = errors.New("candidate A: counter at the uint32 ceiling")

type ctxA struct {
	id   string
	f    uint32
	hasF bool
	r    RegA
}

type deviceA struct {
	id      string
	tie     model.TiePolicy
	counter uint32 // the largest counter this installation made or received
	ents    []ctxA // sorted by id
}

func (d *deviceA) ClientID() string { return d.id }
func (d *deviceA) Legacy() bool     { return false }

func (d *deviceA) Clone() Device {
	c := *d
	c.ents = slices.Clone(d.ents)
	return &c
}

func (d *deviceA) find(ctx string) (int, bool) {
	return slices.BinarySearchFunc(d.ents, ctx, func(e ctxA, k string) int { return strings.Compare(e.id, k) })
}

func (d *deviceA) at(ctx string) *ctxA {
	i, ok := d.find(ctx)
	if !ok {
		d.ents = slices.Insert(d.ents, i, ctxA{id: ctx})
	}
	return &d.ents[i]
}

func (d *deviceA) get(ctx string) ctxA {
	if i, ok := d.find(ctx); ok {
		return d.ents[i]
	}
	return ctxA{}
}

func (d *deviceA) AppendKey(buf []byte) []byte {
	buf = appendString(buf, d.id)
	buf = binary.AppendUvarint(buf, uint64(d.counter))
	for _, e := range d.ents {
		if !e.hasF && e.r.Virgin() {
			continue
		}
		buf = appendString(buf, e.id)
		buf = append(buf, byte(b2i(e.hasF)), byte(e.r.Op))
		buf = binary.AppendUvarint(buf, uint64(e.f))
		buf = binary.AppendUvarint(buf, uint64(e.r.Counter))
		buf = appendString(buf, e.r.Tiebreak)
		buf = binary.AppendUvarint(buf, uint64(e.r.Baseline))
	}
	return buf
}

func (d *deviceA) bump() (uint32, error) {
	if d.counter == math.MaxUint32 {
		return 0, ErrCounterCeiling
	}
	d.counter++
	return d.counter, nil
}

// MarkUnread records a set at the current frontier, outranking every
// operation the installation has seen.
func (d *deviceA) MarkUnread(ctx string) error {
	n, err := d.bump()
	if err != nil {
		return fmt.Errorf("mark-unread %q: %w", ctx, err)
	}
	e := d.at(ctx)
	e.r = RegA{Counter: n, Tiebreak: d.id, Op: OpSet, Baseline: e.f}
	return nil
}

// MarkRead advances the frontier (this stands even when the clear is
// refused) and records a clear.
func (d *deviceA) MarkRead(ctx string, ts uint32) error {
	d.Advance(ctx, ts)
	n, err := d.bump()
	if err != nil {
		return fmt.Errorf("mark-read %q: %w", ctx, err)
	}
	e := d.at(ctx)
	e.r = RegA{Counter: n, Tiebreak: d.id, Op: OpClear}
	return nil
}

func (d *deviceA) Advance(ctx string, ts uint32) {
	e := d.at(ctx)
	e.f = max(e.f, ts)
	e.hasF = true
}

// Compact: candidate A defines no compaction.
func (d *deviceA) Compact(string) bool { return false }

func (d *deviceA) HasReg(ctx string) bool { return !d.get(ctx).r.Virgin() }

func (d *deviceA) Reinstall(clientID string) {
	d.id, d.counter, d.ents = clientID, 0, nil
}

func (d *deviceA) Frontier(ctx string) uint32 { return d.get(ctx).f }

func (d *deviceA) EachFrontier(fn func(string, uint32)) {
	for _, e := range d.ents {
		if e.hasF {
			fn(e.id, e.f)
		}
	}
}

func (d *deviceA) Live(ctx string) bool {
	e := d.get(ctx)
	return LiveA(e.r, e.f)
}

func (d *deviceA) Publish() []byte {
	b := BlobA{Blob: model.Blob{V: 1, ClientID: d.id}}
	for _, e := range d.ents {
		if e.hasF {
			b.Contexts = append(b.Contexts, model.Entry{Key: e.id, Value: e.f})
		}
		if !e.r.Virgin() {
			b.Overrides = append(b.Overrides, OverrideA{Ctx: e.id, Reg: e.r})
		}
	}
	return EncodeA(b)
}

func (d *deviceA) Receive(data []byte) error {
	b, err := ParseA(data)
	if err != nil {
		return err
	}
	for _, en := range b.Contexts {
		d.Advance(en.Key, en.Value)
	}
	for _, o := range b.Overrides {
		e := d.at(o.Ctx)
		e.r = JoinA(e.r, o.Reg, d.tie)
		d.counter = max(d.counter, o.Reg.Counter)
	}
	return nil
}

func (d *deviceA) Renamed(rename func(string) string) Device {
	c := d.Clone().(*deviceA)
	c.id = rename(c.id)
	for i := range c.ents {
		if c.ents[i].r.Tiebreak != "" {
			c.ents[i].r.Tiebreak = rename(c.ents[i].r.Tiebreak)
		}
	}
	return c
}

func (d *deviceA) IDs() []string {
	ids := []string{d.id}
	for _, e := range d.ents {
		if e.r.Tiebreak != "" {
			ids = append(ids, e.r.Tiebreak)
		}
	}
	return ids
}

func (d *deviceA) View(ctxs []string) string {
	parts := []string{fmt.Sprintf("%s counter=%d", d.id, d.counter)}
	for _, ctx := range ctxs {
		e := d.get(ctx)
		parts = append(parts, fmt.Sprintf("%s f=%s reg=%s %s", ctx, frontierText(e.f, e.hasF), e.r, liveWord(LiveA(e.r, e.f))))
	}
	return strings.Join(parts, "; ")
}

func frontierText(f uint32, has bool) string {
	if !has {
		return "-"
	}
	return fmt.Sprint(f)
}

func liveWord(live bool) string {
	if live {
		return "live"
	}
	return "dead"
}

func appendString(buf []byte, s string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}
