package itf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strconv"
)

// safeInt bounds the integers written as JSON numbers: beyond it a reader
// that holds numbers as doubles would lose digits, so they are written as
// {"#bigint": "..."}.
var safeInt = big.NewInt(1<<53 - 1)

// Meta is a trace's "#meta" object.
type Meta struct {
	// Format is "ITF"; Source names what produced the trace; Description
	// says what it is.
	Format, Source, Description string
	// Extra holds the other members (a producer's own: here the seed, the
	// universe, the rules).
	Extra Record
}

// State is one state: its index and a value per variable.
type State struct {
	Index  int
	Values Record
}

// Trace is an ITF trace.
type Trace struct {
	Meta   Meta
	Params []string
	Vars   []string
	States []State
	// Loop, when set, is the index of the state a lasso trace returns to.
	Loop *int
}

// Write writes the trace as one JSON document (indented, one member per
// line down to the states, each state on one line) and a newline.
func Write(w io.Writer, t *Trace) error {
	b, err := Encode(t)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Encode is the trace's document, checked as Read would check it.
func Encode(t *Trace) ([]byte, error) {
	if err := t.check(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	meta := Record{}
	for k, v := range t.Meta.Extra {
		meta[k] = v
	}
	meta["format"] = Str("ITF")
	if t.Meta.Source != "" {
		meta["source"] = Str(t.Meta.Source)
	}
	if t.Meta.Description != "" {
		meta["description"] = Str(t.Meta.Description)
	}
	mb, err := encodeValue(meta)
	if err != nil {
		return nil, fmt.Errorf("#meta: %w", err)
	}
	b.WriteString("{\n  \"#meta\": ")
	b.Write(mb)
	if t.Params != nil {
		b.WriteString(",\n  \"params\": ")
		b.Write(stringArray(t.Params))
	}
	b.WriteString(",\n  \"vars\": ")
	b.Write(stringArray(t.Vars))
	if t.Loop != nil {
		fmt.Fprintf(&b, ",\n  \"loop\": %d", *t.Loop)
	}
	b.WriteString(",\n  \"states\": [")
	for i, s := range t.States {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "\n    {\"#meta\": {\"index\": %d}", s.Index)
		for _, v := range t.Vars {
			vb, err := encodeValue(s.Values[v])
			if err != nil {
				return nil, fmt.Errorf("state %d, var %q: %w", i, v, err)
			}
			b.WriteString(", ")
			b.Write(quote(v))
			b.WriteString(": ")
			b.Write(vb)
		}
		b.WriteByte('}')
	}
	b.WriteString("\n  ]\n}\n")
	return b.Bytes(), nil
}

// check is what Read requires of a trace, for the writer.
func (t *Trace) check() error {
	if t.Meta.Format != "" && t.Meta.Format != "ITF" {
		return fmt.Errorf("#meta format %q (want ITF)", t.Meta.Format)
	}
	for _, k := range []string{"format", "source", "description"} {
		if _, ok := t.Meta.Extra[k]; ok {
			return fmt.Errorf("#meta: %q is a field of Meta, not an extra member", k)
		}
	}
	if err := distinct("vars", t.Vars); err != nil {
		return err
	}
	if err := distinct("params", t.Params); err != nil {
		return err
	}
	if t.Loop != nil && (*t.Loop < 0 || *t.Loop >= len(t.States)) {
		return fmt.Errorf("loop %d is not a state index (%d states)", *t.Loop, len(t.States))
	}
	for i, s := range t.States {
		if s.Index != i {
			return fmt.Errorf("state %d has index %d", i, s.Index)
		}
		for _, v := range t.Vars {
			if _, ok := s.Values[v]; !ok {
				return fmt.Errorf("state %d has no value of var %q", i, v)
			}
		}
		if len(s.Values) != len(t.Vars) {
			return fmt.Errorf("state %d has %d values for %d vars", i, len(s.Values), len(t.Vars))
		}
	}
	return nil
}

func distinct(what string, names []string) error {
	seen := map[string]bool{}
	for _, n := range names {
		if n == "" || n[0] == '#' {
			return fmt.Errorf("%s: name %q is empty or starts with #", what, n)
		}
		if seen[n] {
			return fmt.Errorf("%s: %q is named twice", what, n)
		}
		seen[n] = true
	}
	return nil
}

func quote(s string) []byte {
	b, _ := json.Marshal(s) // a string always marshals
	return b
}

func stringArray(ss []string) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, s := range ss {
		if i > 0 {
			b.WriteString(", ")
		}
		b.Write(quote(s))
	}
	b.WriteByte(']')
	return b.Bytes()
}

// encodeValue is a value's compact encoding.
func encodeValue(v Value) ([]byte, error) {
	var b bytes.Buffer
	if err := appendValue(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func appendValue(b *bytes.Buffer, v Value) error {
	switch x := v.(type) {
	case Int:
		n := x.Big()
		if n.CmpAbs(safeInt) <= 0 {
			b.WriteString(n.String())
		} else {
			b.WriteString(`{"#bigint":"` + n.String() + `"}`)
		}
	case Str:
		b.Write(quote(string(x)))
	case Bool:
		b.WriteString(strconv.FormatBool(bool(x)))
	case List:
		return appendArray(b, x)
	case Tup:
		b.WriteString(`{"#tup":`)
		if err := appendArray(b, x); err != nil {
			return err
		}
		b.WriteByte('}')
	case Set:
		// Elements in the order of their encoding, so a set written twice
		// is the same bytes whatever order it was built in.
		enc := make([][]byte, len(x))
		for i, e := range x {
			eb, err := encodeValue(e)
			if err != nil {
				return err
			}
			enc[i] = eb
		}
		slices.SortFunc(enc, bytes.Compare)
		enc = slices.CompactFunc(enc, bytes.Equal)
		b.WriteString(`{"#set":[`)
		b.Write(bytes.Join(enc, []byte(",")))
		b.WriteString(`]}`)
	case Map:
		b.WriteString(`{"#map":[`)
		for i, p := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := appendArray(b, []Value{p.K, p.V}); err != nil {
				return err
			}
		}
		b.WriteString(`]}`)
	case Record:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if len(k) > 0 && k[0] == '#' {
				return fmt.Errorf("record member %q starts with # (reserved for tags)", k)
			}
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(quote(k))
			b.WriteByte(':')
			if err := appendValue(b, x[k]); err != nil {
				return fmt.Errorf("member %q: %w", k, err)
			}
		}
		b.WriteByte('}')
	case Unserializable:
		b.WriteString(`{"#unserializable":`)
		b.Write(quote(string(x)))
		b.WriteByte('}')
	default:
		return fmt.Errorf("not an ITF value: %T", v)
	}
	return nil
}

func appendArray(b *bytes.Buffer, vs []Value) error {
	b.WriteByte('[')
	for i, e := range vs {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := appendValue(b, e); err != nil {
			return err
		}
	}
	b.WriteByte(']')
	return nil
}

// EncodeValue is one value's compact encoding, as a trace writes it.
func EncodeValue(v Value) ([]byte, error) { return encodeValue(v) }
