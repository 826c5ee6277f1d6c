package model

import (
	"errors"
	"math"
	"strconv"
)

// ByValueIntegersName names the rule set of ByValueIntegers in the
// catalogue.
const ByValueIntegersName = "by-value-integers"

// ByValueIntegers returns the production rules with one decision changed:
// a number literal is read by its value, as the production TypeScript
// client reads it (JSON.parse to a double, then Number.isInteger and the
// uint32 range), instead of by its form. 1.0, -0, 1e3 and 10.0 are then
// values; 1.5, -1 and 4294967296 still are not. It is the alternative
// reading of "integer" in Content Validation that NOTE.md, "Integer
// literals", weighs; a spec author can run the gate with it
// (cmd/explore -rules by-value-integers).
func ByValueIntegers() *Rules {
	r := Proposed()
	r.Name = ByValueIntegersName
	r.SanitizeValue = sanitizeValueByValue
	return r
}

// sanitizeValueByValue accepts a JSON number literal whose value, read as
// an IEEE 754 double, is an integer in 0..MaxU32. Anything that is not a
// JSON number literal (007, +1, .5, 0x10, Infinity) is refused: the reading
// differs from sanitizeValue in what a number means, never in what a
// number is.
func sanitizeValueByValue(lit string) (uint32, bool) {
	if !isJSONNumber(lit) {
		return 0, false
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil && (!errors.Is(err, strconv.ErrRange) || math.IsInf(f, 0)) {
		return 0, false // beyond every double: JSON.parse gives Infinity
	}
	if f != math.Trunc(f) || f < 0 || f > MaxU32 {
		return 0, false
	}
	return uint32(f), true // -0 is 0
}

// isJSONNumber reports whether lit is a number literal of RFC 8259's
// grammar: an optional minus, an integer part without leading zeros, an
// optional fraction and an optional exponent.
func isJSONNumber(lit string) bool {
	i := 0
	digits := func() int {
		start := i
		for i < len(lit) && lit[i] >= '0' && lit[i] <= '9' {
			i++
		}
		return i - start
	}
	if i < len(lit) && lit[i] == '-' {
		i++
	}
	switch {
	case i < len(lit) && lit[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(lit) && lit[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(lit) && (lit[i] == 'e' || lit[i] == 'E') {
		i++
		if i < len(lit) && (lit[i] == '+' || lit[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(lit)
}
