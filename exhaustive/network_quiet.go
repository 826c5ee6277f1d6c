package exhaustive

import (
	"fmt"
	"slices"
)

// Quiescence from drained nodes (network_check.go) runs rounds in which
// every device publishes and every other device receives every part, until
// a round changes no node. It splits into what the replicas decide alone
// and what the intent knowledge adds:
//
//   - a publication's parts, its blobs, whether it has an entry and whether
//     it can be made are functions of the sender's replica (publishBase); a
//     delivery's replica outcome is a function of the blob and the
//     receiver's replica. So the replicas of every round, the first round
//     whose replicas equal the previous round's, the round whose
//     publication fails, the delivery-order check (network_order.go) and
//     the convergence check at the fixpoint are functions of the drained
//     replicas alone: repsQuiet, memoised on them.
//   - a device's knowledge after a round is its knowledge joined, context by
//     context and sender by sender in device order, with the knowledge of
//     every other device whose publication has an entry: the part carrying
//     a context's group carries the sender's antichain there, the others the
//     empty one, which a merge ignores. So the same antichain merges happen
//     in the same order as when the parts are received one by one, and the
//     knowledge is the same value. It is computed per state, from the
//     drained knowledge and the rounds' publication masks.
//
// Once the replicas of round k+1 equal round k's they stay equal (the same
// replicas publish the same blobs), so no publication fails after that,
// and the rounds reach their fixpoint at the first round from there on
// whose knowledge is unchanged too.

// repsQuiet is the part of quiescence the drained replicas decide.
type repsQuiet struct {
	// reps holds the replicas of rounds 0..last, n words each (round 0 is
	// the drained replicas); a round past last has last's replicas.
	reps []int32
	// masks has, per round 0..last, bit d when device d's publication has
	// an entry, so that it puts messages in flight.
	masks []uint32
	// fixed is the first round k whose next round has k's replicas, or -1
	// when none does within the bound.
	fixed int
	// errAt is the round whose publication fails (err says how), or -1.
	errAt int
	err   finding
	// order: every device ends in one replica whatever the order in which
	// it receives the first round's publications.
	order bool
	// At the fixpoint replicas (when fixed >= 0): the convergence finding,
	// and per override context the merged frontier of the upgraded devices
	// and the bit mask of those whose register is live.
	conv *finding
	f    []uint32
	live []uint32
}

// repsQuietMemoCap bounds each worker's memo of repsQuiet.
const repsQuietMemoCap = 1 << 16

// repsQuietOf is repsQuiet of the drained replicas reps, memoised.
func (w *netWorld) repsQuietOf(c *cache, reps []int32) *repsQuiet {
	nc := w.nc(c)
	if rq, ok := nc.reps.get(reps); ok {
		return rq
	}
	rq := w.computeRepsQuiet(c, reps)
	nc.reps.put(reps, rq)
	return rq
}

func (w *netWorld) computeRepsQuiet(c *cache, drained []int32) *repsQuiet {
	n := w.n
	rq := &repsQuiet{fixed: -1, errAt: -1}
	rq.reps = append(rq.reps, drained...)
	mask, err := w.publishMask(c, drained)
	if err != nil {
		rq.errAt, rq.err = 0, *err
		return rq
	}
	rq.masks = append(rq.masks, mask)
	var blobs []int32
	for d, rep := range drained {
		if mask&(1<<d) != 0 {
			blobs = append(blobs, w.publishBase(c, d, rep).blobs...)
		}
	}
	rq.order = w.orderFreeReplicas(c, drained, blobs)
	for k := range w.net.Rounds {
		cur := rq.reps[k*n:]
		next := make([]int32, n)
		for d := range n {
			rep := cur[d]
			for j := range n {
				if j == d || mask&(1<<j) == 0 {
					continue
				}
				for _, b := range w.publishBase(c, j, cur[j]).blobs {
					rep = c.receive(d, b, rep).next
				}
			}
			next[d] = rep
		}
		if slices.Equal(next, cur[:n]) {
			rq.fixed = k
			break
		}
		rq.reps = append(rq.reps, next...)
		if mask, err = w.publishMask(c, next); err != nil {
			rq.errAt, rq.err = k+1, *err
			return rq
		}
		rq.masks = append(rq.masks, mask)
	}
	if rq.fixed >= 0 {
		w.atFixpoint(c, rq, rq.round(rq.fixed, n))
	}
	return rq
}

// round is the replicas of round k, n devices each.
func (rq *repsQuiet) round(k, n int) []int32 {
	k = min(k, len(rq.reps)/n-1)
	return rq.reps[k*n : (k+1)*n]
}

// mask is the publication mask of round k.
func (rq *repsQuiet) mask(k int) uint32 { return rq.masks[min(k, len(rq.masks)-1)] }

// publishMask is the mask of the devices whose publication in reps has an
// entry, or the finding of the first that cannot publish.
func (w *netWorld) publishMask(c *cache, reps []int32) (uint32, *finding) {
	var mask uint32
	for d, rep := range reps {
		base := w.publishBase(c, d, rep)
		if base.err != "" {
			return 0, &finding{InvNetPublish, fmt.Sprintf("d%d cannot publish at quiescence: %s", d, base.err)}
		}
		if base.nonEmpty {
			mask |= 1 << d
		}
	}
	return mask, nil
}

// atFixpoint fills what the checks at the fixpoint need of its replicas.
func (w *netWorld) atFixpoint(c *cache, rq *repsQuiet, reps []int32) {
	rq.conv = w.convergence(c, reps)
	rq.f = make([]uint32, len(w.ov))
	rq.live = make([]uint32, len(w.ov))
	for d, rep := range reps {
		if w.u.Devices[d].Legacy {
			continue
		}
		read := w.readingOf(c, d, rep)
		for i, at := range w.uAt {
			rq.f[i] = max(rq.f[i], read[at].f)
			if read[at].live {
				rq.live[i] |= 1 << d
			}
		}
	}
}

// quietInto runs the quiescence checks from drained nodes into q (whose
// slices it reuses).
func (w *netWorld) quietInto(c *cache, drained []node, q *quietResult) {
	*q = quietResult{findings: q.findings[:0], final: q.final[:0], expect: q.expect[:0]}
	nc := w.nc(c)
	n := w.n
	reps := nc.quietReps[:0]
	for _, nd := range drained {
		reps = append(reps, nd.rep)
	}
	nc.quietReps = reps
	rq := w.repsQuietOf(c, reps)
	if rq.errAt == 0 {
		q.findings = append(q.findings, rq.err)
		return
	}
	free := rq.order
	if w.orderKnowledge || !free {
		// The messages themselves, knowledge tags included: to walk whole
		// nodes, or to name the orders that disagree.
		first, err := w.publishAll(c, drained)
		if err != nil {
			panic("exhaustive: a publication failed that repsQuiet made") // publishBase decides both
		}
		var all []int32
		for _, p := range first {
			all = append(all, p...)
		}
		if w.orderKnowledge {
			free = w.orderFreeNodes(c, drained, all)
		}
		if !free {
			if f := w.orderDisagreement(c, drained, all); f != nil {
				q.findings = append(q.findings, *f)
			}
		}
	}
	if len(nc.quietKn) < 2*n {
		nc.quietKn = make([]int32, 2*n)
	}
	cur, next := nc.quietKn[:n], nc.quietKn[n:2*n]
	for d, nd := range drained {
		cur[d] = nd.kn
	}
	fixed := -1
	for k := range w.net.Rounds {
		w.knowRound(c, cur, next, rq.mask(k))
		if rq.fixed >= 0 && k >= rq.fixed && slices.Equal(next, cur) {
			fixed = k
			break
		}
		if rq.errAt == k+1 {
			q.findings = append(q.findings, rq.err)
			return
		}
		cur, next = next, cur
	}
	if fixed < 0 {
		q.findings = append(q.findings, finding{InvNetFixpoint, fmt.Sprintf("no fixpoint after %d rounds of publishing and receiving", w.net.Rounds)})
		return
	}
	if rq.conv != nil {
		q.findings = append(q.findings, *rq.conv)
	}
	for d, rep := range rq.round(fixed, n) {
		q.final = append(q.final, node{rep, cur[d]})
	}
	w.oracle(rq, cur, q)
}

// knowRound is one round's knowledge: each device's joined with that of
// every other device whose publication has an entry (bit in mask), in
// device order.
func (w *netWorld) knowRound(c *cache, cur, next []int32, mask uint32) {
	for d := range cur {
		kn := cur[d]
		for j, other := range cur {
			if j != d && mask&(1<<j) != 0 {
				kn = w.knowJoin(c, kn, other)
			}
		}
		next[d] = kn
	}
}

// knowJoin is knowledge a after receiving every part of a publication
// made with knowledge b: per override context, a's antichain merged with
// b's, and a's sequence numbers. Memoised on (a, b).
func (w *netWorld) knowJoin(c *cache, a, b int32) int32 {
	if a == b {
		return a
	}
	nc := w.nc(c)
	k := uint64(uint32(a))<<32 | uint64(uint32(b))
	if r, ok := nc.kjoin.get(k); ok {
		return r
	}
	ka, kb := w.t.knows.get(a), w.t.knows.get(b)
	var ac []int32
	for i := range ka.ac {
		m := w.acMerge(c, ka.ac[i], kb.ac[i])
		if m != ka.ac[i] && ac == nil {
			ac = slices.Clone(ka.ac)
		}
		if ac != nil {
			ac[i] = m
		}
	}
	r := a
	if ac != nil {
		r = w.t.internKnow(know{seq: ka.seq, ac: ac})
	}
	nc.kjoin.put(k, r)
	return r
}
