package model

import (
	"errors"
	"flag"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"
)

// update rewrites golden files under testdata/ instead of comparing them.
// Other golden tests in this package should reuse it.
var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// blobWith wraps a contexts body in a valid v=1 blob.
func blobWith(contexts string) string {
	return `{"v":1,"client_id":"c","contexts":{` + contexts + `}}`
}

// manyEntries returns n contexts members "k0":0,"k1":1,… (or "a":1 n times
// when same is true).
func manyEntries(n int, same bool) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		if same {
			b.WriteString(`"a":1`)
		} else {
			fmt.Fprintf(&b, `"k%d":%d`, i, i)
		}
	}
	return b.String()
}

func nested(open, close string, n int) string {
	return strings.Repeat(open, n) + strings.Repeat(close, n)
}

func TestParseBlobBlobLevel(t *testing.T) {
	pad := func(body string, total int) string { return body + strings.Repeat(" ", total-len(body)) }
	tests := []struct {
		name string
		in   string
		want error  // nil: accepted
		msg  string // substring of the error
	}{
		{"empty input", ``, ErrInvalidBlob, "not valid JSON"},
		{"not JSON", `yesterday`, ErrInvalidBlob, "not valid JSON"},
		{"truncated", `{"v":1,"client_id":"c","contexts":{`, ErrInvalidBlob, "not valid JSON"},
		{"trailing data", blobWith(``) + `x`, ErrInvalidBlob, "data after the JSON value"},
		{"two values", blobWith(``) + blobWith(``), ErrInvalidBlob, "data after the JSON value"},
		{"bad number syntax", blobWith(`"a":01`), ErrInvalidBlob, "not valid JSON"},
		{"bad escape", blobWith(`"\x":1`), ErrInvalidBlob, "invalid escape"},
		{"raw control char", blobWith("\"a\tb\":1"), ErrInvalidBlob, "control character"},
		{"invalid JSON inside unknown key", `{"v":1,"client_id":"c","contexts":{},"x":[1,}`, ErrInvalidBlob, "not valid JSON"},
		{"array", `[]`, ErrInvalidBlob, "an array, not an object"},
		{"string", `"blob"`, ErrInvalidBlob, "a string, not an object"},
		{"null", `null`, ErrInvalidBlob, "null, not an object"},
		{"v missing", `{"client_id":"c","contexts":{}}`, ErrInvalidBlob, "v is missing"},
		{"v string", `{"v":"1","client_id":"c","contexts":{}}`, ErrInvalidBlob, "v is a string"},
		{"v bool", `{"v":true,"client_id":"c","contexts":{}}`, ErrInvalidBlob, "v is a boolean"},
		{"v null", `{"v":null,"client_id":"c","contexts":{}}`, ErrInvalidBlob, "v is null"},
		{"v 1.0", `{"v":1.0,"client_id":"c","contexts":{}}`, ErrInvalidBlob, "not an integer literal"},
		{"v 1e0", `{"v":1e0,"client_id":"c","contexts":{}}`, ErrInvalidBlob, "not an integer literal"},
		{"v 2", `{"v":2,"client_id":"c","contexts":{}}`, ErrUnknownVersion, "v is 2"},
		{"v 0", `{"v":0,"client_id":"c","contexts":{}}`, ErrUnknownVersion, "v is 0"},
		{"v -1", `{"v":-1,"client_id":"c","contexts":{}}`, ErrUnknownVersion, "v is -1"},
		{"v huge", `{"v":123456789012345678901234567890,"client_id":"c","contexts":{}}`, ErrUnknownVersion, "v is 1234"},
		{"v 2 ignores the rest", `{"v":2}`, ErrUnknownVersion, ""},
		{"top-level last wins (v)", `{"v":2,"client_id":"c","contexts":{},"v":1}`, nil, ""},
		{"top-level last wins (v unknown)", `{"v":1,"client_id":"c","contexts":{},"v":3}`, ErrUnknownVersion, ""},
		{"client_id missing", `{"v":1,"contexts":{}}`, ErrInvalidBlob, "client_id is missing"},
		{"client_id number", `{"v":1,"client_id":5,"contexts":{}}`, ErrInvalidBlob, "client_id is a number"},
		{"client_id null", `{"v":1,"client_id":null,"contexts":{}}`, ErrInvalidBlob, "client_id is null"},
		{"client_id empty", `{"v":1,"client_id":"","contexts":{}}`, ErrInvalidBlob, "0 characters"},
		{"client_id 64 chars", `{"v":1,"client_id":"` + strings.Repeat("a", 64) + `","contexts":{}}`, nil, ""},
		{"client_id 65 chars", `{"v":1,"client_id":"` + strings.Repeat("a", 65) + `","contexts":{}}`, ErrInvalidBlob, "65 characters"},
		{"client_id 64 two-byte chars", `{"v":1,"client_id":"` + strings.Repeat("é", 64) + `","contexts":{}}`, nil, ""},
		{"client_id 65 two-byte chars", `{"v":1,"client_id":"` + strings.Repeat("é", 65) + `","contexts":{}}`, ErrInvalidBlob, "65 characters"},
		{"client_id 64 astral chars", `{"v":1,"client_id":"` + strings.Repeat("😀", 64) + `","contexts":{}}`, nil, ""},
		{"client_id escaped", `{"v":1,"client_id":"\u0063\ud83d\ude00","contexts":{}}`, nil, ""},
		{"client_id invalid UTF-8", "{\"v\":1,\"client_id\":\"a\xffb\",\"contexts\":{}}", ErrInvalidBlob, "not valid UTF-8"},
		{"client_id lone surrogate", `{"v":1,"client_id":"a\ud800","contexts":{}}`, ErrInvalidBlob, "not valid UTF-8"},
		{"contexts missing", `{"v":1,"client_id":"c"}`, ErrInvalidBlob, "contexts is missing"},
		{"contexts array", `{"v":1,"client_id":"c","contexts":[]}`, ErrInvalidBlob, "contexts is an array"},
		{"contexts string", `{"v":1,"client_id":"c","contexts":"x"}`, ErrInvalidBlob, "contexts is a string"},
		{"contexts null", `{"v":1,"client_id":"c","contexts":null}`, ErrInvalidBlob, "contexts is null"},
		{"contexts last wins", `{"v":1,"client_id":"c","contexts":{"a":1},"contexts":7}`, ErrInvalidBlob, "contexts is a number"},
		{"10000 raw entries", blobWith(manyEntries(10000, true)), nil, ""},
		{"10001 raw entries, one key", blobWith(manyEntries(10001, true)), ErrInvalidBlob, "10001 entries"},
		{"unknown top-level keys", `{"x":{"y":[1,2,{"z":null}]},"v":1,"client_id":"c","contexts":{},"w":"q"}`, nil, ""},
		{"65535 bytes", pad(blobWith(`"a":1`), MaxPlaintextBytes), nil, ""},
		{"65536 bytes", pad(blobWith(`"a":1`), MaxPlaintextBytes+1), ErrInvalidBlob, "over the NIP-44 maximum"},
		{"nesting at the limit", `{"v":1,"client_id":"c","contexts":{},"x":` + nested("[", "]", MaxNesting-1) + `}`, nil, ""},
		{"nesting over the limit", `{"v":1,"client_id":"c","contexts":{},"x":` + nested("[", "]", MaxNesting) + `}`, ErrInvalidBlob, "invalid blob: byte 104: nesting deeper than 64"},
		{"nested objects over the limit", `{"v":1,"client_id":"c","contexts":{},"x":` + nested(`{"a":`, "}", MaxNesting) + `}`, ErrInvalidBlob, "nesting deeper"},
		{"nested entry value over the limit", blobWith(`"a":` + nested("[", "]", MaxNesting-1)), ErrInvalidBlob, "nesting deeper"},
		{"deep non-object plaintext", nested("[", "]", 30000), ErrInvalidBlob, "nesting deeper"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, rep, err := ParseBlob([]byte(tc.in))
			if tc.want == nil {
				if err != nil {
					t.Fatalf("rejected: %v", err)
				}
				if b.V != 1 {
					t.Fatalf("V = %d", b.V)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if errors.Is(err, ErrInvalidBlob) && errors.Is(err, ErrUnknownVersion) {
				t.Fatalf("err %v is both a discard and an ignore", err)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %q, want it to mention %q", err, tc.msg)
			}
			if !reflect.DeepEqual(b, Blob{}) || !reflect.DeepEqual(rep, Report{}) {
				t.Fatalf("rejected blob returned content: %+v %+v", b, rep)
			}
		})
	}
}

func TestParseBlobEntries(t *testing.T) {
	long := func(n int) string { return strings.Repeat("k", n) }
	e := func(k string, v uint32) Entry { return Entry{k, v} }
	d := func(k, reason string) Drop { return Drop{k, reason} }
	tests := []struct {
		name  string
		body  string
		kept  []Entry
		drops []Drop
		dups  []string
	}{
		{"zero", `"a":0`, []Entry{e("a", 0)}, nil, nil},
		{"max uint32", `"a":4294967295`, []Entry{e("a", MaxU32)}, nil, nil},
		{"-1", `"a":-1,"b":2`, []Entry{e("b", 2)}, []Drop{d("a", ReasonValueNegative)}, nil},
		{"-0", `"a":-0`, []Entry{}, []Drop{d("a", ReasonValueNegative)}, nil},
		{"4294967296", `"a":4294967296`, []Entry{}, []Drop{d("a", ReasonValueTooLarge)}, nil},
		{"huge", `"a":123456789012345678901234567890`, []Entry{}, []Drop{d("a", ReasonValueTooLarge)}, nil},
		{"1.0 (see NOTE.md)", `"a":1.0`, []Entry{}, []Drop{d("a", ReasonValueNotInteger)}, nil},
		{"1e3 (see NOTE.md)", `"a":1e3`, []Entry{}, []Drop{d("a", ReasonValueNotInteger)}, nil},
		{"1E+3", `"a":1E+3`, []Entry{}, []Drop{d("a", ReasonValueNotInteger)}, nil},
		{"0.5", `"a":0.5`, []Entry{}, []Drop{d("a", ReasonValueNotInteger)}, nil},
		{"string", `"ctx:AAA":"yesterday","b":1`, []Entry{e("b", 1)}, []Drop{d("ctx:AAA", "value is a string, not an integer")}, nil},
		{"numeric string", `"a":"5"`, []Entry{}, []Drop{d("a", "value is a string, not an integer")}, nil},
		{"true", `"a":true`, []Entry{}, []Drop{d("a", "value is a boolean, not an integer")}, nil},
		{"false", `"a":false`, []Entry{}, []Drop{d("a", "value is a boolean, not an integer")}, nil},
		{"null", `"a":null`, []Entry{}, []Drop{d("a", "value is null, not an integer")}, nil},
		{"object", `"a":{"b":1}`, []Entry{}, []Drop{d("a", "value is an object, not an integer")}, nil},
		{"array", `"a":[1]`, []Entry{}, []Drop{d("a", "value is an array, not an integer")}, nil},
		{"key 256 bytes", `"` + long(256) + `":1`, []Entry{e(long(256), 1)}, nil, nil},
		{"key 257 bytes", `"` + long(257) + `":1`, []Entry{}, []Drop{d(long(257), ReasonKeyTooLong)}, nil},
		{"key 128 two-byte runes = 256 bytes", `"` + strings.Repeat("é", 128) + `":1`, []Entry{e(strings.Repeat("é", 128), 1)}, nil, nil},
		{"key 85 three-byte runes + 2 = 257 bytes", `"` + strings.Repeat("€", 85) + `ab":1`, []Entry{}, []Drop{d(strings.Repeat("€", 85)+"ab", ReasonKeyTooLong)}, nil},
		{"key 64 four-byte runes = 256 bytes", `"` + strings.Repeat("😀", 64) + `":1`, []Entry{e(strings.Repeat("😀", 64), 1)}, nil, nil},
		{"escaped key counts decoded bytes", `"` + strings.Repeat(`\u00e9`, 128) + `":1`, []Entry{e(strings.Repeat("é", 128), 1)}, nil, nil},
		{"key over 256 with invalid value", `"` + long(300) + `":"x"`, []Entry{}, []Drop{d(long(300), ReasonKeyTooLong)}, nil},
		{"key invalid UTF-8", "\"a\xffb\":1,\"c\":2", []Entry{e("c", 2)}, []Drop{d("a\xffb", ReasonKeyNotUTF8)}, nil},
		{"key lone surrogate", `"\udc00":1,"c":2`, []Entry{e("c", 2)}, []Drop{d("\xed\xb0\x80", ReasonKeyNotUTF8)}, nil},
		{"lone surrogate does not shadow U+FFFD", `"\ufffd":1,"\ud800":2`, []Entry{e("\uFFFD", 1)}, []Drop{d("\xed\xa0\x80", ReasonKeyNotUTF8)}, nil},
		{"empty key", `"":7`, []Entry{e("", 7)}, nil, nil},
		{"escaped frontier keys are wire keys", `"esc:ov_s:evil":1,"esc:esc:foo":2`, []Entry{e("esc:esc:foo", 2), e("esc:ov_s:evil", 1)}, nil, nil},
		{"unknown ov_ prefix is opaque", `"ov_x:foo":3,"ov_":4,"ov_s":5`, []Entry{e("ov_", 4), e("ov_s", 5), e("ov_x:foo", 3)}, nil, nil},
		{"duplicate last wins", `"a":1,"b":9,"a":2`, []Entry{e("a", 2), e("b", 9)}, nil, []string{"a"}},
		{"duplicate invalid then valid", `"a":"x","a":3`, []Entry{e("a", 3)}, nil, []string{"a"}},
		{"duplicate valid then invalid", `"a":3,"a":"x"`, []Entry{}, []Drop{d("a", "value is a string, not an integer")}, []string{"a"}},
		{"duplicate escaped key", `"\u0061":1,"a":2,"a":3`, []Entry{e("a", 3)}, nil, []string{"a"}},
		{"duplicate floor last wins", `"ov_c:x":1,"ov_c:x":5`, []Entry{e("ov_c:x", 5)}, nil, []string{"ov_c:x"}},
		{"duplicate lower value still last", `"a":9,"a":1`, []Entry{e("a", 1)}, nil, []string{"a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, rep, err := ParseBlob([]byte(blobWith(tc.body)))
			if err != nil {
				t.Fatalf("rejected: %v", err)
			}
			if !reflect.DeepEqual(b.Contexts, tc.kept) {
				t.Errorf("kept = %v, want %v", b.Contexts, tc.kept)
			}
			if !reflect.DeepEqual(rep.Drops, tc.drops) {
				t.Errorf("drops = %q, want %q", rep.Drops, tc.drops)
			}
			if !reflect.DeepEqual(rep.Duplicates, tc.dups) {
				t.Errorf("duplicates = %q, want %q", rep.Duplicates, tc.dups)
			}
			if d := Decode(Proposed(), Raw(b.Contexts)); len(d.Drops) != 0 {
				t.Errorf("kept entries do not decode cleanly: %v", d.Drops)
			}
		})
	}
}

// TestParseBlobEntryCountIsRaw: the 10,000 limit counts entries before
// sanitising, so duplicates and invalid entries count too. (A plaintext
// within NIP-44's 65,535 bytes cannot hold 10,000 distinct keys, see
// TestMaxDistinctKeys, so on real input the limit bites through duplicates;
// the distinct-key case is checked on the scanned document directly.)
func TestParseBlobEntryCountIsRaw(t *testing.T) {
	body := manyEntries(9999, true) + `,"bad":"x"`
	b, rep, err := ParseBlob([]byte(blobWith(body)))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Entries != 10000 || len(b.Contexts) != 1 || len(rep.Drops) != 1 || !reflect.DeepEqual(rep.Duplicates, []string{"a"}) {
		t.Fatalf("entries=%d kept=%v drops=%v dups=%v", rep.Entries, b.Contexts, rep.Drops, rep.Duplicates)
	}
	if _, _, err := ParseBlob([]byte(blobWith(body + `,"bad2":true`))); !errors.Is(err, ErrInvalidBlob) {
		t.Fatalf("10001 raw entries with two invalid: err = %v", err)
	}
	for _, n := range []int{MaxEntries, MaxEntries + 1} {
		doc := document{hasV: true, vKind: kindNumber, vLit: "1", hasClientID: true, clientIDKind: kindString,
			clientID: "c", clientIDUTF8: true, hasContexts: true, ctxKind: kindObject, entries: n}
		for i := range n {
			doc.contexts = append(doc.contexts, rawContext{key: fmt.Sprint(i), utf8OK: true, kind: kindNumber, lit: "1"})
		}
		if err := doc.check(); err != nil {
			t.Fatalf("%d distinct entries: %v", n, err)
		}
		for _, rules := range []*Rules{Proposed(), DistinctKeyLimit()} {
			if _, _, err := doc.resolve(rules); (err != nil) != (n > MaxEntries) {
				t.Fatalf("%s: %d distinct entries: err = %v", rules.Name, n, err)
			}
		}
	}
}

func TestEncodeParseRoundTrip(t *testing.T) {
	blobs := []Blob{
		{V: 1, ClientID: "c", Contexts: []Entry{}},
		{V: 1, ClientID: "desk \"quoted\" <&>", Contexts: []Entry{
			{"", 0}, {"a\u2028b", 1}, {"esc:esc:foo", 2}, {"esc:ov_s:evil", 3},
			{"ov_b:x", 10}, {"ov_c:x", 1}, {"ov_c:y", 4}, {"ov_s:x", 2},
			{"tab\there", MaxU32}, {"x", 9}, {"é😀", 5},
		}},
		{V: 1, ClientID: strings.Repeat("😀", 64), Contexts: []Entry{{strings.Repeat("€", 85) + "a", 1}}},
	}
	for _, want := range blobs {
		got, rep, err := ParseBlob(EncodeBlob(want))
		if err != nil {
			t.Fatalf("ParseBlob(EncodeBlob(%+v)): %v", want, err)
		}
		if len(rep.Drops) != 0 || len(rep.Duplicates) != 0 || rep.Entries != len(want.Contexts) {
			t.Fatalf("round trip report: %+v", rep)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round trip:\n got %+v\nwant %+v", got, want)
		}
	}
}

// TestReplicaWireRoundTrip: what a replica publishes survives the wire
// (EncodeBlob, ParseBlob) and decodes to the same frontiers and registers.
func TestReplicaWireRoundTrip(t *testing.T) {
	a := NewReplica("a")
	a.Advance("ov_s:evil", 5) // a raw id in the reserved namespace
	a.Advance("esc:foo", 6)
	a.Advance("chan", 100)
	mustDo(t, a.MarkUnread("chan"))
	mustDo(t, a.MarkUnread("ov_s:evil"))
	a.Advance("dead", 1)
	mustDo(t, a.MarkUnread("dead"))
	mustDo(t, a.MarkRead("dead", 2))
	pub := a.Publish()
	wire, rep, err := ParseBlob(EncodeBlob(pub))
	if err != nil || len(rep.Drops) != 0 {
		t.Fatalf("parse: %v %v", err, rep.Drops)
	}
	if !reflect.DeepEqual(wire, pub) {
		t.Fatalf("wire %+v != published %+v", wire, pub)
	}
	for _, k := range []string{"esc:ov_s:evil", "esc:esc:foo", "ov_s:ov_s:evil", "ov_c:dead"} {
		if _, ok := wire.Value(k); !ok {
			t.Errorf("wire lacks %q: %v", k, wire.Contexts)
		}
	}
	b := NewReplica("b")
	if drops := b.Receive(wire); len(drops) != 0 {
		t.Fatalf("receive drops: %v", drops)
	}
	for _, ctx := range a.Contexts() {
		if b.Frontier(ctx) != a.Frontier(ctx) || b.Live(ctx) != a.Live(ctx) {
			t.Errorf("%q: b has (%d, live %v), a has (%d, live %v)", ctx, b.Frontier(ctx), b.Live(ctx), a.Frontier(ctx), a.Live(ctx))
		}
	}
	if b.HasFrontier("evil") || b.HasFrontier("foo") || b.HasFrontier("esc:ov_s:evil") {
		t.Fatalf("escaping not inverted exactly once: %v", b.Contexts())
	}
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// codecNoteMentions records a figure the test computes in its golden file
// (testdata/figures/<test>.txt), so a pinned figure cannot drift from the
// code.
func codecNoteMentions(t *testing.T, want string) {
	t.Helper()
	figfile.For(t, *update).Line(want)
}
