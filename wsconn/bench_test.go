package wsconn_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/internal/testrelay/hostile"
	"github.com/nip-rs/harness/wsconn"
)

// BenchmarkDeflateBomb reads one 128 MB deflate bomb (about 130 KB on the
// wire) through go-nostr's connection and through wsconn; B/op is what
// one such frame costs the client.
func BenchmarkDeflateBomb(b *testing.B) {
	bomb := hostile.Bomb(128 << 20)
	b.Logf("bomb: %d bytes on the wire", len(bomb))
	// The bomb follows the client's first message: go-nostr drops bytes
	// that arrive together with the handshake response.
	srv := hostile.Start(b, true, func(p *hostile.Peer) {
		if _, err := p.Read(); err != nil {
			return
		}
		_ = p.Deflated(bomb)
		p.Drain()
	})
	req := []byte(`["REQ","q",{"limit":1}]`)
	b.Run("go-nostr", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c, err := nostr.NewConnection(context.Background(), srv.URL, nil, nil)
			if err != nil {
				b.Fatal(err)
			}
			var buf bytes.Buffer
			if err = c.WriteMessage(context.Background(), req); err == nil {
				err = c.ReadMessage(context.Background(), &buf)
			}
			c.Close()
			if err != nil || buf.Len() < 128<<20 {
				b.Fatalf("read %d bytes, %v", buf.Len(), err)
			}
		}
	})
	b.Run("wsconn", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c, err := wsconn.Dial(context.Background(), srv.URL, wsconn.Options{Compress: true})
			if err != nil {
				b.Fatal(err)
			}
			var buf bytes.Buffer
			if err = c.WriteMessage(context.Background(), req); err == nil {
				err = c.ReadMessage(context.Background(), &buf)
			}
			c.Close()
			if !errors.Is(err, wsconn.ErrTooLarge) {
				b.Fatal("the bomb was read")
			}
		}
	})
}
