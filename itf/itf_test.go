package itf

import (
	"bytes"
	"errors"
	"math/big"
	"strings"
	"testing"
)

func sample() *Trace {
	huge, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	loop := 1
	return &Trace{
		Meta: Meta{Source: "test", Description: "two states", Extra: Record{"seed": NewInt(7), "universe": Str("network")}},
		Vars: []string{"x", "m"},
		Loop: &loop,
		States: []State{
			{Index: 0, Values: Record{"x": NewInt(0), "m": Map{}}},
			{Index: 1, Values: Record{
				"x": BigInt(huge),
				"m": Map{{Tup{NewInt(0), NewInt(1)}, List{Record{"ok": Bool(true), "s": Set{Str("b"), Str("a")}}}}},
			}},
		},
	}
}

func TestRoundTrip(t *testing.T) {
	tr := sample()
	b, err := Encode(tr)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(b)
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if got.Meta.Format != "ITF" || got.Meta.Source != "test" || got.Meta.Description != "two states" || *got.Loop != 1 {
		t.Fatalf("meta/loop lost: %+v", got.Meta)
	}
	if !Equal(got.Meta.Extra, tr.Meta.Extra) {
		t.Fatalf("extra meta: %v", got.Meta.Extra)
	}
	for i := range tr.States {
		for _, v := range tr.Vars {
			if !Equal(got.States[i].Values[v], tr.States[i].Values[v]) {
				t.Fatalf("state %d var %s differs", i, v)
			}
		}
	}
	b2, err := Encode(got)
	if err != nil || !bytes.Equal(b, b2) {
		t.Fatalf("second encoding differs:\n%s\n%s", b, b2)
	}
	// The big integer is tagged, the small ones are numbers, the set is in
	// encoding order.
	for _, want := range []string{`{"#bigint":"123456789012345678901234567890"}`, `"x": 0`, `{"#set":["a","b"]}`, `{"#tup":[0,1]}`, `"#meta": {"index": 1}`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("encoding lacks %s:\n%s", want, b)
		}
	}
}

func TestBigintBoundary(t *testing.T) {
	for _, c := range []struct {
		n      int64
		tagged bool
	}{{1<<53 - 1, false}, {1 << 53, true}, {-(1<<53 - 1), false}, {-(1 << 53), true}} {
		b, err := encodeValue(NewInt(c.n))
		if err != nil {
			t.Fatal(err)
		}
		if got := bytes.HasPrefix(b, []byte(`{"#bigint"`)); got != c.tagged {
			t.Errorf("%d encoded as %s", c.n, b)
		}
	}
}

func TestSetEqualityIgnoresOrder(t *testing.T) {
	if !Equal(Set{NewInt(1), NewInt(2)}, Set{NewInt(2), NewInt(1)}) {
		t.Fatal("sets in another order differ")
	}
	if Equal(List{NewInt(1), NewInt(2)}, List{NewInt(2), NewInt(1)}) {
		t.Fatal("sequences in another order are equal")
	}
	if Equal(NewInt(1), Str("1")) {
		t.Fatal("an integer equals a string")
	}
}

func TestMalformed(t *testing.T) {
	valid := `{"#meta":{"format":"ITF"},"vars":["x"],"states":[{"#meta":{"index":0},"x":1}]}`
	if _, err := Decode([]byte(valid)); err != nil {
		t.Fatalf("valid trace refused: %v", err)
	}
	for _, c := range []struct{ doc, want string }{
		{``, "not a JSON object"},
		{`[]`, "not a JSON object"},
		{`null`, "null"},
		{valid + `{}`, "data after"},
		{`{"vars":["x"],"states":[]}`, "no #meta"},
		{`{"#meta":{"format":"TLA"},"vars":[],"states":[]}`, "want \"ITF\""},
		{`{"#meta":{"format":"ITF"},"states":[]}`, "no vars"},
		{`{"#meta":{"format":"ITF"},"vars":[1],"states":[]}`, "vars is not an array"},
		{`{"#meta":{"format":"ITF"},"vars":["x","x"],"states":[]}`, "named twice"},
		{`{"#meta":{"format":"ITF"},"vars":["x"]}`, "no states"},
		{`{"#meta":{"format":"ITF"},"vars":["x"],"states":[{"x":1}]}`, "state 0 has no #meta"},
		{`{"#meta":{"format":"ITF"},"vars":["x"],"states":[{"#meta":{"index":3},"x":1}]}`, "state 0 has index 3"},
		{`{"#meta":{"format":"ITF"},"vars":["x"],"states":[{"#meta":{"index":0}}]}`, "no value of var \"x\""},
		{`{"#meta":{"format":"ITF"},"vars":["x"],"states":[{"#meta":{"index":0},"x":1,"y":2}]}`, "2 values for 1 vars"},
		{`{"#meta":{"format":"ITF"},"vars":["x"],"states":[{"#meta":{"index":0},"x":1.5}]}`, "not an integer"},
		{`{"#meta":{"format":"ITF"},"vars":["x"],"states":[{"#meta":{"index":0},"x":null}]}`, "null is not"},
		{`{"#meta":{"format":"ITF"},"vars":["x"],"states":[{"#meta":{"index":0},"x":{"#bigint":"12a"}}]}`, "not an integer"},
		{`{"#meta":{"format":"ITF"},"vars":["x"],"states":[{"#meta":{"index":0},"x":{"#bigint":5}}]}`, "string of digits"},
		{`{"#meta":{"format":"ITF"},"vars":["x"],"states":[{"#meta":{"index":0},"x":{"#set":{}}}]}`, "want an array"},
		{`{"#meta":{"format":"ITF"},"vars":["x"],"states":[{"#meta":{"index":0},"x":{"#map":[[1]]}}]}`, "[key, value] pair"},
		{`{"#meta":{"format":"ITF"},"vars":["x"],"states":[{"#meta":{"index":0},"x":{"#tup":[],"y":1}}]}`, "other members"},
		{`{"#meta":{"format":"ITF"},"vars":["x"],"states":[{"#meta":{"index":0},"x":{"#frob":[]}}]}`, "unknown tag"},
		{`{"#meta":{"format":"ITF"},"vars":["x"],"loop":4,"states":[{"#meta":{"index":0},"x":1}]}`, "loop 4"},
		{`{"#meta":{"format":"ITF"},"vars":["x"],"extra":1,"states":[]}`, "unknown top-level"},
	} {
		_, err := Decode([]byte(c.doc))
		if err == nil {
			t.Errorf("accepted %s", c.doc)
			continue
		}
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q, want one containing %q", c.doc, err, c.want)
		}
	}
}

func TestReadRefusesOversize(t *testing.T) {
	big := strings.NewReader(`{"#meta":{"format":"ITF","pad":"` + strings.Repeat("x", MaxBytes) + `"},"vars":[],"states":[]}`)
	if _, err := Read(big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("oversize trace: %v", err)
	}
}

func TestWriteRefusesBadTrace(t *testing.T) {
	tr := sample()
	tr.States[1].Index = 5
	if _, err := Encode(tr); err == nil {
		t.Fatal("wrote a state with the wrong index")
	}
	tr = sample()
	tr.States[0].Values["x"] = Record{"#x": NewInt(1)}
	if _, err := Encode(tr); err == nil {
		t.Fatal("wrote a record member that looks like a tag")
	}
}

// FuzzDecode: any input is refused with ErrMalformed or read into a trace
// that encodes and reads back to the same values.
func FuzzDecode(f *testing.F) {
	b, err := Encode(sample())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{"#meta":{"format":"ITF"},"vars":["x"],"states":[{"#meta":{"index":0},"x":{"#set":[1,1]}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := Decode(data)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error without ErrMalformed: %v", err)
			}
			return
		}
		enc, err := Encode(tr)
		if err != nil {
			t.Fatalf("a trace read cannot be written: %v", err)
		}
		back, err := Decode(enc)
		if err != nil {
			t.Fatalf("a written trace cannot be read: %v\n%s", err, enc)
		}
		if len(back.States) != len(tr.States) {
			t.Fatal("states lost")
		}
		for i := range tr.States {
			for _, v := range tr.Vars {
				if !Equal(back.States[i].Values[v], tr.States[i].Values[v]) {
					t.Fatalf("state %d var %s changed in the round trip", i, v)
				}
			}
		}
	})
}
