package relaysim

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/model"
)

const pk = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"

func slot(i int) string { return fmt.Sprintf("read-state:%032x", i) }

func ev(d string, at int64, salt string) *nostr.Event {
	tags := nostr.Tags{{"d", d}}
	if model.ValidDTag(d) {
		tags = append(tags, nostr.Tag{"t", "read-state"})
	}
	e := &nostr.Event{PubKey: pk, CreatedAt: nostr.Timestamp(at), Kind: 30078, Tags: tags, Content: salt}
	e.ID = e.GetID()
	return e
}

// sameSecond returns two versions of d at the same second, lower id first.
func sameSecond(d string, at int64) (lo, hi *nostr.Event) {
	a, b := ev(d, at, "a"), ev(d, at, "b")
	if a.ID < b.ID {
		return a, b
	}
	return b, a
}

func ts(t int64) *nostr.Timestamp { v := nostr.Timestamp(t); return &v }

func filter(limit int, since, until *nostr.Timestamp) nostr.Filter {
	f := model.Spec().Load.EnumerationFilter(pk, limit)
	f.Since, f.Until = since, until
	return f
}

// ask sends one REQ on a fresh connection and returns what came back
// before its EOSE, as "d@created_at" labels.
func ask(r *Relay, f nostr.Filter) []string {
	c := r.Connect()
	c.Send(model.Out{Kind: model.OutREQ, SubID: "s", Filter: f})
	if err := c.Process(0); err != nil {
		panic(err)
	}
	var got []string
	for {
		m, ok := c.Next()
		if !ok || m.Kind == model.InEOSE {
			return got
		}
		got = append(got, label(m.Event))
	}
}

func label(e *nostr.Event) string { return fmt.Sprintf("%s@%d", e.Tags.GetD(), e.CreatedAt) }

func TestQueryShape(t *testing.T) {
	a, b, c := ev("a", 10, ""), ev("b", 9, ""), ev("c", 8, "")
	x1, x2 := sameSecond("x", 5)
	three := []*nostr.Event{ev("p", 7, "1"), ev("q", 7, "2"), ev("r", 7, "3")}
	sortedIDs := func(desc bool) []string {
		ids := []*nostr.Event{three[0], three[1], three[2]}
		slices.SortFunc(ids, func(p, q *nostr.Event) int { return strings.Compare(p.ID, q.ID) })
		if desc {
			slices.Reverse(ids)
		}
		var out []string
		for _, e := range ids {
			out = append(out, label(e))
		}
		return out
	}
	tests := []struct {
		name  string
		prof  Profile
		store []*nostr.Event
		f     nostr.Filter
		want  []string
	}{
		{"cap below the requested limit", Conformant(2), []*nostr.Event{a, b, c}, filter(10, nil, nil), []string{"a@10", "b@9"}},
		{"requested limit below the cap", Conformant(5), []*nostr.Event{a, b, c}, filter(1, nil, nil), []string{"a@10"}},
		{"until inclusive", Conformant(5), []*nostr.Event{a, b, c}, filter(5, nil, ts(9)), []string{"b@9", "c@8"}},
		{"pinned window", Conformant(5), []*nostr.Event{a, b, c}, filter(5, ts(9), ts(9)), []string{"b@9"}},
		{"since exclusive empties the pinned window", KhatruSliceLike(5), []*nostr.Event{a, b, c}, filter(5, ts(9), ts(9)), nil},
		{"non-prefix subset", NonPrefix(2), []*nostr.Event{a, b, c}, filter(10, nil, nil), []string{"a@10", "c@8"}},
		{"ties by lowest id", Conformant(5), three, filter(5, nil, nil), sortedIDs(false)},
		{"ties by highest id", KhatruSliceLike(5), three, filter(5, nil, nil), sortedIDs(true)},
		{"ties by newest insertion", StrfryLike(5), three, filter(5, nil, nil), []string{"r@7", "q@7", "p@7"}},
		{"floor 1", FloorOne(5), []*nostr.Event{a, b}, filter(5, nil, nil), []string{"a@10"}},
		{"lowest-id replacement", Conformant(5), []*nostr.Event{x2, x1}, filter(5, nil, nil), []string{label(x1)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := New(tc.prof)
			for _, e := range tc.store {
				r.Publish(e)
			}
			got := ask(r, tc.f)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestTagPhases(t *testing.T) {
	// Three newest events are foreign application data, two of them with
	// a d tag containing "read-state"; the oldest is a read-state event.
	foreign := []*nostr.Event{ev("app:1", 10, ""), ev("app:read-state-cache", 9, ""), ev("app:3", 8, "")}
	rs := ev(slot(1), 1, "")
	f := filter(2, nil, nil)
	f.Tags = nostr.TagMap{"t": {"read-state"}}
	tests := []struct {
		prof Profile
		want []string
	}{
		{StrfryLike(2), []string{slot(1) + "@1"}}, // tags before the cap
		{Conformant(2), nil},                      // cap picks two foreign events, both withheld
		{SQLiteSubstringTagLike(2), []string{"app:read-state-cache@9", slot(1) + "@1"}}, // substring match inside the cap
	}
	for _, tc := range tests {
		r := New(tc.prof)
		for _, e := range append(foreign, rs) {
			r.Publish(e)
		}
		if got := ask(r, f); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.prof.Name, got, tc.want)
		}
	}
}

func TestReplacement(t *testing.T) {
	d := slot(1)
	lo, hi := sameSecond(d, 50)
	older, newer := ev(d, 40, "o"), ev(d, 60, "n")
	tests := []struct {
		name     string
		prof     Profile
		writes   []*nostr.Event
		accepted []bool
		stored   []string // ids' labels in relay order
	}{
		{"lowest id wins the same second", Conformant(9), []*nostr.Event{hi, lo}, []bool{true, true}, []string{label(lo)}},
		{"higher id rejected the same second", Conformant(9), []*nostr.Event{lo, hi}, []bool{true, false}, []string{label(lo)}},
		{"older rejected", Conformant(9), []*nostr.Event{newer, older}, []bool{true, false}, []string{label(newer)}},
		{"first arrival wins", Profile{Name: "fa", Cap: capAt(9), Same: SameSecondFirstArrival}, []*nostr.Event{hi, lo}, []bool{true, false}, []string{label(hi)}},
		{"stale kept: older arrival stored too", KhatruSliceLike(9), []*nostr.Event{newer, older}, []bool{true, true}, []string{label(newer), label(older)}},
		{"stale kept: higher id after lower", KhatruSliceLike(9), []*nostr.Event{lo, hi}, []bool{true, true}, []string{label(lo), label(hi)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := New(tc.prof)
			for i, w := range tc.writes {
				if ok, _ := r.Publish(w); ok != tc.accepted[i] {
					t.Fatalf("write %d accepted=%v", i, ok)
				}
			}
			for r.Settle() {
			}
			var got []string
			for _, e := range r.Events() {
				got = append(got, label(e))
			}
			if !slices.Equal(got, tc.stored) {
				t.Fatalf("stored %v, want %v", got, tc.stored)
			}
			if c := r.Coordinates()[d]; c != tc.writes[0] && c != tc.writes[1] {
				t.Fatal("truth is not one of the writes")
			}
		})
	}
}

func TestDeleteThenSaveGap(t *testing.T) {
	d := slot(1)
	r := New(KhatruSliceLike(9))
	c := r.Connect()
	c.Send(model.Out{Kind: model.OutREQ, SubID: "fence", Filter: filter(9, nil, nil)})
	old := ev(d, 10, "old")
	r.Publish(old)
	_ = c.Process(0)
	r.Publish(ev(d, 20, "new"))
	if got := ask(r, filter(9, nil, nil)); got != nil {
		t.Fatalf("query in the gap saw %v, want neither version", got)
	}
	if r.Coordinates()[d].CreatedAt != 20 {
		t.Fatal("the coordinate must exist during its replacement")
	}
	if c.Pushes() != 0 {
		t.Fatal("pushed before the save")
	}
	if !r.Settle() || c.Pushes() != 1 || r.Settle() {
		t.Fatal("settle stores and pushes exactly once")
	}
	if got := ask(r, filter(9, nil, nil)); !slices.Equal(got, []string{d + "@20"}) {
		t.Fatalf("after settle %v", got)
	}
}

func TestPushModes(t *testing.T) {
	for _, tc := range []struct {
		prof         Profile
		queued       int
		beforeEOSE   bool
		wantDelivery bool
	}{
		{Conformant(5), 1, true, true},
		{PushAfterEOSE(5), 1, false, true},
		{NoPush(5), 0, false, false},
	} {
		r := New(tc.prof)
		c := r.Connect()
		c.Send(model.Out{Kind: model.OutREQ, SubID: "fence", Filter: filter(5, nil, nil)})
		_ = c.Process(0)
		c.out = nil
		r.Publish(ev(slot(1), 7, ""))
		if c.Pushes() != tc.queued {
			t.Fatalf("%s: %d queued", tc.prof.Name, c.Pushes())
		}
		c.Send(model.Out{Kind: model.OutREQ, SubID: "q", Filter: filter(5, nil, ts(1))})
		_ = c.Process(0)
		first, _ := c.Next()
		if got := first.Kind == model.InEvent && first.SubID == "fence"; got != tc.beforeEOSE {
			t.Fatalf("%s: push before the query's EOSE = %v (first %v)", tc.prof.Name, got, first)
		}
		c.Flush(c.Pushes())
		delivered := tc.beforeEOSE
		for m, ok := c.Next(); ok; m, ok = c.Next() {
			delivered = delivered || m.SubID == "fence"
		}
		if delivered != tc.wantDelivery {
			t.Fatalf("%s: delivered %v", tc.prof.Name, delivered)
		}
	}
}

func TestCapShrinking(t *testing.T) {
	r := New(CapShrinking(4))
	for i := range 6 {
		r.Publish(ev(fmt.Sprint(i), int64(10+i), ""))
	}
	c := r.Connect()
	var sizes []int
	for i := range 4 {
		c.Send(model.Out{Kind: model.OutREQ, SubID: fmt.Sprint(i), Filter: filter(10, nil, nil)})
		_ = c.Process(0)
		n := 0
		for m, ok := c.Next(); ok; m, ok = c.Next() {
			if m.Kind == model.InEvent {
				n++
			}
		}
		sizes = append(sizes, n)
	}
	if !slices.Equal(sizes, []int{4, 4, 2, 2}) {
		t.Fatalf("sizes %v", sizes)
	}
}

func TestCache(t *testing.T) {
	r := New(Cached(5))
	r.Publish(ev(slot(1), 10, "v1"))
	f := filter(5, nil, nil)
	ask(r, f)
	r.Publish(ev(slot(1), 11, "v2"))
	if got := ask(r, f); !slices.Equal(got, []string{slot(1) + "@10"}) {
		t.Fatalf("cached answer %v, want the stale version", got)
	}
	if got := ask(r, filter(5, nil, ts(100))); !slices.Equal(got, []string{slot(1) + "@11"}) {
		t.Fatalf("another filter %v", got)
	}
	for range r.prof.CacheTTL {
		r.Delete("nothing")
	}
	if got := ask(r, f); !slices.Equal(got, []string{slot(1) + "@11"}) {
		t.Fatalf("expired cache %v", got)
	}
}

func TestSoftDelete(t *testing.T) {
	for _, tc := range []struct {
		prof Profile
		want []string
	}{
		{Conformant(2), []string{"c@8"}},
		{SoftDeletedRows(2), nil},
	} {
		r := New(tc.prof)
		a, b, c := ev("a", 10, ""), ev("b", 9, ""), ev("c", 8, "")
		r.Publish(a)
		r.Publish(b)
		r.Publish(c)
		r.Delete(a.ID)
		r.Delete(b.ID)
		if got := ask(r, filter(10, nil, nil)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.prof.Name, got, tc.want)
		}
	}
}

func TestConnLoseAndClose(t *testing.T) {
	r := New(Conformant(5))
	c := r.Connect()
	c.Send(model.Out{Kind: model.OutREQ, SubID: "fence", Filter: filter(5, nil, nil)})
	_ = c.Process(0)
	if !c.CloseSub("fence", "error: bye") || c.CloseSub("fence", "again") {
		t.Fatal("CloseSub")
	}
	c.Next()
	if m, _ := c.Next(); m.Kind != model.InClosed || m.Reason != "error: bye" {
		t.Fatalf("got %v", m)
	}
	c.Lose()
	if m, _ := c.Next(); m.Kind != model.InConnectionLost {
		t.Fatalf("got %v", m)
	}
	if c.Process(0) == nil {
		t.Fatal("processed on a lost connection")
	}
	r.Publish(ev(slot(1), 1, ""))
	if c.Pushes() != 0 || c.Outbound() != 0 {
		t.Fatal("lost connection received a push")
	}
}

func TestProfiles(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range All(5) {
		if seen[p.Name] {
			t.Fatalf("duplicate profile %s", p.Name)
		}
		seen[p.Name] = true
		if got, err := ByName(p.Name, 5); err != nil || got.Name != p.Name {
			t.Fatalf("ByName(%s): %v", p.Name, err)
		}
		if p.Note == "" {
			t.Errorf("%s has no note", p.Name)
		}
	}
	if len(seen) != 22 {
		t.Fatalf("%d profiles, want 22", len(seen))
	}
	for _, p := range Quirks(5) {
		if !p.Conforms() {
			t.Errorf("%s is listed as meeting the requirements but breaks %v", p.Name, p.Breaks)
		}
	}
	if _, err := ByName("nope", 5); err == nil {
		t.Fatal("unknown profile accepted")
	}
	breaks := map[Requirement]bool{}
	for _, p := range Breaking(5) {
		if len(p.Breaks) != 1 {
			t.Fatalf("%s breaks %v, want exactly one requirement", p.Name, p.Breaks)
		}
		breaks[p.Breaks[0]] = true
	}
	// Every requirement but R7 has a profile breaking it alone: the stale
	// answer to a new filter R7 forbids has no simulated relay (Cached, a
	// quirk, repeats only answers to filters asked before).
	if len(breaks) != 7 || breaks[ReqFresh] || !Conformant(5).Conforms() {
		t.Fatalf("breaking profiles cover %v", breaks)
	}
}

// TestMaxSubsEvictsOldest: past MaxSubs a REQ silently drops the oldest
// subscription, which then receives no push; the newer ones still do.
func TestMaxSubsEvictsOldest(t *testing.T) {
	p := Conformant(5)
	p.MaxSubs = 2
	r := New(p)
	c := r.Connect()
	f := nostr.Filter{Kinds: []int{30078}}
	for _, id := range []string{"a", "b", "c"} {
		c.Send(model.Out{Kind: model.OutREQ, SubID: id, Filter: f})
		if err := c.Process(0); err != nil {
			t.Fatal(err)
		}
	}
	for {
		if _, ok := c.Next(); !ok {
			break
		}
	}
	r.Publish(ev("app:x", 10, ""))
	c.Flush(c.Pushes())
	got := map[string]bool{}
	for {
		m, ok := c.Next()
		if !ok {
			break
		}
		if m.Kind == model.InEvent {
			got[m.SubID] = true
		}
		if m.Kind == model.InClosed {
			t.Fatalf("eviction sent CLOSED for %s", m.SubID)
		}
	}
	if got["a"] || !got["b"] || !got["c"] {
		t.Fatalf("pushes reached %v, want b and c only", got)
	}
}
