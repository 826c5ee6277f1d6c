package exhaustive

import (
	"fmt"
	"slices"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
)

// netWorld is the world of a universe with a Network. A global state row
// holds, per device, its interned replica and its interned intent knowledge,
// then one interned channel (the messages in flight) per ordered pair of
// devices:
//
//	[rep 0..n-1 | know 0..n-1 | channel (0,1), (0,2), ..., (n-1,n-2)]
//
// Its transitions, in generation order: per device, the reference model's
// local slots (mark-unread, mark-read, compact and advance per context, then
// reinstall), then publish and rotate; after every device, per channel and
// per position in it, deliver, duplicate and drop.
type netWorld struct {
	u    *Universe
	net  *Network
	e    *engine
	t    *netTables
	n    int
	ov   []string       // override contexts, in universe order
	ovAt map[string]int // override context -> index
	uAt  []int          // override context index -> universe context index
	keys map[string]int // wire key of an override context's group -> index
	spd  int            // engine local slots per device
	sym  *symmetry      // nil when symmetry reduction is off
	// orderKnowledge makes the delivery-order check walk whole nodes,
	// intent knowledge included (orderFree says why it need not).
	orderKnowledge bool
	// depth is the run's depth bound, which witnesses record.
	depth int
	// baselines are 0 and the universe's values: the baselines a mark-
	// unread can record, which knowEvent's memo key names by position.
	baselines []uint32
}

func newNetWorld(u *Universe, e *engine, depth int, symmetric bool) *netWorld {
	w := &netWorld{u: u, net: u.Network, e: e, t: newNetTables(), n: len(u.Devices), ovAt: map[string]int{}, keys: map[string]int{},
		spd: u.slotsPerDevice(), depth: depth, baselines: append([]uint32{0}, u.Values...)}
	for i, c := range u.Contexts {
		if u.frontierOnly(c) {
			continue
		}
		w.ovAt[c] = len(w.ov)
		w.uAt = append(w.uAt, i)
		w.ov = append(w.ov, c)
	}
	for i, c := range w.ov {
		w.keys[e.rules.Escape(c)] = i
		for _, k := range []model.KeyKind{model.KeyS, model.KeyC, model.KeyB} {
			w.keys[model.OverrideKey(k, c)] = i
		}
	}
	if symmetric && (len(w.net.SymDevices) > 1 || len(w.net.SymContexts) > 1) {
		w.sym = newSymmetry(w)
	}
	return w
}

func (w *netWorld) Width() int                     { return 2*w.n + w.n*(w.n-1) }
func (w *netWorld) Invariants() []search.Invariant { return networkTable }
func (w *netWorld) Units() []string                { return unitNames }
func (w *netWorld) NewWorker() *cache              { return w.e.newCache() }
func (w *netWorld) Quiesce()                       { w.e.quiesce() }
func (w *netWorld) scratch() *search.Tally         { return search.NewTally(len(networkTable)) }

// Successor is successor with the findings in the engine's form.
func (w *netWorld) Successor(c *cache, cur []int32, t int, next []int32, tl *search.Tally) (bool, []search.Finding) {
	ok, fs := w.successor(c, cur, t, next, tl)
	return ok, indexed(networkTable, fs)
}

// Check is check with the findings in the engine's form.
func (w *netWorld) Check(c *cache, row []int32, tl *search.Tally) []search.Finding {
	return indexed(networkTable, w.check(c, row, tl))
}

func (w *netWorld) knWord(d int) int { return w.n + d }

// chWord is the row word of the channel from s to d.
func (w *netWorld) chWord(s, d int) int {
	if d > s {
		d--
	}
	return 2*w.n + s*(w.n-1) + d
}

// chEnds decodes a channel index.
func (w *netWorld) chEnds(ch int) (s, d int) {
	s, d = ch/(w.n-1), ch%(w.n-1)
	if d >= s {
		d++
	}
	return s, d
}

func (w *netWorld) perDevice() int   { return w.spd + 2 }
func (w *netWorld) perChannel() int  { return 3 * w.net.Capacity }
func (w *netWorld) Transitions() int { return w.n*w.perDevice() + w.n*(w.n-1)*w.perChannel() }

// netTrans is a decoded transition.
type netTrans struct {
	kind Kind
	dev  int // acting device (destination of a channel action)
	slot int // engine local slot, or -1
	from int // channel source, or -1
	pos  int // position in the channel
}

func (w *netWorld) decode(t int) netTrans {
	if t < w.n*w.perDevice() {
		dev, k := t/w.perDevice(), t%w.perDevice()
		switch k {
		case w.spd:
			return netTrans{kind: KindPublish, dev: dev, slot: -1, from: -1}
		case w.spd + 1:
			return netTrans{kind: KindRotate, dev: dev, slot: -1, from: -1}
		}
		kind, _ := w.u.slot(k)
		return netTrans{kind: kind, dev: dev, slot: k, from: -1}
	}
	p := t - w.n*w.perDevice()
	s, d := w.chEnds(p / w.perChannel())
	r := p % w.perChannel()
	return netTrans{kind: [...]Kind{KindDeliver, KindDuplicate, KindDrop}[r%3], dev: d, slot: -1, from: s, pos: r / 3}
}

// encode is the transition index of a decoded transition.
func (w *netWorld) encode(x netTrans) int {
	switch x.kind {
	case KindPublish:
		return x.dev*w.perDevice() + w.spd
	case KindRotate:
		return x.dev*w.perDevice() + w.spd + 1
	case KindDeliver, KindDuplicate, KindDrop:
		op := map[Kind]int{KindDeliver: 0, KindDuplicate: 1, KindDrop: 2}[x.kind]
		ch := w.chWord(x.from, x.dev) - 2*w.n
		return w.n*w.perDevice() + ch*w.perChannel() + 3*x.pos + op
	}
	return x.dev*w.perDevice() + x.slot
}

func (w *netWorld) Initial(c *cache) []int32 {
	row := w.initialRaw(c)
	if w.sym != nil {
		w.sym.canonical(c, row)
	}
	return row
}

// initialRaw is the concrete initial state.
func (w *netWorld) initialRaw(c *cache) []int32 {
	row := make([]int32, w.Width())
	copy(row, c.e.initial())
	for d := range w.n {
		row[w.knWord(d)] = w.startKnow(d)
	}
	for i := 2 * w.n; i < len(row); i++ {
		row[i] = w.t.none
	}
	return row
}

func (w *netWorld) emptyACs() []int32 {
	out := make([]int32, len(w.ov))
	for i := range out {
		out[i] = w.t.empty
	}
	return out
}

func (w *netWorld) nc(c *cache) *netCache {
	if c.net == nil {
		c.net = newNetCache(w.n, c.e.mem)
	}
	return c.net
}

// replica is device dev's interned replica with the given id (never
// modified: clone it to act).
func (w *netWorld) replica(dev int, id int32) *model.Replica {
	t := w.e.devs[dev]
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.reps[id]
}

// successor applies transition t to cur, writing the (canonical) successor
// into next.
func (w *netWorld) successor(c *cache, cur []int32, t int, next []int32, tl *search.Tally) (bool, []finding) {
	ok, fs := w.apply(c, cur, t, next, tl)
	if ok && w.sym != nil {
		w.sym.canonical(c, next)
	}
	return ok, fs
}

// apply is successor without canonicalisation: the concrete step, as
// replay and witness rendering run it.
func (w *netWorld) apply(c *cache, cur []int32, t int, next []int32, tl *search.Tally) (bool, []finding) {
	x := w.decode(t)
	copy(next, cur)
	var fs []finding
	switch x.kind {
	case KindPublish:
		pub := w.publish(c, x.dev, node{cur[x.dev], cur[w.knWord(x.dev)]})
		if pub.err != "" {
			tl.Add(unitPublications, 1)
			return true, []finding{{InvNetPublish, fmt.Sprintf("d%d cannot publish: %s", x.dev, pub.err)}}
		}
		if len(pub.msgs) == 0 {
			return false, nil
		}
		for d := range w.n {
			if d == x.dev {
				continue
			}
			ch, ok := w.chanAddMemo(c, cur[w.chWord(x.dev, d)], pub.msgs)
			if !ok {
				return false, nil
			}
			next[w.chWord(x.dev, d)] = ch
		}
		tl.Add(unitPublications, 1)
		w.coverPublish(c, x.dev, cur[x.dev], tl)
		if pub.shape != "" {
			fs = append(fs, finding{InvNetCanonical, pub.shape})
		}
	case KindRotate:
		if !w.net.Rotate || w.u.Devices[x.dev].Legacy {
			return false, nil
		}
		tl.Add(unitRotations, 1)
		rot := w.rotate(c, x.dev, cur[x.dev])
		next[x.dev], fs = rot.next, rot.findings
	case KindDeliver, KindDuplicate, KindDrop:
		msgs := w.t.chans.get(cur[w.chWord(x.from, x.dev)])
		if x.pos >= len(msgs) {
			return false, nil
		}
		m := msgs[x.pos]
		w.coverChannel(c, cur, x, m, tl)
		if x.kind != KindDrop {
			nd, regress := w.receive(c, x.dev, node{cur[x.dev], cur[w.knWord(x.dev)]}, m)
			next[x.dev], next[w.knWord(x.dev)] = nd.rep, nd.kn
			if regress {
				fs = append(fs, finding{InvRegression, fmt.Sprintf("a delivery lowered a frontier of d%d", x.dev)})
			}
		}
		if x.kind != KindDuplicate {
			next[w.chWord(x.from, x.dev)] = w.chanRemoveMemo(c, cur[w.chWord(x.from, x.dev)], msgs, x.pos)
		}
	default:
		s := c.steps(x.dev, cur[x.dev])[x.slot]
		if s.next < 0 {
			return false, nil
		}
		next[x.dev] = s.next
		_, ctx := w.u.slot(x.slot)
		if i, ok := w.ovAt[ctx]; ok {
			ev := w.event(c, x.dev, cur[x.dev], s.next, x.slot)
			if ev.kind != 0 {
				next[w.knWord(x.dev)] = w.knowEvent(c, cur[w.knWord(x.dev)], i, x.dev, ev)
			}
			if x.kind == KindCompact && s.next != cur[x.dev] {
				for src := range w.n {
					if src != x.dev {
						next[w.chWord(src, x.dev)] = w.chanFlag(c, cur[w.chWord(src, x.dev)], i)
					}
				}
			}
		}
		if x.kind == KindReinstall {
			next[w.knWord(x.dev)] = w.knowResetMemo(c, cur[w.knWord(x.dev)])
		}
		if s.regress {
			fs = append(fs, finding{InvRegression, fmt.Sprintf("a transition lowered a frontier of d%d", x.dev)})
		}
	}
	tl.Add(unitSteps, 1)
	tl.Count(actionCounter(x.kind), 1)
	return true, fs
}

// event is the intent event of local slot on device dev in replica state
// rep (whose successor is next).
func (w *netWorld) event(c *cache, dev int, rep, next int32, slot int) localEvent {
	fa := w.factsOf(c, dev, rep)
	if fa.events == nil {
		fa.events = make([]localEvent, w.spd)
		for i := range fa.events {
			fa.events[i].kind = eventUnknown
		}
	}
	if ev := fa.events[slot]; ev.kind != eventUnknown {
		return ev
	}
	var ev localEvent
	kind, ctx := w.u.slot(slot)
	base := w.replica(dev, rep)
	if !base.Legacy {
		r := base.Clone()
		switch kind {
		case KindMarkUnread:
			f := r.Effective(ctx)
			if r.MarkUnread(ctx) == nil {
				ev = localEvent{intentSet, f}
			}
		case KindMarkRead:
			if v, ok := w.u.nextValue(r.Frontier(ctx)); ok && r.MarkRead(ctx, v) == nil {
				ev = localEvent{kind: intentClear}
			} else if base.Live(ctx) && !w.replica(dev, next).Live(ctx) {
				// Refused at the ceiling, the mark-read still advanced the
				// frontier, and that alone ended the override.
				ev = localEvent{kind: intentNaturalClear}
			}
		case KindAdvance:
			if base.Live(ctx) && !w.replica(dev, next).Live(ctx) {
				ev = localEvent{kind: intentNaturalClear}
			}
		}
	}
	fa.events[slot] = ev
	return ev
}

// makeKnowEvent is knowledge kn after device dev's event ev on override
// context i: the event, whose past is everything kn knows there, becomes
// the only maximal one (knowEvent memoises it).
func (w *netWorld) makeKnowEvent(kn int32, i, dev int, ev localEvent) int32 {
	k := w.t.knows.get(kn)
	if int(k.seq[i]) >= maxIntentSeq {
		panic("exhaustive: more intent events on one context than a causal past can record") // bounded by the depth
	}
	seq, ac := slices.Clone(k.seq), slices.Clone(k.ac)
	seq[i]++
	e := intentEvent{dev: uint8(dev), seq: seq[i], kind: ev.kind, b: ev.b, past: w.t.acs.get(k.ac[i]).clock(w.n)}
	ac[i] = w.t.internAC(antichain{e})
	return w.t.internKnow(know{seq: seq, ac: ac})
}

// knowReset is knowledge after a reinstall: nothing known, the sequence
// numbers kept.
func (w *netWorld) knowReset(kn int32) int32 {
	return w.t.internKnow(know{seq: w.t.knows.get(kn).seq, ac: w.emptyACs()})
}

// acMerge is the maximal elements of two antichains.
func (w *netWorld) acMerge(c *cache, a, b int32) int32 {
	if a == b || b == w.t.empty {
		return a
	}
	if a == w.t.empty {
		return b
	}
	nc := w.nc(c)
	k := [2]int32{min(a, b), max(a, b)}
	if m, ok := nc.merge[k]; ok {
		return m
	}
	m := w.t.internAC(w.t.acs.get(a).merge(w.t.acs.get(b)))
	nc.merge[k] = m
	return m
}

// receive is device dev's node receiving message m: the replica through
// the engine, the knowledge by merging the message's tag.
func (w *netWorld) receive(c *cache, dev int, nd node, m int32) (node, bool) {
	msg := w.t.msgs.get(m)
	s := c.receive(dev, msg.blob, nd.rep)
	nc := w.nc(c)
	k := uint64(uint32(nd.kn))<<32 | uint64(uint32(m))
	ks, ok := nc.kmerge.get(k)
	kn := ks.next
	if !ok {
		cur := w.t.knows.get(nd.kn)
		ac := slices.Clone(cur.ac)
		for i, a := range msg.tag {
			ac[i] = w.acMerge(c, ac[i], a)
		}
		kn = nd.kn
		if !slices.Equal(ac, cur.ac) {
			kn = w.t.internKnow(know{seq: cur.seq, ac: ac})
		}
		nc.kmerge.put(k, step{next: kn})
	}
	return node{s.next, kn}, s.regress
}

// chanAdd is channel ch with messages added, or false when that exceeds
// the capacity.
func (w *netWorld) chanAdd(ch int32, ms []int32) (int32, bool) {
	cur := w.t.chans.get(ch)
	all := slices.Clone(cur)
	for _, m := range ms {
		if !slices.Contains(all, m) {
			all = append(all, m)
		}
	}
	if len(all) > w.net.Capacity {
		return 0, false
	}
	if len(all) == len(cur) {
		return ch, true
	}
	return w.t.internChan(all), true
}

func (w *netWorld) chanRemove(msgs []int32, pos int) int32 {
	return w.t.internChan(slices.Delete(slices.Clone(msgs), pos, pos+1))
}

// chanFlag marks every message of channel ch as older than the
// destination's compaction of override context i.
func (w *netWorld) chanFlag(c *cache, ch int32, i int) int32 {
	if ch == w.t.none {
		return ch
	}
	nc := w.nc(c)
	k := [2]int32{ch, int32(i)}
	if r, ok := nc.flag[k]; ok {
		return r
	}
	var out []int32
	for _, m := range w.t.chans.get(ch) {
		msg := w.t.msgs.get(m)
		msg.flags |= 1 << i
		out = append(out, w.t.internMsg(msg))
	}
	r := w.t.internChan(out)
	nc.flag[k] = r
	return r
}

// publish is the publication of device dev in node nd: the canonical
// candidate through Replica.Publish, or through Replica.PublishSplit under
// the universe's budget, on a clone (interned replicas never change).
func (w *netWorld) publish(c *cache, dev int, nd node) publication {
	nc := w.nc(c)
	k := [3]int32{int32(dev), nd.rep, nd.kn}
	if p, ok := nc.pub[k]; ok {
		return p
	}
	base := w.publishBase(c, dev, nd.rep)
	p := publication{err: base.err, shape: base.shape}
	if base.err == "" && base.nonEmpty {
		kn := w.t.knows.get(nd.kn)
		for pi, b := range base.parts {
			m := message{blob: base.blobs[pi], b: b, part: uint8(pi), parts: uint8(len(base.parts)), tag: w.emptyACs()}
			for i := range w.ov {
				if base.carrier[i] == pi {
					m.tag[i] = kn.ac[i]
				}
			}
			m.holds, m.floors = base.holds[pi], base.floors[pi]
			p.msgs = append(p.msgs, w.t.internMsgBody(m, base.bodies[pi]))
		}
	}
	if len(nc.pub) >= pubMemoCap {
		clear(nc.pub)
	}
	nc.pub[k] = p
	return p
}

// pubBase is what a publication owes to the replica alone, whatever the
// intent knowledge beside it: the parts, their blob ids, body keys and
// groups, the part carrying each override context's knowledge, and the
// publication's error or N7 finding.
type pubBase struct {
	parts         []model.Blob
	blobs         []int32
	bodies        [][]byte
	holds, floors []uint8
	carrier       []int
	err, shape    string
	nonEmpty      bool
}

// publishBase is the replica part of publish, memoised per device replica.
func (w *netWorld) publishBase(c *cache, dev int, rep int32) *pubBase {
	fa := w.factsOf(c, dev, rep)
	if fa.base != nil {
		return fa.base
	}
	r := w.replica(dev, rep).Clone()
	base := &pubBase{}
	var parts []model.Blob
	if r.Legacy || w.net.Budget == nil {
		parts = []model.Blob{r.Publish()}
	} else if sp, err := r.PublishSplit(*w.net.Budget); err != nil {
		base.err = err.Error()
	} else {
		parts = sp.Blobs
	}
	if base.err == "" {
		base.shape = w.canonicalShape(dev, r, parts)
		base.nonEmpty = slices.ContainsFunc(parts, func(b model.Blob) bool { return len(b.Contexts) > 0 })
		base.parts = parts
		base.carrier = make([]int, len(w.ov)) // the primary unless another part holds the context's group
		for pi, b := range parts {
			for _, en := range b.Contexts {
				if i, ok := w.keys[en.Key]; ok && pi > 0 {
					base.carrier[i] = pi
				}
			}
			base.blobs = append(base.blobs, w.e.internBlob(b))
			base.bodies = append(base.bodies, appendBlobBody(nil, b))
			h, f := w.groups(b)
			base.holds, base.floors = append(base.holds, h), append(base.floors, f)
		}
	}
	fa.base = base
	return base
}

// groups reports which override contexts a blob carries keys of, and which
// of those groups is a lone tombstone floor (ov_c without ov_s).
func (w *netWorld) groups(b model.Blob) (holds, floors uint8) {
	var hasS, hasC uint8
	for _, en := range b.Contexts {
		i, ok := w.keys[en.Key]
		if !ok {
			continue
		}
		holds |= 1 << i
		switch en.Key {
		case model.OverrideKey(model.KeyS, w.ov[i]):
			hasS |= 1 << i
		case model.OverrideKey(model.KeyC, w.ov[i]):
			hasC |= 1 << i
		}
	}
	return holds, hasC &^ hasS
}
