package candidate

import (
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
)

func TestEncodeParseARoundTrip(t *testing.T) {
	b := BlobA{Blob: model.Blob{V: 1, ClientID: "d0", Contexts: []model.Entry{{Key: "c0", Value: 10}}},
		Overrides: []OverrideA{{Ctx: "c1", Reg: RegA{Counter: 2, Tiebreak: "d\"1", Op: OpClear}}, {Ctx: "c0", Reg: RegA{Counter: 1, Tiebreak: "d0", Op: OpSet, Baseline: 10}}}}
	data := EncodeA(b)
	want := `{"v":1,"client_id":"d0","contexts":{"c0":10},"overrides":{"c0":{"counter":1,"tiebreak":"d0","op":"SET","baseline":10},"c1":{"counter":2,"tiebreak":"d\"1","op":"CLEAR","baseline":0}}}`
	if string(data) != want {
		t.Fatalf("encoded\n%s\nwant\n%s", data, want)
	}
	got, err := ParseA(data)
	if err != nil {
		t.Fatal(err)
	}
	if string(EncodeA(got)) != want {
		t.Errorf("round trip gives %s", EncodeA(got))
	}
	// The production legacy reader keeps v, client_id and contexts only.
	legacy, _, err := model.ParseBlobLegacy(nil, data)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(model.EncodeBlob(legacy)); strings.Contains(s, "overrides") || !strings.Contains(s, `"c0":10`) {
		t.Errorf("legacy rewrite %s", s)
	}
}

// Bad input is a clear error, never a panic, and rejects the whole blob.
func TestParseARefusesBadOverrides(t *testing.T) {
	head := `{"v":1,"client_id":"d0","contexts":{},"overrides":`
	reg := func(body string) string { return head + `{"c0":` + body + `}}` }
	for name, in := range map[string]string{
		"not an object":   head + `[1]}`,
		"register array":  reg(`[1]`),
		"missing op":      reg(`{"counter":1,"tiebreak":"d0","baseline":0}`),
		"counter zero":    reg(`{"counter":0,"tiebreak":"d0","op":"SET","baseline":0}`),
		"float counter":   reg(`{"counter":1.5,"tiebreak":"d0","op":"SET","baseline":0}`),
		"exponent":        reg(`{"counter":1e2,"tiebreak":"d0","op":"SET","baseline":0}`),
		"negative":        reg(`{"counter":1,"tiebreak":"d0","op":"SET","baseline":-1}`),
		"overflow":        reg(`{"counter":4294967296,"tiebreak":"d0","op":"SET","baseline":0}`),
		"unknown op":      reg(`{"counter":1,"tiebreak":"d0","op":"set","baseline":0}`),
		"unknown member":  reg(`{"counter":1,"tiebreak":"d0","op":"SET","baseline":0,"x":1}`),
		"empty tiebreak":  reg(`{"counter":1,"tiebreak":"","op":"SET","baseline":0}`),
		"long tiebreak":   reg(`{"counter":1,"tiebreak":"` + strings.Repeat("x", 65) + `","op":"SET","baseline":0}`),
		"long key":        head + `{"` + strings.Repeat("k", 257) + `":{"counter":1,"tiebreak":"d0","op":"SET","baseline":0}}}`,
		"bad v1 members":  `{"v":2,"client_id":"d0","contexts":{},"overrides":{}}`,
		"not json":        `{"v":1,`,
		"trailing object": reg(`{"counter":1,"tiebreak":"d0","op":"SET","baseline":0}{}`),
	} {
		if _, err := ParseA([]byte(in)); err == nil {
			t.Errorf("%s: parsed %s", name, in)
		}
	}
	for _, in := range []string{head + `null}`, head + `{}}`, `{"v":1,"client_id":"d0","contexts":{}}`} {
		if b, err := ParseA([]byte(in)); err != nil || len(b.Overrides) != 0 {
			t.Errorf("%s: %v %v", in, b, err)
		}
	}
}

func FuzzParseA(f *testing.F) {
	f.Add([]byte(`{"v":1,"client_id":"d0","contexts":{"c0":10},"overrides":{"c0":{"counter":1,"tiebreak":"d0","op":"SET","baseline":10}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ParseA(data)
		if err != nil {
			return
		}
		again, err := ParseA(EncodeA(b))
		if err != nil || string(EncodeA(again)) != string(EncodeA(b)) {
			t.Fatalf("a parsed blob does not round-trip: %v", err)
		}
	})
}

// TestParseAContextIDBounds: an overrides key is a context id of 1 to
// MaxKeyBytes bytes; the empty id and one byte over are refused (the
// whole blob with them), both ends of the range are read.
func TestParseAContextIDBounds(t *testing.T) {
	body := `{"counter":1,"tiebreak":"d0","op":"SET","baseline":0}`
	for _, tc := range []struct {
		name string
		key  string
		ok   bool
	}{
		{"empty", "", false},
		{"empty beside a valid key", "", false},
		{"one byte", "c", true},
		{"at the limit", strings.Repeat("k", model.MaxKeyBytes), true},
		{"one over the limit", strings.Repeat("k", model.MaxKeyBytes+1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := `{"v":1,"client_id":"d0","contexts":{},"overrides":{"` + tc.key + `":` + body + `}}`
			if strings.Contains(tc.name, "beside") {
				in = `{"v":1,"client_id":"d0","contexts":{},"overrides":{"c0":` + body + `,"` + tc.key + `":` + body + `}}`
			}
			b, err := ParseA([]byte(in))
			if !tc.ok {
				if err == nil || len(b.Overrides) != 0 {
					t.Fatalf("key of %d bytes: parsed %d overrides (err %v), want the blob refused", len(tc.key), len(b.Overrides), err)
				}
				return
			}
			if err != nil || len(b.Overrides) != 1 || b.Overrides[0].Ctx != tc.key {
				t.Fatalf("key of %d bytes: %v %v, want it read", len(tc.key), b.Overrides, err)
			}
		})
	}
}
