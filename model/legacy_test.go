package model

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestLegacySanitize(t *testing.T) {
	long := strings.Repeat("k", MaxKeyBytes+1)
	in := []Entry{
		{"chan", 5}, {"ov_s:p", 1}, // a partial group: kept opaque
		{"ov_c:" + long, 2}, {long, 3},
		{"esc:ov_s:evil", 4}, {"ov_x:q", 6}, {"chan", 7}, // duplicate: last wins
		{strings.Repeat("é", 128), 8},
	}
	kept, drops := LegacySanitize(in)
	want := []Entry{{"chan", 7}, {"esc:ov_s:evil", 4}, {"ov_s:p", 1}, {"ov_x:q", 6}, {strings.Repeat("é", 128), 8}}
	if !reflect.DeepEqual(kept, want) {
		t.Errorf("kept = %v, want %v", kept, want)
	}
	wantDrops := []Drop{{long, ReasonKeyTooLong}, {"ov_c:" + long, ReasonKeyTooLong}}
	if !reflect.DeepEqual(drops, wantDrops) {
		t.Errorf("drops = %v, want %v", drops, wantDrops)
	}
	if in[0] != (Entry{"chan", 5}) || len(in) != 8 {
		t.Error("input modified")
	}
}

// TestParseBlobLegacy: a legacy client judges each entry alone, so a group
// the upgraded parser rejects whole is kept, minus its invalid sibling.
func TestParseBlobLegacy(t *testing.T) {
	data := []byte(blobWith(`"c":1,"ov_s:c":2,"ov_c:c":"x","ov_b:c":3,"ov_s:p":4,"d":1.0`))
	b, rep, err := ParseBlobLegacy(Proposed(), data)
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{"c", 1}, {"ov_b:c", 3}, {"ov_s:c", 2}, {"ov_s:p", 4}}
	if !reflect.DeepEqual(b.Contexts, want) {
		t.Errorf("legacy kept %v, want %v", b.Contexts, want)
	}
	if len(rep.Drops) != 2 || rep.Drops[0].Key != "d" || rep.Drops[1].Key != "ov_c:c" {
		t.Errorf("legacy drops %v", rep.Drops)
	}
	up, _, err := ParseBlob(data)
	if err != nil || !reflect.DeepEqual(up.Contexts, []Entry{{"c", 1}}) {
		t.Errorf("upgraded kept %v (%v)", up.Contexts, err)
	}
	if _, _, err := ParseBlobLegacy(nil, []byte(`{"v":2}`)); err == nil {
		t.Error("legacy parse accepted v 2")
	}
}

func TestLegacyPrune(t *testing.T) {
	hex := strings.Repeat("ab", 32)
	in := []Entry{
		{"chan", 1},                // channels are never pruned
		{"msg:" + hex, 99},         // below the horizon
		{"msg:" + hex + "x", 100},  // at the horizon: kept
		{"msg:not-hex", 5},         // legacy does not check the 64-hex shape
		{"thread:" + hex, 101},     // above
		{"thread:x", 0},            // below
		{"ov_c:msg:" + hex, 1},     // override keys are opaque to legacy: kept
		{"esc:thread:x", 1},        // not msg:/thread:-prefixed
		{"ov_s:thread:" + hex, 50}, // kept
	}
	got := LegacyPrune(in, 100)
	want := []Entry{{"chan", 1}, {"msg:" + hex + "x", 100}, {"thread:" + hex, 101},
		{"ov_c:msg:" + hex, 1}, {"esc:thread:x", 1}, {"ov_s:thread:" + hex, 50}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("LegacyPrune = %v\nwant %v", got, want)
	}
	if len(LegacyPrune(in, 0)) != len(in) {
		t.Error("horizon 0 pruned something")
	}
}

func TestLegacyTrim(t *testing.T) {
	base := []Entry{{"chan", 1}, {"ov_c:chan", 3}, {"msg:b", 10}, {"msg:a", 10}, {"thread:z", 5}, {"msg:c", 20}}
	full := EncodedSize(Blob{V: 1, ClientID: "c", Contexts: base})
	size := func(es []Entry) int { return EncodedSize(Blob{V: 1, ClientID: "c", Contexts: es}) }
	tests := []struct {
		name    string
		max     int
		evicted []string
		fits    bool
	}{
		{"already fits", full, nil, true},
		{"one byte over: lowest value first", full - 1, []string{"thread:z"}, true},
		{"ties by key", full - len(`,"thread:z":5`) - 1, []string{"thread:z", "msg:a"}, true},
		{"every child evicted, still too big", 0, []string{"thread:z", "msg:a", "msg:b", "msg:c"}, false},
		{"exactly the non-child size", size([]Entry{{"chan", 1}, {"ov_c:chan", 3}}), []string{"thread:z", "msg:a", "msg:b", "msg:c"}, true},
	}
	for _, tc := range tests {
		got, fits := LegacyTrim("c", base, tc.max)
		var evicted []string
		for _, e := range SortEntries(slices.Clone(base)) {
			if _, ok := (Blob{Contexts: got}).Value(e.Key); !ok {
				evicted = append(evicted, e.Key)
			}
		}
		slices.Sort(evicted)
		want := slices.Clone(tc.evicted)
		slices.Sort(want)
		if !slices.Equal(evicted, want) || fits != tc.fits {
			t.Errorf("%s: evicted %v fits %v, want %v %v", tc.name, evicted, fits, want, tc.fits)
		}
		if fits != (size(got) <= tc.max) {
			t.Errorf("%s: fits=%v but size %d vs max %d", tc.name, fits, size(got), tc.max)
		}
	}
}

// TestLegacyTrimProperties: for random blobs the trim evicts only
// msg:/thread: keys, in (value, key) order, no more than needed, and its
// size bookkeeping agrees with EncodedSize.
func TestLegacyTrimProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 40).Draw(t, "n")
		var es []Entry
		for i := range n {
			prefix := rapid.SampledFrom([]string{"msg:", "thread:", "chan-", "ov_c:", "esc:msg:", "é"}).Draw(t, "prefix")
			v := rapid.Uint32Range(0, 1<<20).Draw(t, "v")
			es = append(es, Entry{fmt.Sprintf("%s%d", prefix, i%7+i), v})
		}
		es = SortEntries(es)
		full := EncodedSize(Blob{V: 1, ClientID: "id", Contexts: es})
		maxBytes := rapid.IntRange(0, full+5).Draw(t, "max")
		got, fits := LegacyTrim("id", es, maxBytes)
		size := EncodedSize(Blob{V: 1, ClientID: "id", Contexts: got})
		if fits != (size <= maxBytes) {
			t.Fatalf("fits=%v, size %d, max %d", fits, size, maxBytes)
		}
		var victims, evicted []Entry
		for _, e := range es {
			if ChildPrefixed(e.Key) {
				victims = append(victims, e)
			}
			if _, ok := (Blob{Contexts: got}).Value(e.Key); !ok {
				if !ChildPrefixed(e.Key) {
					t.Fatalf("evicted %q", e.Key)
				}
				evicted = append(evicted, e)
			}
		}
		order := func(a, b Entry) int {
			if a.Value != b.Value {
				return int(int64(a.Value) - int64(b.Value))
			}
			return strings.Compare(a.Key, b.Key)
		}
		slices.SortFunc(victims, order)
		slices.SortFunc(evicted, order)
		if !slices.Equal(evicted, victims[:len(evicted)]) {
			t.Fatalf("evicted %v is not a prefix of %v", evicted, victims)
		}
		if !fits && len(evicted) != len(victims) {
			t.Fatalf("does not fit but kept child entries")
		}
		if len(evicted) > 0 {
			// One fewer eviction would not have fitted.
			back := SortEntries(append(slices.Clone(got), evicted[len(evicted)-1]))
			if EncodedSize(Blob{V: 1, ClientID: "id", Contexts: back}) <= maxBytes {
				t.Fatalf("evicted %q needlessly", evicted[len(evicted)-1].Key)
			}
		}
	})
}

// TestLegacyReplicaCarriesOverrides: a legacy device in carry mode passes
// ov_* keys through as opaque contexts, so what it republishes still parses
// to the same registers on an upgraded device.
func TestLegacyReplicaCarriesOverrides(t *testing.T) {
	up := NewReplica("up")
	up.Advance("chan", 10)
	mustDo(t, up.MarkUnread("chan"))
	old := NewLegacyReplica("old", LegacyCarry)
	kept, drops := LegacySanitize(up.Publish().Contexts)
	if len(drops) != 0 {
		t.Fatal(drops)
	}
	old.Receive(Blob{V: 1, ClientID: "up", Contexts: kept})
	wire, _, err := ParseBlob(EncodeBlob(old.Publish()))
	if err != nil {
		t.Fatal(err)
	}
	other := NewReplica("other")
	other.Receive(wire)
	if !other.Live("chan") || other.Reg("chan") != up.Reg("chan") {
		t.Fatalf("carried register %v live=%v, want %v", other.Reg("chan"), other.Live("chan"), up.Reg("chan"))
	}
}
