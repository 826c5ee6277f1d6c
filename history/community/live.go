package community

import (
	"fmt"
	"slices"
)

// Plane is one addressable stream of a channel: its id and the epoch whose
// key derives the address.
type Plane struct{ Channel, Epoch int }

func (p Plane) String() string { return fmt.Sprintf("c%d/e%d", p.Channel, p.Epoch) }

// LiveChannel is a channel as the live subscription sees it: whether it is
// private, whether the member holds its key, the epochs held (current
// last), which retired epochs were asked since their retirement, and its
// cursor's newest (nil: no cursor).
type LiveChannel struct {
	Private bool
	Held    bool
	Keys    []HeldKey
	Asked   []bool
	Newest  *int
}

// LiveFilter is the one live REQ of a community: the planes it addresses,
// the wrap kinds, a since, and the replay bound.
type LiveFilter struct {
	Planes   []Plane
	Kinds    []int
	HasSince bool
	Since    int
	Limit    int
}

// Matches reports whether a stored or live wrap falls in the filter.
func (f LiveFilter) Matches(p Plane, kind, at int) bool {
	return slices.Contains(f.Planes, p) && slices.Contains(f.Kinds, kind) && (!f.HasSince || at >= f.Since)
}

// LiveREQ builds the community's live subscription from its channels and
// marks every retired epoch it addresses as asked once more, so the next
// install freezes it out.
func LiveREQ(r *Rules, chans []LiveChannel) LiveFilter {
	f := LiveFilter{Kinds: r.LiveKinds(), Limit: LiveReplay}
	var newest []*int
	for c := range chans {
		ch := &chans[c]
		newest = append(newest, ch.Newest)
		if !r.LivePlane(ch.Private, ch.Held) {
			continue
		}
		for i, k := range ch.Keys {
			asked := i < len(ch.Asked) && ch.Asked[i]
			if !r.LiveEpoch(k, asked) {
				continue
			}
			f.Planes = append(f.Planes, Plane{c, k.Epoch})
			if k.Retired && i < len(ch.Asked) {
				ch.Asked[i] = true
			}
		}
	}
	f.Since, f.HasSince = r.LiveWindow(newest)
	return f
}

// liveWindow is the document's community floor: one REQ covers every
// channel, so it starts at the oldest channel's newest less the overlap,
// and a channel with no cursor makes it wide.
func liveWindow(newest []*int) (int, bool) {
	floor, any := 0, false
	for _, n := range newest {
		if n == nil {
			return 0, false
		}
		if !any || *n < floor {
			floor, any = *n, true
		}
	}
	if !any {
		return 0, false
	}
	return floor - CursorOverlap, true
}
