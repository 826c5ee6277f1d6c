package community

import (
	"slices"
	"strings"
)

// NotificationType is what the pump is handed.
type NotificationType int

const (
	Event NotificationType = iota
	EOSE
	Closed
)

// Notification is one relay notification at time At (milliseconds): an
// event, an end of stored events, or a CLOSED with its reason, on a
// subscription id.
type Notification struct {
	Type   NotificationType
	Sub    string
	Reason string
	At     int
}

// RouteKind is where a subscription id leads.
type RouteKind int

const (
	RouteNone RouteKind = iota
	RouteList
	RouteCommunity
	RouteRekey
	RoutePage
)

// Route is a resolved subscription id: its kind and the community or page
// it names.
type Route struct {
	Kind RouteKind
	ID   int
}

// Settled is a page report's outcome for one relay.
type Settled int

const (
	Replayed Settled = iota
	Refused
)

// Standing subscription ids: the list, and a community's live planes
// ("live-<n>"). A page ("concord-history-…") or a rekey watch ("rekey-…")
// id is opaque and resolves only through its registry.
const (
	ListID     = "concord/list"
	livePrefix = "live-"
)

// LiveID is community n's standing id.
func LiveID(n int) string { return livePrefix + string(rune('0'+n)) }

func routeOf(id string, pages, watches map[string]int) Route {
	switch {
	case id == ListID:
		return Route{Kind: RouteList}
	case strings.HasPrefix(id, livePrefix) && len(id) == len(livePrefix)+1:
		return Route{Kind: RouteCommunity, ID: int(id[len(livePrefix)] - '0')}
	}
	if c, ok := watches[id]; ok {
		return Route{Kind: RouteRekey, ID: c}
	}
	if p, ok := pages[id]; ok {
		return Route{Kind: RoutePage, ID: p}
	}
	return Route{Kind: RouteNone}
}

// Report is a page's settled relay as the pump delivers it.
type Report struct {
	Page    int
	Outcome Settled
}

// Signal is what a closed batch wakes: a community's fold (Rekey false)
// or its adoption (Rekey true).
type Signal struct {
	Community int
	Rekey     bool
}

// Pump is the one consumer of relay notifications: it routes by
// subscription id, delivers page verdicts at once through the page
// registry, and batches community events within a fixed window.
type Pump struct {
	Pages   map[string]int // page id -> page, while its round waits
	Watches map[string]int // rekey id -> community
	open    bool
	first   int
	last    int
	events  []int
	rekeys  []int
}

// NewPump is a pump with empty registries.
func NewPump() *Pump { return &Pump{Pages: map[string]int{}, Watches: map[string]int{}} }

// Handle takes one notification; it returns the page reports it delivers
// at once and the signals of a batch that closed before it.
func (p *Pump) Handle(r *Rules, n Notification) ([]Report, []Signal) {
	sigs := p.Tick(r, n.At)
	switch n.Type {
	case Event:
		rt := r.RouteOf(n.Sub, p.Pages, p.Watches)
		switch rt.Kind {
		case RouteCommunity:
			p.add(n.At)
			p.events = append(p.events, rt.ID)
		case RouteRekey:
			p.add(n.At)
			p.rekeys = append(p.rekeys, rt.ID)
		}
		return nil, sigs
	default:
		s, ok := r.Settle(n)
		if !ok {
			return nil, sigs
		}
		rt := r.RouteOf(n.Sub, p.Pages, p.Watches)
		if rt.Kind != RoutePage {
			return nil, sigs // nobody waits on it: a cancelled round's page
		}
		return []Report{{Page: rt.ID, Outcome: s}}, sigs
	}
}

func (p *Pump) add(at int) {
	if !p.open {
		p.open, p.first = true, at
	}
	p.last = at
}

// Tick closes the batch when the rules say its window ended at now, and
// returns its signals: the community folds, then the adoptions.
func (p *Pump) Tick(r *Rules, now int) []Signal {
	if !p.open || !r.WindowEnds(p.first, p.last, now) {
		return nil
	}
	var out []Signal
	for _, c := range r.Signals(p.events) {
		out = append(out, Signal{Community: c})
	}
	for _, c := range r.Signals(p.rekeys) {
		out = append(out, Signal{Community: c, Rekey: true})
	}
	p.open, p.events, p.rekeys = false, nil, nil
	return out
}

// Pending reports whether a batch is open, and since when.
func (p *Pump) Pending() (int, bool) { return p.first, p.open }

// collapse is the document's burst rule: one signal per community that
// saw an event in the window, in community order.
func collapse(events []int) []int {
	out := slices.Clone(events)
	slices.Sort(out)
	return slices.Compact(out)
}
