package relaycheck

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/wsconn"
)

// Transport is a message-oriented connection; *wsconn.Conn is one (and
// *nostr.Connection, which bounds no message).
type Transport interface {
	WriteMessage(ctx context.Context, data []byte) error
	ReadMessage(ctx context.Context, buf io.Writer) error
	Close() error
}

// Dialer opens a transport to a relay.
type Dialer func(ctx context.Context, url string) (Transport, error)

// DialWebsocket dials a bounded websocket connection (wsconn, default
// options): no message over wsconn.DefaultMaxMessage is read, compressed
// or not, so a relay cannot make the probe allocate without bound.
func DialWebsocket(ctx context.Context, url string) (Transport, error) {
	return wsconn.Dial(ctx, url, wsconn.Options{})
}

// ErrClosed is returned once the connection has ended.
var ErrClosed = errors.New("relaycheck: connection closed")

// Conn is one relay connection with a single read loop: every frame is
// parsed in wire order and queued for the caller. Frames that do not parse
// are counted and skipped; NOTICEs are counted and dropped, so a flood of
// them costs nothing but the reading.
type Conn struct {
	t      Transport
	frames chan nostr.Envelope
	quit   chan struct{} // closed by Close: the read loop stops waiting
	done   chan struct{}
	once   sync.Once
	mu     sync.Mutex
	err    error
	// Notices and Malformed count the NOTICE and unparseable frames read.
	notices, malformed int
}

// maxQueued bounds the frames read ahead of the caller. When it is
// reached the read loop waits for the caller, so the relay is slowed by
// the connection's flow control instead of filling memory: the queue
// holds at most maxQueued messages of the transport's bound (with
// DialWebsocket, 256 x 256 KiB).
const maxQueued = 256

// Dial connects and starts the read loop.
func Dial(ctx context.Context, dial Dialer, url string) (*Conn, error) {
	t, err := dial(ctx, url)
	if err != nil {
		return nil, err
	}
	c := &Conn{t: t, frames: make(chan nostr.Envelope, maxQueued), quit: make(chan struct{}), done: make(chan struct{})}
	go c.readLoop()
	return c, nil
}

func (c *Conn) readLoop() {
	defer close(c.done)
	defer close(c.frames)
	var buf bytes.Buffer
	for {
		buf.Reset()
		if err := c.t.ReadMessage(context.Background(), &buf); err != nil {
			c.fail(err)
			return
		}
		env := nostr.ParseMessage(buf.Bytes())
		c.mu.Lock()
		switch env.(type) {
		case nil:
			c.malformed++
			env = nil
		case *nostr.NoticeEnvelope:
			c.notices++
			env = nil
		}
		c.mu.Unlock()
		if env == nil {
			continue
		}
		select {
		case c.frames <- env:
		case <-c.quit:
			c.fail(ErrClosed)
			return
		}
	}
}

func (c *Conn) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.err = err
	}
}

// Counts reports the NOTICE and malformed frames read so far.
func (c *Conn) Counts() (notices, malformed int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.notices, c.malformed
}

// Close ends the connection and waits for the read loop to stop.
func (c *Conn) Close() error {
	var err error
	c.once.Do(func() {
		close(c.quit)
		err = c.t.Close()
	})
	<-c.done
	return err
}

// Send writes one client message.
func (c *Conn) Send(ctx context.Context, env nostr.Envelope) error {
	data, err := env.MarshalJSON()
	if err != nil {
		return err
	}
	return c.t.WriteMessage(ctx, data)
}

// Next returns the next frame in wire order, or an error when ctx ends or
// the connection is gone.
func (c *Conn) Next(ctx context.Context) (nostr.Envelope, error) {
	select {
	case env, ok := <-c.frames:
		if !ok {
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.err == ErrClosed {
				return nil, ErrClosed
			}
			// The transport's error may quote the relay (a close frame's
			// reason).
			return nil, fmt.Errorf("%w: %s", ErrClosed, Printable(c.err.Error()))
		}
		return env, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Publish sends an event and waits for its OK. Frames for other purposes
// read meanwhile are handed to other (which may be nil). The reason is the
// relay's, escaped (Printable).
func (c *Conn) Publish(ctx context.Context, ev *nostr.Event, other func(nostr.Envelope)) (ok bool, reason string, err error) {
	if err := c.Send(ctx, &nostr.EventEnvelope{Event: *ev}); err != nil {
		return false, "", err
	}
	for {
		env, err := c.Next(ctx)
		if err != nil {
			return false, "", err
		}
		if o, isOK := env.(*nostr.OKEnvelope); isOK && o.EventID == ev.ID {
			return o.OK, Printable(o.Reason), nil
		}
		if other != nil {
			other(env)
		}
	}
}

// Unsub closes a subscription.
func (c *Conn) Unsub(ctx context.Context, sub string) error {
	ce := nostr.CloseEnvelope(sub)
	return c.Send(ctx, &ce)
}
