package model

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readCodecFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "codec", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func parseCodecFile(t *testing.T, name string) Blob {
	t.Helper()
	b, rep, err := ParseBlob(readCodecFile(t, name))
	if err != nil || len(rep.Drops) != 0 {
		t.Fatalf("%s: %v %v", name, err, rep.Drops)
	}
	return b
}

// TestSpecMergeVectors: the plaintexts of the spec's Example and Test
// Vectors sections parse and merge to the merged state the spec states.
func TestSpecMergeVectors(t *testing.T) {
	tests := []struct {
		name   string
		files  []string
		ids    []string
		merged map[string]uint32
	}{
		{"Example", []string{"example-desktop.json", "example-mobile.json"},
			[]string{"desktop-v2-prod", "mobile-ios-v1"},
			map[string]uint32{"ctx:AAA": 1700000200, "ctx:BBB": 1700000050, "ctx:CCC": 1700000080}},
		{"Test Vectors", []string{"vector-device-a.json", "vector-device-b.json"},
			[]string{"client-aabbccdd", "client-11223344"},
			map[string]uint32{"group:general": 1700001200, "group:dev": 1700000500, "group:random": 1700000800}},
	}
	for _, tc := range tests {
		var blobs []Blob
		for i, f := range tc.files {
			b := parseCodecFile(t, f)
			if b.ClientID != tc.ids[i] {
				t.Fatalf("%s: client_id %q, want %q", f, b.ClientID, tc.ids[i])
			}
			blobs = append(blobs, b)
		}
		for _, order := range [][]Blob{blobs, {blobs[1], blobs[0]}} {
			st := MergeBlobs(Proposed(), order...)
			if !maps.Equal(st.Frontiers, tc.merged) || len(st.Regs) != 0 {
				t.Errorf("%s: merged %v regs %v, want %v", tc.name, st.Frontiers, st.Regs, tc.merged)
			}
		}
	}
	// The Ciphertext Test Vector's plaintext, byte for byte.
	b := parseCodecFile(t, "vector-ciphertext-plaintext.json")
	if b.ClientID != "test-vector-client" || len(b.Contexts) != 2 {
		t.Fatalf("ciphertext vector plaintext: %+v", b)
	}
	if v, _ := b.Value("group:general"); v != 1700001000 {
		t.Fatalf("group:general = %d", v)
	}
	if v, _ := b.Value("group:dev"); v != 1700000500 {
		t.Fatalf("group:dev = %d", v)
	}
}

// TestSpecSchemesExample: the Read Context Schemes example (thread X under a
// channel): effective(thread:X) = max(100, 150) = 150.
func TestSpecSchemesExample(t *testing.T) {
	thread := "thread:" + strings.Repeat("ab", 32)
	b1, _, err1 := ParseBlob([]byte(`{"v":1,"client_id":"a","contexts":{"` + thread + `":100}}`))
	b2, _, err2 := ParseBlob([]byte(`{"v":1,"client_id":"b","contexts":{"chan":150}}`))
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	st := MergeBlobs(Proposed(), b1, b2)
	parent := func(string) (string, bool) { return "chan", true }
	eff := st.Effective(parent, thread)
	if eff != 150 {
		t.Fatalf("effective(thread:X) = %d, want 150", eff)
	}
	if Unread(140, eff, false) || !Unread(160, eff, false) {
		t.Fatal("reply at 140 must read as read, at 160 as unread")
	}
	if st.Frontiers[thread] > st.Frontiers["chan"] {
		t.Fatal("the thread entry should be dominated by the channel frontier")
	}
}

// TestSpecInvalidCases: the blob-level items of the spec's Invalid Cases
// list (the d-tag items belong to event parsing).
func TestSpecInvalidCases(t *testing.T) {
	tests := []struct {
		file string
		err  error  // blob-level outcome, nil if processed
		drop string // the dropped entry when processed
		kept string // an entry that must survive
	}{
		{"invalid-not-json.json", ErrInvalidBlob, "", ""},
		{"invalid-missing-client-id.json", ErrInvalidBlob, "", ""},
		{"invalid-unknown-version.json", ErrUnknownVersion, "", ""},
		{"invalid-string-timestamp.json", nil, "ctx:AAA", "ctx:BBB"},
		{"invalid-long-context-id.json", nil, "ctx:" + strings.Repeat("x", 253), "ctx:BBB"},
		{"invalid-too-many-entries.json", ErrInvalidBlob, "", ""},
	}
	for _, tc := range tests {
		b, rep, err := ParseBlob(readCodecFile(t, tc.file))
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("%s: err = %v, want %v", tc.file, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		if len(rep.Drops) != 1 || rep.Drops[0].Key != tc.drop {
			t.Errorf("%s: drops %v, want only %q", tc.file, rep.Drops, tc.drop)
		}
		if _, ok := b.Value(tc.kept); !ok || len(b.Contexts) != 1 {
			t.Errorf("%s: kept %v, want only %q", tc.file, b.Contexts, tc.kept)
		}
	}
}

// TestCodecGolden renders the parse of every testdata/codec/*.json and
// compares it with the .golden file beside it (-update rewrites them).
func TestCodecGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "codec", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got := renderParse(filepath.Base(f), data)
		golden := strings.TrimSuffix(f, ".json") + ".golden"
		if *update {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./model/ -run TestCodecGolden -update)", err)
		}
		if got != string(want) {
			t.Errorf("%s differs from %s:\n--- got\n%s--- want\n%s", f, golden, got, want)
		}
	}
}

// renderParse is the human-readable outcome of ParseBlob on one input.
func renderParse(name string, data []byte) string {
	var b strings.Builder
	fmt.Fprintf(&b, "input: %s (%d bytes)\n", name, len(data))
	blob, rep, err := ParseBlob(data)
	switch {
	case errors.Is(err, ErrUnknownVersion):
		fmt.Fprintf(&b, "ignored: %v\n", err)
		return b.String()
	case err != nil:
		fmt.Fprintf(&b, "discarded: %v\n", err)
		return b.String()
	}
	fmt.Fprintf(&b, "accepted: client_id %q, %d raw entries, %d kept, %d dropped\n",
		blob.ClientID, rep.Entries, len(blob.Contexts), len(rep.Drops))
	for _, e := range blob.Contexts {
		fmt.Fprintf(&b, "  keep %q = %d\n", e.Key, e.Value)
	}
	for _, d := range rep.Drops {
		fmt.Fprintf(&b, "  drop %q: %s\n", d.Key, d.Reason)
	}
	for _, k := range rep.Duplicates {
		fmt.Fprintf(&b, "  duplicate %q: last value used\n", k)
	}
	st := MergeBlobs(Proposed(), blob)
	for _, ctx := range sortedKeys(st.Regs) {
		fmt.Fprintf(&b, "  register %q = %v\n", ctx, st.Regs[ctx])
	}
	return b.String()
}
