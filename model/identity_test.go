package model

import (
	"errors"
	"slices"
	"testing"
)

// fixedSlots returns a slot source that yields ids in order.
func fixedSlots(ids ...string) func() (string, error) {
	return func() (string, error) {
		if len(ids) == 0 {
			return "", errors.New("slot source exhausted")
		}
		s := ids[0]
		ids = ids[1:]
		return s, nil
	}
}

func slotN(i int) string { return hex64(i)[32:] }

func TestConflictDetectionVector(t *testing.T) {
	var v struct {
		SlotID          string `json:"slot_id"`
		ClientID        string `json:"client_id"`
		FetchedClientID string `json:"fetched_client_id"`
		NewSlotID       string `json:"new_slot_id"`
	}
	loadVector(t, "conflict.json", &v)
	k := testKeys(t, testSecret)
	ev, err := BuildEvent(k, v.SlotID, 1700000000, Blob{V: 1, ClientID: v.FetchedClientID, Contexts: []Entry{{"x", 1}}})
	if err != nil {
		t.Fatal(err)
	}
	f, ok := FetchEvent(Proposed(), k, "relay", ev, DefaultMaxEventBytes)
	if !ok || f.Err != nil {
		t.Fatalf("fetch: %v %v", ok, f.Err)
	}
	self := Self{ClientID: v.ClientID, Primary: v.SlotID}
	id := Identify(Proposed(), self, []FetchedBlob{f})
	if id.Roles[0] != RoleConflict || !id.PrimaryConflicted(self) || id.Own != -1 {
		t.Fatalf("identity %+v", id)
	}
	r := NewReplica(v.ClientID)
	plan, err := r.PlanPublish(WriteInput{Self: self, Fetched: []FetchedBlob{f}, Now: 1700000100, Budget: DefaultBudget(),
		NewSlot: fixedSlots(v.NewSlotID)})
	if err != nil {
		t.Fatal(err)
	}
	if plan.Self.Primary != v.NewSlotID || len(plan.Events) != 1 || plan.Events[0].Slot != v.NewSlotID {
		t.Fatalf("plan writes %+v with self %+v", plan.Events, plan.Self)
	}
	for _, e := range plan.Events {
		if e.Slot == v.SlotID {
			t.Fatal("plan publishes to the conflicted coordinate")
		}
	}
	if r.Frontier("x") != 1 {
		t.Fatal("the conflicting blob was not merged")
	}
}

func TestClockSkewVector(t *testing.T) {
	var v struct {
		SlotID  string `json:"slot_id"`
		Fetched []struct {
			Relay     string `json:"relay"`
			CreatedAt int64  `json:"created_at"`
		} `json:"fetched"`
		Now  int64 `json:"now"`
		Want int64 `json:"want_created_at"`
	}
	loadVector(t, "clock_skew.json", &v)
	var fetched []FetchedBlob
	for _, f := range v.Fetched {
		fetched = append(fetched, FetchedBlob{Relay: f.Relay, Slot: v.SlotID, CreatedAt: f.CreatedAt, Blob: Blob{V: 1, ClientID: "A"}})
	}
	if got := CreatedAtFor(Proposed(), v.Now, fetched, v.SlotID); got != v.Want {
		t.Fatalf("created_at = %d, want %d", got, v.Want)
	}
	r := NewReplica("A")
	plan, err := r.PlanPublish(WriteInput{Self: Self{ClientID: "A", Primary: v.SlotID}, Fetched: fetched, Now: v.Now, Budget: DefaultBudget()})
	if err != nil {
		t.Fatal(err)
	}
	if plan.Events[0].CreatedAt != v.Want {
		t.Fatalf("planned created_at %d, want %d", plan.Events[0].CreatedAt, v.Want)
	}
}

func TestPublishTimeTable(t *testing.T) {
	const maxI = int64(^uint64(0) >> 1)
	tests := []struct {
		now, fetched int64
		seen         bool
		want         int64
	}{
		{100, 0, false, 100},
		{100, 50, true, 100},
		{100, 99, true, 100},
		{100, 100, true, 101},
		{100, 500, true, 501},
		{100, maxI, true, maxI},
	}
	for _, tc := range tests {
		if got := publishTime(tc.now, tc.fetched, tc.seen); got != tc.want {
			t.Errorf("publishTime(%d, %d, %v) = %d, want %d", tc.now, tc.fetched, tc.seen, got, tc.want)
		}
	}
	// Only versions at the same d tag count; unreadable ones do.
	fetched := []FetchedBlob{
		{Slot: slotN(1), CreatedAt: 900},
		{Slot: slotN(2), CreatedAt: 5000},
		{Slot: slotN(1), CreatedAt: 1000, Err: ErrDecrypt},
	}
	if got := CreatedAtFor(Proposed(), 950, fetched, slotN(1)); got != 1001 {
		t.Fatalf("created_at at slot 1 = %d, want 1001", got)
	}
}

func TestIdentificationVector(t *testing.T) {
	var v struct {
		Self struct {
			ClientID string `json:"client_id"`
			SlotID   string `json:"slot_id"`
		} `json:"self"`
		Fetched []struct {
			SlotID    string `json:"slot_id"`
			CreatedAt int64  `json:"created_at"`
			Plaintext string `json:"plaintext"`
		} `json:"fetched"`
		WantRoles  []string          `json:"want_roles"`
		WantMerged map[string]uint32 `json:"want_merged"`
	}
	loadVector(t, "identification.json", &v)
	var fetched []FetchedBlob
	for _, f := range v.Fetched {
		b, _, err := ParseBlob([]byte(f.Plaintext))
		if err != nil {
			t.Fatal(err)
		}
		fetched = append(fetched, FetchedBlob{Relay: "r", Slot: f.SlotID, CreatedAt: f.CreatedAt, Blob: b})
	}
	self := Self{ClientID: v.Self.ClientID, Primary: v.Self.SlotID}
	id := Identify(Proposed(), self, fetched)
	for i, want := range v.WantRoles {
		if id.Roles[i].String() != want {
			t.Errorf("blob %d role %v, want %s", i, id.Roles[i], want)
		}
	}
	r := NewReplica(self.ClientID)
	plan, err := r.PlanPublish(WriteInput{Self: self, Fetched: fetched, Now: 1700001100, Budget: DefaultBudget()})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Events) != 1 || plan.Events[0].Slot != self.Primary || plan.Events[0].CreatedAt != 1700001100 {
		t.Fatalf("plan %+v", plan.Events)
	}
	for ctx, want := range v.WantMerged {
		if got, _ := plan.Events[0].Blob.Value(ctx); got != want {
			t.Errorf("published %s = %d, want %d", ctx, got, want)
		}
	}
}

func TestIdentifyRoles(t *testing.T) {
	self := Self{ClientID: "me", Primary: slotN(1), Additional: []string{slotN(2)}}
	blob := func(c string) Blob { return Blob{V: 1, ClientID: c} }
	fetched := []FetchedBlob{
		{Slot: slotN(1), CreatedAt: 10, ID: "b", Blob: blob("me")},  // own, older
		{Slot: slotN(1), CreatedAt: 20, ID: "c", Blob: blob("me")},  // own, newest
		{Slot: slotN(1), CreatedAt: 20, ID: "a", Blob: blob("me")},  // own, same second, lower id: wins
		{Slot: slotN(2), CreatedAt: 30, Blob: blob("me")},           // own additional
		{Slot: slotN(3), CreatedAt: 99, Blob: blob("me")},           // orphan (newer than the primary)
		{Slot: slotN(4), CreatedAt: 5, Blob: blob("peer")},          // peer
		{Slot: slotN(2), CreatedAt: 31, Blob: blob("intruder")},     // conflict on an additional slot
		{Slot: slotN(5), CreatedAt: 1, Err: ErrDecrypt},             // unreadable
		{Slot: slotN(3), CreatedAt: 98, ID: "z", Blob: blob("me")},  // orphan again
		{Slot: slotN(6), CreatedAt: 100, ID: "y", Blob: blob("me")}, // orphan, newest overall
	}
	id := Identify(Proposed(), self, fetched)
	want := []BlobRole{RoleOwn, RoleOwn, RoleOwn, RoleOwnAdditional, RoleOrphan, RolePeer, RoleConflict, RoleUnreadable, RoleOrphan, RoleOrphan}
	if !slices.Equal(id.Roles, want) {
		t.Fatalf("roles %v\nwant  %v", id.Roles, want)
	}
	if id.Own != 2 || id.Reference != 2 {
		t.Fatalf("own %d reference %d, want 2 (the primary wins over newer orphans)", id.Own, id.Reference)
	}
	if !slices.Equal(id.Orphans, []string{slotN(3), slotN(6)}) || !slices.Equal(id.Conflicted, []string{slotN(2)}) {
		t.Fatalf("orphans %v conflicted %v", id.Orphans, id.Conflicted)
	}
	// Without the primary the newest same-client blob is the reference.
	noPrimary := Identify(Proposed(), self, fetched[3:])
	if noPrimary.Own != -1 || noPrimary.Reference != 6 {
		t.Fatalf("own %d reference %d, want -1 and 6 (slot 6 at 100)", noPrimary.Own, noPrimary.Reference)
	}
	// A conflicted additional slot is given up; the primary is kept.
	got, err := ResolveConflicts(self, id, fixedSlots())
	if err != nil || got.Primary != self.Primary || len(got.Additional) != 0 {
		t.Fatalf("resolved %+v, %v", got, err)
	}
}

func TestOwnFilter(t *testing.T) {
	f := OwnFilter("pk", Self{ClientID: "me", Primary: slotN(1), Additional: []string{slotN(2), slotN(3)}})
	if !slices.Equal(f.Kinds, []int{KindReadState}) || !slices.Equal(f.Authors, []string{"pk"}) || len(f.Tags) != 1 {
		t.Fatalf("filter %v", f)
	}
	if want := []string{DTag(slotN(1)), DTag(slotN(2)), DTag(slotN(3))}; !slices.Equal(f.Tags["d"], want) {
		t.Fatalf("d values %v, want %v", f.Tags["d"], want)
	}
	if f.Since != nil || f.Until != nil || f.Limit != 0 {
		t.Fatalf("filter constrains time or count: %v", f)
	}
}

func TestCoversTable(t *testing.T) {
	b := func(es ...Entry) Blob { return Blob{V: 1, ClientID: "x", Contexts: SortEntries(es)} }
	live := func(s, c, bb uint32) []Entry {
		return []Entry{{"c", bb}, {PrefixS + "c", s}, {PrefixC + "c", c}, {PrefixB + "c", bb}}
	}
	floor := func(c uint32) Entry { return Entry{PrefixC + "c", c} }
	tests := []struct {
		name       string
		old, carry Blob
		want       bool
	}{
		{"no overrides", b(Entry{"c", 5}), b(), true},
		{"same floor", b(floor(3)), b(floor(3)), true},
		{"higher floor", b(floor(3)), b(floor(4)), true},
		{"lower floor", b(floor(3)), b(floor(2)), false},
		{"missing floor", b(floor(3)), b(Entry{"c", 9}), false},
		{"live folded to a floor", b(live(2, 1, 10)...), b(floor(2)), true},
		{"live under a lower floor", b(live(2, 1, 10)...), b(floor(1)), false},
		{"floor under a newer live set", b(floor(3)), b(live(4, 3, 10)...), true},
		{"floor above the carried live set", b(floor(5)), b(live(4, 3, 10)...), false},
		{"same live", b(live(2, 1, 10)...), b(live(2, 1, 10)...), true},
		{"live with a higher baseline elsewhere", b(live(2, 1, 20)...), b(live(2, 1, 10)...), false},
	}
	for _, tc := range tests {
		if got := Covers(Proposed(), tc.old, tc.carry); got != tc.want {
			t.Errorf("%s: Covers = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestMayDeleteCoordinateTable(t *testing.T) {
	tests := []struct {
		f    DeleteFacts
		want error
	}{
		{DeleteFacts{Kind: CoordAdditional, Complete: false}, ErrLoadIncomplete},
		{DeleteFacts{Kind: CoordAdditional, Complete: true}, nil},
		{DeleteFacts{Kind: CoordPredecessor, Complete: true}, nil},
		{DeleteFacts{Kind: CoordPredecessor, Overrides: true, Complete: true}, ErrNotCarried},
		{DeleteFacts{Kind: CoordPredecessor, Overrides: true, Carried: true, Complete: true}, nil},
		{DeleteFacts{Kind: CoordPredecessor, Overrides: true, Carried: true, Complete: false}, ErrLoadIncomplete},
		{DeleteFacts{Kind: CoordOrphan, Complete: true}, ErrNotCarried},
		{DeleteFacts{Kind: CoordOrphan, Carried: true, Complete: true}, nil},
		{DeleteFacts{Kind: CoordPrimary, Carried: true, Complete: true}, ErrLiveCarrier},
		{DeleteFacts{Kind: CoordPeer, Carried: true, Complete: true}, ErrNotOwn},
		{DeleteFacts{Kind: CoordAdditional, Overrides: true, Complete: true}, ErrNotCarried},
	}
	for _, tc := range tests {
		err := mayDeleteCoordinate(tc.f)
		if (tc.want == nil) != (err == nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Errorf("%+v: %v, want %v", tc.f, err, tc.want)
		}
	}
}

func TestSelfValidate(t *testing.T) {
	tests := []struct {
		s    Self
		want error
	}{
		{Self{ClientID: "me", Primary: slotN(1), Additional: []string{slotN(2)}}, nil},
		{Self{ClientID: "", Primary: slotN(1)}, ErrBadClientID},
		{Self{ClientID: string(make([]rune, 65)), Primary: slotN(1)}, ErrBadClientID},
		{Self{ClientID: "\xff", Primary: slotN(1)}, ErrBadClientID},
		{Self{ClientID: "me", Primary: "slot1"}, ErrBadSlotID},
		{Self{ClientID: "me", Primary: slotN(1), Additional: []string{"UPPER"}}, ErrBadSlotID},
	}
	for _, tc := range tests {
		err := tc.s.Validate()
		if (tc.want == nil) != (err == nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Errorf("%+v: %v, want %v", tc.s, err, tc.want)
		}
	}
	for _, s := range []Self{
		{ClientID: "me", Primary: slotN(1), Additional: []string{slotN(1)}},
		{ClientID: "me", Primary: slotN(1), Additional: []string{slotN(2), slotN(2)}},
	} {
		if s.Validate() == nil {
			t.Errorf("%+v: a slot id used twice was accepted", s)
		}
	}
	r := NewReplica("me")
	if _, err := r.PlanPublish(WriteInput{Self: Self{ClientID: "me", Primary: "x"}}); !errors.Is(err, ErrBadSlotID) {
		t.Fatalf("PlanPublish with a bad primary: %v", err)
	}
}
