package wsconn_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/gobwas/ws"

	"github.com/nip-rs/harness/internal/testrelay/hostile"
	"github.com/nip-rs/harness/wsconn"
)

// allocBound is what reading any of the hostile messages below may
// allocate: a few times the 256 KiB message bound, far under the 64 MB
// the bomb inflates to or the 1 GiB a header announces.
const allocBound = 8 << 20

// TestReadBounded: every message over the bound fails the read, ends the
// connection and allocates no more than the bound's order; messages at
// the bound arrive whole.
func TestReadBounded(t *testing.T) {
	const max = wsconn.DefaultMaxMessage
	atBound := `["NOTICE","` + strings.Repeat("a", max-len(`["NOTICE",""]`)) + `"]`
	tests := []struct {
		name     string
		compress bool
		script   func(p *hostile.Peer)
		want     string // the message read, or "" for an error
		wantErr  error
	}{
		{"deflate bomb, 64 MB inflated", true, func(p *hostile.Peer) {
			_ = p.Deflated(hostile.Bomb(64 << 20))
			p.Drain()
		}, "", wsconn.ErrTooLarge},
		{"frame announcing 1 GiB", false, func(p *hostile.Peer) {
			_ = p.Frame(ws.Header{Fin: true, OpCode: ws.OpText, Length: 1 << 30}, []byte(`["NOTICE","`))
			p.Drain()
		}, "", wsconn.ErrTooLarge},
		{"endless fragments, each under the bound", false, func(p *hostile.Peer) {
			chunk := bytes.Repeat([]byte("a"), 64<<10)
			_ = p.Frame(ws.Header{OpCode: ws.OpText, Length: int64(len(chunk))}, chunk)
			for range 64 {
				if p.Frame(ws.Header{OpCode: ws.OpContinuation, Length: int64(len(chunk))}, chunk) != nil {
					return
				}
			}
			p.Drain()
		}, "", wsconn.ErrTooLarge},
		// Issue 34 row 12: frames that carry nothing never grew the
		// payload count, so these never ended.
		{"endless empty continuation frames", false, func(p *hostile.Peer) {
			_ = p.Frame(ws.Header{OpCode: ws.OpText, Length: 2}, []byte(`["`))
			for p.Frame(ws.Header{OpCode: ws.OpContinuation}, nil) == nil {
			}
		}, "", wsconn.ErrTooLarge},
		// Compressed fragments of empty deflate blocks inflate to nothing,
		// so only the count of wire bytes ends them: 1 MiB of them, then a
		// valid end, must be refused, not read as the short message.
		{"compressed fragments inflating to nothing", true, func(p *hostile.Peer) {
			empty := bytes.Repeat([]byte{0x00, 0x00, 0x00, 0xff, 0xff}, 64<<10/5)
			_ = p.Frame(ws.Header{Rsv: ws.Rsv(true, false, false), OpCode: ws.OpText, Length: int64(len(empty))}, empty)
			for range 16 {
				if p.Frame(ws.Header{OpCode: ws.OpContinuation, Length: int64(len(empty))}, empty) != nil {
					return
				}
			}
			tail := hostile.Deflate(strings.NewReader(`["NOTICE","x"]`))
			_ = p.Frame(ws.Header{Fin: true, OpCode: ws.OpContinuation, Length: int64(len(tail))}, tail)
			p.Drain()
		}, "", wsconn.ErrTooLarge},
		{"endless pings between fragments", false, func(p *hostile.Peer) {
			_ = p.Frame(ws.Header{OpCode: ws.OpText, Length: 2}, []byte(`["`))
			for p.Frame(ws.Header{Fin: true, OpCode: ws.OpPing}, nil) == nil {
			}
		}, "", wsconn.ErrTooLarge},
		{"compressed frame never negotiated", false, func(p *hostile.Peer) {
			_ = p.Deflated(hostile.Deflate(strings.NewReader(`["NOTICE","x"]`)))
			p.Drain()
		}, "", ws.ErrProtocolNonZeroRsv},
		{"message at the bound", false, func(p *hostile.Peer) {
			_ = p.Text(atBound)
			p.Drain()
		}, atBound, nil},
		{"compressed message at the bound", true, func(p *hostile.Peer) {
			_ = p.Deflated(hostile.Deflate(strings.NewReader(atBound)))
			p.Drain()
		}, atBound, nil},
		{"one byte over the bound, compressed", true, func(p *hostile.Peer) {
			_ = p.Deflated(hostile.Deflate(strings.NewReader(atBound + " ")))
			p.Drain()
		}, "", wsconn.ErrTooLarge},
		{"ping inside a fragmented message", false, func(p *hostile.Peer) {
			_ = p.Frame(ws.Header{OpCode: ws.OpText, Length: 5}, []byte(`["EOS`))
			_ = p.Frame(ws.Header{Fin: true, OpCode: ws.OpPing, Length: 2}, []byte("hi"))
			_ = p.Frame(ws.Header{Fin: true, OpCode: ws.OpContinuation, Length: 7}, []byte(`E","x"]`))
			p.Drain()
		}, `["EOSE","x"]`, nil},
		{"close frame", false, func(p *hostile.Peer) {
			_ = p.Frame(ws.Header{Fin: true, OpCode: ws.OpClose, Length: 5}, append([]byte{0x03, 0xe8}, "bye"...))
			p.Drain()
		}, "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := hostile.Start(t, tc.compress, tc.script)
			c, err := wsconn.Dial(context.Background(), srv.URL, wsconn.Options{Compress: tc.compress})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			var buf bytes.Buffer
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err = c.ReadMessage(context.Background(), &buf)
			runtime.ReadMemStats(&after)
			if got := after.TotalAlloc - before.TotalAlloc; got > allocBound {
				t.Errorf("reading allocated %d bytes, bound %d", got, allocBound)
			}
			if tc.want != "" {
				if err != nil || buf.String() != tc.want {
					t.Fatalf("read %d bytes, %v; want %d bytes", buf.Len(), err, len(tc.want))
				}
				return
			}
			if err == nil || (tc.wantErr != nil && !errors.Is(err, tc.wantErr)) {
				t.Fatalf("read %d bytes, error %v; want %v", buf.Len(), err, tc.wantErr)
			}
			if buf.Len() > max {
				t.Fatalf("%d bytes handed out past the bound %d", buf.Len(), max)
			}
			// A failed read ends the connection for good.
			if err2 := c.ReadMessage(context.Background(), &buf); err2 == nil {
				t.Fatal("a read after a failed one succeeded")
			}
		})
	}
}

// TestPongs: a ping between messages is answered, and the message after
// it is read.
func TestPongs(t *testing.T) {
	pong := make(chan string, 1)
	srv := hostile.Start(t, false, func(p *hostile.Peer) {
		_ = p.Frame(ws.Header{Fin: true, OpCode: ws.OpPing, Length: 4}, []byte("ping"))
		_ = p.Text(`["EOSE","a"]`)
		// The client's pong (masked) comes back first.
		h, err := ws.ReadHeader(p.Conn)
		if err != nil {
			pong <- err.Error()
			return
		}
		payload := make([]byte, h.Length)
		_, _ = io.ReadFull(p.Conn, payload)
		ws.Cipher(payload, h.Mask, 0)
		pong <- fmt.Sprintf("%#x %s", h.OpCode, payload)
		p.Drain()
	})
	c, err := wsconn.Dial(context.Background(), srv.URL, wsconn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var buf bytes.Buffer
	if err := c.ReadMessage(context.Background(), &buf); err != nil || buf.String() != `["EOSE","a"]` {
		t.Fatalf("read %q, %v", buf.String(), err)
	}
	if got := <-pong; got != fmt.Sprintf("%#x ping", ws.OpPong) {
		t.Fatalf("server saw %q, want a pong", got)
	}
}

// TestContextEndsRead: a read blocked on a silent relay returns once its
// context is cancelled.
func TestContextEndsRead(t *testing.T) {
	srv := hostile.Start(t, false, func(p *hostile.Peer) { p.Drain() })
	c, err := wsconn.Dial(context.Background(), srv.URL, wsconn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.ReadMessage(ctx, &bytes.Buffer{}) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("read ended with %v, want context canceled", err)
	}
}

func TestDialOptions(t *testing.T) {
	if _, err := wsconn.Dial(context.Background(), "ws://127.0.0.1:1", wsconn.Options{MaxMessage: -1}); err == nil {
		t.Fatal("negative MaxMessage accepted")
	}
}

// TestRoundTrip: what the client writes arrives as one text message.
func TestRoundTrip(t *testing.T) {
	srv := hostile.Start(t, true, func(p *hostile.Peer) {
		msg, err := p.Read()
		if err != nil {
			return
		}
		_ = p.Text(string(msg))
		p.Drain()
	})
	c, err := wsconn.Dial(context.Background(), srv.URL, wsconn.Options{Compress: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	req := `["REQ","q",{"kinds":[30078],"limit":2}]`
	if err := c.WriteMessage(context.Background(), []byte(req)); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := c.ReadMessage(context.Background(), &buf); err != nil || buf.String() != req {
		t.Fatalf("echo %q, %v", buf.String(), err)
	}
}
