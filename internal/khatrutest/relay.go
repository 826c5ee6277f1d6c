package khatrutest

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/fiatjaf/eventstore/slicestore"
	"github.com/fiatjaf/khatru"
	"github.com/nbd-wtf/go-nostr"
)

// Options configures a relay.
type Options struct {
	// MaxLimit is the store's cap: a query's limit above it, or no limit,
	// gets MaxLimit events (slicestore's default of 500 if zero).
	MaxLimit int
	// Conforming puts a wrapper in front of the store that answers every
	// query as NIP-01 asks (since inclusive, ties by lowest id, the cap
	// keeping the newest and lowest ids) instead of slicestore's query,
	// and pushes a stored event to open subscriptions before any query
	// can read it (khatru stores first and pushes later, so a query in
	// between breaks the delivery barrier). Replacement is unchanged.
	Conforming bool
	// RejectEvent, if set, refuses the events it returns a reason for
	// (OK false with that reason).
	RejectEvent func(ev *nostr.Event) string
}

// Relay is a running khatru relay.
type Relay struct {
	// URL is its websocket address, ws://127.0.0.1:port.
	URL string

	relay *khatru.Relay
	store *lockedStore
	srv   *http.Server
	ln    *trackingListener
	done  chan struct{}
}

// Start serves a new relay on a random loopback port.
func Start(opts Options) (*Relay, error) {
	inner := &slicestore.SliceStore{MaxLimit: opts.MaxLimit}
	if err := inner.Init(); err != nil {
		return nil, err
	}
	st := &lockedStore{inner: inner, conforming: opts.Conforming, byID: map[string]*nostr.Event{}, broadcast: map[string]bool{}}
	kr := khatru.NewRelay()
	if opts.Conforming {
		kr.OnEventSaved = append(kr.OnEventSaved, func(_ context.Context, ev *nostr.Event) { st.saved(kr, ev) })
		kr.PreventBroadcast = append(kr.PreventBroadcast, func(_ *khatru.WebSocket, ev *nostr.Event) bool { return st.pushed(ev) })
	}
	kr.Log = log.New(io.Discard, "", 0)
	kr.StoreEvent = append(kr.StoreEvent, st.save)
	kr.QueryEvents = append(kr.QueryEvents, st.query)
	kr.DeleteEvent = append(kr.DeleteEvent, st.delete)
	kr.CountEvents = append(kr.CountEvents, st.count)
	if opts.RejectEvent != nil {
		kr.RejectEvent = append(kr.RejectEvent, func(_ context.Context, ev *nostr.Event) (bool, string) {
			why := opts.RejectEvent(ev)
			return why != "", why
		})
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	tl := &trackingListener{Listener: l, conns: map[net.Conn]struct{}{}}
	r := &Relay{
		URL: "ws://" + l.Addr().String(), relay: kr, store: st, ln: tl, done: make(chan struct{}),
		srv: &http.Server{Handler: kr, ReadHeaderTimeout: 5 * time.Second},
	}
	go func() {
		defer close(r.done)
		_ = r.srv.Serve(tl)
	}()
	return r, nil
}

// Close stops the relay: the listener and every accepted connection
// (websockets included, which http.Server no longer tracks) are closed.
func (r *Relay) Close() error {
	err := r.srv.Close()
	r.ln.closeAll()
	<-r.done
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// Stored lists the newest MaxLimit events the store holds, in the
// store's order (newest first, ties by descending id).
func (r *Relay) Stored() []*nostr.Event { return r.store.all() }

// Preload stores events directly, without khatru's checks or pushes: for
// building large histories quickly.
func (r *Relay) Preload(evs ...*nostr.Event) error {
	for _, ev := range evs {
		if err := r.store.put(context.Background(), ev); err != nil {
			return err
		}
	}
	return nil
}

// trackingListener remembers the connections it accepted so that Close
// can end them.
type trackingListener struct {
	net.Listener
	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
}

func (t *trackingListener) Accept() (net.Conn, error) {
	c, err := t.Listener.Accept()
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		_ = c.Close()
		return nil, net.ErrClosed
	}
	t.conns[c] = struct{}{}
	return &trackedConn{Conn: c, l: t}, nil
}

func (t *trackingListener) closeAll() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	for c := range t.conns {
		_ = c.Close()
	}
	t.conns = map[net.Conn]struct{}{}
}

type trackedConn struct {
	net.Conn
	l    *trackingListener
	once sync.Once
}

func (c *trackedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		delete(c.l.conns, c.Conn)
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}
