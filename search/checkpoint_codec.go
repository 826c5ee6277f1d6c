package search

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Enc appends values to a byte slice in the checkpoint's encoding:
// unsigned varints, zigzag varints and length-prefixed strings. A World
// encodes its tables with it (Tables) and decodes them with Dec.
type Enc struct{ B []byte }

// Uvarint appends x.
func (e *Enc) Uvarint(x uint64) { e.B = binary.AppendUvarint(e.B, x) }

// Varint appends x, zigzag encoded.
func (e *Enc) Varint(x int64) { e.B = binary.AppendVarint(e.B, x) }

// Int32 appends an id or any other int32.
func (e *Enc) Int32(x int32) { e.Varint(int64(x)) }

// Byte appends one byte.
func (e *Enc) Byte(b byte) { e.B = append(e.B, b) }

// Bool appends b as one byte.
func (e *Enc) Bool(b bool) {
	if b {
		e.Byte(1)
	} else {
		e.Byte(0)
	}
}

// String appends s with its length.
func (e *Enc) String(s string) {
	e.Uvarint(uint64(len(s)))
	e.B = append(e.B, s...)
}

// Dec reads what Enc wrote, from data that may be hostile: every read is
// bounded by what is left, and the first failure sticks (later reads
// return zero values), so a decoder checks Err once at the end and never
// panics or allocates more than the input could hold.
type Dec struct {
	all, b []byte
	err    error
}

// NewDec decodes b.
func NewDec(b []byte) *Dec { return &Dec{all: b, b: b} }

// Pos is the number of bytes read so far.
func (d *Dec) Pos() int { return len(d.all) - len(d.b) }

// Since is the bytes read from position pos (an earlier Pos) to now.
func (d *Dec) Since(pos int) []byte { return d.all[pos:d.Pos()] }

// errShort is what a decoder reports when its input ends early or holds an
// impossible value.
var errShort = errors.New("truncated or malformed record")

// Fail records err unless an earlier error is recorded.
func (d *Dec) Fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

// Err is the first failure, or nil.
func (d *Dec) Err() error { return d.err }

// Left is the number of bytes not yet read.
func (d *Dec) Left() int { return len(d.b) }

// Uvarint reads an unsigned varint.
func (d *Dec) Uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	x, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.Fail(errShort)
		return 0
	}
	d.b = d.b[n:]
	return x
}

// Varint reads a zigzag varint.
func (d *Dec) Varint() int64 {
	if d.err != nil {
		return 0
	}
	x, n := binary.Varint(d.b)
	if n <= 0 {
		d.Fail(errShort)
		return 0
	}
	d.b = d.b[n:]
	return x
}

// Int32 reads an int32.
func (d *Dec) Int32() int32 {
	x := d.Varint()
	if x < math.MinInt32 || x > math.MaxInt32 {
		d.Fail(errShort)
		return 0
	}
	return int32(x)
}

// Uint32 reads a uint32 written as an unsigned varint.
func (d *Dec) Uint32() uint32 {
	x := d.Uvarint()
	if x > math.MaxUint32 {
		d.Fail(errShort)
		return 0
	}
	return uint32(x)
}

// Int reads a non-negative int of at most limit.
func (d *Dec) Int(limit int) int {
	x := d.Uvarint()
	if limit < 0 || x > uint64(limit) {
		d.Fail(fmt.Errorf("value %d out of range (at most %d)", x, limit))
		return 0
	}
	return int(x)
}

// Count reads the length of a list whose elements take at least minBytes
// each: it cannot exceed what is left, so a list allocated with it is never
// larger than the input.
func (d *Dec) Count(minBytes int) int {
	x := d.Uvarint() // the bound is what is left after the count itself
	if limit := len(d.b) / max(minBytes, 1); x > uint64(limit) {
		d.Fail(fmt.Errorf("a count of %d where at most %d fit", x, limit))
		return 0
	}
	return int(x)
}

// Byte reads one byte.
func (d *Dec) Byte() byte {
	if d.err != nil {
		return 0
	}
	if len(d.b) == 0 {
		d.Fail(errShort)
		return 0
	}
	b := d.b[0]
	d.b = d.b[1:]
	return b
}

// Bool reads a byte written by Enc.Bool.
func (d *Dec) Bool() bool {
	switch d.Byte() {
	case 0:
		return false
	case 1:
		return true
	}
	d.Fail(errShort)
	return false
}

// String reads a length-prefixed string.
func (d *Dec) String() string {
	n := d.Count(1)
	if d.err != nil {
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}
