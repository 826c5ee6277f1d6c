package khatrutest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/internal/testrelay/khatrutest"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/wsconn"
)

// Figures of the load against khatru (NOTE.md, "Real relays").
const (
	benchCoords  = 50
	benchForeign = 10_000
	benchLimit   = 500
)

// BenchmarkLoadKhatru: one full-state load over a websocket against
// khatru (cap 500, the store answering as NIP-01 says) holding 50
// read-state coordinates among 10,000 foreign kind 30078 events, spread
// over distinct seconds; it reports the queries per load.
func BenchmarkLoadKhatru(b *testing.B) {
	r, err := khatrutest.Start(khatrutest.Options{MaxLimit: benchLimit, Conforming: true})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	pk, _ := nostr.GetPublicKey(loadSK)
	base := nostr.Timestamp(1_700_000_000)
	var evs []*nostr.Event
	for i := range benchForeign {
		evs = append(evs, signed(fmt.Sprintf("app:%d", i), base-nostr.Timestamp(i), "app"))
		if i%(benchForeign/benchCoords) == 0 {
			evs = append(evs, signed(fmt.Sprintf("read-state:%032x", i+1), base-nostr.Timestamp(i), "rs"))
		}
	}
	if err := r.Preload(evs...); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var res model.LoadResult
	for range b.N {
		l, err := model.NewLoad(model.LoadConfig{PubKey: pk, Limit: benchLimit})
		if err != nil {
			b.Fatal(err)
		}
		conn, err := wsconn.Dial(context.Background(), r.URL, wsconn.Options{})
		if err != nil {
			b.Fatal(err)
		}
		res = model.Drive(context.Background(), conn, l)
		_ = conn.Close()
	}
	b.StopTimer()
	if !res.Complete() || len(res.Events) != benchCoords {
		b.Fatalf("%s (%s) with %d coordinates, want complete with %d", res.Verdict, res.Detail, len(res.Events), benchCoords)
	}
	b.ReportMetric(float64(res.Stats.Queries), "queries/load")
}
