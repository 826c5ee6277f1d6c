package model

import (
	"errors"
	"fmt"
	"testing"
)

// Workloads reaching every SlotRules field through the public entry points
// (see ruleWorkload in rules_test.go).
func init() {
	ruleWorkloads = append(ruleWorkloads,
		ruleWorkload{"slot split", workloadSlotSplit},
		ruleWorkload{"re-publish after eviction", workloadRepublishEvicted},
		ruleWorkload{"identify and write", workloadIdentifyWrite},
		ruleWorkload{"deletion plan", workloadDeletion},
		ruleWorkload{"channel read", workloadChannelRead},
	)
}

// workloadSlotSplit reaches GroupOf, Assign, Dominated and EvictOrder.
func workloadSlotSplit(t *testing.T, rules *Rules) {
	th := ThreadPrefix + hex64(1)
	es := []Entry{{"chan", 600}, {th, 100}, {"old", 1}}
	for i := range 20 {
		es = append(es, Entry{fmt.Sprintf("x%02d", i), uint32(900 + i)})
	}
	es = append(es, liveGroup("ov_s:evil", 500, 1, 0, 500)...)
	in := Blob{V: 1, ClientID: "w", Contexts: SortEntries(es)}
	budget := Budget{PlaintextBytes: 150, MaxCoordinates: 2, MaxEntries: MaxEntries, Now: 1000, Horizon: 500}
	sp, err := SplitBlob(rules, in, budget, func(string) (string, bool) { return "chan", true })
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]EvictReason{}
	for _, e := range sp.Evicted {
		reasons[e.Key] = e.Reason
	}
	if r, ok := reasons[th]; !ok || r != EvictDominated {
		t.Fatalf("dominated thread entry not evicted: %v", sp.Evicted)
	}
	if r, ok := reasons["old"]; !ok || r != EvictHorizon {
		t.Fatalf("old entry not evicted by horizon: %v", sp.Evicted)
	}
	if r, ok := reasons["x00"]; !ok || r != EvictBudget || len(sp.Evicted) >= len(es) {
		t.Fatalf("oldest frontier entry not evicted for the budget: %v", sp.Evicted)
	}
	if _, ok := sp.Blobs[0].Value("esc:ov_s:evil"); !ok || len(sp.Blobs) != 2 {
		t.Fatalf("split %d coordinates, primary %v", len(sp.Blobs), sp.Blobs[0].Contexts)
	}
}

// workloadRepublishEvicted reaches Republish.
func workloadRepublishEvicted(t *testing.T, rules *Rules) {
	r := NewReplica("me")
	r.Rules = rules
	r.Parent = func(string) (string, bool) { return "chan", true }
	r.Advance("chan", 150)
	if _, err := r.PublishSplit(DefaultBudget()); err != nil {
		t.Fatal(err)
	}
	r.Receive(Blob{V: 1, ClientID: "p", Contexts: []Entry{{ThreadPrefix + hex64(2), 120}}})
	if again, err := r.NeedsRepublishEvicted(DefaultBudget()); err != nil || again {
		t.Fatalf("dominated incoming entry: re-publish %v, %v", again, err)
	}
	r.Receive(Blob{V: 1, ClientID: "p", Contexts: []Entry{{"other", 1}}})
	if again, err := r.NeedsRepublishEvicted(DefaultBudget()); err != nil || !again {
		t.Fatalf("new context: re-publish %v, %v", again, err)
	}
}

// workloadIdentifyWrite reaches Role and CreatedAt.
func workloadIdentifyWrite(t *testing.T, rules *Rules) {
	self := Self{ClientID: "me", Primary: slotN(1)}
	fetched := []FetchedBlob{
		{Slot: slotN(1), CreatedAt: 500, Blob: Blob{V: 1, ClientID: "intruder", Contexts: []Entry{{"x", 3}}}},
		{Slot: slotN(2), CreatedAt: 400, Blob: Blob{V: 1, ClientID: "me"}},
	}
	r := NewReplica("me")
	r.Rules = rules
	plan, err := r.PlanPublish(WriteInput{Self: self, Fetched: fetched, Now: 100, Budget: DefaultBudget(), NewSlot: fixedSlots(slotN(3))})
	if err != nil {
		t.Fatal(err)
	}
	if plan.Self.Primary != slotN(3) || plan.Events[0].CreatedAt != 100 || r.Frontier("x") != 3 {
		t.Fatalf("plan %+v", plan)
	}
	if got := CreatedAtFor(rules, 100, fetched, slotN(1)); got != 501 {
		t.Fatalf("created_at %d", got)
	}
	if len(plan.Identity.Orphans) != 1 || plan.Identity.Reference != 1 {
		t.Fatalf("identity %+v", plan.Identity)
	}
}

// workloadDeletion reaches MayDelete.
func workloadDeletion(t *testing.T, rules *Rules) {
	self := Self{ClientID: "me", Primary: slotN(1), Additional: []string{slotN(2)}}
	fetched := []FetchedBlob{
		{Relay: "r", Slot: slotN(2), Blob: Blob{V: 1, ClientID: "me", Contexts: []Entry{{"a", 1}}}},
		{Relay: "r", Slot: slotN(3), Blob: Blob{V: 1, ClientID: "me", Contexts: []Entry{{PrefixC + "a", 1}}}},
	}
	ds := PlanDeletion(rules, DeletionInput{Self: self, Fetched: fetched, Carried: Blob{}, Accepted: map[string]bool{"r": true}, Complete: true})
	if len(ds) != 2 || ds[0].Err != nil || !errors.Is(ds[1].Err, ErrNotCarried) {
		t.Fatalf("decisions %+v", ds)
	}
}

// workloadChannelRead reaches ChannelRead.
func workloadChannelRead(t *testing.T, rules *Rules) {
	r := NewReplica("me")
	r.Rules = rules
	if ts, ok := r.MarkChannelRead("chan", []ChannelMessage{{100, true}, {200, false}}); !ok || ts != 100 || r.Frontier("chan") != 100 {
		t.Fatalf("channel read to %d (%v), frontier %d", ts, ok, r.Frontier("chan"))
	}
}
