package cli

import (
	"testing"

	"github.com/nip-rs/harness/model"
)

// TiesName names what ParseTies read, so a run's header repeats the -tie
// that reproduces it.
func TestTiesNameInvertsParseTies(t *testing.T) {
	for _, s := range []string{"both", "clear", "set"} {
		tl, err := ParseTies(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := TiesName(tl); got != s {
			t.Errorf("TiesName(ParseTies(%q)) = %q", s, got)
		}
	}
	if _, err := ParseTies("sometimes"); err == nil {
		t.Error("ParseTies took an unknown policy")
	}
	if got := TiesName([]model.TiePolicy{model.SetWins}); got != "set" {
		t.Errorf("TiesName(set-wins) = %q", got)
	}
}

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
