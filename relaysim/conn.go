package relaysim

import (
	"fmt"
	"slices"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/model"
)

// Conn is one client connection: the client's messages waiting for the
// relay (processed in any order the driver picks, as a relay handling
// each message concurrently may), the relay's messages waiting for the
// client (in wire order), the open subscriptions and the pushes queued
// for them.
type Conn struct {
	r       *Relay
	inbound []model.Out
	out     []model.In
	subs    []subscription
	pushes  []push
	nth     int
	lost    bool
	snaps   map[string]map[string]*nostr.Event
	// Stats counts what crossed the connection.
	Stats ConnStats
}

// ConnStats counts a connection's traffic.
type ConnStats struct {
	REQs   int // REQs processed
	Events int // EVENT messages sent (stored and pushed)
	Pushed int // of which pushes
}

type subscription struct {
	id     string
	filter nostr.Filter
	// late: not yet registered for pushes (Profile.RegisterLate); an
	// event accepted meanwhile is never pushed to it.
	late bool
}

// push is a queued push, or (ev nil, under QueryPush) a query's
// end-of-stored-events held until the pushes ahead of it are out.
type push struct {
	sub string
	ev  *nostr.Event
}

// Connect opens a connection.
func (r *Relay) Connect() *Conn {
	c := &Conn{r: r, snaps: map[string]map[string]*nostr.Event{}}
	r.conns = append(r.conns, c)
	return c
}

// Lost reports whether the connection dropped.
func (c *Conn) Lost() bool { return c.lost }

// Send queues client messages for the relay.
func (c *Conn) Send(msgs ...model.Out) {
	if !c.lost {
		c.inbound = append(c.inbound, msgs...)
	}
}

// Inbound is the number of client messages the relay has not processed.
func (c *Conn) Inbound() int { return len(c.inbound) }

// Outbound is the number of relay messages the client has not read.
func (c *Conn) Outbound() int { return len(c.out) }

// Pushes is the number of queued pushes not yet delivered.
func (c *Conn) Pushes() int { return len(c.pushes) }

// Process has the relay handle the i-th pending client message. A REQ
// registers its subscription, reads storage (under the profile's cap,
// order, tags and cache), delivers every queued push first if the profile
// keeps the barrier, then the stored events and end-of-stored-events. A
// CLOSE drops the subscription and its queued pushes.
func (c *Conn) Process(i int) error {
	if c.lost {
		return fmt.Errorf("relaysim: connection lost")
	}
	if i < 0 || i >= len(c.inbound) {
		return fmt.Errorf("relaysim: no pending message %d of %d", i, len(c.inbound))
	}
	if c.r.prof.InOrder {
		i = 0
	}
	m := c.inbound[i]
	c.inbound = slices.Delete(c.inbound, i, i+1)
	c.r.tick++
	switch m.Kind {
	case model.OutREQ:
		c.req(m.SubID, m.Filter)
	case model.OutCLOSE:
		c.subs = slices.DeleteFunc(c.subs, func(s subscription) bool { return s.id == m.SubID })
		c.pushes = slices.DeleteFunc(c.pushes, func(p push) bool { return p.sub == m.SubID })
	default:
		return fmt.Errorf("relaysim: unknown message kind %d", m.Kind)
	}
	return nil
}

func (c *Conn) req(id string, f nostr.Filter) {
	c.subs = slices.DeleteFunc(c.subs, func(s subscription) bool { return s.id == id })
	c.pushes = slices.DeleteFunc(c.pushes, func(p push) bool { return p.sub == id })
	c.subs = append(c.subs, subscription{id: id, filter: f, late: c.r.prof.RegisterLate})
	if max := c.r.prof.MaxSubs; max > 0 && len(c.subs) > max {
		gone := c.subs[0].id
		c.subs = c.subs[1:]
		c.pushes = slices.DeleteFunc(c.pushes, func(p push) bool { return p.sub == gone })
	}
	if c.r.Record {
		c.snaps[id] = c.r.Coordinates()
	}
	evs := c.r.query(f, c.nth)
	c.nth++
	c.Stats.REQs++
	if c.r.prof.Push == PushBarrier {
		c.Flush(len(c.pushes))
	}
	for _, ev := range evs {
		c.out = append(c.out, model.In{Kind: model.InEvent, SubID: id, Event: ev})
	}
	c.Stats.Events += len(evs)
	if c.r.prof.QueryPush {
		c.pushes = append(c.pushes, push{sub: id})
		return
	}
	c.out = append(c.out, model.In{Kind: model.InEOSE, SubID: id})
}

// Snapshot is the ground truth (Relay.Coordinates) when the REQ with this
// subscription id last read storage; it needs Relay.Record.
func (c *Conn) Snapshot(id string) (map[string]*nostr.Event, bool) {
	s, ok := c.snaps[id]
	return s, ok
}

func (c *Conn) push(ev *nostr.Event) {
	if c.lost {
		return
	}
	for _, s := range c.subs {
		if s.late || !s.filter.Matches(ev) {
			continue
		}
		p := push{s.id, ev}
		if i := slices.IndexFunc(c.pushes, func(p push) bool { return p.ev == nil }); c.r.prof.QueryPush && i >= 0 {
			c.pushes = slices.Insert(c.pushes, i, p) // ahead of the first held end-of-stored-events
			continue
		}
		c.pushes = append(c.pushes, p)
	}
}

// Register registers for pushes every subscription the relay answered
// but had not yet registered (Profile.RegisterLate): from now on they
// get what is accepted. It returns how many it registered.
func (c *Conn) Register() int {
	n := 0
	for i := range c.subs {
		if c.subs[i].late {
			c.subs[i].late = false
			n++
		}
	}
	return n
}

// Unregistered is the number of subscriptions answered but not yet
// registered for pushes.
func (c *Conn) Unregistered() int {
	n := 0
	for _, s := range c.subs {
		if s.late {
			n++
		}
	}
	return n
}

// Flush delivers up to k queued pushes, oldest first.
func (c *Conn) Flush(k int) {
	k = min(k, len(c.pushes))
	for _, p := range c.pushes[:k] {
		if p.ev == nil {
			c.out = append(c.out, model.In{Kind: model.InEOSE, SubID: p.sub})
			continue
		}
		c.out = append(c.out, model.In{Kind: model.InEvent, SubID: p.sub, Event: p.ev})
		c.Stats.Events++
		c.Stats.Pushed++
	}
	c.pushes = c.pushes[k:]
}

// Next pops the next relay message for the client.
func (c *Conn) Next() (model.In, bool) {
	if len(c.out) == 0 {
		return model.In{}, false
	}
	m := c.out[0]
	c.out = c.out[1:]
	return m, true
}

// CloseSub has the relay end a subscription on its own (["CLOSED"]).
func (c *Conn) CloseSub(id, reason string) bool {
	n := len(c.subs)
	c.subs = slices.DeleteFunc(c.subs, func(s subscription) bool { return s.id == id })
	if len(c.subs) == n || c.lost {
		return false
	}
	c.pushes = slices.DeleteFunc(c.pushes, func(p push) bool { return p.sub == id })
	c.out = append(c.out, model.In{Kind: model.InClosed, SubID: id, Reason: reason})
	return true
}

// Lose drops the connection: unread messages, pending client messages,
// subscriptions and queued pushes are gone, and the client is told the
// connection was lost.
func (c *Conn) Lose() {
	if c.lost {
		return
	}
	c.lost = true
	c.inbound, c.subs, c.pushes = nil, nil, nil
	c.out = []model.In{{Kind: model.InConnectionLost}}
	c.r.conns = slices.DeleteFunc(c.r.conns, func(x *Conn) bool { return x == c })
}
