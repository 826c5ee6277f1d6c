// Package hostile serves websocket connections on 127.0.0.1 that behave
// as a hostile relay would: each connection runs a script that writes
// whatever frames it likes (oversized, fragmented without end, compressed
// bombs, endless events), so tests can reproduce an attack on loopback.
package hostile

import (
	"bytes"
	"compress/flate"
	"io"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsflate"
	"github.com/gobwas/ws/wsutil"
)

// Server accepts websocket connections until the test ends.
type Server struct {
	// URL is ws://127.0.0.1:<port>.
	URL string

	ln    net.Listener
	wg    sync.WaitGroup
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// Start listens on a random loopback port and runs script on every
// connection it upgrades; the connection is closed when script returns.
// With compress the server accepts permessage-deflate (no context
// takeover) when the client offers it. Everything stops at the end of
// the test.
func Start(tb testing.TB, compress bool, script func(*Peer)) *Server {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	s := &Server{URL: "ws://" + ln.Addr().String(), ln: ln, conns: map[net.Conn]struct{}{}}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns[conn] = struct{}{}
			s.mu.Unlock()
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				defer s.drop(conn)
				ext := wsflate.Extension{Parameters: wsflate.DefaultParameters}
				u := ws.Upgrader{}
				if compress {
					u.Negotiate = ext.Negotiate
				}
				if _, err := u.Upgrade(conn); err != nil {
					return
				}
				_, accepted := ext.Accepted()
				script(&Peer{Conn: conn, Compressed: accepted})
			}()
		}
	}()
	tb.Cleanup(s.Close)
	return s
}

func (s *Server) drop(conn net.Conn) {
	conn.Close()
	s.mu.Lock()
	delete(s.conns, conn)
	s.mu.Unlock()
}

// Close stops accepting, closes every connection and waits for the
// scripts to return.
func (s *Server) Close() {
	s.ln.Close()
	s.mu.Lock()
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// Peer is the server's side of one connection.
type Peer struct {
	Conn net.Conn
	// Compressed reports that permessage-deflate was negotiated.
	Compressed bool
}

// Read returns the client's next data message, inflated if the client
// compressed it; control frames are skipped.
func (p *Peer) Read() ([]byte, error) {
	var st wsflate.MessageState
	r := wsutil.Reader{Source: p.Conn, State: ws.StateServerSide}
	if p.Compressed {
		r.State |= ws.StateExtended
		r.Extensions = []wsutil.RecvExtension{&st}
	}
	for {
		h, err := r.NextFrame()
		if err != nil {
			return nil, err
		}
		if h.OpCode.IsControl() {
			if err := r.Discard(); err != nil {
				return nil, err
			}
			continue
		}
		var src io.Reader = &r
		if st.IsCompressed() {
			src = wsflate.NewReader(&r, func(r io.Reader) wsflate.Decompressor { return flate.NewReader(r) })
		}
		return io.ReadAll(src)
	}
}

// Text sends msg as one uncompressed text frame.
func (p *Peer) Text(msg string) error {
	return wsutil.WriteServerText(p.Conn, []byte(msg))
}

// Frame writes a header and then payload as they are: the header may
// announce a length the payload does not have.
func (p *Peer) Frame(h ws.Header, payload []byte) error {
	if err := ws.WriteHeader(p.Conn, h); err != nil {
		return err
	}
	_, err := p.Conn.Write(payload)
	return err
}

// Deflated sends a permessage-deflate payload (see Deflate) as one text
// frame with the compression bit set, whether or not it was negotiated.
func (p *Peer) Deflated(payload []byte) error {
	h := ws.Header{Fin: true, Rsv: ws.Rsv(true, false, false), OpCode: ws.OpText, Length: int64(len(payload))}
	return p.Frame(h, payload)
}

// Drain reads and discards until the client closes, so a script can
// hold a connection open without writing.
func (p *Peer) Drain() {
	_, _ = io.Copy(io.Discard, p.Conn)
}

// Deflate compresses msg as permessage-deflate frames carry it: a raw
// deflate stream, sync-flushed, without the final 0x00 0x00 0xff 0xff.
func Deflate(msg io.Reader) []byte {
	var out bytes.Buffer
	w, _ := flate.NewWriter(&out, flate.BestCompression)
	_, _ = io.Copy(w, msg)
	_ = w.Flush()
	return bytes.TrimSuffix(out.Bytes(), []byte{0, 0, 0xff, 0xff})
}

// Bomb is a NOTICE whose text is n bytes of one letter, deflated: about
// a thousandth of n on the wire.
func Bomb(n int64) []byte {
	head := `["NOTICE","`
	return Deflate(io.MultiReader(strings.NewReader(head), io.LimitReader(repeat('A'), n), strings.NewReader(`"]`)))
}

type repeat byte

func (r repeat) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}
