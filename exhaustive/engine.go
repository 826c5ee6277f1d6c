package exhaustive

import (
	"encoding/binary"
	"runtime"
	"sync"

	"github.com/nip-rs/harness/internal/offheap"
	"github.com/nip-rs/harness/model"
)

// engine memoises device-level transitions. A device's behaviour is a
// function of its exact state (client id, and per held context the
// frontier, whether a frontier entry exists, and the register), of its
// rules and of its tie policy; its state is encoded to bytes and interned to
// a dense id per device, and every transition from an interned state is run
// once through model.Replica and then looked up.
//
// Interned replicas are never modified, so transitions are computed on
// clones without any lock; the tables are guarded per device (and the blob
// table on its own), entries are written once and never changed, and
// workers copy them into a private cache they read without locking.
type engine struct {
	u *Universe
	// mem holds the workers' larger memo tables outside the Go heap; it
	// is freed at the end of Explore, or once the engine is unreachable.
	mem   *offheap.Arena
	rules *model.Rules // the run's rules: what the invariants check against
	devs  []*devTable
	// key is the interning key of a replica, chosen by the world: the
	// exact state (appendReplicaState), or without the client id where
	// client ids change no behaviour (appendReplicaBody).
	key func(buf []byte, r *model.Replica) []byte

	blobMu sync.Mutex
	blobs  []model.Blob
	blobK  map[string]int32
	// A delivery reads only a publication's contexts (model.Replica.Receive
	// ignores its version and client id), so deliveries are memoised per
	// distinct contexts: content is each blob's contents id, contentK
	// interns them. Publications that differ only by client id (a
	// reinstalled device's, a peer's) then share their deliveries.
	content  []int32
	contentK map[string]int32
}

type devTable struct {
	mu    sync.Mutex
	ids   map[string]int32
	reps  []*model.Replica
	local [][]step           // per state: one step per local slot
	blob  []int32            // per state: the interned id of its publication, or -1
	recv  *recvTable         // recvKey(contents id, state id) -> the state after receiving it
	facts map[int32]*devFact // per state: what the state invariants need
}

// step is the outcome of one transition of one device: the device's next
// state, or next < 0 when the transition is not enabled.
type step struct {
	next    int32
	regress bool // some frontier decreased
}

func newEngine(u *Universe, rules *model.Rules, key func([]byte, *model.Replica) []byte) *engine {
	e := &engine{u: u, rules: rules, key: key, blobK: map[string]int32{}, contentK: map[string]int32{}, mem: &offheap.Arena{}}
	for range u.Devices {
		e.devs = append(e.devs, &devTable{ids: map[string]int32{}, recv: newRecvTable(e.mem), facts: map[int32]*devFact{}})
	}
	// Every table in mem is reached only through the engine (a worker's
	// cache points to it), so none is in use once it is unreachable.
	runtime.AddCleanup(e, func(m *offheap.Arena) { m.FreeAll() }, e.mem)
	return e
}

// quiesce frees what a worker might have been reading; the caller knows
// that none is inside the engine.
func (e *engine) quiesce() {
	for _, t := range e.devs {
		t.recv.freeRetired()
	}
}

// initial interns the universe's initial devices.
func (e *engine) initial() []int32 {
	ids := make([]int32, len(e.u.Devices))
	for i, spec := range e.u.Devices {
		ids[i] = e.internLocked(i, newReplica(spec, e.rules))
	}
	return ids
}

func (e *engine) internLocked(dev int, rep *model.Replica) int32 {
	t := e.devs[dev]
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.intern(rep, e.replicaKey(rep))
}

// replicaKey is the interning key of a replica.
func (e *engine) replicaKey(r *model.Replica) []byte { return e.key(nil, r) }

// intern returns the id of rep's state, whose encoding is key, taking
// ownership of rep when the state is new. Callers hold t.mu.
func (t *devTable) intern(rep *model.Replica, key []byte) int32 {
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
// base.
func (e *engine) computeLocal(dev int, base *model.Replica) []successor {
	out := make([]successor, e.u.slotsPerDevice())
	for slot := range out {
		r := base.Clone()
		a, ok := e.u.applyLocal(r, dev, slot)
		if !ok {
			continue
		}
		// A reinstall legitimately wipes the frontier.
		out[slot] = successor{rep: r, key: e.replicaKey(r), enabled: true,
			regress: a.Kind != KindReinstall && frontierRegressed(base, r)}
	}
	return out
}

func recvKey(bid, id int32) uint64 { return uint64(uint32(bid))<<32 | uint64(uint32(id)) }

// internBlob returns the id of a publication.
func (e *engine) internBlob(b model.Blob) int32 {
	k := appendBlob(nil, b)
	e.blobMu.Lock()
	defer e.blobMu.Unlock()
	bid, ok := e.blobK[string(k)]
	if !ok {
		bid = int32(len(e.blobs))
		e.blobK[string(k)] = bid
		e.blobs = append(e.blobs, b)
	}
	return bid
}

// contentOf is the contents id of publication bid. Ids are given in blob
// order as they are asked for, whatever filled the blob table.
func (e *engine) contentOf(bid int32) int32 {
	e.blobMu.Lock()
	defer e.blobMu.Unlock()
	for len(e.content) <= int(bid) {
		ck := appendEntries(nil, e.blobs[len(e.content)].Contexts)
		cid, ok := e.contentK[string(ck)]
		if !ok {
			cid = int32(len(e.contentK))
			e.contentK[string(ck)] = cid
		}
		e.content = append(e.content, cid)
	}
	return e.content[bid]
}

func (e *engine) blob(bid int32) model.Blob {
	e.blobMu.Lock()
	defer e.blobMu.Unlock()
	return e.blobs[bid]
}

// deviceStates is the number of interned device states.
func (e *engine) deviceStates() int {
	n := 0
	for _, t := range e.devs {
		t.mu.Lock()
		n += len(t.reps)
		t.mu.Unlock()
	}
	return n
}

// appendReplicaState is the exact byte encoding of a replica's state: its
// client id, then every held context in order with its frontier entry and
// register. A context holding neither is not encoded: it behaves exactly as
// an absent one. (The last-published record is not encoded: no transition
// of a universe publishes through Replica.Publish or reads it.)
func appendReplicaState(buf []byte, r *model.Replica) []byte {
	return appendReplicaBody(appendString(buf, r.ClientID), r)
}

// appendReplicaBody is appendReplicaState without the client id.
func appendReplicaBody(buf []byte, r *model.Replica) []byte {
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
	return appendEntries(buf, b.Contexts)
}

// appendEntries is the exact byte encoding of a blob's contexts.
func appendEntries(buf []byte, es []model.Entry) []byte {
	for _, en := range es {
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
	facts [][]*devFact
	net   *netCache // a network universe's private lookups (network_tables.go)
	// symOrig is the row before canonicalisation and sleepTmp a sleep
	// set being renamed (network_por.go).
	symOrig  []int32
	sleepTmp []uint64
	// convBlobs is the convergence check's scratch row of publications
	// (invariants.go).
	convBlobs []int32
	// convVisited is the scratch of a convergence walk's visited nodes.
	convVisited []uint64
	// content is the contents id of each publication already read (-1:
	// not yet), reps the interned replicas already read, dec the contexts
	// already decoded for a device, scratch the replica a delivery is made
	// on and keyBuf its encoding: what a delivery not yet in the table
	// needs (receive).
	content []int32
	reps    [][]*model.Replica
	dec     [][]decodedBlob
	scratch *model.Replica
	keyBuf  []byte
	// near is a direct-mapped cache of deliveries read (receive).
	near [nearSlots]nearDelivery
}

func (e *engine) newCache() *cache {
	c := &cache{e: e, scratch: &model.Replica{}}
	n := len(e.u.Devices)
	c.local = make([][][]step, n)
	c.blob = make([][]int32, n)
	c.facts = make([][]*devFact, n)
	c.reps = make([][]*model.Replica, n)
	c.dec = make([][]decodedBlob, n)
	return c
}

func grow[T any](l []T, n int, zero T) []T {
	for len(l) < n {
		l = append(l, zero)
	}
	return l
}

func (c *cache) steps(dev int, id int32) []step {
	if l := c.local[dev]; int(id) < len(l) && l[id] != nil {
		return l[id]
	}
	t := c.e.devs[dev]
	t.mu.Lock()
	s, base := t.local[id], t.reps[id]
	t.mu.Unlock()
	if s == nil {
		succ := c.e.computeLocal(dev, base)
		t.mu.Lock()
		if s = t.local[id]; s == nil {
			s = make([]step, len(succ))
			for i, x := range succ {
				s[i] = step{next: -1}
				if x.enabled {
					s[i] = step{next: t.intern(x.rep, x.key), regress: x.regress}
				}
			}
			t.local[id] = s
		}
		t.mu.Unlock()
	}
	c.local[dev] = grow(c.local[dev], int(id)+1, nil)
	c.local[dev][id] = s
	return s
}

func (c *cache) blobOf(dev int, id int32) int32 {
	if l := c.blob[dev]; int(id) < len(l) && l[id] >= 0 {
		return l[id]
	}
	t := c.e.devs[dev]
	t.mu.Lock()
	bid, rep := t.blob[id], t.reps[id]
	t.mu.Unlock()
	if bid < 0 {
		bid = c.e.internBlob(publish(rep))
		t.mu.Lock()
		t.blob[id] = bid
		t.mu.Unlock()
	}
	c.blob[dev] = grow(c.blob[dev], int(id)+1, -1)
	c.blob[dev][id] = bid
	return bid
}

// receive is device dev in state id receiving publication bid.
func (c *cache) receive(dev int, bid, id int32) step {
	cid := c.contentOf(bid)
	key := recvKey(cid, id)
	// A small private cache first: the states of a piece are siblings,
	// and their checks ask for the same deliveries again and again.
	near := &c.near[(mix64(key)+uint64(dev))&(nearSlots-1)]
	if near.key == key+1 && near.dev == int32(dev) {
		return near.s
	}
	t := c.e.devs[dev]
	if s, ok := t.recv.get(key); ok {
		*near = nearDelivery{key + 1, int32(dev), s}
		return s
	}
	// Most deliveries lead to a state already interned: the delivery is
	// made on the worker's scratch replica, and copied only when new.
	base := c.rep(dev, id)
	r := c.scratch
	base.CloneInto(r)
	if base.Legacy {
		r.Receive(c.e.blob(bid))
	} else {
		r.ReceiveDecoded(c.decoded(dev, cid, bid, base.Rules))
	}
	regress := frontierRegressed(base, r)
	c.keyBuf = c.e.key(c.keyBuf[:0], r)
	t.mu.Lock()
	defer t.mu.Unlock()
	next, ok := t.ids[string(c.keyBuf)]
	if !ok {
		next = t.intern(r.Clone(), c.keyBuf)
	}
	return t.recv.putHeld(key, step{next: next, regress: regress})
}

// nearSlots is the size of a worker's private cache of deliveries.
const nearSlots = 1 << 14

// nearDelivery is an entry of that cache: key plus one (0: empty), the
// receiving device, and the step.
type nearDelivery struct {
	key uint64
	dev int32
	s   step
}

// rep is the interned replica of a device state. An interned replica never
// changes, so a worker keeps the pointer once read.
func (c *cache) rep(dev int, id int32) *model.Replica {
	if l := c.reps[dev]; int(id) < len(l) && l[id] != nil {
		return l[id]
	}
	t := c.e.devs[dev]
	t.mu.Lock()
	r := t.reps[id]
	t.mu.Unlock()
	c.reps[dev] = grow(c.reps[dev], int(id)+1, nil)
	c.reps[dev][id] = r
	return r
}

// contentOf is the contents id of publication bid.
func (c *cache) contentOf(bid int32) int32 {
	if int(bid) < len(c.content) && c.content[bid] >= 0 {
		return c.content[bid]
	}
	cid := c.e.contentOf(bid)
	c.content = grow(c.content, int(bid)+1, -1)
	c.content[bid] = cid
	return cid
}

// decodedBlob is a publication's contexts decoded through the rules of
// the device receiving them.
type decodedBlob struct {
	rules *model.Rules
	d     *model.Decoded
}

// decoded is the contexts cid of publication bid decoded through rules,
// for device dev: a publication is delivered to many states of a device,
// and decoding is most of a delivery's cost.
func (c *cache) decoded(dev int, cid, bid int32, rules *model.Rules) *model.Decoded {
	if l := c.dec[dev]; int(cid) < len(l) && l[cid].rules == rules {
		return l[cid].d
	}
	d := model.Decode(rules, model.Raw(c.e.blob(bid).Contexts))
	c.dec[dev] = grow(c.dec[dev], int(cid)+1, decodedBlob{})
	c.dec[dev][cid] = decodedBlob{rules, &d}
	return &d
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
