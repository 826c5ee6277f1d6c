package exhaustive

import (
	"sync"
	"testing"

	"github.com/nip-rs/harness/internal/offheap"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
)

// Concurrent writers and readers across many growths: every key reads back
// the step stored for it, a second store of a key keeps the first, and no
// reader sees a key without its value.
func TestRecvTableConcurrent(t *testing.T) {
	mem := &offheap.Arena{}
	defer mem.FreeAll()
	tb := newRecvTable(mem)
	const keys, workers = 20000, 4
	want := func(k uint64) step { return step{next: int32(k*7 + 1), regress: k%3 == 0} }
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range uint64(keys) {
				k := (i*workers + uint64(w)) % keys
				if s, ok := tb.get(k); ok && s != want(k) {
					t.Errorf("key %d read %+v, want %+v", k, s, want(k))
					return
				}
				if got := tb.putIfAbsent(k, want(k)); got != want(k) {
					t.Errorf("key %d stored %+v", k, got)
					return
				}
			}
		}()
	}
	wg.Wait()
	for k := range uint64(keys) {
		if s, ok := tb.get(k); !ok || s != want(k) {
			t.Fatalf("key %d: %+v %v", k, s, ok)
		}
	}
	if got := tb.putIfAbsent(5, step{next: -9}); got != want(5) {
		t.Fatalf("a second store replaced the first: %+v", got)
	}
	if _, ok := tb.get(keys + 1); ok {
		t.Fatal("an absent key was found")
	}
	if tb.n != keys {
		t.Fatalf("%d entries, want %d", tb.n, keys)
	}
}

// A step packs into a word and back, negative (disabled) steps included.
func TestPackStep(t *testing.T) {
	for _, s := range []step{{}, {next: 1}, {next: -1}, {next: 1<<31 - 1, regress: true}, {next: -1 << 31, regress: true}} {
		if got := unpackStep(packStep(s)); got != s {
			t.Errorf("%+v -> %+v", s, got)
		}
	}
}

// A bounded u64map empties itself instead of growing past its limit, and
// reads back what it holds; reset shrinks a grown map.
func TestU64mapLimitAndReset(t *testing.T) {
	mem := &offheap.Arena{}
	defer mem.FreeAll()
	m := newU64map[int32](mem, 1<<11)
	for k := range uint64(5000) {
		m.put(k, int32(k))
		if v, ok := m.get(k); !ok || v != int32(k) {
			t.Fatalf("key %d: %d %v", k, v, ok)
		}
		if len(m.slots) > 1<<11 {
			t.Fatalf("grew to %d slots past the limit", len(m.slots))
		}
	}
	if m.n >= 5000 {
		t.Fatal("the bounded map was never emptied")
	}
	u := newU64map[struct{}](mem, 0)
	for k := range uint64(10000) {
		u.put(k, struct{}{})
	}
	u.reset()
	if _, ok := u.get(3); ok || u.n != 0 || len(u.slots) > 1<<12 {
		t.Fatalf("after reset: n=%d, %d slots", u.n, len(u.slots))
	}
}

// A search frees the delivery arrays growth replaced at its pauses: after
// a run whose tables grew, none is retired, and every delivery still reads
// back through the current arrays.
func TestRetiredDeliveriesFreed(t *testing.T) {
	u := Reference()
	w, e, err := newWorld(&u, model.Proposed(), 5, true)
	if err != nil {
		t.Fatal(err)
	}
	defer e.mem.FreeAll()
	run, err := search.Explore[*cache](w, search.Config{Depth: 5, Workers: 2, TerminalOnly: u.TerminalOnly})
	if err != nil {
		t.Fatal(err)
	}
	defer run.Store.Free()
	grown := false
	for _, d := range e.devs {
		s := d.recv.cur.Load()
		grown = grown || len(s.slots) > 1<<10
		if len(d.recv.retired) != 0 {
			t.Fatalf("%d delivery arrays still retired after the run", len(d.recv.retired))
		}
		n := 0
		for i := range s.slots {
			if k := s.slots[i].key.Load(); k != 0 {
				n++
				if got, ok := d.recv.get(k - 1); !ok || packStep(got) != s.slots[i].val.Load() {
					t.Fatalf("delivery %x does not read back", k-1)
				}
			}
		}
		if n != d.recv.n {
			t.Fatalf("%d deliveries in the slots, %d counted", n, d.recv.n)
		}
	}
	if !grown {
		t.Fatal("no delivery table grew: the test shows nothing")
	}
}
