package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// hex64 is a deterministic 64-hex id for thread:/msg: keys.
func hex64(i int) string { return fmt.Sprintf("%064x", i+1) }

// liveGroup is the wire form of a live override of ctx with its frontier.
func liveGroup(ctx string, f uint32, s, c, b uint32) []Entry {
	return []Entry{{EscapeKey(ctx), f}, {PrefixS + ctx, s}, {PrefixC + ctx, c}, {PrefixB + ctx, b}}
}

// splitInput is a blob with nOv live override groups (one with an escaped
// raw id) and nFront frontier-only channel contexts.
func splitInput(nOv, nFront int) Blob {
	var es []Entry
	for i := range nOv {
		es = append(es, liveGroup(fmt.Sprintf("ov-chan-%04d", i), 1000, 2, 1, 1000)...)
	}
	es = append(es, liveGroup("ov_s:evil", 900, 1, 0, 900)...)
	for i := range nFront {
		es = append(es, Entry{fmt.Sprintf("chan-%05d", i), uint32(1700000000 + i)})
	}
	return Blob{V: 1, ClientID: "client-aabbccdd", Contexts: SortEntries(es)}
}

// splitChecker is what checkSplit needs of *testing.T and *rapid.T.
type splitChecker interface {
	Helper()
	Fatalf(format string, args ...any)
	Fatal(args ...any)
}

// checkSplit asserts the structural invariants of every split: each group
// whole in one coordinate, override-bearing groups in the primary, every
// blob within the budget, and nothing lost but what is reported evicted.
func checkSplit(t splitChecker, in Blob, sp SplitPlan, budget Budget) {
	t.Helper()
	capBytes, err := budget.BlobCapacity()
	if err != nil {
		t.Fatal(err)
	}
	where := map[string]int{}
	ovCtx := map[string]bool{}
	for _, e := range in.Contexts {
		if k, raw := groupKey(e.Key); k != KeyFrontier {
			ovCtx[raw] = true
		}
	}
	for i, b := range sp.Blobs {
		if size := EncodedSize(b); size > capBytes {
			t.Fatalf("coordinate %d is %d bytes, capacity %d", i, size, capBytes)
		}
		if len(b.Contexts) > budget.maxEntries() {
			t.Fatalf("coordinate %d has %d entries", i, len(b.Contexts))
		}
		if b.ClientID != in.ClientID || b.V != in.V {
			t.Fatalf("coordinate %d header %d %q", i, b.V, b.ClientID)
		}
		for _, e := range b.Contexts {
			kind, raw := groupKey(e.Key)
			if prev, ok := where[raw]; ok && prev != i {
				t.Fatalf("group %q split across coordinates %d and %d", raw, prev, i)
			}
			where[raw] = i
			if (kind != KeyFrontier || ovCtx[raw]) && i != 0 {
				t.Fatalf("override-bearing group %q (key %q) in additional coordinate %d", raw, e.Key, i)
			}
		}
	}
	got := map[string]uint32{}
	for _, e := range sp.Entries() {
		got[e.Key] = e.Value
	}
	for _, ev := range sp.Evicted {
		if k, _ := groupKey(ev.Key); k != KeyFrontier {
			t.Fatalf("override entry %q evicted (%v)", ev.Key, ev.Reason)
		}
		if _, dup := got[ev.Key]; dup {
			t.Fatalf("%q both published and evicted", ev.Key)
		}
		got[ev.Key] = ev.Value
	}
	if len(got) != len(in.Contexts) {
		t.Fatalf("published+evicted %d entries, input %d", len(got), len(in.Contexts))
	}
	for _, e := range in.Contexts {
		if v, ok := got[e.Key]; !ok || v != e.Value {
			t.Fatalf("entry %q=%d lost or changed (%d, %v)", e.Key, e.Value, v, ok)
		}
	}
}

func TestSplitFitsPrimary(t *testing.T) {
	in := splitInput(3, 10)
	sp, err := SplitBlob(Proposed(), in, DefaultBudget(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sp.Blobs) != 1 || len(sp.Evicted) != 0 || !slices.Equal(sp.Blobs[0].Contexts, in.Contexts) {
		t.Fatalf("a small state split into %d coordinates, evicted %v", len(sp.Blobs), sp.Evicted)
	}
	checkSplit(t, in, sp, DefaultBudget())
}

func TestSplitPinsOverrideGroups(t *testing.T) {
	budget := Budget{PlaintextBytes: 4096, MaxEntries: MaxEntries}
	for _, tc := range []struct{ ov, front int }{{0, 2000}, {20, 2000}, {40, 300}, {1, 1}} {
		in := splitInput(tc.ov, tc.front)
		sp, err := SplitBlob(Proposed(), in, budget, nil)
		if err != nil {
			t.Fatalf("%+v: %v", tc, err)
		}
		checkSplit(t, in, sp, budget)
		if len(sp.Evicted) != 0 {
			t.Fatalf("%+v: evicted %v without a coordinate limit", tc, sp.Evicted)
		}
		if _, ok := sp.Blobs[0].Value("esc:ov_s:evil"); !ok {
			t.Fatalf("%+v: escaped frontier esc:ov_s:evil left its override group", tc)
		}
	}
}

func TestSplitDeterministic(t *testing.T) {
	budget := Budget{PlaintextBytes: 2048, MaxEntries: MaxEntries}
	in := splitInput(5, 500)
	want, err := SplitBlob(Proposed(), in, budget, nil)
	if err != nil {
		t.Fatal(err)
	}
	seed := uint64(1)
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	for range 5 {
		shuffled := slices.Clone(in.Contexts)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got, err := SplitBlob(Proposed(), Blob{V: 1, ClientID: in.ClientID, Contexts: shuffled}, budget, nil)
		if err != nil {
			t.Fatal(err)
		}
		if renderSplit(got) != renderSplit(want) {
			t.Fatal("the same state split differently")
		}
	}
}

func TestSplitOverrideBudget(t *testing.T) {
	budget := Budget{PlaintextBytes: 2048, MaxEntries: MaxEntries}
	in := splitInput(40, 100) // 41 live groups of ~80 bytes do not fit 2 KiB
	_, err := SplitBlob(Proposed(), in, budget, nil)
	if !errors.Is(err, ErrOverrideBudget) {
		t.Fatalf("err = %v, want ErrOverrideBudget", err)
	}
	// The entry limit counts too.
	small := Budget{PlaintextBytes: PlaintextBudget, MaxEntries: 8}
	if _, err := SplitBlob(Proposed(), splitInput(2, 0), small, nil); !errors.Is(err, ErrOverrideBudget) {
		t.Fatalf("12 override entries against 8: err = %v", err)
	}
}

func TestSplitEvictionOrder(t *testing.T) {
	es := []Entry{
		{"chan-new", 500}, {"chan-old", 100},
		{MsgPrefix + hex64(1), 300}, {MsgPrefix + hex64(2), 200},
		{ThreadPrefix + hex64(3), 50}, {ThreadPrefix + hex64(4), 400},
		{"msg:opaque", 1}, // not 64 hex: an ordinary context
		{PrefixC + "gone", 1},
	}
	es = append(es, liveGroup("kept", 10, 1, 0, 10)...)
	in := Blob{V: 1, ClientID: "c", Contexts: SortEntries(es)}
	want := []string{MsgPrefix + hex64(2), MsgPrefix + hex64(1), ThreadPrefix + hex64(3), ThreadPrefix + hex64(4), "msg:opaque", "chan-old", "chan-new"}
	full := EncodedSize(in)
	for n := 0; n <= len(want); n++ {
		// A budget one byte short of holding all but the first n evictable entries.
		var kept []Entry
		for _, e := range in.Contexts {
			if !slices.Contains(want[:n], e.Key) {
				kept = append(kept, e)
			}
		}
		size := EncodedSize(Blob{V: 1, ClientID: "c", Contexts: kept})
		budget := Budget{PlaintextBytes: size, MaxCoordinates: 1, MaxEntries: MaxEntries}
		sp, err := SplitBlob(Proposed(), in, budget, nil)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		checkSplit(t, in, sp, budget)
		var got []string
		for _, ev := range sp.Evicted {
			if ev.Reason != EvictBudget {
				t.Fatalf("n=%d: %q evicted for %v", n, ev.Key, ev.Reason)
			}
			got = append(got, ev.Key)
		}
		slices.Sort(got)
		exp := slices.Sorted(slices.Values(want[:n]))
		if !slices.Equal(got, exp) {
			t.Fatalf("n=%d (budget %d of %d): evicted %v, want %v", n, size, full, got, exp)
		}
	}
	// Nothing evictable is left: the floor and the live group stay, and the
	// split reports the limit instead of dropping them.
	var pinned []Entry
	for _, e := range in.Contexts {
		if k, raw := groupKey(e.Key); k != KeyFrontier || raw == "kept" {
			pinned = append(pinned, e)
		}
	}
	tiny := Budget{PlaintextBytes: EncodedSize(Blob{V: 1, ClientID: "c", Contexts: pinned}) - 1, MaxCoordinates: 1, MaxEntries: MaxEntries}
	if _, err := SplitBlob(Proposed(), in, tiny, nil); !errors.Is(err, ErrOverrideBudget) {
		t.Fatalf("tiny budget: %v", err)
	}
}

func TestSplitHorizon(t *testing.T) {
	es := []Entry{{"old", 100}, {"new", 5000}, {PrefixC + "floor", 3}}
	es = append(es, liveGroup("pinned-old", 50, 1, 0, 50)...)
	in := Blob{V: 1, ClientID: "c", Contexts: SortEntries(es)}
	budget := DefaultBudget()
	budget.Now, budget.Horizon = 6000, 1000
	sp, err := SplitBlob(Proposed(), in, budget, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkSplit(t, in, sp, budget)
	if len(sp.Evicted) != 1 || sp.Evicted[0] != (Eviction{"old", 100, EvictHorizon}) {
		t.Fatalf("evicted %v, want only old by horizon", sp.Evicted)
	}
}

func TestSplitDominated(t *testing.T) {
	const ch = "chan"
	th, dom, eq, unres, msg := ThreadPrefix+hex64(1), ThreadPrefix+hex64(2), MsgPrefix+hex64(3), ThreadPrefix+hex64(4), MsgPrefix+hex64(5)
	parent := func(raw string) (string, bool) {
		if raw == unres {
			return "", false
		}
		return ch, true
	}
	es := []Entry{{ch, 150}, {th, 200}, {dom, 100}, {eq, 150}, {unres, 10}, {"thread:short", 1}}
	es = append(es, liveGroup(msg, 120, 1, 0, 150)...) // a dominated child frontier in an override group
	in := Blob{V: 1, ClientID: "c", Contexts: SortEntries(es)}
	sp, err := SplitBlob(Proposed(), in, DefaultBudget(), parent)
	if err != nil {
		t.Fatal(err)
	}
	checkSplit(t, in, sp, DefaultBudget())
	var got []string
	for _, ev := range sp.Evicted {
		if ev.Reason != EvictDominated {
			t.Fatalf("%q evicted for %v", ev.Key, ev.Reason)
		}
		got = append(got, ev.Key)
	}
	want := slices.Sorted(slices.Values([]string{dom, eq, msg}))
	if !slices.Equal(got, want) {
		t.Fatalf("dominated evictions %v, want %v", got, want)
	}
}

// renderSplit is the golden form of a split: each coordinate's plaintext
// and the evictions.
func renderSplit(sp SplitPlan) string {
	type coord struct {
		Coordinate int    `json:"coordinate"`
		Bytes      int    `json:"bytes"`
		Plaintext  string `json:"plaintext"`
	}
	var out struct {
		Coordinates []coord  `json:"coordinates"`
		Evicted     []string `json:"evicted"`
	}
	for i, b := range sp.Blobs {
		out.Coordinates = append(out.Coordinates, coord{i, EncodedSize(b), string(EncodeBlob(b))})
	}
	for _, e := range sp.Evicted {
		out.Evicted = append(out.Evicted, fmt.Sprintf("%s=%d (%v)", e.Key, e.Value, e.Reason))
	}
	data, _ := json.MarshalIndent(out, "", "  ")
	return string(data) + "\n"
}

// TestSplitGolden pins the split of a fixed state under a small budget with
// a coordinate limit (-update rewrites the golden file).
func TestSplitGolden(t *testing.T) {
	var es []Entry
	for i := range 6 {
		es = append(es, Entry{fmt.Sprintf("chan-%d", i), uint32(1700000000 + 10*i)})
		es = append(es, Entry{ThreadPrefix + hex64(i), uint32(1700000005 + 10*i)})
	}
	es = append(es, liveGroup("ov_c:odd", 1700000100, 3, 2, 1700000100)...)
	es = append(es, Entry{PrefixC + "chan-2", 4})
	in := Blob{V: 1, ClientID: "golden", Contexts: SortEntries(es)}
	budget := Budget{PlaintextBytes: 400, MaxCoordinates: 2, MaxEntries: MaxEntries}
	sp, err := SplitBlob(Proposed(), in, budget, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkSplit(t, in, sp, budget)
	got := renderSplit(sp)
	path := filepath.Join("testdata", "vectors", "split_small.golden.json")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./model/ -run TestSplitGolden -update)", err)
	}
	if got != string(want) {
		t.Fatalf("split differs from %s:\n%s", path, got)
	}
}

// TestSlotEntrySizeIsExact: the incremental size the deal uses equals
// EncodedSize, escaped and non-ASCII keys included.
func TestSlotEntrySizeIsExact(t *testing.T) {
	keys := []string{"a", "esc:ov_s:x", "ünï", "quote\"back\\slash", "<&>", "tab\t", strings.Repeat("k", 256)}
	var es []Entry
	b := Blob{V: 1, ClientID: "cl"}
	sum := EncodedSize(b) - 1
	for i, k := range keys {
		e := Entry{k, uint32(i) * 1000003}
		es = append(es, e)
		sum += slotEntrySize(e)
	}
	b.Contexts = SortEntries(es)
	if got := EncodedSize(b); got != sum {
		t.Fatalf("EncodedSize %d, incremental %d", got, sum)
	}
}

// TestSplitProperties: on random states and budgets a split either
// succeeds with every structural invariant, the same way twice, or fails
// with ErrOverrideBudget exactly when the override groups cannot fit.
func TestSplitProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := NewReplica(rapid.StringMatching(`[a-z]{1,12}`).Draw(t, "client"))
		r.Parent = func(raw string) (string, bool) { return "chan-0", !strings.HasSuffix(raw, "f") }
		ids := rapid.SliceOfN(rapid.OneOf(
			rapid.StringMatching(`chan-[0-9]{1,3}`),
			rapid.StringMatching(`(ov_s:|ov_c:|esc:|ov_)[a-z]{0,4}`),
			rapid.Custom(func(t *rapid.T) string { return ThreadPrefix + hex64(rapid.IntRange(0, 40).Draw(t, "th")) }),
			rapid.Custom(func(t *rapid.T) string { return MsgPrefix + hex64(rapid.IntRange(0, 40).Draw(t, "msg")) }),
			rapid.StringMatching(`[a-zA-Z0-9 é"\\]{1,60}`),
		), 10, 200).Draw(t, "ids")
		for _, id := range ids {
			r.Advance(id, rapid.Uint32Range(0, 2000).Draw(t, "ts"))
			switch rapid.IntRange(0, 30).Draw(t, "action") {
			case 0:
				_ = r.MarkUnread(id)
			case 1:
				_ = r.MarkUnread(id)
				_ = r.MarkRead(id, rapid.Uint32Range(0, 2000).Draw(t, "read"))
			}
		}
		budget := Budget{
			PlaintextBytes: rapid.SampledFrom([]int{200, 400, 800, 1500, 3000}).Draw(t, "bytes"),
			MaxCoordinates: rapid.IntRange(0, 4).Draw(t, "coords"),
			MaxEntries:     rapid.SampledFrom([]int{20, 100, MaxEntries}).Draw(t, "entries"),
			Now:            2000,
		}
		if rapid.Bool().Draw(t, "horizon?") {
			budget.Horizon = int64(rapid.IntRange(100, 1900).Draw(t, "horizon"))
		}
		in := r.Candidate()
		sp, err := SplitBlob(r.Rules, in, budget, r.Parent)

		capBytes, _ := budget.BlobCapacity()
		var ovOnly, pinned []Entry
		ovCtx := map[string]bool{}
		for _, e := range in.Contexts {
			if k, raw := groupKey(e.Key); k != KeyFrontier {
				ovCtx[raw] = true
				ovOnly = append(ovOnly, e)
			}
		}
		for _, e := range in.Contexts {
			if _, raw := groupKey(e.Key); ovCtx[raw] {
				pinned = append(pinned, e)
			}
		}
		fits := func(es []Entry) bool {
			return EncodedSize(Blob{V: in.V, ClientID: in.ClientID, Contexts: es}) <= capBytes && len(es) <= budget.MaxEntries
		}
		switch {
		case errors.Is(err, ErrOverrideBudget):
			if fits(pinned) {
				t.Fatalf("refused although every override group fits: %v", err)
			}
			return
		case err != nil:
			t.Fatalf("unexpected error %v", err)
		}
		if !fits(ovOnly) {
			t.Fatal("split succeeded although the ov_* entries alone do not fit")
		}
		checkSplit(t, in, sp, budget)
		again, err := SplitBlob(r.Rules, in, budget, r.Parent)
		if err != nil || renderSplit(again) != renderSplit(sp) {
			t.Fatal("the same state split differently")
		}
		if budget.MaxCoordinates > 0 && len(sp.Blobs) > budget.MaxCoordinates {
			t.Fatalf("%d coordinates, limit %d", len(sp.Blobs), budget.MaxCoordinates)
		}
	})
}

// TestSplitDuplicateKeys: a blob with a repeated wire key is split as the
// last-wins blob it encodes to.
func TestSplitDuplicateKeys(t *testing.T) {
	in := Blob{V: 1, ClientID: "c", Contexts: []Entry{{"a", 1}, {"a", 5}, {"b", 2}}}
	sp, err := SplitBlob(Proposed(), in, DefaultBudget(), nil)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"v":1,"client_id":"c","contexts":{"a":5,"b":2}}`
	if got := string(EncodeBlob(sp.Blobs[0])); got != want {
		t.Fatalf("split %s, want %s", got, want)
	}
}
