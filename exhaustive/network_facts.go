package exhaustive

// repFacts is what the network world derives from one device replica
// alone, each part filled on first use: a worker's memo indexed by the
// replica's interned id, so that the checks at every state read it by
// position instead of hashing a key. Every part is a function of the
// device and the replica (their comments say what each reads).
type repFacts struct {
	base    *pubBase     // publishBase
	view    *string      // view
	reading []reading    // legacyReading, for a legacy device
	peer    *string      // peerVerdict's finding
	events  []localEvent // per local slot once computed: event
	rot     *rotation    // rotate
	// per override context: the effective frontier, and bit i when its
	// register is live (ctxRead)
	f    []uint32
	live uint32
}

// eventUnknown marks an event not computed yet.
const eventUnknown intentKind = 0xff

// factsOf is device d's facts of replica rep.
func (w *netWorld) factsOf(c *cache, d int, rep int32) *repFacts {
	nc := w.nc(c)
	if l := nc.facts[d]; int(rep) < len(l) && l[rep] != nil {
		return l[rep]
	}
	f := &repFacts{}
	nc.facts[d] = grow(nc.facts[d], int(rep)+1, nil)
	nc.facts[d][rep] = f
	return f
}

// ctxRead is, per override context, the replica's effective frontier and
// the bit mask of the contexts whose register is live.
func (w *netWorld) ctxRead(c *cache, d int, rep int32) ([]uint32, uint32) {
	fa := w.factsOf(c, d, rep)
	if fa.f == nil {
		r := w.replica(d, rep)
		fa.f = make([]uint32, len(w.ov))
		for i, ctx := range w.ov {
			fa.f[i] = r.Effective(ctx)
			if r.Live(ctx) {
				fa.live |= 1 << i
			}
		}
	}
	return fa.f, fa.live
}
