package itf

import (
	"fmt"
	"math/big"
)

// Value is one ITF value: Int, Str, Bool, List, Set, Tup, Map, Record or
// Unserializable.
type Value interface {
	// kind names the value's form in errors and comparisons.
	kind() string
}

// Int is an unbounded integer.
type Int struct{ v *big.Int }

// NewInt is the integer n.
func NewInt(n int64) Int { return Int{big.NewInt(n)} }

// BigInt is the integer n (copied).
func BigInt(n *big.Int) Int { return Int{new(big.Int).Set(n)} }

// Big is the integer as a new big.Int.
func (i Int) Big() *big.Int {
	if i.v == nil {
		return new(big.Int)
	}
	return new(big.Int).Set(i.v)
}

// Int64 is the integer when it fits in an int64.
func (i Int) Int64() (int64, bool) {
	b := i.Big()
	return b.Int64(), b.IsInt64()
}

func (i Int) String() string { return i.Big().String() }

// Str is a string.
type Str string

// Bool is a boolean.
type Bool bool

// List is a sequence (a JSON array).
type List []Value

// Set is a set; the writer orders its elements by their encoding.
type Set []Value

// Tup is a tuple.
type Tup []Value

// Pair is one key and value of a Map.
type Pair struct{ K, V Value }

// Map is a function as a list of pairs, written in the order given.
type Map []Pair

// Record is a record: named fields.
type Record map[string]Value

// Unserializable is a value the producing tool could not express, kept as
// its text.
type Unserializable string

func (Int) kind() string            { return "integer" }
func (Str) kind() string            { return "string" }
func (Bool) kind() string           { return "boolean" }
func (List) kind() string           { return "sequence" }
func (Set) kind() string            { return "set" }
func (Tup) kind() string            { return "tuple" }
func (Map) kind() string            { return "map" }
func (Record) kind() string         { return "record" }
func (Unserializable) kind() string { return "unserializable" }

// Equal reports whether two values are the same ITF value: sets compare
// as sets, everything else member by member in order.
func Equal(a, b Value) bool {
	ea, err1 := encodeValue(a)
	eb, err2 := encodeValue(b)
	return err1 == nil && err2 == nil && string(ea) == string(eb)
}

// Field is member name of record v, with an error naming what is missing.
func Field(v Value, name string) (Value, error) {
	r, ok := v.(Record)
	if !ok {
		return nil, fmt.Errorf("want a record with %q, got a %s", name, kindOf(v))
	}
	f, ok := r[name]
	if !ok {
		return nil, fmt.Errorf("record has no member %q", name)
	}
	return f, nil
}

func kindOf(v Value) string {
	if v == nil {
		return "nothing"
	}
	return v.kind()
}
