package exhaustive

import (
	"errors"
	"fmt"

	"github.com/nip-rs/harness/search"
)

// netCheckpoint is the network world's interned values for a checkpoint:
// the device engine's, then the antichains, knowledge, messages and
// channels (in that order: each refers only to kinds before it), with how
// many of each a checkpoint already holds.
type netCheckpoint struct {
	w                       *netWorld
	eng                     engineMark
	acs, knows, msgs, chans int32
}

func tableLen[T any](t *table[T]) int32 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n
}

func (c *netCheckpoint) AppendTables(e *search.Enc) error {
	if err := c.eng.append(c.w.e, e); err != nil {
		return err
	}
	t, n := c.w.t, c.w.n
	appendNew(e, t.acs, &c.acs, func(a antichain) {
		e.Uvarint(uint64(len(a)))
		for _, ev := range a {
			e.Byte(ev.dev)
			e.Byte(ev.seq)
			e.Byte(byte(ev.kind))
			e.Uvarint(uint64(ev.b))
			for d := range n {
				e.Uvarint(ev.past[d])
			}
		}
	})
	appendNew(e, t.knows, &c.knows, func(k know) {
		e.B = append(e.B, k.seq...)
		for _, a := range k.ac {
			e.Int32(a)
		}
	})
	appendNew(e, t.msgs, &c.msgs, func(m message) {
		e.Int32(m.blob)
		encodeBlob(e, m.b)
		e.Byte(m.part)
		e.Byte(m.parts)
		for _, a := range m.tag {
			e.Int32(a)
		}
		e.Byte(m.flags)
		e.Byte(m.holds)
		e.Byte(m.floors)
	})
	appendNew(e, t.chans, &c.chans, func(ms []int32) {
		e.Uvarint(uint64(len(ms)))
		for _, m := range ms {
			e.Int32(m)
		}
	})
	return nil
}

// appendNew encodes the values of t from id *mark on and moves the mark.
func appendNew[T any](e *search.Enc, t *table[T], mark *int32, enc func(T)) {
	n := tableLen(t)
	e.Uvarint(uint64(n - *mark))
	for id := *mark; id < n; id++ {
		enc(t.get(id))
	}
	*mark = n
}

func (c *netCheckpoint) LoadTables(d *search.Dec) error {
	if err := c.eng.load(c.w.e, d); err != nil {
		return err
	}
	w, t := c.w, c.w.t
	nov := len(w.ov)
	acID := func() int32 {
		id := d.Int32()
		if id < 0 || id >= c.acs {
			d.Fail(fmt.Errorf("antichain %d is not in the tables", id))
		}
		return id
	}
	err := loadNew(d, &c.acs, 2, func() int32 {
		a := make(antichain, d.Count(3+w.n))
		for i := range a {
			ev := intentEvent{dev: d.Byte(), seq: d.Byte(), kind: intentKind(d.Byte()), b: d.Uint32(), past: make([]uint64, w.n)}
			for k := range ev.past {
				ev.past[k] = d.Uvarint()
			}
			if int(ev.dev) >= w.n || ev.seq < 1 || int(ev.seq) > maxIntentSeq || ev.kind < intentSet || ev.kind > intentNaturalClear {
				d.Fail(errors.New("an intent event out of range"))
			}
			a[i] = ev
		}
		if d.Err() != nil {
			return -1
		}
		return t.internAC(a)
	})
	if err == nil {
		err = loadNew(d, &c.knows, 1, func() int32 {
			k := know{seq: make([]uint8, nov), ac: make([]int32, nov)}
			for i := range k.seq {
				if k.seq[i] = d.Byte(); int(k.seq[i]) > maxIntentSeq {
					d.Fail(errors.New("an intent sequence number out of range"))
				}
			}
			for i := range k.ac {
				k.ac[i] = acID()
			}
			if d.Err() != nil {
				return -1
			}
			return t.internKnow(k)
		})
	}
	if err == nil {
		blobs := int32(c.eng.blobs)
		err = loadNew(d, &c.msgs, 8, func() int32 {
			m := message{blob: d.Int32(), b: decodeBlob(d), part: d.Byte(), parts: d.Byte(), tag: make([]int32, nov)}
			for i := range m.tag {
				m.tag[i] = acID()
			}
			m.flags, m.holds, m.floors = d.Byte(), d.Byte(), d.Byte()
			if m.blob < 0 || m.blob >= blobs {
				d.Fail(fmt.Errorf("a message of publication %d, not in the tables", m.blob))
			}
			if d.Err() != nil {
				return -1
			}
			return t.internMsg(m)
		})
	}
	if err == nil {
		err = loadNew(d, &c.chans, 1, func() int32 {
			ms := make([]int32, d.Count(1))
			for i := range ms {
				if ms[i] = d.Int32(); ms[i] < 0 || ms[i] >= c.msgs {
					d.Fail(fmt.Errorf("message %d is not in the tables", ms[i]))
				}
			}
			if d.Err() != nil {
				return -1
			}
			return t.internChan(ms)
		})
	}
	return err
}

// loadNew reads a count of values (each at least minBytes long) and
// interns each with intern, which must give it the next id *mark.
func loadNew(d *search.Dec, mark *int32, minBytes int, intern func() int32) error {
	for range d.Count(minBytes) {
		id := intern()
		if d.Err() != nil {
			return d.Err()
		}
		if id != *mark {
			return fmt.Errorf("value %d of a table is interned as %d (a duplicate)", *mark, id)
		}
		*mark++
	}
	return d.Err()
}

// ValidRow checks a loaded row against the values loaded so far (the
// marks: rows are loaded after their level's tables, and nothing else
// interns meanwhile).
func (c *netCheckpoint) ValidRow(row []int32) error {
	w := c.w
	if err := c.eng.valid(row[:w.n]); err != nil {
		return err
	}
	for d := range w.n {
		if id := row[w.knWord(d)]; id < 0 || id >= c.knows {
			return fmt.Errorf("knowledge %d is not in the tables", id)
		}
	}
	for i := 2 * w.n; i < len(row); i++ {
		if row[i] < 0 || row[i] >= c.chans {
			return fmt.Errorf("channel %d is not in the tables", row[i])
		}
	}
	return nil
}
