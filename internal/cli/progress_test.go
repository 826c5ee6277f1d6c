package cli

import (
	"testing"
	"time"
)

func TestRoughly(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{3 * time.Second, "a few seconds"},
		{42 * time.Second, "about 40 s"},
		{5 * time.Minute, "about 5 min"},
		{3 * time.Hour, "about 3.0 h"},
	} {
		if got := Roughly(c.d); got != c.want {
			t.Errorf("Roughly(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}
