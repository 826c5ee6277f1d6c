package exhaustive

import (
	"fmt"
	"math/bits"
	"slices"
)

// The delivery-order check (N2): each device, from its drained state,
// receives every part of every first-round publication, its own included,
// in every order, and must end in one state.
//
// It follows the replica alone, not the intent knowledge beside it. The
// knowledge a delivery adds is the harness's own bookkeeping, the maximal
// elements of the union of two antichains of one causal history, whatever
// the rules: a join, so every order of the same messages gives the same
// knowledge. Only the replica, which the rules under test move, can depend
// on the order. TestOrderWalkOfReplicasAlone runs universes under broken
// rules both ways and requires the same counts.
//
// Where every order ends is then a function of the device, its replica
// and the blobs still to receive (a delivery's outcome is the engine's,
// keyed by blob and replica): the walk memoises it on (the subset of blobs
// still to receive, replica), so a prefix that reaches a pair already
// walked is not walked again. Its memo lives for one walk; the walks
// themselves run once per drained replicas (repsQuiet). Memoising whole
// walks across states on (device, replica, multiset of blobs) as well was
// measured: at depth 6 one walk in six was found there, for more time in
// lookups and 48 MB of memo at depth 7 than it saved.

// orderMemo is a worker's scratch for the walks: the current walk's blobs
// in ascending order and where the orders end from each (subset of them
// still to receive, replica) pair met.
type orderMemo struct {
	blobs []int32
	walk  walkMemo
}

func newOrderMemo() *orderMemo {
	om := &orderMemo{}
	om.walk.init(1 << 8)
	return om
}

// orderFreeReplicas reports whether each device, from its replica in reps,
// ends in one replica whatever the order in which it receives blobs.
func (w *netWorld) orderFreeReplicas(c *cache, reps []int32, blobs []int32) bool {
	if len(blobs) > 16 {
		return false
	}
	om := w.nc(c).order
	om.blobs = append(om.blobs[:0], blobs...)
	slices.Sort(om.blobs)
	full := uint32(1)<<len(blobs) - 1
	for d, rep := range reps {
		om.walk.reset()
		if w.orderEnd(c, om, d, rep, full) < 0 {
			return false
		}
	}
	return true
}

// orderEnd is the replica in which device d, from replica rep, ends
// whatever the order in which it receives the current walk's blobs of
// mask, or -1 when two orders end apart. Sorting the blobs puts equal ones
// side by side, so a second copy of a blob is not walked twice.
func (w *netWorld) orderEnd(c *cache, om *orderMemo, d int, rep int32, mask uint32) int32 {
	if mask&(mask-1) == 0 {
		if mask == 0 {
			return rep
		}
		// One blob left: one order, and nothing to remember.
		return c.receive(d, om.blobs[bits.TrailingZeros32(mask)], rep).next
	}
	// The root and its children are reached from one parent only: only
	// deeper pairs are worth remembering.
	remember := bits.OnesCount32(mask) < len(om.blobs)-1
	if !remember {
		return w.orderEndOf(c, om, d, rep, mask)
	}
	if end, ok := om.walk.get(mask, rep); ok {
		return end
	}
	end := w.orderEndOf(c, om, d, rep, mask)
	om.walk.put(mask, rep, end)
	return end
}

// orderEndOf is orderEnd computed from the children of (mask, rep).
func (w *netWorld) orderEndOf(c *cache, om *orderMemo, d int, rep int32, mask uint32) int32 {
	end, first := int32(-1), true
	for i, b := range om.blobs {
		bit := uint32(1) << i
		if mask&bit == 0 {
			continue
		}
		if i > 0 && mask&(bit>>1) != 0 && om.blobs[i-1] == b {
			continue // the same blob as the one before: the same orders
		}
		e := w.orderEnd(c, om, d, c.receive(d, b, rep).next, mask&^bit)
		if e < 0 || (!first && e != end) {
			end = -1
			break
		}
		end, first = e, false
	}
	return end
}

// walkMemo is one walk's memo of (mask, replica) -> end: a small open-
// addressing table whose entries of earlier walks are told apart by a
// generation number, so that starting a walk costs nothing.
type walkMemo struct {
	slots []walkSlot
	gen   uint32
	n     int
}

type walkSlot struct {
	gen, mask uint32
	rep, end  int32
}

func (m *walkMemo) init(size int) {
	m.slots = make([]walkSlot, size)
	m.gen, m.n = 1, 0
}

func (m *walkMemo) reset() {
	m.gen++
	m.n = 0
	if m.gen == 0 {
		m.init(len(m.slots))
	}
}

func (m *walkMemo) slot(mask uint32, rep int32) int {
	return int(mix64(uint64(mask)<<32|uint64(uint32(rep))) & uint64(len(m.slots)-1))
}

func (m *walkMemo) get(mask uint32, rep int32) (int32, bool) {
	for p := m.slot(mask, rep); ; p = (p + 1) & (len(m.slots) - 1) {
		s := &m.slots[p]
		if s.gen != m.gen {
			return 0, false
		}
		if s.mask == mask && s.rep == rep {
			return s.end, true
		}
	}
}

func (m *walkMemo) put(mask uint32, rep, end int32) {
	if (m.n+1)*2 > len(m.slots) {
		old := m.slots
		m.slots = make([]walkSlot, 2*len(old))
		m.n = 0
		for _, s := range old {
			if s.gen == m.gen {
				m.put(s.mask, s.rep, s.end)
			}
		}
	}
	p := m.slot(mask, rep)
	for m.slots[p].gen == m.gen {
		p = (p + 1) & (len(m.slots) - 1)
	}
	m.slots[p] = walkSlot{m.gen, mask, rep, end}
	m.n++
}

// orderFreeNodes is the order check walking whole nodes, intent knowledge
// included: what the replica-only walk is checked against
// (Network.orderKnowledge). A prefix that reaches a (received set, node)
// pair already walked is not walked again: its completions are the ones
// already compared.
func (w *netWorld) orderFreeNodes(c *cache, drained []node, all []int32) bool {
	if len(all) > 16 {
		return false
	}
	for d, start := range drained {
		seen := map[[3]int32]bool{}
		if !orderWalk(len(all), start, func(nd node, i int) node {
			next, _ := w.receive(c, d, nd, all[i])
			return next
		}, func(set uint32, nd node) bool {
			k := [3]int32{int32(set), nd.rep, nd.kn}
			old := seen[k]
			seen[k] = true
			return old
		}) {
			return false
		}
	}
	return true
}

// orderWalk reports whether every order of receiving n messages from start
// ends in one state. next is the state after receiving message i; visited
// records a (received set, state) pair and reports whether it was recorded
// already, in which case its completions were compared and are not walked
// again.
func orderWalk[N comparable](n int, start N, next func(N, int) N, visited func(uint32, N) bool) bool {
	full := uint32(1)<<n - 1
	var want N
	have := false
	var walk func(set uint32, st N) bool
	walk = func(set uint32, st N) bool {
		if set == full {
			if !have {
				want, have = st, true
			}
			return st == want
		}
		if visited(set, st) {
			return true
		}
		for i := range n {
			if set&(1<<i) == 0 && !walk(set|1<<i, next(st, i)) {
				return false
			}
		}
		return true
	}
	return walk(0, start)
}

// orderDisagreement names the first pair of orders, in enumeration order,
// that leave a device in different states (whole nodes), receiving every
// message of all from its drained node; nil when there is none. It runs
// only where a walk found a disagreement, to name it.
func (w *netWorld) orderDisagreement(c *cache, drained []node, all []int32) *finding {
	perms := Permutations(len(all))
	for d, start := range drained {
		var want node
		for k, p := range perms {
			nd := start
			for _, i := range p {
				nd, _ = w.receive(c, d, nd, all[i])
			}
			if k == 0 {
				want = nd
				continue
			}
			if nd != want {
				return &finding{InvNetOrder, fmt.Sprintf("d%d ends in different states for message orders %v and %v: %s / %s",
					d, perms[0], p, w.describeNode(d, want), w.describeNode(d, nd))}
			}
		}
	}
	return nil
}
