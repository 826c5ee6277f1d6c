package probeshare

import (
	"errors"
	"testing"
)

// named is a test under another name, standing for another top-level
// test of the package.
type named struct {
	testing.TB
	name string
}

func (n named) Name() string { return n.name }

// TestSharedOncePerTest: two top-level tests reading one key run it once
// (a subtest reads as its top-level test); the same test reading it again
// (as under -count) runs it afresh; keys and errors stay apart.
func TestSharedOncePerTest(t *testing.T) {
	var c Cache[int]
	runs := 0
	run := func() (int, error) { runs++; return runs, nil }
	get := func(name, key string) int {
		v, err := c.Get(named{t, name}, key, run)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		test, key string
		want      int
	}{
		{"TestA", "k", 1},
		{"TestB/sub", "k", 1},
		{"TestA/sub", "k", 2}, // TestA read k before: a fresh run
		{"TestC", "k", 2},
		{"TestC", "j", 3},
	} {
		if got := get(tc.test, tc.key); got != tc.want {
			t.Errorf("%s reading %s got run %d, want %d", tc.test, tc.key, got, tc.want)
		}
	}
	var e Cache[int]
	boom := errors.New("boom")
	if _, err := e.Get(t, "k", func() (int, error) { return 0, boom }); !errors.Is(err, boom) {
		t.Errorf("error %v, want boom", err)
	}
}
