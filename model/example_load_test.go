package model_test

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/model"
)

// memRelay is a relay small enough to read: it stores events and answers
// each REQ from storage newest first (ties by lowest id) up to the
// filter's limit, then EOSE. It never pushes, refuses nothing and keeps
// one version per address, which meets what the full-state load asks of
// a relay for a store that does not change while the load runs.
type memRelay struct{ events []*nostr.Event }

// handle answers one client frame with the relay's frames, in order.
func (m *memRelay) handle(frame []byte) [][]byte {
	req, ok := nostr.ParseMessage(frame).(*nostr.ReqEnvelope)
	if !ok {
		return nil // CLOSE: nothing to answer
	}
	var match []*nostr.Event
	for _, ev := range m.events {
		if req.Filters.Match(ev) {
			match = append(match, ev)
		}
	}
	slices.SortFunc(match, func(a, b *nostr.Event) int {
		return cmp.Or(cmp.Compare(b.CreatedAt, a.CreatedAt), strings.Compare(a.ID, b.ID))
	})
	if l := req.Filters[0].Limit; l > 0 && len(match) > l {
		match = match[:l]
	}
	var out [][]byte
	for _, ev := range match {
		sub := req.SubscriptionID
		f, _ := nostr.EventEnvelope{SubscriptionID: &sub, Event: *ev}.MarshalJSON()
		out = append(out, f)
	}
	eose, _ := nostr.EOSEEnvelope(req.SubscriptionID).MarshalJSON()
	return append(out, eose)
}

// userEvents builds n read-state events of one user, a second apart, each
// at its own slot and from its own installation.
func userEvents(keys *model.SelfKeys, n int) ([]*nostr.Event, error) {
	var evs []*nostr.Event
	for i := range n {
		slot := fmt.Sprintf("%032x", i+1)
		blob := model.Blob{V: 1, ClientID: fmt.Sprintf("device-%d", i+1),
			Contexts: []model.Entry{{Key: "chan-1", Value: uint32(100 * (i + 1))}}}
		ev, err := model.BuildEvent(keys, slot, int64(1_700_000_000+i), blob)
		if err != nil {
			return nil, err
		}
		evs = append(evs, ev)
	}
	return evs, nil
}

// exampleSecret is a fixed private key, for a reproducible example.
const exampleSecret = "0000000000000000000000000000000000000000000000000000000000000001"

// A full-state load driven by hand (sans-I/O): Start, send what it
// returns, feed every relay frame in wire order, send what each Feed
// returns, wait whenever PassGapDue says so, and read Result once the
// load has a verdict. With the limit at the floor the load steps down:
// a band (no since), the pinned window at its oldest second T, then the
// band below T, until a band comes back empty. Only a complete load may be the basis of the
// gated actions (canonical publication, compaction, deletion).
func ExampleLoad() {
	keys, err := model.NewSelfKeys(exampleSecret)
	if err != nil {
		fmt.Println(err)
		return
	}
	evs, err := userEvents(keys, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	relay := &memRelay{events: evs}

	rules := model.Proposed()
	load, err := model.NewLoad(model.LoadConfig{
		PubKey:    keys.Public,
		Limit:     model.FloorL, // the smallest limit, to make the load step down
		SubPrefix: "rs",
		Nonce:     1, // fixed filters; zero draws one at random
		Rules:     rules,
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	var inbox [][]byte // frames the relay sent, not yet fed
	send := func(outs []model.Out) {
		if gap, due := load.PassGapDue(); due {
			time.Sleep(gap) // LoadConfig.PassGap: never due in a one-pass load
		}
		for _, o := range outs {
			fmt.Println("->", describe(o))
			frame, err := o.Wire()
			if err != nil {
				fmt.Println(err)
				return
			}
			inbox = append(inbox, relay.handle(frame)...)
		}
	}
	send(load.Start())
	for load.Running() && len(inbox) > 0 {
		frame := inbox[0]
		inbox = inbox[1:]
		if in, ok := model.ParseIn(frame); ok { // NOTICE, OK, AUTH: skipped
			send(load.Feed(in))
		}
	}
	if load.Running() { // the relay went quiet: give up on it
		send(load.Abort("no answer"))
	}

	res := load.Result()
	fmt.Println(res.Verdict, res.Stats.Queries, "queries")

	// Every collected coordinate is authenticated, decrypted and
	// validated before it merges.
	me := model.NewReplica("device-9")
	me.Rules = rules
	for _, ev := range res.Events {
		slot, blob, _, err := model.ParseEvent(rules, keys, ev, model.DefaultMaxEventBytes)
		if err != nil {
			fmt.Println("ignored", slot, err)
			continue
		}
		me.Receive(blob)
	}
	me.ApplyLoad(res.Verdict)
	fmt.Println("chan-1 at", me.Frontier("chan-1"), "gates open:", me.Permit(model.ActCanonicalPublish) == nil)
	// Output:
	// -> REQ rs-fence
	// -> REQ rs-q1 until=4294967291
	// -> CLOSE rs-q1
	// -> REQ rs-q2 since=1700000001 until=1700000001
	// -> CLOSE rs-q2
	// -> REQ rs-q3 until=1700000000
	// -> CLOSE rs-q3
	// -> REQ rs-q4 since=1700000000 until=1700000000
	// -> CLOSE rs-q4
	// -> REQ rs-q5 until=1699999999
	// -> CLOSE rs-q5
	// -> CLOSE rs-fence
	// complete 5 queries
	// chan-1 at 300 gates open: true
}

// describe is one line of the exchange: the message and the window a
// query asks for.
func describe(o model.Out) string {
	if o.Kind == model.OutCLOSE {
		return "CLOSE " + o.SubID
	}
	s := "REQ " + o.SubID
	if o.Filter.Since != nil {
		s += fmt.Sprintf(" since=%d", *o.Filter.Since)
	}
	if o.Filter.Until != nil {
		s += fmt.Sprintf(" until=%d", *o.Filter.Until)
	}
	return s
}

// memWire carries the in-memory relay as a Wire, the connection Drive
// reads and writes; a websocket to a real relay takes its place.
type memWire struct {
	relay *memRelay
	queue [][]byte
}

func (w *memWire) WriteMessage(_ context.Context, data []byte) error {
	w.queue = append(w.queue, w.relay.handle(data)...)
	return nil
}

func (w *memWire) ReadMessage(_ context.Context, buf io.Writer) error {
	if len(w.queue) == 0 {
		return errors.New("connection closed") // Drive takes it as lost
	}
	_, err := io.Copy(buf, bytes.NewReader(w.queue[0]))
	w.queue = w.queue[1:]
	return err
}

// Drive runs the same loop over a connection, here with two passes: the
// load reads the relay twice on one fence (a defence against a relay that
// replaces an event by deleting it first), waiting PassGap before each
// later pass.
func ExampleDrive() {
	keys, err := model.NewSelfKeys(exampleSecret)
	if err != nil {
		fmt.Println(err)
		return
	}
	evs, err := userEvents(keys, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	wire := &memWire{relay: &memRelay{events: evs}}
	load, err := model.NewLoad(model.LoadConfig{PubKey: keys.Public, Limit: 10, Passes: 2, Nonce: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	res := model.Drive(context.Background(), wire, load)
	fmt.Println(res.Verdict, len(res.Events), "coordinates,", res.Stats.Queries, "queries")
	// Output:
	// complete 3 coordinates, 7 queries
}
