package model

import (
	"errors"
	"testing"
)

// TestSanitizeValueReadings: the literal reading (Spec) and the by-value
// reading (ByValueIntegers) agree on every plain integer and on every
// value outside 0..MaxU32 or with a fraction, and differ exactly on the
// integer values written with a fraction, an exponent or a sign.
func TestSanitizeValueReadings(t *testing.T) {
	tests := []struct {
		lit     string
		literal bool // accepted by sanitizeValue
		byValue bool // accepted by sanitizeValueByValue
		value   uint32
	}{
		{"0", true, true, 0},
		{"7", true, true, 7},
		{"4294967295", true, true, MaxU32},
		{"4294967296", false, false, 0},
		{"1.0", false, true, 1},
		{"10.0", false, true, 10},
		{"-0", false, true, 0},
		{"-0.0", false, true, 0},
		{"1e3", false, true, 1000},
		{"1E+3", false, true, 1000},
		{"0.1e1", false, true, 1},
		{"4294967295.0", false, true, MaxU32},
		{"4.294967295e9", false, true, MaxU32},
		{"4.294967296e9", false, false, 0},
		{"1e-400", false, true, 0},                  // a double underflows to 0, an integer
		{"4294967295.0000001", false, true, MaxU32}, // rounds to MaxU32 as a double
		{"1e400", false, false, 0},                  // beyond every double
		{"1.5", false, false, 0},
		{"-1", false, false, 0},
		{"-1.0", false, false, 0},
		{"1e-1", false, false, 0},
		{"007", false, false, 0},
		{"+1", false, false, 0},
		{"0x10", false, false, 0},
		{"", false, false, 0},
	}
	for _, tc := range tests {
		v, ok := sanitizeValue(tc.lit)
		if ok != tc.literal || ok && v != tc.value {
			t.Errorf("sanitizeValue(%q) = %d, %t; want %d, %t", tc.lit, v, ok, tc.value, tc.literal)
		}
		v, ok = sanitizeValueByValue(tc.lit)
		if ok != tc.byValue || ok && v != tc.value {
			t.Errorf("sanitizeValueByValue(%q) = %d, %t; want %d, %t", tc.lit, v, ok, tc.value, tc.byValue)
		}
	}
}

// TestParseBlobWithByValue: the by-value reading reaches the codec through
// ParseBlobWith, per entry and per override group: an override group with
// 10.0 as its baseline is rejected whole under the literal reading (the
// frontier entry stays) and accepted under the by-value one.
func TestParseBlobWithByValue(t *testing.T) {
	in := []byte(blobWith(`"chan":10,"ov_s:chan":2,"ov_c:chan":1,"ov_b:chan":10.0,"x":1e3,"y":-0`))
	tests := []struct {
		rules *Rules
		kept  int
		reg   Reg
		x     bool
	}{
		{Proposed(), 1, Reg{}, false},
		{ByValueIntegers(), 6, Reg{S: 2, C: 1, B: 10}, true},
	}
	for _, tc := range tests {
		b, rep, err := ParseBlobWith(tc.rules, in)
		if err != nil {
			t.Fatalf("%s: %v", tc.rules.Name, err)
		}
		if len(b.Contexts) != tc.kept {
			t.Errorf("%s: kept %v, dropped %v; want %d kept", tc.rules.Name, b.Contexts, rep.Drops, tc.kept)
		}
		if v, ok := b.Value("chan"); !ok || v != 10 {
			t.Errorf("%s: the frontier entry is lost: %v", tc.rules.Name, b.Contexts)
		}
		if x, ok := b.Value("x"); ok != tc.x || ok && x != 1000 {
			t.Errorf("%s: x = %d, %t", tc.rules.Name, x, ok)
		}
		st := MergeBlobs(tc.rules, b)
		if st.Regs["chan"] != tc.reg {
			t.Errorf("%s: register %v, want %v", tc.rules.Name, st.Regs["chan"], tc.reg)
		}
	}
	if _, _, err := ParseBlobWith(ByValueIntegers(), []byte(`{"v":1.0,"client_id":"c","contexts":{}}`)); !errors.Is(err, ErrInvalidBlob) {
		t.Errorf("v is read by the blob rule, not the value reading: %v", err)
	}
}
