package model

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// loadVector reads testdata/vectors/<name> into v.
func loadVector(t testing.TB, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "vectors", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// Fixed test keys (secp256k1 scalars 1 and 2).
const (
	testSecret  = "0000000000000000000000000000000000000000000000000000000000000001"
	otherSecret = "0000000000000000000000000000000000000000000000000000000000000002"
	testSlot    = "0123456789abcdef0123456789abcdef"
)

func testKeys(t testing.TB, secret string) *SelfKeys {
	t.Helper()
	k, err := NewSelfKeys(secret)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestCiphertextVector(t *testing.T) {
	var v struct {
		PrivateKey string `json:"private_key"`
		PublicKey  string `json:"public_key"`
		Plaintext  string `json:"plaintext"`
		Ciphertext string `json:"ciphertext"`
	}
	loadVector(t, "ciphertext.json", &v)
	k := testKeys(t, v.PrivateKey)
	if k.Public != v.PublicKey {
		t.Fatalf("public key %s, want %s", k.Public, v.PublicKey)
	}
	pt, err := k.Decrypt(v.Ciphertext)
	if err != nil {
		t.Fatal(err)
	}
	if string(pt) != v.Plaintext {
		t.Fatalf("decrypted %q\nwant      %q", pt, v.Plaintext)
	}
	b, _, err := ParseBlob(pt)
	if err != nil {
		t.Fatal(err)
	}
	if b.ClientID != "test-vector-client" || len(b.Contexts) != 2 {
		t.Fatalf("parsed %+v", b)
	}
	// Re-encryption uses a fresh nonce, so it differs but round-trips.
	ct, err := k.Encrypt(pt)
	if err != nil {
		t.Fatal(err)
	}
	if ct == v.Ciphertext {
		t.Fatal("re-encryption reproduced the vector: nonce not random")
	}
	if back, err := k.Decrypt(ct); err != nil || string(back) != v.Plaintext {
		t.Fatalf("round trip: %q, %v", back, err)
	}
}

func TestNewSelfKeysRejects(t *testing.T) {
	for _, sk := range []string{
		"",
		"01",
		strings.Repeat("0", 64), // zero scalar
		strings.Repeat("f", 64), // above the group order
		strings.Repeat("G", 64),
		strings.ToUpper("000000000000000000000000000000000000000000000000000000000000000a"),
	} {
		if _, err := NewSelfKeys(sk); !errors.Is(err, ErrBadKey) {
			t.Errorf("NewSelfKeys(%q) = %v, want ErrBadKey", sk, err)
		}
	}
}

func TestNewSlotID(t *testing.T) {
	seen := map[string]bool{}
	for range 64 {
		s, err := NewSlotID()
		if err != nil {
			t.Fatal(err)
		}
		if !ValidSlotID(s) || !ValidDTag(DTag(s)) {
			t.Fatalf("slot id %q is not valid", s)
		}
		if seen[s] {
			t.Fatalf("slot id %q drawn twice", s)
		}
		seen[s] = true
	}
}

func testBlob() Blob {
	return Blob{V: 1, ClientID: "desktop", Contexts: []Entry{
		{"chan-a", 1700000100}, {"esc:ov_s:evil", 7}, {"ov_b:chan-a", 1700000100}, {"ov_c:chan-a", 0}, {"ov_s:chan-a", 1},
	}}
}

func TestBuildParseRoundTrip(t *testing.T) {
	k := testKeys(t, testSecret)
	ev, err := BuildEvent(k, testSlot, 1700000200, testBlob())
	if err != nil {
		t.Fatal(err)
	}
	if ev.Kind != KindReadState || ev.PubKey != k.Public || int64(ev.CreatedAt) != 1700000200 {
		t.Fatalf("event header %d %s %d", ev.Kind, ev.PubKey, ev.CreatedAt)
	}
	wantTags := nostr.Tags{{"d", "read-state:" + testSlot}, {"t", "read-state"}}
	if len(ev.Tags) != 2 || !equalTag(ev.Tags[0], wantTags[0]) || !equalTag(ev.Tags[1], wantTags[1]) {
		t.Fatalf("tags %v, want %v", ev.Tags, wantTags)
	}
	slot, b, rep, err := ParseEvent(Proposed(), k, ev, DefaultMaxEventBytes)
	if err != nil {
		t.Fatal(err)
	}
	if slot != testSlot || string(EncodeBlob(b)) != string(EncodeBlob(testBlob())) || len(rep.Drops) != 0 {
		t.Fatalf("parsed slot %s blob %s report %+v", slot, EncodeBlob(b), rep)
	}
	if _, err := BuildEvent(k, "ABC", 1, testBlob()); !errors.Is(err, ErrBadSlotID) {
		t.Fatalf("BuildEvent with a bad slot: %v", err)
	}
}

func equalTag(a, b nostr.Tag) bool { return strings.Join(a, "\x00") == strings.Join(b, "\x00") }

// resign recomputes id and signature after a test changed the event.
func resign(t *testing.T, ev *nostr.Event, secret string) {
	t.Helper()
	if err := ev.Sign(secret); err != nil {
		t.Fatal(err)
	}
}

func TestParseEventIgnoreRules(t *testing.T) {
	k := testKeys(t, testSecret)
	d := nostr.Tag{"d", "read-state:" + testSlot}
	tt := nostr.Tag{"t", "read-state"}
	withTags := func(tags ...nostr.Tag) func(*testing.T, *nostr.Event) {
		return func(t *testing.T, ev *nostr.Event) { ev.Tags = tags; resign(t, ev, testSecret) }
	}
	tests := []struct {
		name    string
		mutate  func(*testing.T, *nostr.Event)
		limit   int
		want    error
		hasSlot bool
	}{
		{"valid", func(*testing.T, *nostr.Event) {}, 0, nil, true},
		{"valid with foreign tags", withTags(nostr.Tag{"client", "x"}, d, nostr.Tag{"t", "other"}, tt), 0, nil, true},
		{"nil", nil, 0, ErrNilEvent, false},
		{"wrong kind", func(t *testing.T, ev *nostr.Event) { ev.Kind = 30079; resign(t, ev, testSecret) }, 0, ErrWrongKind, false},
		{"other author", func(t *testing.T, ev *nostr.Event) { resign(t, ev, otherSecret) }, 0, ErrWrongAuthor, false},
		{"no d tag", withTags(tt), 0, ErrNoDTag, false},
		{"two d tags", withTags(d, d, tt), 0, ErrManyDTags, false},
		{"empty d tag", withTags(nostr.Tag{"d"}, tt), 0, ErrDTagPrefix, false},
		{"wrong prefix", withTags(nostr.Tag{"d", "readstate:" + testSlot}, tt), 0, ErrDTagPrefix, false},
		{"uppercase slot", withTags(nostr.Tag{"d", "read-state:" + strings.ToUpper(testSlot)}, tt), 0, ErrBadSlotID, false},
		{"short slot", withTags(nostr.Tag{"d", "read-state:" + testSlot[1:]}, tt), 0, ErrBadSlotID, false},
		{"long slot", withTags(nostr.Tag{"d", "read-state:" + testSlot + "0"}, tt), 0, ErrBadSlotID, false},
		{"no t tag", withTags(d), 0, ErrNoTTag, false},
		{"t tag other value", withTags(d, nostr.Tag{"t", "read_state"}), 0, ErrNoTTag, false},
		{"two t tags", withTags(d, tt, tt), 0, ErrManyTTags, false},
		{"oversized", func(*testing.T, *nostr.Event) {}, 200, ErrOversized, true},
		{"short id", func(_ *testing.T, ev *nostr.Event) { ev.ID = "abc" }, 0, ErrBadID, true},
		{"uppercase id", func(_ *testing.T, ev *nostr.Event) { ev.ID = strings.ToUpper(ev.ID) }, 0, ErrBadID, true},
		{"content changed", func(_ *testing.T, ev *nostr.Event) { ev.CreatedAt++ }, 0, ErrBadID, true},
		{"bad signature", func(_ *testing.T, ev *nostr.Event) { ev.Sig = strings.Repeat("0", 128) }, 0, ErrBadSignature, true},
		{"signature not hex", func(_ *testing.T, ev *nostr.Event) { ev.Sig = "zz" }, 0, ErrBadSignature, true},
		{"not nip44", func(t *testing.T, ev *nostr.Event) { ev.Content = "hello"; resign(t, ev, testSecret) }, 0, ErrDecrypt, true},
		{"other conversation", func(t *testing.T, ev *nostr.Event) {
			other := testKeys(t, otherSecret)
			ct, err := other.Encrypt(EncodeBlob(testBlob()))
			if err != nil {
				t.Fatal(err)
			}
			ev.Content = ct
			resign(t, ev, testSecret)
		}, 0, ErrDecrypt, true},
		{"not a blob", func(t *testing.T, ev *nostr.Event) {
			ct, err := k.Encrypt([]byte(`{"v":1,"contexts":{}}`))
			if err != nil {
				t.Fatal(err)
			}
			ev.Content = ct
			resign(t, ev, testSecret)
		}, 0, ErrContent, true},
		{"unknown version", func(t *testing.T, ev *nostr.Event) {
			ct, err := k.Encrypt([]byte(`{"v":2,"client_id":"x","contexts":{}}`))
			if err != nil {
				t.Fatal(err)
			}
			ev.Content = ct
			resign(t, ev, testSecret)
		}, 0, ErrUnknownVersion, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ev *nostr.Event
			if tc.mutate != nil {
				var err error
				if ev, err = BuildEvent(k, testSlot, 1700000000, testBlob()); err != nil {
					t.Fatal(err)
				}
				tc.mutate(t, ev)
			}
			slot, b, _, err := ParseEvent(Proposed(), k, ev, tc.limit)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if len(b.Contexts) != 0 || b.ClientID != "" {
				t.Fatalf("blob returned with an error: %+v", b)
			}
			if (slot != "") != tc.hasSlot {
				t.Fatalf("slot %q, want slot returned = %v", slot, tc.hasSlot)
			}
		})
	}
}

func TestIgnoreErrorsDistinct(t *testing.T) {
	errs := []error{ErrNilEvent, ErrWrongKind, ErrWrongAuthor, ErrNoDTag, ErrManyDTags, ErrDTagPrefix, ErrBadSlotID,
		ErrNoTTag, ErrManyTTags, ErrOversized, ErrBadID, ErrBadSignature, ErrDecrypt, ErrContent}
	msgs := map[string]bool{}
	for i, a := range errs {
		if msgs[a.Error()] {
			t.Fatalf("duplicate message %q", a)
		}
		msgs[a.Error()] = true
		for j, b := range errs {
			if i != j && errors.Is(a, b) {
				t.Fatalf("%v matches %v", a, b)
			}
		}
	}
}

func TestEventSizeExact(t *testing.T) {
	k := testKeys(t, testSecret)
	for _, n := range []int{0, 1, 31, 32, 33, 200, 256, 257, 1000, 4097, 32767, 32768, 40000} {
		for _, at := range []int64{0, 7, 1700000000, 1 << 40} {
			b := Blob{V: 1, ClientID: "c"}
			base := EncodedSize(b)
			if n > base {
				// One opaque entry padding the blob to exactly n bytes.
				pad := n - base - len(`"":0`)
				b.Contexts = []Entry{{strings.Repeat("k", pad), 0}}
			}
			size := EncodedSize(b)
			ev, err := BuildEvent(k, testSlot, at, b)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := EventJSONSize(ev), EventSize(size, at); got != want {
				t.Errorf("plaintext %d at %d: event is %d bytes, EventSize says %d", size, at, got, want)
			}
			if got, want := len(ev.Content), CiphertextLen(size); got != want {
				t.Errorf("plaintext %d: ciphertext %d chars, CiphertextLen says %d", size, got, want)
			}
		}
	}
}

func FuzzParseEvent(f *testing.F) {
	k := testKeys(f, testSecret)
	ev, err := BuildEvent(k, testSlot, 1700000000, testBlob())
	if err != nil {
		f.Fatal(err)
	}
	valid, _ := ev.MarshalJSON()
	f.Add(valid)
	f.Add([]byte(`{"kind":30078,"id":"ab","pubkey":"` + k.Public + `","tags":[["d","read-state:` + testSlot + `"],["t","read-state"]],"content":"","sig":""}`))
	f.Add([]byte(`{"kind":30078,"tags":[[],["d"],["t"]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var ev nostr.Event
		if err := ev.UnmarshalJSON(data); err != nil {
			return
		}
		slot, b, rep, err := ParseEvent(Proposed(), k, &ev, DefaultMaxEventBytes)
		if err != nil {
			if len(b.Contexts) != 0 || len(rep.Drops) != 0 {
				t.Fatalf("error %v with a blob", err)
			}
			return
		}
		// Accepted: the event must pass every rule independently.
		if ev.Kind != KindReadState || ev.PubKey != k.Public || !ValidSlotID(slot) || !ev.CheckID() {
			t.Fatalf("accepted an event that breaks a rule: %s", data)
		}
		if ok, _ := ev.CheckSignature(); !ok {
			t.Fatalf("accepted a bad signature: %s", data)
		}
	})
}
