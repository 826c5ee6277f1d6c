package num

import (
	"strconv"
	"strings"
)

// Commas formats n with thousands separators, as the reports and the
// golden figures write counts: the one formatter of every figure.
func Commas[T ~int | ~int64](n T) string {
	s := strconv.FormatInt(int64(n), 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
