package khatrutest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/fiatjaf/khatru"
	"github.com/nbd-wtf/go-nostr"
)

// Options configures a relay.
type Options struct {
	// Backend is the store khatru runs over, one of Backends(); empty
	// means slicestore.
	Backend string
	// MaxLimit is the store's cap knob (slicestore, badger and lmdb
	// MaxLimit, sqlite3 QueryLimit); zero leaves the store's default
	// (500, or 100 for sqlite3). What a query gets under it is the
	// store's own rule: slicestore and sqlite3 give min(limit, MaxLimit),
	// badger and lmdb give MaxLimit/4 for a limit at or above MaxLimit.
	MaxLimit int
	// Conforming (slicestore only) puts a wrapper in front of the store
	// that answers every query as NIP-01 asks (since inclusive, ties by
	// lowest id, the cap keeping the newest and lowest ids) instead of
	// slicestore's query, and pushes a stored event to open subscriptions
	// before any query can read it (khatru stores first and pushes later,
	// so a query in between breaks the delivery barrier). It answers only
	// the latest version of each replaceable address, and a replacement
	// is atomic: the replaced version is answered until its replacement
	// is stored, never neither (khatru deletes, then saves).
	Conforming bool
	// RejectEvent, if set, refuses the events it returns a reason for
	// (OK false with that reason).
	RejectEvent func(ev *nostr.Event) string
	// Addr is the address to listen on; empty means 127.0.0.1:0, a
	// loopback port the system picks (what every test wants, and the
	// safe default for a relay an operator starts by hand).
	Addr string
	// Dir (disk stores only) is the data directory to use as it is, made
	// if absent and kept by Close, so a relay started again over it finds
	// what it stored; empty means a fresh directory that Close removes.
	Dir string
}

// Relay is a running khatru relay.
type Relay struct {
	// URL is its websocket address, ws://127.0.0.1:port.
	URL string
	// Backend is the store it runs over.
	Backend string
	// Dir is the store's data directory (empty for slicestore): made for
	// this relay and removed by Close, or Options.Dir, which Close keeps.
	Dir string

	relay *khatru.Relay
	store *store
	srv   *http.Server
	ln    *trackingListener
	done  chan struct{}

	keepDir   bool // Dir was given (Options.Dir): Close leaves it
	closeOnce sync.Once
	closeErr  error
}

// Start serves a new relay on a random loopback port (or Options.Addr),
// over a fresh store (a new data directory for a disk store) or the one in
// Options.Dir. On an error nothing it made is left behind.
func Start(opts Options) (r *Relay, err error) {
	backend := opts.Backend
	if backend == "" {
		backend = Slicestore
	}
	if !validBackend(backend) {
		return nil, fmt.Errorf("khatrutest: unknown backend %q (have %v)", backend, Backends())
	}
	if opts.Conforming && backend != Slicestore {
		return nil, fmt.Errorf("khatrutest: Conforming is a slicestore option, not %s's", backend)
	}
	if opts.MaxLimit < 0 {
		return nil, fmt.Errorf("khatrutest: MaxLimit %d is negative", opts.MaxLimit)
	}
	if opts.Dir != "" && backend == Slicestore {
		return nil, errors.New("khatrutest: slicestore keeps nothing on disk, so a data directory is for badger, lmdb or sqlite3")
	}
	addr := opts.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	keep := opts.Dir != ""
	dir := opts.Dir
	if keep {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("khatrutest: data directory: %w", err)
		}
	} else if dir, err = dataDir(backend); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil && dir != "" && !keep {
			_ = os.RemoveAll(dir)
		}
	}()
	inner, maxLimit, workers, err := openBackend(backend, dir, opts.MaxLimit)
	if err != nil {
		return nil, err
	}
	st := newStore(inner, maxLimit, workers, backend == Slicestore, opts.Conforming)
	l, err := net.Listen("tcp", addr)
	if err != nil {
		st.close()
		return nil, err
	}
	kr := khatru.NewRelay()
	if opts.Conforming {
		kr.OnEventSaved = append(kr.OnEventSaved, func(_ context.Context, ev *nostr.Event) { st.saved(kr, ev) })
		kr.PreventBroadcast = append(kr.PreventBroadcast, func(_ *khatru.WebSocket, ev *nostr.Event) bool { return st.pushed(ev) })
		kr.RejectEvent = append(kr.RejectEvent, func(ctx context.Context, ev *nostr.Event) (bool, string) {
			st.incoming(ctx, ev)
			return false, ""
		})
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
	tl := &trackingListener{Listener: l, conns: map[net.Conn]struct{}{}}
	r = &Relay{
		URL: "ws://" + l.Addr().String(), Backend: backend, Dir: dir, keepDir: keep, relay: kr, store: st, ln: tl, done: make(chan struct{}),
		srv: &http.Server{Handler: kr, ReadHeaderTimeout: 5 * time.Second},
	}
	go func() {
		defer close(r.done)
		_ = r.srv.Serve(tl)
	}()
	return r, nil
}

// Close stops the relay: the listener and every accepted connection
// (websockets included, which http.Server no longer tracks) are closed,
// the store is closed once the calls in progress and its own query
// workers have ended, and the data directory is removed unless it was
// given (Options.Dir). Calling it
// again (a deferred Close after a failing test's cleanup) does nothing.
func (r *Relay) Close() error {
	r.closeOnce.Do(func() {
		err := r.srv.Close()
		r.ln.closeAll()
		<-r.done
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		r.store.close()
		if r.Dir != "" && !r.keepDir {
			if rerr := os.RemoveAll(r.Dir); err == nil {
				err = rerr
			}
		}
		r.closeErr = err
	})
	return r.closeErr
}

// Stored lists every event the store holds among those saved through it
// (by khatru or Preload) and not deleted through it, asked of the store by
// id, newest first, ties by lowest id.
func (r *Relay) Stored() ([]*nostr.Event, error) { return r.store.all() }

// Preload stores events directly through the store's SaveEvent, without
// khatru's checks, replacement or pushes: for building large histories
// quickly.
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
