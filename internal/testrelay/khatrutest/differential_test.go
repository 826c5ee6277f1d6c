package khatrutest_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"pgregory.net/rapid"

	"github.com/nip-rs/harness/internal/testrelay/khatrutest"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/relaycheck"
	"github.com/nip-rs/harness/relaysim"
)

const diffSK = "00000000000000000000000000000000000000000000000000000000000000d4"

// diffCap is the cap both relays run at: small, so that caps cut often.
const diffCap = 4

// TestDifferentialKhatruSlice: random sequences of publications
// (new coordinates, newer, older and same-second versions), deletions and
// queries (limits, since, until, pinned windows, d tags) give the same
// deliveries, in the same order, from khatru v0.8.4 over slicestore and
// from relaysim's khatru-slice-like profile, which claims to mimic it.
// Each check starts a fresh khatru; rapid's default of 100 checks.
// Slicestore only: the profile claims to mimic slicestore's quirks (since
// exclusive, ties by descending id), which no other backend shares.
func TestDifferentialKhatruSlice(t *testing.T) {
	pk, _ := nostr.GetPublicKey(diffSK)
	rapid.Check(t, func(rt *rapid.T) {
		kr, err := khatrutest.Start(khatrutest.Options{MaxLimit: diffCap})
		if err != nil {
			rt.Fatal(err)
		}
		defer kr.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		c, err := relaycheck.Dial(ctx, relaycheck.DialWebsocket, kr.URL)
		if err != nil {
			rt.Fatal(err)
		}
		defer c.Close()
		sim := relaysim.New(relaysim.KhatruSliceLike(diffCap))
		simConn := sim.Connect()
		var published []*nostr.Event
		salt := 0
		base := nostr.Timestamp(1_700_000_000)
		for i := range rapid.IntRange(1, 25).Draw(rt, "ops") {
			switch op := rapid.SampledFrom([]string{"publish", "publish", "publish", "delete", "query", "query"}).Draw(rt, "op"); op {
			case "publish":
				salt++
				d := fmt.Sprintf("read-state:%032x", rapid.IntRange(1, 4).Draw(rt, "slot"))
				if rapid.Bool().Draw(rt, "foreign") {
					d = fmt.Sprintf("app:%d", rapid.IntRange(1, 3).Draw(rt, "app"))
				}
				ev := &nostr.Event{CreatedAt: base + nostr.Timestamp(rapid.IntRange(0, 6).Draw(rt, "at")), Kind: 30078,
					Tags: nostr.Tags{{"d", d}}, Content: fmt.Sprintf("%d", salt)}
				_ = ev.Sign(diffSK)
				if _, why, err := c.Publish(ctx, ev, nil); err != nil {
					rt.Fatalf("publish: %v %s", err, why)
				}
				sim.Publish(ev)
				for sim.Settle() {
				}
				published = append(published, ev)
			case "delete":
				if len(published) == 0 {
					continue
				}
				target := published[rapid.IntRange(0, len(published)-1).Draw(rt, "victim")]
				del := &nostr.Event{CreatedAt: base + 100, Kind: 5, Tags: nostr.Tags{{"e", target.ID}}, Content: fmt.Sprint(i)}
				_ = del.Sign(diffSK)
				if ok, why, err := c.Publish(ctx, del, nil); err != nil || !ok {
					rt.Fatalf("delete: %v %s", err, why)
				}
				sim.Delete(target.ID)
			case "query":
				f := model.Spec().Load.EnumerationFilter(pk, rapid.IntRange(1, 6).Draw(rt, "limit"))
				if rapid.Bool().Draw(rt, "until") {
					f.Until = ptr(base + nostr.Timestamp(rapid.IntRange(0, 6).Draw(rt, "until at")))
				}
				if rapid.Bool().Draw(rt, "since") {
					f.Since = ptr(base + nostr.Timestamp(rapid.IntRange(0, 6).Draw(rt, "since at")))
				}
				if rapid.IntRange(0, 3).Draw(rt, "by d") == 0 {
					f.Tags = nostr.TagMap{"d": {fmt.Sprintf("read-state:%032x", rapid.IntRange(1, 4).Draw(rt, "d"))}}
				}
				sub := fmt.Sprintf("q%d", i)
				a, err := c.Query(ctx, sub, f, nil)
				if err != nil || a.Refused {
					rt.Fatalf("query: %v %s", err, a.Closed)
				}
				_ = c.Unsub(ctx, sub)
				simConn.Send(model.Out{Kind: model.OutREQ, SubID: sub, Filter: f})
				_ = simConn.Process(simConn.Inbound() - 1)
				var simGot []string
				for {
					m, ok := simConn.Next()
					if !ok || (m.Kind == model.InEOSE && m.SubID == sub) {
						break
					}
					if m.Kind == model.InEvent && m.SubID == sub {
						simGot = append(simGot, m.Event.ID)
					}
				}
				simConn.Send(model.Out{Kind: model.OutCLOSE, SubID: sub})
				_ = simConn.Process(simConn.Inbound() - 1)
				var got []string
				for _, ev := range a.Events {
					got = append(got, ev.ID)
				}
				if !slices.Equal(got, simGot) {
					rt.Fatalf("%s: khatru delivered %v, relaysim %v", f, short(got), short(simGot))
				}
			}
		}
	})
}

func ptr[T any](v T) *T { return &v }

func short(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id[:8]
	}
	return out
}
