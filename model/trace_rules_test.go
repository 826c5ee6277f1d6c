package model

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestFrontierNeverDecreases (Timestamp Accuracy: timestamps within a
// context never decrease): whatever path carries two values to a context,
// in either order, its frontier ends at the larger. The join is not a Rules
// field, so this is the test that fails if any path assigned instead of
// taking the max.
func TestFrontierNeverDecreases(t *testing.T) {
	paths := []struct {
		name string
		put  func(r *Replica, ctx string, v uint32)
	}{
		{"natural read", func(r *Replica, ctx string, v uint32) { r.Advance(ctx, v) }},
		{"explicit mark-read", func(r *Replica, ctx string, v uint32) { mustDo(t, r.MarkRead(ctx, v)) }},
		{"receive", func(r *Replica, ctx string, v uint32) {
			r.Receive(Blob{V: 1, ClientID: "peer", Contexts: []Entry{{EscapeKey(ctx), v}}})
		}},
		{"channel read", func(r *Replica, ctx string, v uint32) {
			r.MarkChannelRead(ctx, []ChannelMessage{{CreatedAt: v, TopLevel: true}})
		}},
	}
	values := []uint32{0, 1, 5, 1700000000, MaxU32}
	for _, ctx := range []string{"chan", "ov_s:escaped"} {
		for _, p := range paths {
			for _, q := range paths {
				for _, a := range values {
					for _, b := range values {
						r := NewReplica("a")
						p.put(r, ctx, a)
						q.put(r, ctx, b)
						if got := r.Frontier(ctx); got != max(a, b) {
							t.Fatalf("%s %d then %s %d on %q: frontier %d, want %d", p.name, a, q.name, b, ctx, got, max(a, b))
						}
					}
				}
			}
		}
	}
	// Merging blobs (Fetching step 4) keeps the larger too, in either order.
	lo, hi := Blob{V: 1, ClientID: "x", Contexts: []Entry{{"c", 5}}}, Blob{V: 1, ClientID: "y", Contexts: []Entry{{"c", 9}}}
	if MergeBlobs(Proposed(), lo, hi).Frontiers["c"] != 9 || MergeBlobs(Proposed(), hi, lo).Frontiers["c"] != 9 {
		t.Fatal("MergeBlobs lowered a frontier")
	}
}

// TestAbsentContextReadsUnread (Fetching: absence of a context in every
// fetched blob means unknown, treated as unread): a replica that merged
// blobs none of which names the context has no frontier for it, was never
// read, and shows every message in it unread; so does a merged State.
func TestAbsentContextReadsUnread(t *testing.T) {
	blobs := []Blob{
		{V: 1, ClientID: "p", Contexts: []Entry{{"other", MaxU32}, {"ov_c:other", 2}}},
		{V: 1, ClientID: "q", Contexts: []Entry{{"esc:ov_s:x", 7}, {"thread:" + hexID, 9}}},
	}
	r := NewReplica("a")
	r.Parent = func(string) (string, bool) { return "other", true }
	for _, b := range blobs {
		r.Receive(b)
	}
	st := MergeBlobs(Proposed(), blobs...)
	for _, ctx := range []string{"absent", "ov_s:absent", "esc:absent"} {
		if r.HasFrontier(ctx) || r.EverRead(ctx) || r.Live(ctx) {
			t.Fatalf("%q: frontier %v, ever read %v, live %v", ctx, r.HasFrontier(ctx), r.EverRead(ctx), r.Live(ctx))
		}
		for _, latest := range []uint32{1, 1700000000, MaxU32} {
			if !r.Unread(ctx, latest) || !Unread(latest, st.Effective(nil, ctx), false) {
				t.Fatalf("%q: a message at %d reads as read", ctx, latest)
			}
		}
	}
}

// hexID is a 64-hex event id.
const hexID = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"

// TestParentNeverWritten (Read Context Schemes: the thread-to-channel
// relation is derived from the event graph and never serialised into the
// blob): a replica that resolves parents publishes the keys it publishes
// without a resolver, its plaintext has no member besides v,
// client_id and contexts, and every key is one of its own contexts or
// their override keys; a split under the resolver only leaves entries out.
func TestParentNeverWritten(t *testing.T) {
	thread, msg := "thread:"+hexID, "msg:"+hexID
	build := func(parent ParentResolver) *Replica {
		r := NewReplica("a")
		r.Parent = parent
		r.Advance("chan", 20)
		r.Advance(thread, 10)
		r.Advance(msg, 30)
		mustDo(t, r.MarkUnread(thread))
		return r
	}
	resolve := func(c string) (string, bool) { return "chan", c == thread || c == msg }
	with, without := build(resolve), build(nil)
	keys := func(b Blob) []string {
		var ks []string
		for _, e := range b.Contexts {
			ks = append(ks, e.Key)
		}
		return ks
	}
	// Values may differ (B is the effective frontier, which the parent
	// raises); the keys may not.
	if got, want := keys(with.Candidate()), keys(without.Candidate()); !slices.Equal(got, want) {
		t.Fatalf("the parent resolver changed the published keys:\n%v\n%v", got, want)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(EncodeBlob(with.Candidate()), &top); err != nil {
		t.Fatal(err)
	}
	for k := range top {
		if k != "v" && k != "client_id" && k != "contexts" {
			t.Fatalf("top-level member %q", k)
		}
	}
	own := map[string]bool{}
	for _, c := range with.Contexts() {
		for _, k := range []string{EscapeKey(c), PrefixS + c, PrefixC + c, PrefixB + c} {
			own[k] = true
		}
	}
	cand := with.Candidate().Contexts
	for _, e := range cand {
		if !own[e.Key] {
			t.Fatalf("published key %q names no context of the replica", e.Key)
		}
	}
	sp, err := SplitBlob(Proposed(), with.Candidate(), DefaultBudget(), resolve)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range sp.Entries() {
		if !slices.Contains(cand, e) {
			t.Fatalf("the split published %v, which the candidate lacks", e)
		}
	}
}
