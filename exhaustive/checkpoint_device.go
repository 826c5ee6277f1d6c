package exhaustive

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
)

// engineMark is how much of the device engine's tables (publications,
// device states) a checkpoint holds: AppendTables writes the entries past
// the mark and moves it.
type engineMark struct {
	blobs int
	reps  []int // per device
}

// append encodes the publications, then each device's states, interned
// since the mark.
func (m *engineMark) append(e *engine, enc *search.Enc) error {
	if m.reps == nil {
		m.reps = make([]int, len(e.devs))
	}
	e.blobMu.Lock()
	blobs := slices.Clone(e.blobs[m.blobs:])
	e.blobMu.Unlock()
	enc.Uvarint(uint64(len(blobs)))
	for _, b := range blobs {
		encodeBlob(enc, b)
	}
	m.blobs += len(blobs)
	for dev, t := range e.devs {
		t.mu.Lock()
		reps := slices.Clone(t.reps[m.reps[dev]:])
		t.mu.Unlock()
		enc.Uvarint(uint64(len(reps)))
		for _, r := range reps {
			// A state this encoding cannot restore exactly is refused now,
			// not when a resume meets it.
			var one search.Enc
			encodeReplica(&one, r)
			if _, err := decodeReplica(search.NewDec(one.B), e.u.Devices[dev], e.rules); err != nil {
				return fmt.Errorf("device %d state %d: %w", dev, m.reps[dev], err)
			}
			enc.B = append(enc.B, one.B...)
		}
		m.reps[dev] += len(reps)
	}
	return nil
}

// load interns what append encoded, checking that every value gets the id
// it had.
func (m *engineMark) load(e *engine, dec *search.Dec) error {
	if m.reps == nil {
		m.reps = make([]int, len(e.devs))
	}
	for range dec.Count(2) {
		b := decodeBlob(dec)
		if dec.Err() != nil {
			return dec.Err()
		}
		if id := e.internBlob(b); int(id) != m.blobs {
			return fmt.Errorf("publication %d is interned as %d (a duplicate)", m.blobs, id)
		}
		m.blobs++
	}
	for dev := range e.devs {
		for range dec.Count(3) {
			r, err := decodeReplica(dec, e.u.Devices[dev], e.rules)
			if err != nil {
				return fmt.Errorf("device %d state %d: %w", dev, m.reps[dev], err)
			}
			if id := e.internLocked(dev, r); int(id) != m.reps[dev] {
				return fmt.Errorf("device %d state %d is interned as %d (a duplicate)", dev, m.reps[dev], id)
			}
			m.reps[dev]++
		}
	}
	return dec.Err()
}

// valid checks that every word of ids is a device state of its device
// that the tables hold.
func (m *engineMark) valid(ids []int32) error {
	for dev, id := range ids {
		if id < 0 || dev >= len(m.reps) || int(id) >= m.reps[dev] {
			return fmt.Errorf("device %d state %d is not in the tables", dev, id)
		}
	}
	return nil
}

func encodeBlob(enc *search.Enc, b model.Blob) {
	enc.Varint(int64(b.V))
	enc.String(b.ClientID)
	encodeEntries(enc, b.Contexts)
}

func decodeBlob(dec *search.Dec) model.Blob {
	b := model.Blob{V: int(dec.Int32()), ClientID: dec.String()}
	b.Contexts = decodeEntries(dec)
	return b
}

func encodeEntries(enc *search.Enc, es []model.Entry) {
	enc.Uvarint(uint64(len(es)))
	for _, en := range es {
		enc.String(en.Key)
		enc.Uvarint(uint64(en.Value))
	}
}

func decodeEntries(dec *search.Dec) []model.Entry {
	n := dec.Count(2)
	if n == 0 {
		return nil
	}
	es := make([]model.Entry, n)
	for i := range es {
		es[i] = model.Entry{Key: dec.String(), Value: dec.Uint32()}
	}
	return es
}

// encodeReplica is a device state: its identity, load flags, every held
// context (one holding neither a frontier nor a register behaves as an
// absent one, and is not kept) and its last publication, which a rotation
// reads.
func encodeReplica(enc *search.Enc, r *model.Replica) {
	enc.String(r.ClientID)
	enc.Bool(r.Legacy)
	enc.Byte(byte(r.LegacyMode))
	enc.Bool(r.RequireLoad)
	enc.Bool(r.LoadComplete)
	var held int
	r.Each(func(_ string, _ uint32, hasF bool, reg model.Reg) {
		if hasF || reg != (model.Reg{}) {
			held++
		}
	})
	enc.Uvarint(uint64(held))
	r.Each(func(ctx string, f uint32, hasF bool, reg model.Reg) {
		if !hasF && reg == (model.Reg{}) {
			return
		}
		enc.String(ctx)
		enc.Uvarint(uint64(f))
		enc.Bool(hasF)
		enc.Uvarint(uint64(reg.S))
		enc.Uvarint(uint64(reg.C))
		enc.Uvarint(uint64(reg.B))
	})
	last := r.LastPublished()
	enc.Bool(last != nil)
	if last != nil {
		encodeEntries(enc, last)
	}
}

// decodeReplica rebuilds a device state of device spec under rules from
// its encoding, through the replica's own API: the last publication by
// publishing a carrier that holds exactly its entries, then the contexts
// by Restore. It checks that the result encodes back to the same bytes.
func decodeReplica(dec *search.Dec, spec DeviceSpec, rules *model.Rules) (*model.Replica, error) {
	start := dec.Pos()
	clientID := dec.String()
	legacy, mode, require, complete := dec.Bool(), model.LegacyMode(dec.Byte()), dec.Bool(), dec.Bool()
	type held struct {
		ctx  string
		f    uint32
		hasF bool
		reg  model.Reg
	}
	hs := make([]held, dec.Count(6))
	for i := range hs {
		hs[i] = held{ctx: dec.String(), f: dec.Uint32(), hasF: dec.Bool()}
		hs[i].reg = model.Reg{S: dec.Uint32(), C: dec.Uint32(), B: dec.Uint32()}
	}
	var last []model.Entry
	hasLast := dec.Bool()
	if hasLast {
		last = decodeEntries(dec)
	}
	if dec.Err() != nil {
		return nil, dec.Err()
	}
	base := newReplica(spec, rules)
	if legacy != base.Legacy || mode != base.LegacyMode || require != base.RequireLoad {
		return nil, errors.New("a device state of another kind of device")
	}
	r := base
	if hasLast {
		carrier := model.NewLegacyReplica(base.ClientID, model.LegacyCarry)
		for _, en := range last {
			if err := carrier.Restore(en.Key, en.Value, true, model.Reg{}); err != nil {
				return nil, err
			}
		}
		carrier.Publish()
		r = carrier.Clone()
		r.Legacy, r.LegacyMode, r.Rules, r.Parent = base.Legacy, base.LegacyMode, base.Rules, base.Parent
	}
	for _, ctx := range r.Contexts() {
		_ = r.Restore(ctx, 0, false, model.Reg{}) // removing a context never fails
	}
	r.ClientID, r.RequireLoad, r.LoadComplete = clientID, require, complete
	for _, h := range hs {
		if err := r.Restore(h.ctx, h.f, h.hasF, h.reg); err != nil {
			return nil, err
		}
	}
	// The rebuilt state must be the one encoded, down to the byte: the
	// contexts in order, no context twice, the last publication whole.
	var back search.Enc
	encodeReplica(&back, r)
	if !bytes.Equal(back.B, dec.Since(start)) {
		return nil, errors.New("a device state that does not restore to itself")
	}
	return r, nil
}
