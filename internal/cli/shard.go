package cli

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard is one part of a run split across machines: part Index of Count,
// counted from 1 (-shard 1/3, 2/3, 3/3), as a CI job matrix numbers its
// jobs. The zero Shard is the whole run.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// MaxShards bounds -shard's count: more parts than any run has items is
// a mistake, not a plan.
const MaxShards = 1000

// ParseShard reads a -shard flag: "" is the whole run, "i/n" part i of n
// with 1 <= i <= n <= MaxShards.
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	switch {
	case !ok || err1 != nil || err2 != nil:
		return Shard{}, fmt.Errorf("-shard %q: want i/n, part i of n counted from 1 (1/3, 2/3, 3/3)", s)
	case n < 1 || n > MaxShards:
		return Shard{}, fmt.Errorf("-shard %q: the count must be 1..%d", s, MaxShards)
	case i < 1 || i > n:
		return Shard{}, fmt.Errorf("-shard %q: the part must be 1..%d (parts are counted from 1)", s, n)
	}
	return Shard{Index: i, Count: n}, nil
}

// Whole reports whether s is the whole run.
func (s Shard) Whole() bool { return s.Count == 0 }

// String is "i/n", or "" for the whole run.
func (s Shard) String() string {
	if s.Whole() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Owns reports whether item k (counted from 0) of a run's fixed item list
// is this shard's: items are dealt round-robin, k mod n to part
// (k mod n)+1, so a part's items depend on nothing but k and n (not on the
// machine, the worker count or the other parts).
func (s Shard) Owns(k int) bool { return s.Whole() || k%s.Count == s.Index-1 }

// Range is the contiguous block [from, to) of n items (counted from 0)
// this shard owns: the items are cut into Count blocks whose sizes differ
// by at most one, in order.
func (s Shard) Range(n int) (from, to int) {
	if s.Whole() {
		return 0, n
	}
	return n * (s.Index - 1) / s.Count, n * s.Index / s.Count
}
