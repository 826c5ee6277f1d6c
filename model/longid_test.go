package model

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// longID is a context id of n bytes.
func longID(n int) string { return strings.Repeat("L", n) }

// peerOf is a fresh replica that has received r's publication and nothing
// else: what every peer derives from it.
func peerOf(r *Replica) *Replica {
	p := NewReplica("peer")
	p.Rules = r.Rules
	p.Receive(r.Candidate())
	return p
}

// TestMarkUnreadRefusesKeysOverTheLimit: the longest id whose override keys
// fit is 251 bytes; from 252 on mark-unread is refused with ErrKeyTooLong
// and changes nothing, as at the counter ceiling.
func TestMarkUnreadRefusesKeysOverTheLimit(t *testing.T) {
	if MaxOverrideContextBytes != 251 {
		t.Fatalf("MaxOverrideContextBytes = %d, the spec says ids up to 251 bytes are safe", MaxOverrideContextBytes)
	}
	for _, n := range []int{1, 250, 251, 252, 256, 257, 300} {
		ctx := longID(n)
		r := NewReplica("a")
		r.Advance(ctx, 10)
		before := r.Candidate()
		err := r.MarkUnread(ctx)
		if fits := n <= 251; fits != (err == nil) {
			t.Fatalf("id of %d bytes: mark-unread error %v", n, err)
		}
		if err != nil {
			if !errors.Is(err, ErrKeyTooLong) || errors.Is(err, ErrCounterCeiling) {
				t.Fatalf("id of %d bytes: error %v does not wrap ErrKeyTooLong alone", n, err)
			}
			if r.HasReg(ctx) || r.Live(ctx) || !slices.Equal(r.Candidate().Contexts, before.Contexts) {
				t.Fatalf("id of %d bytes: a refused mark-unread changed the replica", n)
			}
			if err := r.MarkUnreadBudgeted(ctx, DefaultBudget()); !errors.Is(err, ErrKeyTooLong) {
				t.Fatalf("id of %d bytes: MarkUnreadBudgeted: %v", n, err)
			}
			continue
		}
		for _, e := range r.Candidate().Contexts {
			if len(e.Key) > MaxKeyBytes {
				t.Fatalf("id of %d bytes: published key of %d bytes", n, len(e.Key))
			}
		}
		if !peerOf(r).Live(ctx) || !r.Live(ctx) {
			t.Fatalf("id of %d bytes: the peer does not derive the override the device shows", n)
		}
	}
}

// TestLongOverrideWithoutRefusalDiverges is the hazard the refusal closes:
// with the check removed, a 252-byte context reads unread on the device
// and read on every peer that received its publication.
func TestLongOverrideWithoutRefusalDiverges(t *testing.T) {
	rules := Proposed()
	rules.OverrideKeysFit = func(string) error { return nil }
	ctx := longID(252)
	r := NewReplica("a")
	r.Rules = rules
	r.Advance(ctx, 10)
	mustDo(t, r.MarkUnread(ctx))
	if !r.Unread(ctx, 10) || peerOf(r).Unread(ctx, 10) {
		t.Fatalf("device unread %v, peer unread %v: expected the device alone to show unread", r.Unread(ctx, 10), peerOf(r).Unread(ctx, 10))
	}
	// Even written out, the peer's codec rejects the group whole.
	d := Decode(rules, Raw([]Entry{{ctx, 10}, {PrefixB + ctx, 10}, {PrefixC + ctx, 0}, {PrefixS + ctx, 1}}))
	if len(d.Overrides) != 0 || len(d.Frontiers) != 1 {
		t.Fatalf("a 257-byte group was accepted: %+v", d)
	}
}

// TestLongFrontierOnlyContext: a context whose frontier key exceeds 256
// bytes (an id over 256 bytes, or over 252 bytes that escaping lengthens)
// keeps its read state on the device and is not published, since every
// receiver must discard it; a peer reads it as never read. Up to 256 bytes
// the frontier travels. An explicit mark-read on a 252-byte context is a
// natural read (no floor: none could be published), and both sides read
// it as read.
func TestLongFrontierOnlyContext(t *testing.T) {
	for _, tc := range []struct {
		ctx       string
		published bool
	}{
		{longID(256), true},
		{longID(257), false},
		{"ov_" + longID(249), true},  // escaped to 256 bytes
		{"ov_" + longID(250), false}, // escaped to 257 bytes
	} {
		r := NewReplica("a")
		r.Advance(tc.ctx, 20)
		_, ok := r.Candidate().Value(r.Rules.Escape(tc.ctx))
		if ok != tc.published {
			t.Fatalf("id of %d bytes: published %v, want %v", len(tc.ctx), ok, tc.published)
		}
		if r.Unread(tc.ctx, 20) || peerOf(r).Unread(tc.ctx, 20) == tc.published {
			t.Fatalf("id of %d bytes: device unread %v, peer unread %v", len(tc.ctx), r.Unread(tc.ctx, 20), peerOf(r).Unread(tc.ctx, 20))
		}
	}
	ctx := longID(252)
	r := NewReplica("a")
	mustDo(t, r.MarkRead(ctx, 20))
	if r.HasReg(ctx) || r.Frontier(ctx) != 20 {
		t.Fatalf("mark-read left %v at frontier %d, want no register", r.Reg(ctx), r.Frontier(ctx))
	}
	// A register restored from elsewhere is still cleared as usual, and
	// its over-long keys are not written.
	q := NewReplica("q")
	mustDo(t, q.Restore(ctx, 10, true, Reg{S: 1, B: 10}))
	mustDo(t, q.MarkRead(ctx, 20))
	if q.Reg(ctx) != (Reg{S: 1, C: 2, B: 10}) || len(q.Candidate().Contexts) != 1 {
		t.Fatalf("restored register after mark-read: %v, published %v", q.Reg(ctx), q.Candidate().Contexts)
	}
	pub := r.Candidate()
	if _, ok := pub.Value(ctx); !ok || len(pub.Contexts) != 1 {
		t.Fatalf("published %v, want the frontier alone", pub.Contexts)
	}
	p := peerOf(r)
	if r.Unread(ctx, 20) || p.Unread(ctx, 20) || r.Live(ctx) != p.Live(ctx) {
		t.Fatal("device and peer disagree on a long context after mark-read")
	}
}
