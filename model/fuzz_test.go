package model

import (
	"errors"
	"reflect"
	"testing"
)

// FuzzParseBlob: ParseBlob never panics, every error is a discard or an
// ignore, and an accepted blob is a fixed point of the wire: EncodeBlob of it
// parses back to the same Blob with nothing dropped, and its entries decode
// with nothing dropped. Seeds: testdata/fuzz/FuzzParseBlob/.
func FuzzParseBlob(f *testing.F) {
	f.Add([]byte(`{"v":1,"client_id":"c","contexts":{"a":1,"ov_c:a":2}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, rep, err := ParseBlob(data)
		if err != nil {
			if !errors.Is(err, ErrInvalidBlob) && !errors.Is(err, ErrUnknownVersion) {
				t.Fatalf("error of no kind: %v", err)
			}
			return
		}
		if rep.Entries < len(b.Contexts) || rep.Entries > MaxEntries {
			t.Fatalf("report counts %d entries, kept %d", rep.Entries, len(b.Contexts))
		}
		again, rep2, err := ParseBlob(EncodeBlob(b))
		if err != nil {
			t.Fatalf("re-parse of %q: %v", EncodeBlob(b), err)
		}
		if len(rep2.Drops) != 0 || len(rep2.Duplicates) != 0 {
			t.Fatalf("re-parse dropped %v, duplicates %v", rep2.Drops, rep2.Duplicates)
		}
		if !reflect.DeepEqual(again, b) {
			t.Fatalf("re-parse differs:\n got %+v\nwant %+v", again, b)
		}
		if d := Decode(Proposed(), Raw(b.Contexts)); len(d.Drops) != 0 {
			t.Fatalf("kept entries do not decode cleanly: %v", d.Drops)
		}
	})
}

// FuzzEscape: unescape∘escape is the identity, escape only ever prepends
// one marker, and the published frontier key of any raw id groups as the
// frontier of that same id, never as an override key.
// Seeds: testdata/fuzz/FuzzEscape/.
func FuzzEscape(f *testing.F) {
	f.Add("esc:esc:foo")
	f.Fuzz(func(t *testing.T, raw string) {
		wire := EscapeKey(raw)
		if got := UnescapeKey(wire); got != raw {
			t.Fatalf("UnescapeKey(EscapeKey(%q)) = %q", raw, got)
		}
		if wire != raw && wire != EscMarker+raw {
			t.Fatalf("EscapeKey(%q) = %q", raw, wire)
		}
		if kind, ctx := groupKey(wire); kind != KeyFrontier || ctx != raw {
			t.Fatalf("groupKey(%q) = %v %q, want the frontier of %q", wire, kind, ctx, raw)
		}
	})
}
