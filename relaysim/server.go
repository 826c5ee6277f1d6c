package relaysim

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/model"
)

// Server serves a Relay to concurrent clients as JSON frames, the way a
// websocket relay does, for clients written against real relays (the
// conformance probe). Every client frame is handled at once under one
// lock: an EVENT is published (a split replacement settles at once) and
// its pushes go out before its OK, as khatru does; a REQ is answered; a
// kind 5 deletes the events its e tags name when the author matches. The
// schedule is one the profile allows, so the relay stays deterministic.
//
// Under a profile that registers subscriptions late (RegisterLate) the
// one clock it reads decides registration: a subscription answered
// RegisterAfter or longer before a frame arrives (on any connection) is
// registered before that frame is handled, so a write arriving sooner is
// never pushed to it and one arriving later always is.
type Server struct {
	mu    sync.Mutex
	r     *Relay
	conns []*ServerConn
	// RegisterAfter is how long after answering a REQ the server
	// registers it for pushes under RegisterLate; 0 means
	// DefaultRegisterAfter.
	RegisterAfter time.Duration
}

// DefaultRegisterAfter is the server's registration lag under
// RegisterLate: far above a loopback round trip, so that a write sent as
// soon as the answer arrives is lost even on a busy machine, and below
// the 50 ms a client that waits for registration (the probe's settled
// push check) waits after the answer reached it, which is after the
// server read its clock: that client's write always finds the
// subscription registered.
const DefaultRegisterAfter = 45 * time.Millisecond

// NewServer serves r.
func NewServer(r *Relay) *Server { return &Server{r: r} }

// ServerConn is one client's connection to a Server.
type ServerConn struct {
	s      *Server
	c      *Conn
	frames [][]byte
	closed bool
	cond   *sync.Cond
	// answered is when the server last answered a REQ it has not
	// registered (RegisterLate).
	answered time.Time
}

// ErrServerConnClosed is returned by a closed ServerConn.
var ErrServerConnClosed = errors.New("relaysim: connection closed")

// Dial opens a connection; the URL is ignored.
func (s *Server) Dial(context.Context, string) (*ServerConn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sc := &ServerConn{s: s, c: s.r.Connect(), cond: sync.NewCond(&s.mu)}
	s.conns = append(s.conns, sc)
	return sc, nil
}

// WriteMessage handles one client frame.
func (sc *ServerConn) WriteMessage(_ context.Context, data []byte) error {
	s := sc.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if sc.closed {
		return ErrServerConnClosed
	}
	s.registerDue(time.Now())
	switch env := nostr.ParseMessage(data).(type) {
	case *nostr.EventEnvelope:
		ev := env.Event
		ok, reason := true, ""
		if ev.Kind == 5 {
			for _, tag := range ev.Tags {
				if len(tag) >= 2 && tag[0] == "e" {
					for _, stored := range s.r.Events() {
						if stored.ID == tag[1] && stored.PubKey == ev.PubKey {
							s.r.Delete(stored.ID)
						}
					}
				}
			}
		} else {
			ok, reason = s.r.Publish(&ev)
			for s.r.Settle() {
			}
		}
		s.flushAll()
		frame, _ := nostr.OKEnvelope{EventID: ev.ID, OK: ok, Reason: reason}.MarshalJSON()
		sc.frames = append(sc.frames, frame)
		sc.cond.Broadcast()
		return nil
	case *nostr.ReqEnvelope:
		if len(env.Filters) != 1 {
			return fmt.Errorf("relaysim: REQ with %d filters", len(env.Filters))
		}
		sc.c.Send(model.Out{Kind: model.OutREQ, SubID: env.SubscriptionID, Filter: env.Filters[0]})
	case *nostr.CloseEnvelope:
		sc.c.Send(model.Out{Kind: model.OutCLOSE, SubID: string(*env)})
	default:
		return fmt.Errorf("relaysim: unexpected frame %.40s", data)
	}
	if err := sc.c.Process(sc.c.Inbound() - 1); err != nil {
		return err
	}
	if s.r.prof.RegisterLate {
		sc.answered = time.Now()
	} else {
		sc.c.Register()
	}
	s.flushAll()
	return nil
}

// registerDue registers the late subscriptions of every connection that
// answered its last REQ RegisterAfter or longer before now; the caller
// holds the lock.
func (s *Server) registerDue(now time.Time) {
	after := s.RegisterAfter
	if after == 0 {
		after = DefaultRegisterAfter
	}
	for _, o := range s.conns {
		if !o.closed && o.c.Unregistered() > 0 && now.Sub(o.answered) >= after {
			o.c.Register()
		}
	}
}

// flushAll sends every connection's queued pushes and moves its messages
// to its frames; the caller holds the lock.
func (s *Server) flushAll() {
	for _, o := range s.conns {
		if o.closed {
			continue
		}
		o.c.Flush(o.c.Pushes())
		for {
			m, ok := o.c.Next()
			if !ok {
				break
			}
			if frame := encodeIn(m); frame != nil {
				o.frames = append(o.frames, frame)
			}
		}
		o.cond.Broadcast()
	}
}

func encodeIn(m model.In) []byte {
	var frame []byte
	switch m.Kind {
	case model.InEvent:
		sub := m.SubID
		frame, _ = nostr.EventEnvelope{SubscriptionID: &sub, Event: *m.Event}.MarshalJSON()
	case model.InEOSE:
		frame, _ = nostr.EOSEEnvelope(m.SubID).MarshalJSON()
	case model.InClosed:
		frame, _ = nostr.ClosedEnvelope{SubscriptionID: m.SubID, Reason: m.Reason}.MarshalJSON()
	}
	return frame
}

// ReadMessage blocks until a frame is ready or the connection is closed.
func (sc *ServerConn) ReadMessage(_ context.Context, buf io.Writer) error {
	sc.s.mu.Lock()
	for len(sc.frames) == 0 && !sc.closed {
		sc.cond.Wait()
	}
	if sc.closed {
		sc.s.mu.Unlock()
		return ErrServerConnClosed
	}
	frame := sc.frames[0]
	sc.frames = sc.frames[1:]
	sc.s.mu.Unlock()
	_, err := buf.Write(frame)
	return err
}

// Close ends the connection; a blocked ReadMessage returns.
func (sc *ServerConn) Close() error {
	sc.s.mu.Lock()
	defer sc.s.mu.Unlock()
	if !sc.closed {
		sc.closed = true
		sc.c.Lose()
		sc.cond.Broadcast()
	}
	return nil
}
