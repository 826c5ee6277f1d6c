package wsconn

import (
	"bytes"
	"compress/flate"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"

	"github.com/gobwas/httphead"
	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsflate"
	"github.com/gobwas/ws/wsutil"
)

// DefaultMaxMessage bounds one relay message when Options leave it zero.
//
// The largest event the spec's own budget produces: 32 KiB of plaintext
// pads under NIP-44 v2 to 32,768 bytes plus a 2-byte length prefix; the
// version byte, the 32-byte nonce and the 32-byte MAC make 32,835 bytes,
// which base64 turns into 43,780 characters of content. The event's other
// fields (id, pubkey, sig, created_at, kind, the d and t tags) and the
// ["EVENT","<sub>",...] envelope add under 500 bytes: about 44.3 KB a
// message. Relays typically limit events to 64 KB of content (the spec's
// own wording, model.DefaultMaxEventBytes), about 66 KB a message.
//
// 256 KiB is about 5.9 times the budget's event and 4 times the relay
// limit: an event somewhat over either still reaches the load, which
// refuses it with a clear reason, rather than ending the connection; a
// relay can make the client hold no more than this per message.
const DefaultMaxMessage = 256 << 10

// ErrTooLarge reports a message over the bound, on the wire or inflated.
var ErrTooLarge = errors.New("wsconn: message exceeds the size bound")

// ErrClosed is returned by calls after the connection has ended.
var ErrClosed = errors.New("wsconn: connection closed")

// Options configure Dial. The zero value is the safe default.
type Options struct {
	// MaxMessage bounds one message: the length a frame header may
	// announce, the wire bytes of all fragments of a message together,
	// and the bytes a compressed message inflates to. Zero means
	// DefaultMaxMessage; it must not be negative.
	MaxMessage int64
	// Compress offers permessage-deflate without context takeover.
	Compress bool
	// Header is sent with the handshake request.
	Header http.Header
	// TLS configures wss:// connections.
	TLS *tls.Config
}

// Conn is one websocket connection to a relay. It satisfies model.Wire and
// relaycheck.Transport.
type Conn struct {
	conn net.Conn
	max  int64

	rmu      sync.Mutex // one ReadMessage at a time
	r        *wsutil.Reader
	inflate  *wsflate.Reader // nil unless compression was negotiated
	msgState wsflate.MessageState
	rerr     error // sticky: a failed read leaves the stream unframed
	// overhead is what the message being read may still spend on frame
	// headers and control frames (frameOverhead): the payload bound
	// alone would let a relay send endless empty continuation frames,
	// or endless pings between fragments, and never end the message.
	overhead int64

	wmu sync.Mutex // frames written whole, pongs between them

	closeOnce sync.Once
	closeErr  error
}

// Dial opens a websocket connection to url; ctx bounds the handshake only.
func Dial(ctx context.Context, url string, opts Options) (*Conn, error) {
	max := opts.MaxMessage
	switch {
	case max < 0:
		return nil, fmt.Errorf("wsconn: MaxMessage %d is negative", max)
	case max == 0:
		max = DefaultMaxMessage
	}
	d := ws.Dialer{Header: ws.HandshakeHeaderHTTP(opts.Header), TLSConfig: opts.TLS}
	if opts.Compress {
		d.Extensions = []httphead.Option{wsflate.DefaultParameters.Option()}
	}
	conn, br, hs, err := d.Dial(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("wsconn: dial %s: %w", url, err)
	}
	compressed, err := negotiated(hs.Extensions)
	if err != nil {
		conn.Close()
		return nil, err
	}
	c := &Conn{conn: conn, max: max}
	// Bytes the relay sent right behind the handshake response are in br.
	var src io.Reader = conn
	if br != nil {
		src = br
	}
	state := ws.StateClientSide
	if compressed {
		state |= ws.StateExtended
		c.inflate = newInflater()
	}
	c.r = &wsutil.Reader{
		Source: src,
		State:  state,
		// The header's announced length is checked before any of the
		// payload is read.
		MaxFrameSize: max,
		OnIntermediate: func(h ws.Header, r io.Reader) error {
			// Charged as the largest a control frame can be: answering
			// a ping costs a pong write whatever its size.
			if err := c.frameOverhead(h, ws.MaxHeaderSize-int64(ws.HeaderSize(h))+ws.MaxControlFramePayloadSize); err != nil {
				return err
			}
			return c.control(h, r)
		},
		OnContinuation: func(h ws.Header, _ io.Reader) error { return c.frameOverhead(h, 0) },
	}
	if compressed {
		c.r.Extensions = []wsutil.RecvExtension{&c.msgState}
	}
	return c, nil
}

// negotiated reports whether the relay accepted permessage-deflate, and
// refuses parameters under which a message cannot be inflated on its own.
func negotiated(exts []httphead.Option) (bool, error) {
	for _, e := range exts {
		if string(e.Name) != wsflate.ExtensionName {
			continue
		}
		var p wsflate.Parameters
		if err := p.Parse(e); err != nil {
			return false, fmt.Errorf("wsconn: relay's permessage-deflate parameters: %w", err)
		}
		if !p.ServerNoContextTakeover {
			return false, errors.New("wsconn: relay kept compression context across messages, which was not offered")
		}
		return true, nil
	}
	return false, nil
}

// ReadMessage copies the payload of the next data message into buf,
// answering control frames met on the way. A message over the bound is
// ErrTooLarge; any failure ends the connection.
func (c *Conn) ReadMessage(ctx context.Context, buf io.Writer) (err error) {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	if c.rerr != nil {
		return c.rerr
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { _ = c.Close() })
	defer func() {
		stop()
		if err != nil {
			if ctx.Err() != nil {
				err = fmt.Errorf("wsconn: read: %w", ctx.Err())
			}
			c.rerr = err
			_ = c.Close()
		}
	}()
	for {
		h, err := c.r.NextFrame()
		if err != nil {
			return c.readErr(err)
		}
		if h.OpCode.IsControl() {
			if err := c.control(h, c.r); err != nil {
				return err
			}
			continue
		}
		// CheckHeader in NextFrame already refused a continuation that
		// starts a message, so this is a text or binary frame.
		break
	}
	// wire counts the bytes of every fragment; the frame bound alone
	// would let a relay send endless fragments each under it. Headers
	// and control frames within the message are counted apart, against
	// a bound of their own as large, so that a message at the payload
	// bound still arrives in however many fragments.
	wire := &io.LimitedReader{R: c.r, N: c.max + 1}
	c.overhead = c.max
	var src io.Reader = wire
	if c.inflate != nil && c.msgState.IsCompressed() {
		c.inflate.Reset(wire)
		src = c.inflate
	}
	msg := &latch{r: src}
	n, err := io.Copy(buf, io.LimitReader(msg, c.max))
	if err != nil && wire.N == 0 {
		// The wire bound cut a compressed stream mid-block: the inflater
		// reports corrupt input, but what happened is a message too large.
		return fmt.Errorf("%w (%d bytes)", ErrTooLarge, c.max)
	}
	if err != nil {
		return c.readErr(err)
	}
	if n == c.max && !msg.eof {
		// One byte more than the bound is read to tell a message of
		// exactly the bound from a longer one; it is not handed out.
		var one [1]byte
		if k, err := io.ReadFull(msg, one[:]); k > 0 {
			return fmt.Errorf("%w (%d bytes)", ErrTooLarge, c.max)
		} else if err != io.EOF {
			return c.readErr(err)
		}
	}
	if wire.N == 0 {
		return fmt.Errorf("%w (%d bytes)", ErrTooLarge, c.max)
	}
	return nil
}

// frameOverhead charges one frame within a message (a continuation, or a
// control frame between fragments) to the message's overhead bound: its
// header and extra, for a control frame what it is charged beyond its
// header (its payload never passes through the message's wire count).
func (c *Conn) frameOverhead(h ws.Header, extra int64) error {
	c.overhead -= int64(ws.HeaderSize(h)) + extra
	if c.overhead < 0 {
		return fmt.Errorf("%w: more than %d bytes of frame headers and control frames within one message", ErrTooLarge, c.max)
	}
	return nil
}

// latch remembers the end of a message: wsutil.Reader forgets the frame
// once it has reported io.EOF and fails a further read.
type latch struct {
	r   io.Reader
	eof bool
}

func (l *latch) Read(p []byte) (int, error) {
	if l.eof {
		return 0, io.EOF
	}
	n, err := l.r.Read(p)
	if err == io.EOF {
		l.eof = true
	}
	return n, err
}

func (c *Conn) readErr(err error) error {
	if errors.Is(err, wsutil.ErrFrameTooLarge) {
		return fmt.Errorf("%w (%d bytes)", ErrTooLarge, c.max)
	}
	return fmt.Errorf("wsconn: read: %w", err)
}

// control answers a ping, ignores a pong and acknowledges a close (which
// ends the read with wsutil.ClosedError). Its payload (at most 125 bytes,
// CheckHeader enforced) is read before the writer's lock is taken, so a
// relay that stalls mid-frame does not hold up writes.
func (c *Conn) control(h ws.Header, r io.Reader) error {
	var p [ws.MaxControlFramePayloadSize]byte
	payload := p[:h.Length]
	if _, err := io.ReadFull(r, payload); err != nil {
		return fmt.Errorf("wsconn: control frame: %w", err)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return wsutil.ControlHandler{
		Src:                 bytes.NewReader(payload),
		Dst:                 c.conn,
		State:               ws.StateClientSide,
		DisableSrcCiphering: true,
	}.Handle(h)
}

// WriteMessage sends data as one uncompressed text frame.
func (c *Conn) WriteMessage(ctx context.Context, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	// A relay that stops reading would block the write forever.
	stop := context.AfterFunc(ctx, func() { _ = c.Close() })
	defer stop()
	if err := wsutil.WriteClientMessage(c.conn, ws.OpText, data); err != nil {
		_ = c.Close()
		if ctx.Err() != nil {
			return fmt.Errorf("wsconn: write: %w", ctx.Err())
		}
		return fmt.Errorf("wsconn: write: %w", err)
	}
	return nil
}

// Close ends the connection; blocked reads and writes return.
func (c *Conn) Close() error {
	c.closeOnce.Do(func() { c.closeErr = c.conn.Close() })
	return c.closeErr
}

// newInflater returns a permessage-deflate reader whose flate state is
// reused across messages (wsflate builds a new decompressor per message
// unless it can reset one).
func newInflater() *wsflate.Reader {
	return wsflate.NewReader(nil, func(r io.Reader) wsflate.Decompressor {
		return resettable{flate.NewReader(r)}
	})
}

// resettable adapts flate's Reset(r, dict) to wsflate's Reset(r).
type resettable struct{ io.ReadCloser }

func (d resettable) Reset(r io.Reader) { _ = d.ReadCloser.(flate.Resetter).Reset(r, nil) }
