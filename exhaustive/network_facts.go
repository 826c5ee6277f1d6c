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
	read    []reading    // readingOf
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

// readingOf is what device d's replica rep says of each of the universe's
// contexts: its effective frontier and whether its override is live.
func (w *netWorld) readingOf(c *cache, d int, rep int32) []reading {
	fa := w.factsOf(c, d, rep)
	if fa.read == nil {
		r := w.replica(d, rep)
		fa.read = make([]reading, len(w.u.Contexts))
		for i, ctx := range w.u.Contexts {
			fa.read[i] = reading{r.Effective(ctx), r.Live(ctx)}
		}
	}
	return fa.read
}
