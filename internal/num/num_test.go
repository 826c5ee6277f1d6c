package num

import "testing"

func TestCommas(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {45074, "45,074"}, {262144, "262,144"}, {-1234567, "-1,234,567"}} {
		if got := Commas(tc.n); got != tc.want {
			t.Errorf("Commas(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
