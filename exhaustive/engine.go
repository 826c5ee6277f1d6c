package exhaustive

import (
	"encoding/binary"
	"sync"

	"github.com/nip-rs/harness/model"
)

// engine memoises device-level transitions. A device's behaviour is a
// function of its exact state (client id, and per held context the
// frontier, whether a frontier entry exists, and the register), of its
// rules and of its tie policy; its state is encoded to bytes and interned to
// a dense id per device, and every transition from an interned state is run
// once through model.Replica and then looked up. Entries are written under
// mu and never changed afterwards, so workers copy them into a private
// cache and read them without locking.
type engine struct {
	u     *Universe
	rules *model.Rules // the run's rules: what the invariants check against
	tie   model.TiePolicy

	mu    sync.Mutex
	devs  []*devTable
	blobs []model.Blob
	blobK map[string]int32
}

type devTable struct {
	ids   map[string]int32
	reps  []*model.Replica
	local [][]step           // per state: one step per local slot
	blob  []int32            // per state: the interned id of its publication, or -1
	recv  map[uint64]step    // (blob id, state id) -> the state after receiving it
	facts map[int32]*devFact // per state: what the state invariants need
}

// step is the outcome of one transition of one device: the device's next
// state, or next < 0 when the transition is not enabled.
type step struct {
	next    int32
	regress bool // some frontier decreased
}

func newEngine(u *Universe, rules *model.Rules, tie model.TiePolicy) *engine {
	e := &engine{u: u, rules: rules, tie: tie, blobK: map[string]int32{}}
	for range u.Devices {
		e.devs = append(e.devs, &devTable{ids: map[string]int32{}, recv: map[uint64]step{}, facts: map[int32]*devFact{}})
	}
	return e
}

// initial interns the universe's initial devices.
func (e *engine) initial() []int32 {
	e.mu.Lock()
	defer e.mu.Unlock()
	ids := make([]int32, len(e.u.Devices))
	for i, spec := range e.u.Devices {
		ids[i] = e.intern(i, newReplica(spec, e.rules, e.tie), nil)
	}
	return ids
}

// intern returns the id of rep's state on device dev, whose encoding is
// key, taking ownership of rep when the state is new. Callers hold mu.
func (e *engine) intern(dev int, rep *model.Replica, key []byte) int32 {
	t := e.devs[dev]
	if key == nil {
		key = appendReplicaState(nil, rep)
	}
	if id, ok := t.ids[string(key)]; ok {
		return id
	}
	id := int32(len(t.reps))
	t.ids[string(key)] = id
	t.reps = append(t.reps, rep)
	t.local = append(t.local, nil)
	t.blob = append(t.blob, -1)
	return id
}

// successor is a computed but not yet interned device state.
type successor struct {
	rep     *model.Replica
	key     []byte
	regress bool
	enabled bool
}

// computeLocal runs every local transition of a device state on clones of
// base; it takes no lock (interned replicas are never modified).
func (e *engine) computeLocal(dev int, base *model.Replica) []successor {
	out := make([]successor, e.u.slotsPerDevice())
	for slot := range out {
		r := base.Clone()
		a, ok := e.u.applyLocal(r, dev, slot)
		if !ok {
			continue
		}
		// A reinstall legitimately wipes the frontier.
		out[slot] = successor{rep: r, key: appendReplicaState(nil, r), enabled: true,
			regress: a.Kind != KindReinstall && frontierRegressed(base, r)}
	}
	return out
}

// storeLocal interns computed local successors unless another worker got
// there first. Callers hold mu.
func (e *engine) storeLocal(dev int, id int32, succ []successor) []step {
	t := e.devs[dev]
	if s := t.local[id]; s != nil {
		return s
	}
	steps := make([]step, len(succ))
	for i, x := range succ {
		if !x.enabled {
			steps[i] = step{next: -1}
			continue
		}
		steps[i] = step{next: e.intern(dev, x.rep, x.key), regress: x.regress}
	}
	t.local[id] = steps
	return steps
}

// blobOf interns the publication of a device state. Callers hold mu.
func (e *engine) blobOf(dev int, id int32) int32 {
	t := e.devs[dev]
	if b := t.blob[id]; b >= 0 {
		return b
	}
	b := publish(t.reps[id])
	k := string(appendBlob(nil, b))
	bid, ok := e.blobK[k]
	if !ok {
		bid = int32(len(e.blobs))
		e.blobK[k] = bid
		e.blobs = append(e.blobs, b)
	}
	t.blob[id] = bid
	return bid
}

// computeReceive is base receiving b, on a clone; it takes no lock.
func computeReceive(base *model.Replica, b model.Blob) successor {
	r := base.Clone()
	r.Receive(b)
	return successor{rep: r, key: appendReplicaState(nil, r), regress: frontierRegressed(base, r), enabled: true}
}

func recvKey(bid, id int32) uint64 { return uint64(uint32(bid))<<32 | uint64(uint32(id)) }

// storeReceive interns the outcome of device dev in state id receiving blob
// bid. Callers hold mu.
func (e *engine) storeReceive(dev int, bid, id int32, x successor) step {
	t := e.devs[dev]
	if s, ok := t.recv[recvKey(bid, id)]; ok {
		return s
	}
	s := step{next: e.intern(dev, x.rep, x.key), regress: x.regress}
	t.recv[recvKey(bid, id)] = s
	return s
}

// deviceStates is the number of interned device states.
func (e *engine) deviceStates() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, t := range e.devs {
		n += len(t.reps)
	}
	return n
}

// appendReplicaState is the exact byte encoding of a replica's state: its
// client id, then every held context in order with its frontier entry and
// register. A context holding neither is not encoded: it behaves exactly as
// an absent one.
func appendReplicaState(buf []byte, r *model.Replica) []byte {
	buf = appendString(buf, r.ClientID)
	r.Each(func(ctx string, f uint32, hasF bool, reg model.Reg) {
		if !hasF && reg == (model.Reg{}) {
			return
		}
		buf = appendString(buf, ctx)
		if hasF {
			buf = append(buf, 1)
		} else {
			buf = append(buf, 0)
		}
		buf = binary.AppendUvarint(buf, uint64(f))
		buf = binary.AppendUvarint(buf, uint64(reg.S))
		buf = binary.AppendUvarint(buf, uint64(reg.C))
		buf = binary.AppendUvarint(buf, uint64(reg.B))
	})
	return buf
}

// appendBlob is the exact byte encoding of a blob.
func appendBlob(buf []byte, b model.Blob) []byte {
	buf = binary.AppendVarint(buf, int64(b.V))
	buf = appendString(buf, b.ClientID)
	for _, en := range b.Contexts {
		buf = appendString(buf, en.Key)
		buf = binary.AppendUvarint(buf, uint64(en.Value))
	}
	return buf
}

func appendString(buf []byte, s string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

// cache is one worker's lock-free view of the engine.
type cache struct {
	e     *engine
	local [][][]step
	blob  [][]int32
	recv  []*u64map
	facts [][]*devFact
}

func (e *engine) newCache() *cache {
	c := &cache{e: e}
	n := len(e.u.Devices)
	c.local = make([][][]step, n)
	c.blob = make([][]int32, n)
	c.recv = make([]*u64map, n)
	c.facts = make([][]*devFact, n)
	for i := range n {
		c.recv[i] = newU64map()
	}
	return c
}

func (c *cache) steps(dev int, id int32) []step {
	l := c.local[dev]
	if int(id) < len(l) && l[id] != nil {
		return l[id]
	}
	e := c.e
	e.mu.Lock()
	s := e.devs[dev].local[id]
	base := e.devs[dev].reps[id]
	e.mu.Unlock()
	if s == nil {
		succ := e.computeLocal(dev, base)
		e.mu.Lock()
		s = e.storeLocal(dev, id, succ)
		e.mu.Unlock()
	}
	if int(id) >= len(l) {
		l = append(l, make([][]step, int(id)+1-len(l))...)
		c.local[dev] = l
	}
	l[id] = s
	return s
}

func (c *cache) blobOf(dev int, id int32) int32 {
	l := c.blob[dev]
	if int(id) < len(l) && l[id] >= 0 {
		return l[id]
	}
	c.e.mu.Lock()
	b := c.e.blobOf(dev, id)
	c.e.mu.Unlock()
	for int(id) >= len(l) {
		l = append(l, -1)
	}
	l[id] = b
	c.blob[dev] = l
	return b
}

func (c *cache) receive(dev int, bid, id int32) step {
	key := recvKey(bid, id)
	if s, ok := c.recv[dev].get(key); ok {
		return s
	}
	e := c.e
	t := e.devs[dev]
	e.mu.Lock()
	s, ok := t.recv[key]
	base, b := t.reps[id], e.blobs[bid]
	e.mu.Unlock()
	if !ok {
		x := computeReceive(base, b)
		e.mu.Lock()
		s = e.storeReceive(dev, bid, id, x)
		e.mu.Unlock()
	}
	c.recv[dev].put(key, s)
	return s
}

// next is the device-level outcome of transition t in global state ids:
// the device it changes and its step.
func (c *cache) next(ids []int32, t int) (int, step) {
	dev, slot, from := c.e.u.transition(t)
	if slot >= 0 {
		return dev, c.steps(dev, ids[dev])[slot]
	}
	return dev, c.receive(dev, c.blobOf(from, ids[from]), ids[dev])
}
