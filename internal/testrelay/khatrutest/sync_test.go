package khatrutest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/internal/testrelay/khatrutest"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/relaycheck"
	"github.com/nip-rs/harness/wsconn"
)

const userSK = "00000000000000000000000000000000000000000000000000000000000000c3"

// Slot ids of the scenario: each installation's primary, the rotation
// target and a slot the relay refuses to store.
const (
	slotA       = "0000000000000000000000000000000a"
	slotB       = "0000000000000000000000000000000b"
	slotRotated = "000000000000000000000000000000a2"
	slotRefused = "000000000000000000000000000000ff"
)

// installation is one client over the real relay: its replica, a
// connection for writes and read-before-write fetches, and one holding
// the live subscription on the tag-free filter.
type installation struct {
	t     *testing.T
	url   string
	keys  *model.SelfKeys
	self  model.Self
	rep   *model.Replica
	clock *int64
	pub   *relaycheck.Conn
	live  *relaycheck.Conn
	nsub  int
}

func newInstallation(t *testing.T, url string, keys *model.SelfKeys, clientID, slot string, clock *int64) *installation {
	t.Helper()
	in := &installation{t: t, url: url, keys: keys, self: model.Self{ClientID: clientID, Primary: slot}, rep: model.NewReplica(clientID), clock: clock}
	ctx := context.Background()
	var err error
	if in.pub, err = relaycheck.Dial(ctx, relaycheck.DialWebsocket, url); err != nil {
		t.Fatal(err)
	}
	if in.live, err = relaycheck.Dial(ctx, relaycheck.DialWebsocket, url); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = in.pub.Close(); _ = in.live.Close() })
	c, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if a, err := in.live.Query(c, "live", nostr.Filter{Kinds: []int{model.KindReadState}, Authors: []string{keys.Public}, Limit: 1}, nil); err != nil || a.Refused {
		t.Fatalf("live subscription: %v %s", err, a.Closed)
	}
	return in
}

// load is a full-state load; every collected blob is merged (always
// safe) and the verdict is applied to the replica's gate.
func (in *installation) load() model.LoadResult {
	in.t.Helper()
	l, err := model.NewLoad(model.LoadConfig{PubKey: in.keys.Public, Limit: 50})
	if err != nil {
		in.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := wsconn.Dial(ctx, in.url, wsconn.Options{})
	if err != nil {
		in.t.Fatal(err)
	}
	defer conn.Close()
	res := model.Drive(ctx, conn, l)
	for _, ev := range res.Events {
		if fb, ok := model.FetchEvent(in.rep.Rules, in.keys, in.url, ev, 0); ok && fb.Err == nil {
			in.rep.Receive(fb.Blob)
		}
	}
	in.rep.ApplyLoad(res.Verdict)
	return res
}

// fetch queries one filter on the write connection.
func (in *installation) fetch(f nostr.Filter) []model.FetchedBlob {
	in.t.Helper()
	in.nsub++
	sub := fmt.Sprintf("fetch-%d", in.nsub)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	a, err := in.pub.Query(ctx, sub, f, nil)
	if err != nil || a.Refused {
		in.t.Fatalf("fetch: %v %s", err, a.Closed)
	}
	_ = in.pub.Unsub(ctx, sub)
	var out []model.FetchedBlob
	for _, ev := range a.Events {
		if fb, ok := model.FetchEvent(in.rep.Rules, in.keys, in.url, ev, 0); ok {
			out = append(out, fb)
		}
	}
	return out
}

// publish is read-before-write at the installation's own coordinates,
// merge, then the canonical publish (gated on a complete load) at slot,
// acknowledged by the relay; an OK false is an error: not accepted.
func (in *installation) publish(slot string) (*nostr.Event, model.Blob, error) {
	in.t.Helper()
	self := in.self
	self.Primary = slot
	fetched := in.fetch(model.OwnFilter(in.keys.Public, self))
	for _, fb := range fetched {
		if fb.Err == nil {
			in.rep.Receive(fb.Blob)
		}
	}
	blob, err := in.rep.PublishCanonical(false)
	if err != nil {
		return nil, model.Blob{}, err
	}
	*in.clock++
	ev, err := model.BuildEvent(in.keys, slot, model.CreatedAtFor(in.rep.Rules, *in.clock, fetched, slot), blob)
	if err != nil {
		in.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ok, why, err := in.pub.Publish(ctx, ev, nil)
	if err != nil {
		in.t.Fatal(err)
	}
	if !ok {
		return ev, blob, fmt.Errorf("not accepted: %s", why)
	}
	return ev, blob, nil
}

// drainLive merges every blob the live subscription pushed within the
// quiet period and reports whether one came from another installation.
func (in *installation) drainLive(quiet time.Duration) bool {
	in.t.Helper()
	foreign := false
	for {
		ctx, cancel := context.WithTimeout(context.Background(), quiet)
		env, err := in.live.Next(ctx)
		cancel()
		if err != nil {
			return foreign
		}
		e, ok := env.(*nostr.EventEnvelope)
		if !ok || e.SubscriptionID == nil || *e.SubscriptionID != "live" {
			continue
		}
		ev := e.Event
		if fb, ok := model.FetchEvent(in.rep.Rules, in.keys, in.url, &ev, 0); ok && fb.Err == nil {
			in.rep.Receive(fb.Blob)
			foreign = foreign || fb.Blob.ClientID != in.rep.ClientID
		}
	}
}

// rotate moves the installation to a new client id and primary: the
// carry-forward is published at the new slot and confirmed on the relay
// (fetched back and covering the old blob) before the old primary is
// deleted (kind 5). Refused or unconfirmed, the old primary stays.
func (in *installation) rotate(clientID, slot string) error {
	in.t.Helper()
	old := in.fetch(model.OwnFilter(in.keys.Public, in.self))
	if len(old) != 1 {
		in.t.Fatalf("old primary: %d versions", len(old))
	}
	prevID := in.rep.ClientID
	in.rep.ClientID = clientID
	ev, carried, err := in.publish(slot)
	if err != nil {
		in.rep.ClientID = prevID
		return err
	}
	back := in.fetch(model.OwnFilter(in.keys.Public, model.Self{ClientID: clientID, Primary: slot}))
	if len(back) != 1 || back[0].ID != ev.ID || !model.Covers(in.rep.Rules, old[0].Blob, carried) {
		in.rep.ClientID = prevID
		return errors.New("carry-forward not confirmed on the relay")
	}
	del := &nostr.Event{CreatedAt: nostr.Timestamp(*in.clock + 1), Kind: 5, Tags: nostr.Tags{
		{"e", old[0].ID}, {"a", fmt.Sprintf("%d:%s:%s", model.KindReadState, in.keys.Public, model.DTag(in.self.Primary))}}}
	if err := in.rep.Permit(model.ActDeleteCoordinate); err != nil {
		return err
	}
	_ = del.Sign(in.keys.Secret)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if ok, why, err := in.pub.Publish(ctx, del, nil); err != nil || !ok {
		return fmt.Errorf("deletion: %v %s", err, why)
	}
	in.self = model.Self{ClientID: clientID, Primary: slot}
	return nil
}

func converged(t *testing.T, a, b *model.Replica, ctxs ...string) {
	t.Helper()
	for _, c := range ctxs {
		if a.Effective(c) != b.Effective(c) || a.Live(c) != b.Live(c) || a.Reg(c) != b.Reg(c) {
			t.Errorf("%s: %s has F=%d live=%v %v, %s has F=%d live=%v %v", c, a.ClientID, a.Effective(c), a.Live(c), a.Reg(c),
				b.ClientID, b.Effective(c), b.Live(c), b.Reg(c))
		}
	}
}

// TestTwoInstallationsSync: two installations of one user sync through
// khatru v0.8.4 on loopback, over every backend (slicestore answering
// queries as NIP-01 says, the others as they do):
// real NIP-44 events, publications acknowledged, full-state loads with the
// fence, the live subscription merging the other's blob and triggering a
// read-before-write re-publish, and a rotation whose carry-forward is
// confirmed before the old primary is deleted; a rotation the relay
// refuses keeps the old primary.
func TestTwoInstallationsSync(t *testing.T) {
	for _, backend := range khatrutest.Backends() {
		t.Run(backend, func(t *testing.T) { twoInstallationsSync(t, backend) })
	}
}

func twoInstallationsSync(t *testing.T, backend string) {
	r := startPeer(t, khatrutest.Options{Backend: backend, MaxLimit: 50, Conforming: backend == khatrutest.Slicestore,
		RejectEvent: func(ev *nostr.Event) string {
			if ev.Tags.GetD() == model.DTag(slotRefused) {
				return "blocked: this coordinate is not accepted here"
			}
			return ""
		}})
	keys, err := model.NewSelfKeys(userSK)
	if err != nil {
		t.Fatal(err)
	}
	clock := int64(1_700_000_000)
	a := newInstallation(t, r.URL, keys, "phone", slotA, &clock)
	b := newInstallation(t, r.URL, keys, "laptop", slotB, &clock)

	if res := a.load(); !res.Complete() {
		t.Fatalf("phone's first load: %s (%s)", res.Verdict, res.Detail)
	}
	a.rep.Advance("group:general", 100)
	if err := a.rep.MarkUnread("group:general"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.publish(slotA); err != nil {
		t.Fatal(err)
	}
	if res := b.load(); !res.Complete() || len(res.Events) != 1 {
		t.Fatalf("laptop's load: %s (%s), %d coordinates", res.Verdict, res.Detail, len(res.Events))
	}
	if !b.rep.Live("group:general") {
		t.Fatal("the laptop's load did not bring the phone's override")
	}
	if err := b.rep.MarkRead("group:dev", 50); err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.publish(slotB); err != nil {
		t.Fatal(err)
	}
	if !a.drainLive(300 * time.Millisecond) {
		t.Fatal("the phone's live subscription did not deliver the laptop's blob")
	}
	if !a.rep.NeedsRepublish() {
		t.Fatal("a merged foreign register did not call for a re-publish")
	}
	if _, _, err := a.publish(slotA); err != nil {
		t.Fatal(err)
	}
	b.drainLive(300 * time.Millisecond)
	converged(t, a.rep, b.rep, "group:general", "group:dev")

	// A rotation the relay refuses keeps the old primary.
	if err := a.rotate("phone-2", slotRefused); err == nil || !strings.Contains(err.Error(), "not accepted") {
		t.Fatalf("refused rotation: %v", err)
	}
	if got := a.fetch(model.OwnFilter(keys.Public, model.Self{ClientID: "phone", Primary: slotA})); len(got) != 1 {
		t.Fatalf("after a refused carry-forward the old primary has %d versions, want 1", len(got))
	}
	// A rotation the relay stores: carried forward, then the old primary goes.
	if err := a.rotate("phone-2", slotRotated); err != nil {
		t.Fatal(err)
	}
	if got := a.fetch(model.OwnFilter(keys.Public, model.Self{ClientID: "phone", Primary: slotA})); len(got) != 0 {
		t.Fatalf("the old primary survived its deletion: %d versions", len(got))
	}
	res := b.load()
	if !res.Complete() || len(res.Events) != 2 {
		t.Fatalf("laptop's load after the rotation: %s (%s), %d coordinates, want 2", res.Verdict, res.Detail, len(res.Events))
	}
	converged(t, a.rep, b.rep, "group:general", "group:dev")
}
