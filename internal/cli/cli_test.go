package cli

import "testing"

// Unmeant names the first flag given that the mode does not take, in the
// order given, and nothing when every one is taken.
func TestUnmeant(t *testing.T) {
	for _, c := range []struct {
		set, takes []string
		want       string
	}{
		{nil, []string{"a"}, ""},
		{[]string{"a", "b"}, []string{"b", "a"}, ""},
		{[]string{"a", "c", "d"}, []string{"a"}, "c"},
		{[]string{"x"}, nil, "x"},
	} {
		if got := Unmeant(c.set, c.takes...); got != c.want {
			t.Errorf("Unmeant(%q, %q) = %q, want %q", c.set, c.takes, got, c.want)
		}
	}
}
