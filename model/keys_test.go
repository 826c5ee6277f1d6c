package model

import (
	"strings"
	"testing"
)

// TestEscapeTable: the publish-side escaping and receive-side unescaping of
// the Reserved Namespace section, including its own examples.
func TestEscapeTable(t *testing.T) {
	tests := []struct {
		raw, wire string
	}{
		{"chan", "chan"},
		{"", ""},
		{"ov_s:evil", "esc:ov_s:evil"}, // the spec's example
		{"esc:foo", "esc:esc:foo"},     // the spec's example
		{"esc:esc:foo", "esc:esc:esc:foo"},
		{"ov_", "esc:ov_"},
		{"ov_x:anything", "esc:ov_x:anything"},
		{"ov", "ov"},
		{"esc", "esc"},
		{"esc:", "esc:esc:"},
		{"Esc:foo", "Esc:foo"},
		{"OV_s:x", "OV_s:x"},
		{" ov_s:x", " ov_s:x"},
		{"thread:" + strings.Repeat("a", 64), "thread:" + strings.Repeat("a", 64)},
	}
	for _, tc := range tests {
		if got := EscapeKey(tc.raw); got != tc.wire {
			t.Errorf("EscapeKey(%q) = %q, want %q", tc.raw, got, tc.wire)
		}
		if got := UnescapeKey(tc.wire); got != tc.raw {
			t.Errorf("UnescapeKey(%q) = %q, want %q", tc.wire, got, tc.raw)
		}
	}
}

// TestUnescapeStripsExactlyOne: receive strips one esc: and never more,
// whatever follows it.
func TestUnescapeStripsExactlyOne(t *testing.T) {
	for n := 0; n <= 5; n++ {
		for _, tail := range []string{"", "foo", "ov_s:x", "esc"} {
			wire := strings.Repeat(EscMarker, n) + tail
			want := wire
			if n > 0 {
				want = strings.Repeat(EscMarker, n-1) + tail
			}
			if got := UnescapeKey(wire); got != want {
				t.Errorf("UnescapeKey(%q) = %q, want %q", wire, got, want)
			}
		}
	}
}

// TestEscapeBijection: unescape∘escape is the identity on every raw id, and
// escape is injective, so two raw ids never share a frontier wire key.
func TestEscapeBijection(t *testing.T) {
	parts := []string{"", "esc:", "ov_", "ov_s:", "ov_c:", "e", "sc:", "x", "é", ":"}
	seen := map[string]string{}
	var build func(prefix string, depth int)
	build = func(raw string, depth int) {
		wire := EscapeKey(raw)
		if back := UnescapeKey(wire); back != raw {
			t.Errorf("UnescapeKey(EscapeKey(%q)) = %q", raw, back)
		}
		if other, dup := seen[wire]; dup && other != raw {
			t.Errorf("%q and %q both escape to %q", raw, other, wire)
		}
		seen[wire] = raw
		if depth == 0 {
			return
		}
		for _, p := range parts {
			build(raw+p, depth-1)
		}
	}
	build("", 3)
	if len(seen) < 500 {
		t.Fatalf("only %d distinct ids checked", len(seen))
	}
}

func TestClassifyKey(t *testing.T) {
	tests := []struct {
		wire string
		kind KeyKind
		ctx  string
	}{
		{"chan", KeyFrontier, "chan"},
		{"ov_s:chan", KeyS, "chan"},
		{"ov_c:chan", KeyC, "chan"},
		{"ov_b:chan", KeyB, "chan"},
		{"ov_s:", KeyS, ""},
		{"ov_s:ov_s:evil", KeyS, "ov_s:evil"}, // override suffix is the raw id, unescaped never
		{"ov_c:esc:foo", KeyC, "esc:foo"},
		{"esc:ov_s:evil", KeyFrontier, "ov_s:evil"},
		{"esc:esc:foo", KeyFrontier, "esc:foo"},
		{"esc:foo", KeyFrontier, "foo"},
		{"ov_x:chan", KeyFrontier, "ov_x:chan"},
		{"ov_s", KeyFrontier, "ov_s"},
		{"ov_S:chan", KeyFrontier, "ov_S:chan"},
		{"ov_s;chan", KeyFrontier, "ov_s;chan"},
		{"ov_*:chan", KeyFrontier, "ov_*:chan"},
	}
	for _, tc := range tests {
		kind, ctx := groupKey(tc.wire)
		if kind != tc.kind || ctx != tc.ctx {
			t.Errorf("groupKey(%q) = %v %q, want %v %q", tc.wire, kind, ctx, tc.kind, tc.ctx)
		}
		if kind != KeyFrontier && OverrideKey(kind, ctx) != tc.wire {
			t.Errorf("OverrideKey(%v, %q) = %q, want %q", kind, ctx, OverrideKey(kind, ctx), tc.wire)
		}
	}
}

// TestReservedNamespaceRoundTrip: a raw id that looks like an override key
// travels as a frontier through publish, the wire and receive, and an
// override on it keeps its raw id as the sibling suffix.
func TestReservedNamespaceRoundTrip(t *testing.T) {
	for _, raw := range []string{"ov_s:evil", "ov_c:x", "esc:foo", "esc:esc:foo", "ov_", "plain"} {
		a := NewReplica("a")
		a.Advance(raw, 10)
		mustDo(t, a.MarkUnread(raw))
		wire, rep, err := ParseBlob(EncodeBlob(a.Publish()))
		if err != nil || len(rep.Drops) != 0 {
			t.Fatalf("%q: %v %v", raw, err, rep.Drops)
		}
		if _, ok := wire.Value(EscapeKey(raw)); !ok {
			t.Fatalf("%q: frontier key %q missing: %v", raw, EscapeKey(raw), wire.Contexts)
		}
		for _, k := range []KeyKind{KeyS, KeyC, KeyB} {
			if _, ok := wire.Value(OverrideKey(k, raw)); !ok {
				t.Fatalf("%q: sibling %q missing: %v", raw, OverrideKey(k, raw), wire.Contexts)
			}
		}
		b := NewReplica("b")
		b.Receive(wire)
		if got := b.Contexts(); len(got) != 1 || got[0] != raw || b.Frontier(raw) != 10 || !b.Live(raw) {
			t.Fatalf("%q: receiver holds %v (frontier %d, live %v)", raw, got, b.Frontier(raw), b.Live(raw))
		}
	}
}

// TestDecodeUnescapesThroughRules: the receive-side unescape is a Rules
// decision, so a rule set that strips every esc: changes what arrives.
func TestDecodeUnescapesThroughRules(t *testing.T) {
	greedy := Proposed()
	greedy.Unescape = func(w string) string {
		for strings.HasPrefix(w, EscMarker) {
			w = w[len(EscMarker):]
		}
		return w
	}
	b := Blob{V: 1, ClientID: "a", Contexts: []Entry{{"esc:esc:foo", 1}}}
	if st := MergeBlobs(Proposed(), b); st.Frontiers["esc:foo"] != 1 {
		t.Fatalf("spec: %v", st.Frontiers)
	}
	if st := MergeBlobs(greedy, b); st.Frontiers["foo"] != 1 {
		t.Fatalf("greedy unescape not applied: %v", st.Frontiers)
	}
}

func TestContextScheme(t *testing.T) {
	hex := strings.Repeat("0123456789abcdef", 4)
	tests := []struct {
		raw  string
		want Scheme
	}{
		{"thread:" + hex, SchemeThread},
		{"msg:" + hex, SchemeMsg},
		{"thread:" + strings.ToUpper(hex), SchemeOpaque},
		{"thread:" + hex[:63], SchemeOpaque},
		{"thread:" + hex + "0", SchemeOpaque},
		{"msg:" + hex[:63] + "g", SchemeOpaque},
		{"msg:", SchemeOpaque},
		{"Thread:" + hex, SchemeOpaque},
		{hex, SchemeOpaque},
		{"esc:msg:" + hex, SchemeOpaque},
	}
	for _, tc := range tests {
		if got := ContextScheme(tc.raw); got != tc.want {
			t.Errorf("ContextScheme(%q) = %v, want %v", tc.raw, got, tc.want)
		}
	}
	for _, k := range []string{"msg:", "msg:x", "thread:", "thread:abc", "msg:" + hex} {
		if !ChildPrefixed(k) {
			t.Errorf("ChildPrefixed(%q) = false", k)
		}
	}
	for _, k := range []string{"", "ms", "threads", "Msg:x", "ov_c:msg:x", "esc:thread:x", "chan"} {
		if ChildPrefixed(k) {
			t.Errorf("ChildPrefixed(%q) = true", k)
		}
	}
}

func TestDTagShape(t *testing.T) {
	good := "read-state:" + strings.Repeat("0a", 16)
	for d, want := range map[string]bool{
		good: true,
		"read-state:1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d": true, // the spec's Test Vectors
		"read-state:" + strings.Repeat("0A", 16):      false,
		"read-state:" + strings.Repeat("0", 31):       false,
		"read-state:" + strings.Repeat("0", 33):       false,
		"read-state:slot1":                            false,
		"readstate:" + strings.Repeat("0", 32):        false,
		strings.Repeat("0", 32):                       false,
		"":                                            false,
	} {
		if ValidDTag(d) != want {
			t.Errorf("ValidDTag(%q) = %v, want %v", d, !want, want)
		}
	}
}
