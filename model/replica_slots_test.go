package model

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

func uuidCtx(i int) string { return fmt.Sprintf("c0ffee00-0000-4000-8000-%012d", i) }

// TestMarkUnreadRefusedAtCeiling: mark-unread succeeds while frontier-only
// contexts can move to additional coordinates, and is refused, with the
// replica unchanged, once the primary cannot hold another override group.
func TestMarkUnreadRefusedAtCeiling(t *testing.T) {
	budget := DefaultBudget()
	r := NewReplica("client-aabbccdd")
	for i := range 700 { // far more frontier than one blob holds
		r.Advance(fmt.Sprintf("%060d", i), 1700000000)
	}
	n := 0
	for ; ; n++ {
		ctx := uuidCtx(n)
		r.Advance(ctx, 1700000000+uint32(n))
		before := r.Clone()
		err := r.MarkUnreadBudgeted(ctx, budget)
		if err == nil {
			continue
		}
		if !errors.Is(err, ErrOverrideBudget) {
			t.Fatalf("refusal %d: %v", n, err)
		}
		if r.Live(ctx) || r.Reg(ctx) != (Reg{}) || !slices.Equal(r.Candidate().Contexts, before.Candidate().Contexts) {
			t.Fatal("a refused mark-unread changed the replica")
		}
		break
	}
	sp, err := r.Split(budget)
	if err != nil {
		t.Fatal(err)
	}
	if len(sp.Blobs) < 2 {
		t.Fatalf("700 frontier contexts did not move to additional coordinates")
	}
	if n < 150 || n > 250 {
		t.Fatalf("the primary held %d live groups", n)
	}
	t.Logf("refused after %d live groups; %d coordinates", n, len(sp.Blobs))
}

// TestMergedOverBudget: merged peer override state that no longer fits
// leaves the last publication in place and fails override actions until a
// mark-read frees room.
func TestMergedOverBudget(t *testing.T) {
	peer := NewReplica("peer")
	for i := range 30 {
		peer.Advance(uuidCtx(i), 100)
		mustDo(t, peer.MarkUnread(uuidCtx(i)))
	}
	full := peer.Candidate()
	budget := Budget{PlaintextBytes: EncodedSize(Blob{V: 1, ClientID: "me", Contexts: full.Contexts}) - 20, MaxEntries: MaxEntries}

	r := NewReplica("me")
	r.Advance("chan", 5)
	if _, err := r.PublishSplit(budget); err != nil {
		t.Fatal(err)
	}
	last := slices.Clone(r.LastPublished())
	r.Receive(full)
	if err := r.CheckBudget(budget); !errors.Is(err, ErrOverrideBudget) {
		t.Fatalf("CheckBudget = %v", err)
	}
	if _, err := r.PublishSplit(budget); !errors.Is(err, ErrOverrideBudget) || !slices.Equal(r.LastPublished(), last) {
		t.Fatalf("publish over budget: %v, last publication %v", err, r.LastPublished())
	}
	if err := r.MarkUnreadBudgeted("chan", budget); !errors.Is(err, ErrOverrideBudget) || r.Live("chan") {
		t.Fatalf("mark-unread over budget: %v", err)
	}
	// A mark-read on a context with no override adds a floor: still over,
	// reported failed, frontier advanced, no register.
	if err := r.MarkReadBudgeted("chan", 50, budget); !errors.Is(err, ErrOverrideBudget) || r.Frontier("chan") != 50 || r.Reg("chan") != (Reg{}) {
		t.Fatalf("mark-read over budget: %v frontier %d reg %v", err, r.Frontier("chan"), r.Reg("chan"))
	}
	// Folding one live group to a floor frees enough room.
	if err := r.MarkReadBudgeted(uuidCtx(0), 100, budget); err != nil {
		t.Fatalf("mark-read that frees room: %v", err)
	}
	if r.Live(uuidCtx(0)) {
		t.Fatal("mark-read did not take effect")
	}
	if _, err := r.PublishSplit(budget); err != nil {
		t.Fatal(err)
	}
}

func TestPlanPublishDeferredWithoutCompleteLoad(t *testing.T) {
	self := Self{ClientID: "me", Primary: slotN(1)}
	r := NewReplica("me")
	r.Advance("chan", 10)
	plan, err := r.PlanPublish(WriteInput{Self: self, Now: 100, Budget: DefaultBudget()})
	if err != nil || len(plan.Events) != 1 {
		t.Fatalf("frontier-only publish without a load: %v %+v", err, plan)
	}
	mustDo(t, r.MarkUnread("chan"))
	last := slices.Clone(r.LastPublished())
	if _, err := r.PlanPublish(WriteInput{Self: self, Now: 101, Budget: DefaultBudget()}); !errors.Is(err, ErrLoadIncomplete) {
		t.Fatalf("override publish without a load: %v", err)
	}
	if !slices.Equal(r.LastPublished(), last) {
		t.Fatal("a deferred publish changed the last publication")
	}
	if _, err := r.Clone().PlanPublish(WriteInput{Self: self, Now: 101, Budget: DefaultBudget(), Complete: true, LoadRunning: true}); !errors.Is(err, ErrLoadInProgress) {
		t.Fatalf("publish during the own load: %v", err)
	}
	// Fetched own override state counts too, even with no local register.
	fresh := NewReplica("me")
	fetched := []FetchedBlob{{Relay: "r", Slot: slotN(1), CreatedAt: 99, Blob: Blob{V: 1, ClientID: "me", Contexts: []Entry{{PrefixC + "chan", 2}}}}}
	if _, err := fresh.PlanPublish(WriteInput{Self: self, Fetched: fetched, Now: 101, Budget: DefaultBudget()}); !errors.Is(err, ErrLoadIncomplete) {
		t.Fatalf("fetched floors without a load: %v", err)
	}
	if fresh.Reg("chan") != (Reg{C: 2}) {
		t.Fatal("the fetched version was not merged")
	}
	plan, err = fresh.PlanPublish(WriteInput{Self: self, Fetched: fetched, Now: 101, Budget: DefaultBudget(), Complete: true})
	if err != nil || plan.Events[0].CreatedAt != 101 {
		t.Fatalf("with a complete load: %v %+v", err, plan.Events)
	}
	if v, ok := plan.Events[0].Blob.Value(PrefixC + "chan"); !ok || v != 2 {
		t.Fatal("the floor was not republished")
	}
}

func TestPlanPublishAdditionalCoordinates(t *testing.T) {
	budget := Budget{PlaintextBytes: 1024, MaxEntries: MaxEntries}
	self := Self{ClientID: "me", Primary: slotN(1), Additional: []string{slotN(2)}}
	r := NewReplica("me")
	for i := range 120 { // about 2.5 KiB: three coordinates
		r.Advance(fmt.Sprintf("chan-%03d", i), 1700000000)
	}
	fetched := []FetchedBlob{{Relay: "r", Slot: slotN(2), CreatedAt: 2000, Blob: Blob{V: 1, ClientID: "me"}}}
	plan, err := r.PlanPublish(WriteInput{Self: self, Fetched: fetched, Now: 1000, Budget: budget, Complete: true, NewSlot: fixedSlots(slotN(7), slotN(8))})
	if err != nil {
		t.Fatal(err)
	}
	var slots []string
	for i, e := range plan.Events {
		slots = append(slots, e.Slot)
		if e.Primary != (i == 0) {
			t.Fatalf("event %d primary flag %v", i, e.Primary)
		}
	}
	if !slices.Equal(slots, []string{slotN(1), slotN(2), slotN(7)}) || !slices.Equal(plan.Self.Additional, []string{slotN(2), slotN(7)}) {
		t.Fatalf("slots %v additional %v", slots, plan.Self.Additional)
	}
	if plan.Events[0].CreatedAt != 1000 || plan.Events[1].CreatedAt != 2001 || plan.Events[2].CreatedAt != 1000 {
		t.Fatalf("created_at %d %d %d", plan.Events[0].CreatedAt, plan.Events[1].CreatedAt, plan.Events[2].CreatedAt)
	}
	// With a larger budget the additional coordinates are no longer used:
	// deleted with a complete load, kept (for reuse) without one.
	big := DefaultBudget()
	keep, err := r.Clone().PlanPublish(WriteInput{Self: plan.Self, Now: 1001, Budget: big})
	if err != nil || len(keep.Delete) != 0 || !slices.Equal(keep.Self.Additional, plan.Self.Additional) {
		t.Fatalf("without a load: %v delete %v additional %v", err, keep.Delete, keep.Self.Additional)
	}
	del, err := r.Clone().PlanPublish(WriteInput{Self: plan.Self, Now: 1001, Budget: big, Complete: true})
	if err != nil || !slices.Equal(del.Delete, plan.Self.Additional) || len(del.Self.Additional) != 0 || len(del.Events) != 1 {
		t.Fatalf("with a load: %v delete %v additional %v", err, del.Delete, del.Self.Additional)
	}
}

// TestRotationCarryForwardAndDeletion: a rotation carries every register of
// the old primary, floors included, to the new primary; the old primary may
// then be deleted only on relays that accepted the carry-forward.
func TestRotationCarryForwardAndDeletion(t *testing.T) {
	old := Self{ClientID: "old", Primary: slotN(1), Additional: []string{slotN(2)}}
	oldPrimary := Blob{V: 1, ClientID: "old", Contexts: SortEntries([]Entry{
		{"a", 10}, {PrefixC + "a", 7}, // a floor the replica does not hold locally
		{"b", 20}, {PrefixS + "b", 3}, {PrefixC + "b", 2}, {PrefixB + "b", 20},
	})}
	oldAdditional := Blob{V: 1, ClientID: "old", Contexts: []Entry{{"c", 30}}}
	orphan := Blob{V: 1, ClientID: "old", Contexts: []Entry{{"d", 40}}}
	peer := Blob{V: 1, ClientID: "peer", Contexts: []Entry{{PrefixC + "e", 1}}}
	var fetched []FetchedBlob
	for _, relay := range []string{"relay-a", "relay-b"} {
		fetched = append(fetched,
			FetchedBlob{Relay: relay, Slot: slotN(1), CreatedAt: 100, Blob: oldPrimary},
			FetchedBlob{Relay: relay, Slot: slotN(2), CreatedAt: 100, Blob: oldAdditional},
			FetchedBlob{Relay: relay, Slot: slotN(3), CreatedAt: 50, Blob: orphan},
			FetchedBlob{Relay: relay, Slot: slotN(4), CreatedAt: 60, Blob: peer},
		)
	}
	r := NewReplica("old")
	in := RotationInput{Self: old, NewClientID: "new", Fetched: fetched, Now: 1000, Budget: DefaultBudget(), NewSlot: fixedSlots(slotN(9))}
	if _, err := r.Clone().PlanRotation(in); !errors.Is(err, ErrLoadIncomplete) {
		t.Fatalf("rotation without a load: %v", err)
	}
	bad := in
	bad.Complete, bad.NewClientID = true, "old"
	if _, err := r.Clone().PlanRotation(bad); !errors.Is(err, ErrBadClientID) {
		t.Fatalf("rotation to the same client id: %v", err)
	}
	in.Complete = true
	plan, err := r.PlanRotation(in)
	if err != nil {
		t.Fatal(err)
	}
	if r.ClientID != "new" || plan.New.ClientID != "new" || plan.New.Primary != slotN(9) || plan.Old.Primary != slotN(1) {
		t.Fatalf("rotated to %+v (replica %q)", plan.New, r.ClientID)
	}
	carried := plan.Events[0].Blob
	if carried.ClientID != "new" || !Covers(Proposed(), oldPrimary, carried) {
		t.Fatalf("carry-forward %s does not cover the old primary", EncodeBlob(carried))
	}
	if v, ok := carried.Value(PrefixC + "a"); !ok || v != 7 {
		t.Fatal("the old primary's floor was not carried forward")
	}

	decisions := PlanDeletion(Proposed(), DeletionInput{
		Self: plan.New, Predecessor: plan.Old, Fetched: fetched, Carried: carried,
		Accepted: map[string]bool{"relay-a": true}, Complete: true,
	})
	got := map[string]error{}
	for _, d := range decisions {
		got[d.Slot[28:]+"@"+d.Relay] = d.Err
	}
	want := map[string]error{
		slotN(1)[28:] + "@relay-a": nil, slotN(1)[28:] + "@relay-b": ErrNotCarried, // old primary
		slotN(2)[28:] + "@relay-a": nil, slotN(2)[28:] + "@relay-b": nil, // old frontier-only coordinate
		slotN(3)[28:] + "@relay-a": nil, slotN(3)[28:] + "@relay-b": ErrNotCarried, // orphan: a live carrier
		slotN(4)[28:] + "@relay-a": ErrNotOwn, slotN(4)[28:] + "@relay-b": ErrNotOwn, // another installation
	}
	if len(got) != len(want) {
		t.Fatalf("decisions %v", got)
	}
	for k, w := range want {
		if g := got[k]; (w == nil) != (g == nil) || (w != nil && !errors.Is(g, w)) {
			t.Errorf("%s: %v, want %v", k, g, w)
		}
	}
	// A carry-forward that lost the floor authorises nothing.
	lossy := Blob{V: 1, ClientID: "new", Contexts: []Entry{{"a", 10}}}
	for _, d := range PlanDeletion(Proposed(), DeletionInput{Self: plan.New, Predecessor: plan.Old, Fetched: fetched, Carried: lossy,
		Accepted: map[string]bool{"relay-a": true, "relay-b": true}, Complete: true}) {
		if d.Slot == slotN(1) && d.Err == nil {
			t.Fatal("old primary deletable after a lossy carry-forward")
		}
	}
	// Without a complete load nothing is deletable.
	for _, d := range PlanDeletion(Proposed(), DeletionInput{Self: plan.New, Predecessor: plan.Old, Fetched: fetched, Carried: carried,
		Accepted: map[string]bool{"relay-a": true, "relay-b": true}}) {
		if d.Err == nil {
			t.Fatalf("%s@%s deletable without a complete load", d.Slot, d.Relay)
		}
	}
}
