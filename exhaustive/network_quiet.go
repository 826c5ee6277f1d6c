package exhaustive

import (
	"fmt"
	"slices"

	"github.com/nip-rs/harness/internal/offheap"
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
//     knowledge is the same value. It is a function of the drained
//     knowledge and of what the replicas' rounds say of publishing
//     (knowRounds, memoised on both).
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
	masks []int32
	// fixed is the first round k whose next round has k's replicas, or -1
	// when none does within the bound.
	fixed int
	// errAt is the round whose publication fails (err says how), or -1.
	errAt int
	err   *finding
	// order: every device ends in one replica whatever the order in which
	// it receives the first round's publications.
	order bool
	// At the fixpoint replicas (when fixed >= 0): the convergence finding,
	// and per override context the merged frontier of the upgraded devices
	// and the bit mask of those whose register is live.
	conv *finding
	f    []int32
	live []int32
}

// A worker keeps its repsQuiet records in one arena of words, found
// through a tupleMap from the drained replicas to the record's offset:
// a few dozen bytes a record, and no object for the collector to trace.
// A record is
//
//	[fixed, errAt, order, rounds, masks, err, conv | replicas of each
//	 round | masks | f and live per override context, at a fixpoint]
//
// where err and conv index the worker's findings, or are -1.
const rqHeader = 7

// repsQuietMemoCap bounds each worker's memo of repsQuiet.
const repsQuietMemoCap = 1 << 16

// repsQuietOf is repsQuiet of the drained replicas reps, memoised.
func (w *netWorld) repsQuietOf(c *cache, reps []int32) repsQuiet {
	nc := w.nc(c)
	if off, ok := nc.reps.get(reps); ok {
		return w.rqAt(nc, off)
	}
	if nc.reps.full() {
		// The memo is a cache of a function of its key: emptied, its
		// records are recomputed to the same values.
		nc.reps.reset()
		nc.rqWords, nc.rqFinds = nc.rqWords[:0], nc.rqFinds[:0]
	}
	off := w.computeRepsQuiet(c, reps)
	nc.reps.put(reps, off)
	return w.rqAt(nc, off)
}

// rqAt reads the record at offset off.
func (w *netWorld) rqAt(nc *netCache, off int32) repsQuiet {
	r := nc.rqWords[off:]
	rq := repsQuiet{fixed: int(r[0]), errAt: int(r[1]), order: r[2] != 0}
	rounds, masks := int(r[3]), int(r[4])
	if r[5] >= 0 {
		rq.err = &nc.rqFinds[r[5]]
	}
	if r[6] >= 0 {
		rq.conv = &nc.rqFinds[r[6]]
	}
	at := rqHeader
	rq.reps, at = r[at:at+rounds*w.n], at+rounds*w.n
	rq.masks, at = r[at:at+masks], at+masks
	if rq.fixed >= 0 {
		nov := len(w.ov)
		rq.f, rq.live = r[at:at+nov], r[at+nov:at+2*nov]
	}
	return rq
}

// computeRepsQuiet runs the rounds on the replicas alone from drained and
// appends their record, returning its offset.
func (w *netWorld) computeRepsQuiet(c *cache, drained []int32) int32 {
	n := w.n
	nc := w.nc(c)
	fixed, errAt, order := -1, -1, false
	var errF, convF *finding
	reps := append(nc.rqReps[:0], drained...)
	masks := nc.rqMasks[:0]
	defer func() { nc.rqReps, nc.rqMasks = reps, masks }()
	mask, err := w.publishMask(c, drained)
	if err != nil {
		errAt, errF = 0, err
	} else {
		masks = append(masks, int32(mask))
		blobs := nc.rqBlobs[:0]
		for d, rep := range drained {
			if mask&(1<<d) != 0 {
				blobs = append(blobs, w.publishBase(c, d, rep).blobs...)
			}
		}
		nc.rqBlobs = blobs
		order = w.orderFreeReplicas(c, drained, blobs)
		for k := range w.net.Rounds {
			reps = slices.Grow(reps, n)
			cur, next := reps[k*n:(k+1)*n], reps[(k+1)*n:(k+2)*n]
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
			if slices.Equal(next, cur) {
				fixed = k
				break
			}
			reps = reps[:(k+2)*n]
			if mask, err = w.publishMask(c, next); err != nil {
				errAt, errF = k+1, err
				break
			}
			masks = append(masks, int32(mask))
		}
	}
	off := int32(len(nc.rqWords))
	size := rqHeader + len(reps) + len(masks)
	if fixed >= 0 {
		size += 2 * len(w.ov)
	}
	rec := append(offheap.Grow(nc.mem, nc.rqWords, size), int32(fixed), int32(errAt), 0, int32(len(reps)/n), int32(len(masks)), -1, -1)
	if order {
		rec[off+2] = 1
	}
	if errF != nil {
		rec[off+5] = int32(len(nc.rqFinds))
		nc.rqFinds = append(nc.rqFinds, *errF)
	}
	rec = append(rec, reps...)
	rec = append(rec, masks...)
	if fixed >= 0 {
		final := reps[fixed*n : (fixed+1)*n]
		if convF = w.convergence(c, final); convF != nil {
			rec[off+6] = int32(len(nc.rqFinds))
			nc.rqFinds = append(nc.rqFinds, *convF)
		}
		rec = w.appendFixpoint(c, rec, final)
	}
	nc.rqWords = rec
	return off
}

// round is the replicas of round k, n devices each.
func (rq *repsQuiet) round(k, n int) []int32 {
	k = min(k, len(rq.reps)/n-1)
	return rq.reps[k*n : (k+1)*n]
}

// mask is the publication mask of round k.
func (rq *repsQuiet) mask(k int) uint32 { return uint32(rq.masks[min(k, len(rq.masks)-1)]) }

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

// appendFixpoint appends, per override context, the merged frontier of
// the upgraded devices at the fixpoint replicas reps, then per context the
// bit mask of those whose register is live.
func (w *netWorld) appendFixpoint(c *cache, rec []int32, reps []int32) []int32 {
	at := len(rec)
	nov := len(w.ov)
	rec = append(rec, make([]int32, 2*nov)...)
	f, live := rec[at:at+nov], rec[at+nov:]
	for d, rep := range reps {
		if w.u.Devices[d].Legacy {
			continue
		}
		read := w.readingOf(c, d, rep)
		for i, u := range w.uAt {
			f[i] = int32(max(uint32(f[i]), read[u].f))
			if read[u].live {
				live[i] |= 1 << d
			}
		}
	}
	return rec
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
		q.findings = append(q.findings, *rq.err)
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
	kn := nc.quietKn[:0]
	for _, nd := range drained {
		kn = append(kn, nd.kn)
	}
	nc.quietKn = kn
	fixed, final := w.knowRounds(c, &rq, kn)
	switch fixed {
	case knowPublishFailed:
		q.findings = append(q.findings, *rq.err)
		return
	case knowNoFixpoint:
		q.findings = append(q.findings, finding{InvNetFixpoint, fmt.Sprintf("no fixpoint after %d rounds of publishing and receiving", w.net.Rounds)})
		return
	}
	if rq.conv != nil {
		q.findings = append(q.findings, *rq.conv)
	}
	for d, rep := range rq.round(fixed, n) {
		q.final = append(q.final, node{rep, final[d]})
	}
	w.oracle(&rq, final, q)
}

// Outcomes of knowRounds other than the round of the fixpoint.
const (
	knowNoFixpoint    = -1
	knowPublishFailed = -2
)

// knowRounds runs the rounds' knowledge from the drained knowledge kn
// beside the replicas' rounds rq, and returns the round at which the
// nodes reach their fixpoint (or knowNoFixpoint, or knowPublishFailed
// when a publication fails first) and the knowledge there. It is a
// function of kn and of what it reads of rq: the first round with
// unchanged replicas, the failing round and the publication masks of the
// rounds, all of which roundsSig packs into one word; it is memoised on
// kn and that word.
func (w *netWorld) knowRounds(c *cache, rq *repsQuiet, kn []int32) (int, []int32) {
	nc := w.nc(c)
	sig, ok := w.roundsSig(rq)
	if !ok {
		return w.runKnowRounds(c, rq, kn)
	}
	key := append(append(nc.knKey[:0], kn...), int32(sig))
	nc.knKey = key
	if off, hit := nc.knRounds.get(key); hit {
		if at := int(nc.knWords[off]); at < 0 {
			return at, nil
		}
		return int(nc.knWords[off]), nc.knWords[off+1 : off+1+int32(w.n)]
	}
	if nc.knRounds.full() {
		nc.knRounds.reset()
		nc.knWords = nc.knWords[:0]
	}
	at, final := w.runKnowRounds(c, rq, kn)
	off := int32(len(nc.knWords))
	nc.knWords = append(offheap.Grow(nc.mem, nc.knWords, 1+w.n), int32(at))
	if final == nil {
		final = kn // no fixpoint: what is kept is never read
	}
	nc.knWords = append(nc.knWords, final...)
	nc.knRounds.put(key, off)
	if at < 0 {
		return at, nil
	}
	return at, nc.knWords[off+1 : off+1+int32(w.n)]
}

// roundsSig packs what knowRounds reads of rq into one word: the first
// round with unchanged replicas and the failing round (each plus one, in
// four bits), then each round's publication mask; false when they do not
// fit.
func (w *netWorld) roundsSig(rq *repsQuiet) (uint32, bool) {
	if w.n*w.net.Rounds > 24 || rq.fixed+1 > 15 || rq.errAt+1 > 15 {
		return 0, false
	}
	sig := uint32(rq.fixed+1) | uint32(rq.errAt+1)<<4
	for k := range w.net.Rounds {
		sig |= rq.mask(k) << (8 + k*w.n)
	}
	return sig, true
}

// runKnowRounds is knowRounds, computed.
func (w *netWorld) runKnowRounds(c *cache, rq *repsQuiet, kn []int32) (int, []int32) {
	n := w.n
	nc := w.nc(c)
	if len(nc.knScratch) < 2*n {
		nc.knScratch = make([]int32, 2*n)
	}
	cur, next := nc.knScratch[:n], nc.knScratch[n:2*n]
	copy(cur, kn)
	for k := range w.net.Rounds {
		w.knowRound(c, cur, next, rq.mask(k))
		if rq.fixed >= 0 && k >= rq.fixed && slices.Equal(next, cur) {
			return k, cur
		}
		if rq.errAt == k+1 {
			return knowPublishFailed, nil
		}
		cur, next = next, cur
	}
	return knowNoFixpoint, nil
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
